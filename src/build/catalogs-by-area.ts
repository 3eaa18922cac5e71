import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogForFile, getCatalogs } from '@lingui/cli/api';
import { relative, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { consoleText } from './console-text.ts';
import { readReach } from './reach.ts';

/** The operator console's catalog part (`messages.po?area=console`): read by its own build (consoleBuild). */
export const CONSOLE_AREA = 'console';

/**
 * Splits each language's catalog by what the code reaches (reach.ts readReach), so a page brings only its
 * own texts: `messages.po?area=shell` holds the texts the start chunk shows, those of code only the
 * shell loads lazily (the update dialog, not-found), and a loader of every area's part;
 * `messages.po?area=<feature>` holds the other texts its files reach (a text of src/ui that two
 * areas use is in both parts). An API contract text goes where some code names it; one that only the
 * server answers with is not in the app's catalogs, nor is a text of a module the app never reaches
 * (api-contract/console-texts.ts). The .po files stay one per language.
 */
export function catalogsByArea(): Plugin {
  const config = getConfig({ cwd: process.cwd() });
  const root = config.rootDir ?? process.cwd();
  let reach: ReturnType<typeof readReach> | null = null;
  /** Where a text goes: 'shell', the areas that reach it, or nowhere (none). */
  const placeOf = (origins: string[], messageId: string): 'shell' | string[] => {
    reach ??= readReach(root);
    const { shell, shellAndLazy, areas, textsFile, keyById, usesKey } = reach;
    const files = origins.map((origin) => resolve(root, origin));
    const key = files.includes(textsFile) ? keyById.get(messageId) : undefined;
    const reaches = (set: Set<string>) => (key ? usesKey(set, key) : files.some((file) => set.has(file)));
    if (origins.length === 0 || reaches(shell)) return 'shell';
    // A text written in a module the shell loads itself (not-found, the update dialog: the navigation bar's "Back")
    // shows with only the shell's part loaded. (A text id of the API contract goes where its key is named.)
    if (!key && reaches(shellAndLazy)) return 'shell';
    const found = [...areas].filter(([, set]) => reaches(set)).map(([area]) => area);
    if (found.length) return found;
    if (key) return reaches(shellAndLazy) ? 'shell' : [];
    // A text of a module no code of the app reaches (the console's texts, the server's own): in no part.
    return [];
  };
  /**
   * Each .po file read and each text placed once per build: a language has a part per area (20 and more),
   * and reading the file with its fallbacks and placing its 900 texts took as long as each part again.
   */
  const read = new Map<string, ReturnType<typeof readCatalog>>();
  async function readCatalog(file: string) {
    const found = getCatalogForFile(relative(root, file), await getCatalogs(config));
    if (!found) throw new Error(`${file} is not a catalog of lingui.config.ts`);
    const { catalog, locale } = found;
    const origins = (await catalog.read(locale)) ?? {};
    const { fallbackLocales, sourceLocale = 'en' } = config;
    const { messages } = await catalog.getTranslations(locale, {
      fallbackLocales: fallbackLocales || {},
      sourceLocale,
    });
    let places: Map<string, 'shell' | string[]> | undefined;
    const placesOf = () =>
      (places ??= new Map(
        Object.keys(messages).map((messageId) => [
          messageId,
          placeOf(
            (origins[messageId]?.origin ?? []).map(([origin]) => origin),
            messageId,
          ),
        ]),
      ));
    return { locale, origins, messages, placesOf };
  }
  const forget = () => {
    reach = null;
    read.clear();
  };
  return {
    name: 'coinvest:catalogs-by-area',
    enforce: 'pre',
    buildStart: forget,
    watchChange: forget,
    async load(id) {
      const [file = '', query = ''] = id.split('?');
      const area = new URLSearchParams(query).get('area');
      if (!file.endsWith('.po') || !area) return null;
      this.addWatchFile(file);
      if (!read.has(file)) read.set(file, readCatalog(file));
      const { locale, origins, messages, placesOf } = await read.get(file)!;
      if (area === CONSOLE_AREA) {
        const inConsole = consoleText(origins, root);
        const { source, errors } = createCompiledCatalog(
          locale,
          Object.fromEntries(Object.entries(messages).filter(([id]) => inConsole(id))),
          { namespace: 'es' },
        );
        if (errors.length)
          throw new Error(`${file}: ${errors.map((error) => `${error.id}: ${error.error}`).join('; ')}`);
        return { code: source, moduleType: 'js' };
      }
      const places = placesOf();
      const inArea = (messageId: string) => {
        const place = places.get(messageId)!;
        return area === 'shell' ? place === 'shell' : place !== 'shell' && place.includes(area);
      };
      const part = Object.fromEntries(Object.entries(messages).filter(([messageId]) => inArea(messageId)));
      const { source, errors } = createCompiledCatalog(locale, part, { namespace: 'es' });
      if (errors.length) throw new Error(`${file}: ${errors.map((error) => `${error.id}: ${error.error}`).join('; ')}`);
      if (area !== 'shell') return { code: source, moduleType: 'js' };
      const areas = [...new Set([...places.values()].flatMap((place) => (place === 'shell' ? [] : place)))].sort();
      const loaders = areas.map(
        (name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(`${file}?area=${name}`)})`,
      );
      return { code: `${source}\nexport const areas = {${loaders.join(', ')}};`, moduleType: 'js' };
    },
  };
}
