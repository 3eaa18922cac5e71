// @vitest-environment node
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { paintBeforeScripts } from '../../../src/build/paint-before-scripts.ts';
import { inlineScript } from '../../../src/build/inline-scripts.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  INLINE_SCRIPTS_FILE,
  currentInlineScriptSources,
  inlineScriptSources,
} from '../../../src/server/build-info.ts';
import { hook, tree } from './helpers.ts';

type Asset = { type: 'asset'; fileName?: string; source: string };

/** A bundle and the plugin context that emits into it, as the bundler does. */
function bundleWith(files: Record<string, Asset>) {
  const bundle: Record<string, Asset> = { ...files };
  const context = {
    emitFile: (file: Asset) => ((bundle[file.fileName!] = { ...file, type: 'asset' }), file.fileName!),
  };
  return { bundle, context };
}

describe('paintBeforeScripts (src/build/paint-before-scripts.ts)', () => {
  it('asks for no script in the document: an inline boot script preloads the start chunks and runs the entry after the first paint', () => {
    const html: Asset = {
      type: 'asset',
      source:
        '<head><script type="module" crossorigin src="/assets/index-a1.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/shell-b2.js"></head>',
    };
    const { bundle, context } = bundleWith({ 'index.html': html });
    hook(paintBeforeScripts().generateBundle).call(context, {}, bundle);
    const page = String(html.source);
    expect(page).not.toContain('src=');
    expect(page).not.toContain('<link');
    const boot = /<script>(.*)<\/script>/.exec(page)![1]!;
    expect(boot).toContain('import("/assets/index-a1.js")');
    expect(boot).toContain('["/assets/shell-b2.js"]');
    // Started by the first paint, or 1 s after the boot script where none is reported; a leading picture holds it
    // back 300 ms after that paint at most.
    expect(boot).toContain("observe({type:'paint',buffered:true});setTimeout(start,1000)");
    expect(boot).toContain('return start();setTimeout(start,300);picture.decode()');
    // Listed for the server's content security policy by its hash.
    const hash = createHash('sha256').update(boot).digest('base64');
    expect(JSON.parse(bundle[INLINE_SCRIPTS_FILE]!.source)).toEqual([`sha256-${hash}`]);
  });

  it('fails the build when the entry script is not in index.html', () => {
    const { bundle, context } = bundleWith({ 'index.html': { type: 'asset', source: '<html></html>' } });
    expect(() => hook(paintBeforeScripts().generateBundle).call(context, {}, bundle)).toThrow('entry script');
  });
});

describe('inline scripts and the content security policy (inlineScript, inlineScriptSources)', () => {
  it('lists every inline script once by its hash, and the server allows exactly those', () => {
    const { bundle, context } = bundleWith({});
    const emit = (file: unknown) => context.emitFile(file as Asset);
    expect(inlineScript(bundle as never, emit, 'one()')).toBe('<script>one()</script>');
    // A script's text cannot end the element early.
    expect(inlineScript(bundle as never, emit, 'two("</script>")')).toBe('<script>two("<\\/script>")</script>');
    const listed = bundle[INLINE_SCRIPTS_FILE]!.source;
    const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
    expect(JSON.parse(listed)).toEqual([sha('one()'), sha('two("<\\/script>")')]);
    const webRoot = tree({ [INLINE_SCRIPTS_FILE]: listed });
    expect(inlineScriptSources(webRoot)).toEqual([`'${sha('one()')}'`, `'${sha('two("<\\/script>")')}'`]);
  });

  it('allows none where there is no build, no list, or a list with anything but hashes in it', () => {
    expect(inlineScriptSources(null)).toEqual([]);
    expect(inlineScriptSources(tree({}))).toEqual([]);
    expect(inlineScriptSources(tree({ [INLINE_SCRIPTS_FILE]: '{' }))).toEqual([]);
    expect(
      inlineScriptSources(tree({ [INLINE_SCRIPTS_FILE]: `["sha256-abc=","'unsafe-inline'","sha256-a b"]` })),
    ).toEqual(["'sha256-abc='"]);
  });

  it('follows a build copied under the running server: its list is read again once it has changed', () => {
    const webRoot = tree({ [INLINE_SCRIPTS_FILE]: '["sha256-first="]' });
    const current = currentInlineScriptSources(webRoot);
    expect(current()).toEqual(["'sha256-first='"]);
    writeFileSync(join(webRoot, INLINE_SCRIPTS_FILE), '["sha256-second=","sha256-third="]');
    expect(current()).toEqual(["'sha256-second='", "'sha256-third='"]);
    expect(currentInlineScriptSources(null)()).toEqual([]);
  });
});
