/// <reference types="vitest/config" />
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogForFile, getCatalogs } from '@lingui/cli/api';
import { VitePWA } from 'vite-plugin-pwa';
import { endpointsIn } from './src/contract/registry.ts';
import { keptCallsOf } from './src/contract/offline-cache.ts';

const THEME = '#00bbfe';
/** The pages a visit starts on, in src/features: the five tabs' and login's. */
const TAB_PAGES = ['home/HomePage.tsx', 'markets/CoinListPage.tsx', 'options/OptionPage.tsx', 'lockup/LockupPage.tsx', 'profile/MinePage.tsx'];
const LOGIN_PAGE = 'account/LoginPage.tsx';
/** The chunk of what every start needs (its stylesheet goes inline in index.html: stylesInline). */
const START_CHUNK = 'shell';
const chunkName = (page: string) => page.replace(/^.*\/|\.tsx$/g, '');
/** The chunks a visit starts with: those pages and the startup message's dialog. */
const STARTUP_CHUNKS = new RegExp(`(^|/)(${[...TAB_PAGES, LOGIN_PAGE, 'FirstUnreadDialog'].map(chunkName).join('|')})-[\\w-]+\\.js$`);
/** Names the build on Mine and <html data-build> (the update test builds a second one with BUILD_ID). */
const BUILD_ID = process.env.BUILD_ID || new Date().toISOString().slice(0, 16).replace(/\D/g, '');

/**
 * Writes `.br` (brotli 11) and `.gz` (gzip 9) beside every compressible file of the build, after
 * the bundle and the service worker are written; the server sends them (@fastify/static preCompressed).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const [brotli, gzipped] = [promisify(brotliCompress), promisify(gzip)];
  return {
    name: 'coinvest:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    // 'post' and sequential: after vite-plugin-pwa's closeBundle has written sw.js.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true })).filter((file) => /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/.test(file));
        for (const file of files) {
          const body = await readFile(join(outDir, file));
          if (body.length < 1024) continue;
          const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length };
          const [br, gz] = await Promise.all([brotli(body, { params }), gzipped(body, { level: 9 })]);
          // A copy that saves nothing is not worth a second file (the server falls back to the original).
          if (br.length < body.length) await writeFile(join(outDir, `${file}.br`), br);
          if (gz.length < body.length) await writeFile(join(outDir, `${file}.gz`), gz);
        }
      },
    },
  };
}

/**
 * What each part of the app reaches through its imports, read from the sources: the shell is what
 * src/main.tsx imports statically (the start chunk); an area is what the files of
 * src/features/<area>/ import, statically or lazily (features never import each other). Each file
 * comes with the contract texts it names (`texts.key`, or a key as a string: `texts[prompt]`).
 */
function readReach(root: string) {
  const files = new Map<string, { imports: string[]; lazy: string[]; textKeys: Set<string> }>();
  const keyById = new Map<string, string>();
  const textsFile = join(root, 'src/contract/texts.ts');
  const textsSource = readFileSync(textsFile, 'utf8');
  for (const [, key, id] of textsSource.matchAll(/(\w+):\s*\/\*i18n\*\/\s*\{\s*id:\s*'([^']+)'/g)) keyById.set(id!, key!);
  const keys = new Set(keyById.values());
  // httpStatusText(status) picks one of these by the answer's status.
  const statusKeys = [...keys].filter((key) => /^http\d+$/.test(key)).concat('tooManyRequests', 'unknownError');
  const visit = (file: string) => {
    if (files.has(file) || !existsSync(file)) return;
    const source = readFileSync(file, 'utf8');
    const resolveAll = (pattern: RegExp) => [...source.matchAll(pattern)].map((match) => resolve(dirname(file), match[1]!)).filter((target) => /\.tsx?$/.test(target));
    const textKeys = new Set([...source.matchAll(/\btexts\.(\w+)|'(\w+)'/g)].map((match) => match[1] ?? match[2]!).filter((key) => keys.has(key)));
    if (file !== textsFile && source.includes('httpStatusText(')) statusKeys.forEach((key) => textKeys.add(key));
    const entry = {
      imports: resolveAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s*'(\.{1,2}\/[^']+)'/gm),
      lazy: resolveAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g),
      textKeys,
    };
    files.set(file, entry);
    [...entry.imports, ...entry.lazy].forEach(visit);
  };
  const closure = (starts: string[], withLazy: boolean, fence: (file: string) => boolean) => {
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file) || !fence(file)) return;
      visit(file);
      seen.add(file);
      const entry = files.get(file);
      [...(entry?.imports ?? []), ...(withLazy ? (entry?.lazy ?? []) : [])].forEach(walk);
    };
    starts.forEach(walk);
    return seen;
  };
  const featuresDir = join(root, 'src/features');
  const main = [join(root, 'src/main.tsx')];
  const shell = closure(main, false, () => true);
  /** The shell and what it loads lazily itself (the update dialog, not-found), apart from the areas. */
  const shellAndLazy = closure(main, true, (file) => !file.startsWith(featuresDir + sep));
  const areas = new Map(
    readdirSync(featuresDir).map((area) => {
      const own = join(featuresDir, area) + sep;
      const starts = (readdirSync(own, { recursive: true }) as string[]).map((file) => join(own, file)).filter((file) => /\.tsx?$/.test(file));
      return [area, closure(starts, true, (file) => !file.startsWith(featuresDir + sep) || file.startsWith(own))] as const;
    }),
  );
  /** The contract text keys a part's files name, gathered once per part (every catalog part asks for each text). */
  const keysOf = new Map<Set<string>, Set<string>>();
  const usesKey = (reach: Set<string>, key: string) => {
    let keys = keysOf.get(reach);
    if (!keys) keysOf.set(reach, (keys = new Set([...reach].flatMap((file) => [...(files.get(file)?.textKeys ?? [])]))));
    return keys.has(key);
  };
  /** The files (outside src/features) that two or more tab pages import beyond the shell, apart from what login imports. */
  const page = (file: string) => join(root, 'src/features', file);
  const ownCode = (file: string) => closure([page(file)], false, (other) => other === page(file) || !shell.has(other));
  const tabPages = TAB_PAGES.map(ownCode);
  const login = ownCode(LOGIN_PAGE);
  const tabsShared = new Set(
    [...new Set(tabPages.flatMap((files) => [...files]))].filter(
      (file) => !file.startsWith(featuresDir + sep) && !login.has(file) && tabPages.filter((files) => files.has(file)).length >= 2,
    ),
  );
  return { shell, shellAndLazy, areas, textsFile, keyById, usesKey, tabsShared };
}

/** The operator console's catalog part (`messages.po?area=console`): read by its own build (consoleBuild). */
const CONSOLE_AREA = 'console';

/**
 * Whether a text belongs in the console's part: one of its own (a message of src/console, or of
 * contract/console-texts.ts, the answers of its calls), or a contract text that its code or its
 * contract names (`texts.key`; httpStatusText brings the status texts). The app never loads this part.
 */
function consoleText(origins: Record<string, { origin?: [string, number?][] } | undefined>, root: string) {
  const sources = [
    join(root, 'src/contract/console.ts'),
    ...(readdirSync(join(root, 'src/console'), { recursive: true }) as string[]).map((file) => join(root, 'src/console', file)),
  ]
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const named = new Set([...sources.matchAll(/\btexts\.(\w+)/g)].map((match) => match[1]!));
  if (sources.includes('httpStatusText(')) ['tooManyRequests', 'unknownError', 'http500'].forEach((key) => named.add(key));
  const textsSource = readFileSync(join(root, 'src/contract/texts.ts'), 'utf8');
  const contractIds = new Set(
    [...textsSource.matchAll(/(\w+):\s*\/\*i18n\*\/\s*\{\s*id:\s*'([^']+)'/g)].filter(([, key]) => named.has(key!) || /^http\d+$/.test(key!)).map(([, , id]) => id!),
  );
  const own = (origin: string) => origin.startsWith('src/console/') || origin === 'src/contract/console-texts.ts';
  return (messageId: string) => contractIds.has(messageId) || (origins[messageId]?.origin ?? []).some(([origin]) => own(origin.split(sep).join('/')));
}

/**
 * The operator console (issue 30): its own entry, console/index.html, built in the same `vite build`
 * into <outDir>/console/ and served under /console/. A second build rather than a second input of
 * this one: in one module graph what both entries import (React, the contract) would be split into
 * chunks the customer app shares (its start chunk's exports would change, or the console would load
 * and run the app's start chunk), and the 'shell' group takes every module an entry starts with. Apart,
 * no module of the console is in the app's chunks and the app's chunks stay byte for byte the same.
 * The service worker does not precache it (globIgnores) and sends its requests to the network.
 */
function consoleBuild(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'coinvest:console-build',
    apply: 'build',
    configResolved: (config) => void ((root = config.root), (outDir = resolve(config.root, config.build.outDir))),
    // Before precompress ('post'), which then compresses the console's files too.
    closeBundle: {
      sequential: true,
      async handler() {
        const { build } = await import('vite');
        await build({
          configFile: false,
          root: join(root, 'console'),
          base: '/console/',
          publicDir: false,
          logLevel: 'warn',
          plugins: [react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui(), catalogsByArea(), contractAnswersServerOnly()],
          build: { outDir: join(outDir, 'console'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 400 },
        });
      },
    },
  };
}

/**
 * Splits each language's catalog by what the code reaches (readReach), so a page brings only its
 * own texts: `messages.po?area=shell` holds the texts the start chunk shows, those of code only the
 * shell loads lazily (the update dialog, not-found), and a loader of every area's part;
 * `messages.po?area=<feature>` holds the other texts its files reach (a text of src/ui that two
 * areas use is in both parts). A contract text goes where some code names it; one that only the
 * server answers with is not in the app's catalogs, nor is a text of a module the app never reaches
 * (contract/console-texts.ts). The .po files stay one per language.
 */
function catalogsByArea(): Plugin {
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
    const found = [...areas].filter(([, set]) => reaches(set)).map(([area]) => area);
    if (found.length) return found;
    if (key) return reaches(shellAndLazy) ? 'shell' : [];
    // A text of a module no code of the app reaches (the console's texts, the server's own): in no part.
    return files.some((file) => shellAndLazy.has(file)) ? 'shell' : [];
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
    const { messages } = await catalog.getTranslations(locale, { fallbackLocales: fallbackLocales || {}, sourceLocale });
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
        const { source, errors } = createCompiledCatalog(locale, Object.fromEntries(Object.entries(messages).filter(([id]) => consoleText(origins, root)(id))), {
          namespace: 'es',
        });
        if (errors.length) throw new Error(`${file}: ${errors.map((error) => `${error.id}: ${error.error}`).join('; ')}`);
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
      const loaders = areas.map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(`${file}?area=${name}`)})`);
      return { code: `${source}\nexport const areas = {${loaders.join(', ')}};`, moduleType: 'js' };
    },
  };
}

/**
 * The contract's texts keep their English for the server and the catalogs; the built PWA reads every
 * text from the compiled catalogs (the source language's included), so the bundle keeps only the ids,
 * as the Lingui macro does for the texts of the pages.
 */
function contractTextIdsOnly(): Plugin {
  return {
    name: 'coinvest:contract-text-ids-only',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/contract/texts.ts')) return null;
      // Any layout (an earlier transform may have reformatted the file): /*i18n*/ { id: '…', message: '…' }.
      const descriptor = /(\/\*i18n\*\/\s*\{\s*id:\s*(?:'[^']+'|"[^"]+"))\s*,\s*message:\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*\}/g;
      return { code: code.replace(descriptor, '$1 }'), map: null };
    },
  };
}

/**
 * The answer schemas of src/contract (`returns(Schema)`, the shape of each endpoint's data) check the
 * server's answers in the tests and publish them in /api/openapi.json; the PWA never parses an
 * answer, so its build calls `returns()`, `shape()`, `Paged()` and `nullableList()` with no argument: nothing names an
 * answer's fields any more and the schemas fall out of the bundle (the builders are free of side
 * effects; a spread or property read left in an argument would keep its statement). Runs after the
 * TypeScript is compiled, on the AST.
 */
function contractAnswersServerOnly(): Plugin {
  type Node = { type: string; start: number; end: number; callee?: Node; key?: Node; name?: string; arguments?: Node[]; properties?: Node[] };
  const ANSWER_BUILDERS = new Set(['returns', 'shape', 'Paged', 'nullableList']);
  return {
    name: 'coinvest:contract-answers-server-only',
    apply: 'build',
    transform(code, id) {
      const answers = [...ANSWER_BUILDERS].some((name) => code.includes(`${name}(`));
      if (!id.includes('/src/contract/') || !(answers || code.includes('cache:'))) return null;
      const isCache = (node: Node) => node.type === 'Property' && node.key?.type === 'Identifier' && node.key.name === 'cache';
      // Each cut: [start, end, replacement].
      const cuts: [number, number, string][] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (typeof node !== 'object' || node === null) return;
        const candidate = node as Node;
        if (candidate.type === 'CallExpression' && candidate.callee?.type === 'Identifier' && ANSWER_BUILDERS.has(candidate.callee.name!) && candidate.arguments?.length)
          cuts.push([candidate.start, candidate.end, `${candidate.callee.name}()`]);
        // An endpoint's cache policy (`cache: 'user'`): the build lists the kept calls for the
        // service worker and the page (keptCalls), so the app's endpoints need not carry it.
        else if (candidate.type === 'ObjectExpression' && candidate.properties?.length === 1 && isCache(candidate.properties[0]!)) {
          // `{ cache: 'user' }` alone: the whole argument goes, with its comma.
          const comma = /,\s*$/.exec(code.slice(0, candidate.start));
          cuts.push([candidate.start - (comma?.[0].length ?? 0), candidate.end, '']);
        } else if (isCache(candidate)) {
          const comma = /^\s*,/.exec(code.slice(candidate.end));
          cuts.push([candidate.start, candidate.end + (comma?.[0].length ?? 0), '']);
        } else Object.values(node).forEach(walk);
      };
      walk(this.parse(code));
      let out = code;
      for (const [start, end, replacement] of cuts.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}${replacement}${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * Puts the app's stylesheet (the start chunk's, 5–6 KB gzip) inside index.html instead of linking
 * it. A linked stylesheet is one more request before any paint: on a first visit over a slow
 * network a round trip (150 ms on slow 4G) for a file smaller than the first window the document
 * already takes. Inline it comes with the document, so the static shell and then the app paint
 * with no request between. The start chunk stops listing the file before the HTML and the lazy
 * chunks' preload lists are written (so neither links nor fetches it), and the file is left out of
 * the build. Repeat visits lose nothing: the service worker serves index.html from its cache.
 */
function stylesInline(): Plugin {
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
            if (asset?.type === 'asset') inlined.set(file, String(asset.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, ''));
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
        const styles = [...inlined.values()].map((css) => `    <style>${css.replaceAll('</style', '<\\/style')}</style>\n`).join('');
        return html.replace('</head>', `${styles}  </head>`);
      },
    },
  };
}

/**
 * The static shell paints before the app's code runs. index.html starts a tiny boot script instead
 * of the entry: the entry and the start chunk still download at once (modulepreload, which also
 * parses them), and the boot script runs the entry once the first paint has happened, or at once in
 * a tab that is not shown. Without it the start chunk (300 KB of JavaScript) is run as soon as it
 * has arrived, which on a fast link or from the service worker's cache is before the first paint:
 * the screen stays blank for as long as it takes to run it (100–200 ms on a slow phone). The wait
 * costs the app at most a frame; PAINT_WAIT_MS bounds it where the paint is never reported.
 * The boot script and the preloads are asked at low priority: the paint needs none of them (a high
 * priority script that arrives before the first paint counts as blocking it in Lighthouse's
 * simulation, which cannot see that a module ran only after the paint).
 */
function paintBeforeScripts(): Plugin {
  const PAINT_WAIT_MS = 300;
  return {
    name: 'coinvest:paint-before-scripts',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') return;
        const page = String(html.source);
        const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"><\/script>/.exec(page);
        if (!entry) throw new Error('paint-before-scripts: the entry script is not in index.html');
        const boot = [
          `let started=false;const start=()=>{if(started)return;started=true;import(${JSON.stringify(entry[1])})};`,
          `if(document.visibilityState==='hidden'||!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint'))start();`,
          `else{new PerformanceObserver((list,observer)=>{if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();start()}}).observe({type:'paint',buffered:true});setTimeout(start,${PAINT_WAIT_MS})}`,
          '',
        ].join('\n');
        const fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'boot.js', source: boot }));
        // Low priority: none of these scripts is needed for the first paint, and the browser is told so.
        html.source = page
          .replace(entry[0], `<script type="module" fetchpriority="low" crossorigin src="/${fileName}"></script>\n    <link rel="modulepreload" crossorigin href="${entry[1]}">`)
          .replaceAll('<link rel="modulepreload" crossorigin', '<link rel="modulepreload" fetchpriority="low" crossorigin');
      },
    },
  };
}

/** The catalog areas a visit starts in (src/lib/i18n.ts startAreas), besides the shell's. */
const START_AREAS = ['home', 'markets', 'options', 'lockup', 'profile', 'account', 'messages'];

/**
 * What the service worker installs at once and what it fetches once the first screen is idle
 * (sw/sw.ts), read from the app's bundle: `firstFiles` are the entry, the start chunk and what it
 * loads, the tab pages, login and the startup dialog with every chunk they import; `catalogParts` are
 * the catalog chunks by language and area (messages.po?area=…). precacheGroups() in the worker's
 * manifest uses both.
 */
const bundleFacts = { firstFiles: new Set<string>(), catalogParts: new Map<string, { locale: string; area: string }>() };

function bundleFactsOf(): Plugin {
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
          if (file.type === 'asset' && /^assets\/boot-/.test(file.fileName)) add(file.fileName);
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
function precacheGroups(entries: { url: string; revision: string | null; size: number }[]) {
  const manifest = entries.map((entry) => {
    const part = bundleFacts.catalogParts.get(entry.url);
    const first = part ? part.area === 'shell' || START_AREAS.includes(part.area) : !entry.url.startsWith('assets/') || bundleFacts.firstFiles.has(entry.url);
    return { ...entry, ...(first ? {} : { later: true }), ...(part ? { locale: part.locale } : {}) };
  });
  return { manifest, warnings: [] };
}

/** Each reading of the contract gets its own tsx namespace, so a rebuild reads the files anew. */
let contractLoads = 0;

/**
 * `virtual:kept-calls`: the calls the service worker keeps (contract/offline-cache.ts keptCallsOf),
 * read from each endpoint's `cache` when the code is built. The worker and the page import two short
 * lists (src/lib/kept-calls.ts) instead of the contract, whose every schema the worker would
 * otherwise carry. The contract is read as the server reads it (declared-endpoints.ts): every module
 * of src/contract, here run by tsx.
 */
function keptCalls(): Plugin {
  const ID = 'virtual:kept-calls';
  let contractDir = resolve('src/contract');
  let source: Promise<string> | null = null;
  const contractFiles = () => readdirSync(contractDir).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
  const build = async () => {
    // One namespace for every module, so a module that two others import is loaded once.
    const { register } = await import('tsx/esm/api');
    const contract = register({ namespace: `kept-calls-${(contractLoads += 1)}` });
    const modules = await Promise.all(
      contractFiles().map(
        async (file) => [file.replace(/\.tsx?$/, ''), (await contract.import(pathToFileURL(join(contractDir, file)).href, import.meta.url)) as Record<string, unknown>] as const,
      ),
    ).finally(() => contract.unregister());
    const { publicPaths, userCalls } = keptCallsOf(endpointsIn(Object.fromEntries(modules)).map(({ endpoint }) => endpoint));
    return `export const PUBLIC_PATHS = ${JSON.stringify(publicPaths)};\nexport const USER_CALLS = ${JSON.stringify(userCalls)};\n`;
  };
  return {
    name: 'coinvest:kept-calls',
    configResolved: (config) => void (contractDir = join(config.root, 'src/contract')),
    buildStart: () => void (source = null),
    watchChange: (file) => void (file.startsWith(contractDir + sep) && (source = null)),
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load(id) {
      if (id !== `\0${ID}`) return null;
      for (const file of contractFiles()) this.addWatchFile(join(contractDir, file));
      source ??= build();
      return source;
    },
  };
}

const TABS_SHARED = readReach(process.cwd()).tabsShared;
/**
 * The end-to-end files that run after the others, once the suites are done too (tests/run.ts):
 * - E2E_AFTER (project e2e-after), two at a time: those that time their own servers (several processes on one
 *   database, SIGKILLed and started again) with little room to spare beside the suites, and offline-screens (its
 *   markers wait on the worker's network timeout: once missed under the suites' load; beside the other end-to-end
 *   files it made the run 40 s longer, not shorter);
 * - E2E_ALONE (project e2e-alone), one at a time and last: those that time the app.
 */
const e2eFiles = (...names: string[]) => names.map((name) => `tests/e2e/${name}.test.ts`);
const E2E_AFTER = e2eFiles('cluster', 'index-cluster', 'crash', 'offline-screens');
const E2E_ALONE = e2eFiles('first-screen', 'repeat-visit');

/** What the end-to-end projects share: the one server of the run (tests/e2e/global-setup.ts) and their time limits. */
const E2E_PROJECT = {
  environment: 'node',
  globalSetup: ['tests/e2e/global-setup.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // A screen waited for (expect.poll) may take a server round trip and a render on a machine also running the server
  // suites (tests/run.ts): 10 s, not vitest's 1 s. A poll that passes returns at once.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  resolve: {
    // wouter's shim of useSyncExternalStore for React before 18: React's own hook (src/lib/sync-external-store.ts).
    // wouter's default location hooks: the app's hash route (src/lib/wouter-location.ts).
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('src/lib/sync-external-store.ts', import.meta.url)) },
      { find: /^\.\/use-browser-location\.js$/, replacement: fileURLToPath(new URL('src/lib/wouter-location.ts', import.meta.url)) },
    ],
  },
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    catalogsByArea(),
    contractTextIdsOnly(),
    contractAnswersServerOnly(),
    stylesInline(),
    paintBeforeScripts(),
    keptCalls(),
    bundleFactsOf(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // The shell: every route chunk, styles, fonts, svg; the manifest's icons are added by the plugin.
      // The worker is built apart: it needs its own instance of the plugin that lists the kept calls.
      // Not the operator console (console/): online only, apart from the app.
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        globIgnores: ['console/**'],
        // Hashed names need no revision: the worker's install may take them from the HTTP cache, where the first visit left them.
        dontCacheBustURLsMatching: /^assets\//,
        manifestTransforms: [precacheGroups],
        buildPlugins: { vite: [keptCalls()] },
      },
      // The manifest's large icons are the browser's to fetch when the app is installed, not the worker's to keep: only the one a notification shows and the home-screen icon.
      includeManifestIcons: false,
      includeAssets: ['icons/apple-touch-icon.png', 'icons/icon-192.png'],
      manifest: {
        id: './',
        name: 'Coinvest — crypto investment and trading',
        short_name: 'Coinvest',
        description: 'Trade options, follow markets and manage your crypto assets.',
        start_url: './',
        scope: './',
        display: 'standalone',
        theme_color: THEME,
        background_color: THEME,
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: 'screenshots/markets.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: 'Live prices on Markets' },
          { src: 'screenshots/option.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: 'Trade a short-term option' },
        ],
        orientation: 'portrait',
        categories: ['finance'],
      },
    }),
    consoleBuild(),
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    target: 'es2022',
    // index.html preloads the start chunk. A lazily loaded page lists the chunks it imports, so a first visit fetches them at once instead
    // of one after another. Only what a visit starts with keeps its list (STARTUP_CHUNKS: the tab
    // pages, login, the startup message's dialog): every list sits in the start chunk, and once the
    // service worker has precached the app (right after the first visit) the other pages' chunks
    // come from the device anyway.
    modulePreload: { resolveDependencies: (file, deps, { hostType }) => (hostType === 'html' || STARTUP_CHUNKS.test(file) ? deps : []) },
    chunkSizeWarningLimit: 400,
    // What every start needs goes in one file: one request, and one gzip stream compresses better
    // than the dozen small shared chunks the splitter would make of it.
    // (The entry module stays in the entry chunk, which must run it.) The code two or more tab
    // pages share beyond the shell (prices, balances, amounts, icons…) is one more file instead of a
    // dozen: a first visit to a tab makes 13–22 requests for scripts, not 19–27. What login needs
    // stays out of it, so login loads none of it (readReach's tabsShared). Only those modules: what
    // they import stays where the splitter puts it.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: START_CHUNK, tags: ['$initial'], test: (id) => !/[\\/]src[\\/]main\.tsx$|index\.html$/.test(id) },
            { name: 'tabs', test: (id) => TABS_SHARED.has(id), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  test: {
    // tests/slowest-reporter.ts: the ten slowest files at the end (over both runs of `npm test`).
    reporters: ['default', './tests/slowest-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          // Beside the end-to-end files (tests/run.ts) a test that imports the app's modules afresh may wait
          // seconds for a core: 30 s, like the server suites, not vitest's 5 s.
          testTimeout: 30_000,
          // Two files at a time (vitest's default is one fewer than the cores: one on a 2-core machine); the
          // unit, server and server-pg projects run together and must agree on it.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          // A worker runs file after file with the modules it has loaded (the server, the contract): each file builds
          // its own app on its own database, and the server's module state is caches only.
          isolate: false,
        },
      },
      {
        test: {
          name: 'server-pg',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // The embedded database's own backup and restore: PGlite only.
          exclude: ['tests/server/backup.test.ts'],
          globalSetup: ['tests/server/global-setup-pg.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          // A worker runs file after file with the modules it has loaded (the server, the contract): each file builds
          // its own app on its own database, and the server's module state is caches only.
          isolate: false,
        },
      },
      {
        test: {
          ...E2E_PROJECT,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...E2E_AFTER, ...E2E_ALONE],
          // Two files at a time (three starved the shared server's clock on a busy 2-core machine). Files that use
          // the shared server's demo account take turns (tests/e2e/demo-account.ts). A groupOrder of its own: a run
          // of every project would otherwise mix e2e's worker count with the others'.
          maxWorkers: 2,
          sequence: { groupOrder: 9 },
        },
      },
      // Two at a time once the others are done.
      { test: { ...E2E_PROJECT, name: 'e2e-after', include: E2E_AFTER, maxWorkers: 2, sequence: { groupOrder: 10 } } },
      // The files that time the app, one at a time after e2e-after.
      { test: { ...E2E_PROJECT, name: 'e2e-alone', include: E2E_ALONE, fileParallelism: false, sequence: { groupOrder: 11 } } },
    ],
  },
});
