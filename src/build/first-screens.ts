import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AliasOptions, InlineConfig, Plugin, Rollup } from 'vite';
import { LOCALES } from '../api-contract/constants.ts';
import { FIRST_SCREENS_MODULE } from '../api-contract/first-data.ts';
import { FIRST_SCREENS, firstScreenId, startFailedId } from '../lib/first-screen-pick.ts';
import { LOGIN_PAGE, TAB_PAGES } from './chunks.ts';
import { inlineScript } from './inline-scripts.ts';
import { sourcePlugins } from './source-plugins.ts';

/** Where the picking script goes in index.html: right after the app's root element. */
const ROOT_END = '<!-- first screens -->';

/**
 * The first screens in the HTML (src/app/first-screens.tsx renders them, src/app/first-screen-boot.ts picks
 * one): the page paints its first screen with the document, before any of the app's code has arrived.
 * - src/app/first-screens.tsx is built for Node and run once per language; each screen goes into a
 *   <template> (parsed, never shown or run) in the head.
 * - So does, per language, what a start shows when the app's code fails to arrive (the picking script shows it
 *   after one reload): without it, that start would stay on its inert screen.
 * - The picking script is built on its own as one classic script and put inline after #root, so it runs
 *   while the page is parsed, before the first paint (allowed by its hash: inline-scripts.ts).
 * - The styles of those pages' chunks go inline too (the shell's already are: stylesInline), so a screen
 *   paints as the page will; the page's chunk brings the same rules again when it loads.
 * - The module built for Node is kept as FIRST_SCREENS_MODULE: the server renders the screens that show data with it
 *   (src/server/http/first-document.ts).
 */
export function firstScreens(): Plugin {
  let root = process.cwd();
  let alias: AliasOptions = [];
  let define: Record<string, unknown> = {};
  return {
    name: 'coinvest:first-screens',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      alias = config.resolve.alias;
      define = config.define ?? {};
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') return;
        const page = String(html.source);
        if (!page.includes(ROOT_END)) throw new Error(`first-screens: index.html has no ${ROOT_END} marker`);
        const [{ templates, module }, script] = await Promise.all([
          renderTemplates(root, alias, define),
          pickingScript(root, intlWarmWorker(bundle)),
        ]);
        this.emitFile({ type: 'asset', fileName: FIRST_SCREENS_MODULE, source: module });
        const styles = pageStyles(root, bundle);
        // The templates in the head: parsed before the body, so no paint can show the brand's shell before the
        // script has put the screen in its place.
        html.source = page
          .replace(
            '</head>',
            `    <style>${styles.replaceAll('</style', '<\\/style')}</style>\n${templates}\n  </head>`,
          )
          .replace(
            ROOT_END,
            inlineScript(bundle, (file) => this.emitFile(file), script),
          );
      },
    },
  };
}

/** Every screen in every language, as <template> elements, and the module that rendered them. */
async function renderTemplates(
  root: string,
  alias: AliasOptions,
  define: Record<string, unknown>,
): Promise<{ templates: string; module: string }> {
  const chunk = await buildInMemory(root, {
    resolve: { alias },
    define,
    plugins: sourcePlugins(),
    // One file with everything in it, so it runs from a folder of its own.
    ssr: { noExternal: true },
    build: {
      ssr: join(root, 'src/app/first-screens.tsx'),
      minify: false,
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
  const folder = mkdtempSync(join(tmpdir(), 'coinvest-first-screens-'));
  try {
    const file = join(folder, 'first-screens.mjs');
    writeFileSync(file, chunk.code);
    const { renderFirstScreens, renderStartFailed } = (await import(pathToFileURL(file).href)) as {
      renderFirstScreens: (locale: string) => string[];
      renderStartFailed: (locale: string) => string;
    };
    const byLocale = LOCALES.map((locale) => {
      const screens = renderFirstScreens(locale);
      if (screens.length !== FIRST_SCREENS.length)
        throw new Error(`first-screens: ${screens.length} screens in ${locale}`);
      return screens;
    });
    // A screen in its six languages side by side: gzip, whose window is 32 KB, then finds the markup they share
    // (24.9 KB instead of 32.5 KB over plain http; brotli's window takes the whole document either way).
    const templates = [
      ...FIRST_SCREENS.flatMap((_, index) =>
        LOCALES.map((locale, nth) => [firstScreenId(locale, index), byLocale[nth]![index]!]),
      ),
      ...LOCALES.map((locale) => [startFailedId(locale), renderStartFailed(locale)]),
    ]
      .map(([id, html]) => `    <template id="${id}">${html}</template>`)
      .join('\n');
    return { templates, module: chunk.code };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The address of the worker that loads the locale data of Intl (src/lib/intl-warm.ts, built by the app's bundle): the
 * picking script starts it for a signed-in start, long before the app's code could.
 */
function intlWarmWorker(bundle: Rollup.OutputBundle): string {
  const file = Object.keys(bundle).find((name) => /^assets\/intl-warm-[\w-]+\.js$/.test(name));
  if (!file) throw new Error('first-screens: the bundle has no intl-warm worker');
  return `/${file}`;
}

/** src/app/first-screen-boot.ts as one minified classic script, given the address of the Intl worker. */
async function pickingScript(root: string, intlWarmUrl: string): Promise<string> {
  const chunk = await buildInMemory(root, {
    define: { __INTL_WARM_URL__: JSON.stringify(intlWarmUrl) },
    build: {
      target: 'es2022',
      lib: { entry: join(root, 'src/app/first-screen-boot.ts'), formats: ['iife'], name: 'firstScreen' },
    },
  });
  return chunk.code.trim();
}

/** A build of one entry of the app's source, kept in memory: its entry chunk. */
async function buildInMemory(root: string, config: InlineConfig): Promise<Rollup.OutputChunk> {
  const { build } = await import('vite');
  const output = (await build({
    ...config,
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    build: { ...config.build, write: false },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunk = [output]
    .flat()
    .flatMap((result) => result.output)
    .find((file): file is Rollup.OutputChunk => file.type === 'chunk' && file.isEntry);
  if (!chunk) throw new Error(`first-screens: nothing built from ${JSON.stringify(config.build)}`);
  return chunk;
}

/** The stylesheets of the first screens' page chunks and of the chunks they import, once each, in order. */
function pageStyles(root: string, bundle: Rollup.OutputBundle): string {
  const pageFiles = [...TAB_PAGES, LOGIN_PAGE].map((page) => resolve(root, 'src/features', page));
  const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const styles = new Set<string>();
  const visited = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (visited.has(chunk.fileName)) return;
    visited.add(chunk.fileName);
    for (const imported of chunk.imports) {
      const next = byName.get(imported);
      if (next) visit(next);
    }
    for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
  };
  for (const file of pageFiles) {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId === file);
    if (!chunk) throw new Error(`first-screens: no chunk for ${file}`);
    visit(chunk);
  }
  return [...styles]
    .map((file) => {
      const asset = bundle[file];
      // (Less the marker comment the build leaves at its end.)
      return asset?.type === 'asset' ? String(asset.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, '') : '';
    })
    .join('');
}
