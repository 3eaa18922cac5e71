import type { Plugin } from 'vite';
import { START_AREAS, STARTUP_CHUNKS } from './chunks.ts';

/**
 * What the service worker installs at once and what it fetches once the first screen is idle
 * (sw/sw.ts), read from the app's bundle: `firstFiles` are the entry, the start chunk and what it
 * loads, the tab pages, login and the startup dialog with every chunk they import; `catalogParts` are
 * the catalog chunks by language and area (messages.po?area=…). precacheGroups() in the worker's
 * manifest uses both.
 */
export const bundleFacts = {
  firstFiles: new Set<string>(),
  catalogParts: new Map<string, { locale: string; area: string }>(),
};

export function bundleFactsOf(): Plugin {
  return {
    name: 'coinvest:bundle-facts',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        bundleFacts.firstFiles.clear();
        bundleFacts.catalogParts.clear();
        const add = (fileName: string) => {
          const file = bundle[fileName];
          if (!file || bundleFacts.firstFiles.has(fileName)) return;
          bundleFacts.firstFiles.add(fileName);
          if (file.type !== 'chunk') return;
          file.imports.forEach(add);
          file.viteMetadata?.importedCss.forEach(add);
          file.viteMetadata?.importedAssets.forEach(add);
        };
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          if (file.isEntry || STARTUP_CHUNKS.test(file.fileName)) add(file.fileName);
          const part = /[\\/]locales[\\/](\w+)[\\/]messages\.po\?area=(\w+)$/.exec(file.facadeModuleId ?? '');
          if (part) bundleFacts.catalogParts.set(file.fileName, { locale: part[1]!, area: part[2]! });
        }
      },
    },
  };
}

/**
 * Tags the worker's manifest: entries without `later` are installed with the worker (index.html,
 * icons, the files a visit starts with and, with `locale`, the start areas' texts in each language,
 * of which the worker installs only the active language's); `later` ones are fetched when the page
 * says the first screen is idle, the active language's first (entries the plugin adds after this
 * transform, the manifest's icons, are installed at once). A first visit then downloads the
 * pages and languages it does not show after its first screen, not before.
 */
export function precacheGroups(entries: { url: string; revision: string | null; size: number }[]) {
  const manifest = entries.map((entry) => {
    const part = bundleFacts.catalogParts.get(entry.url);
    const first = part
      ? part.area === 'shell' || START_AREAS.includes(part.area)
      : !entry.url.startsWith('assets/') || bundleFacts.firstFiles.has(entry.url);
    return { ...entry, ...(first ? {} : { later: true }), ...(part ? { locale: part.locale } : {}) };
  });
  return { manifest, warnings: [] };
}
