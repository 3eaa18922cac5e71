// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { paintBeforeScripts } from '../../../src/build/paint-before-scripts.ts';
import { hook } from './helpers.ts';

describe('paintBeforeScripts (src/build/paint-before-scripts.ts)', () => {
  const emitted: { name: string; source: string }[] = [];
  const context = {
    emitFile: (file: { name: string; source: string }) => String(emitted.push(file)),
    getFileName: () => 'assets/boot-1.js',
  };
  const generate = hook(paintBeforeScripts().generateBundle).bind(context);

  it('starts a low-priority boot script that runs the entry after the first paint; the entry and the preloads are asked at low priority', () => {
    const html = {
      type: 'asset',
      source:
        '<script type="module" crossorigin src="/assets/index-a1.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/shell-b2.js">',
    };
    generate({}, { 'index.html': html });
    expect(html.source).toBe(
      [
        '<script type="module" fetchpriority="low" crossorigin src="/assets/boot-1.js"></script>',
        '    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-a1.js">',
        '    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/shell-b2.js">',
      ].join('\n'),
    );
    expect(emitted[0]!.name).toBe('boot.js');
    expect(emitted[0]!.source).toContain('import("/assets/index-a1.js")');
    expect(emitted[0]!.source).toContain('setTimeout(start,300)');
  });

  it('fails the build when the entry script is not in index.html', () => {
    expect(() => generate({}, { 'index.html': { type: 'asset', source: '<html></html>' } })).toThrow('entry script');
  });
});
