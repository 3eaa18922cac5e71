import type { Plugin } from 'vite';
import { START_CHUNK } from './chunks.ts';

/**
 * Puts the app's stylesheet (the start chunk's, 5–6 KB gzip) inside index.html instead of linking
 * it. A linked stylesheet is one more request before any paint: on a first visit over a slow
 * network a round trip (150 ms on slow 4G) for a file smaller than the first window the document
 * already takes. Inline it comes with the document, so the static shell and then the app paint
 * with no request between. The start chunk stops listing the file before the HTML and the lazy
 * chunks' preload lists are written (so neither links nor fetches it), and the file is left out of
 * the build. Repeat visits lose nothing: the service worker serves index.html from its cache.
 */
export function stylesInline(): Plugin {
  const inlined = new Map<string, string>();
  return {
    name: 'coinvest:styles-inline',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || chunk.name !== START_CHUNK) continue;
          for (const file of chunk.viteMetadata?.importedCss ?? []) {
            const asset = bundle[file];
            // (Less the marker comment the build leaves at its end.)
            if (asset?.type === 'asset')
              inlined.set(file, String(asset.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, ''));
          }
          for (const file of inlined.keys()) {
            chunk.viteMetadata?.importedCss.delete(file);
            delete bundle[file];
          }
        }
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const styles = [...inlined.values()]
          .map((css) => `    <style>${css.replaceAll('</style', '<\\/style')}</style>\n`)
          .join('');
        return html.replace('</head>', `${styles}  </head>`);
      },
    },
  };
}
