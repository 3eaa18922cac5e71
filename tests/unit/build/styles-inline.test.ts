// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { stylesInline } from '../../../src/build/styles-inline.ts';
import { hook } from './helpers.ts';

describe('stylesInline (src/build/styles-inline.ts)', () => {
  it("puts the start chunk's stylesheet in index.html and takes it out of the build; other chunks' stay", () => {
    const plugin = stylesInline();
    const bundle: Record<string, unknown> = {
      'assets/shell-1.js': {
        type: 'chunk',
        name: 'shell',
        viteMetadata: { importedCss: new Set(['assets/shell-1.css']) },
      },
      'assets/shell-1.css': { type: 'asset', source: 'body{color:red}/*$vite$:1*/\n' },
      'assets/page-2.js': {
        type: 'chunk',
        name: 'page',
        viteMetadata: { importedCss: new Set(['assets/page-2.css']) },
      },
      'assets/page-2.css': { type: 'asset', source: 'p{}' },
    };
    hook(plugin.generateBundle)({}, bundle);
    expect(Object.keys(bundle)).toEqual(['assets/shell-1.js', 'assets/page-2.js', 'assets/page-2.css']);
    expect([
      ...(bundle['assets/shell-1.js'] as { viteMetadata: { importedCss: Set<string> } }).viteMetadata.importedCss,
    ]).toEqual([]);
    expect(hook(plugin.transformIndexHtml)('<head>\n  </head>')).toBe(
      '<head>\n      <style>body{color:red}</style>\n  </head>',
    );
  });
});
