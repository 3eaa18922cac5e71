import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';
import { LOCALES, type Locale } from '../contract/constants.ts';
import { ROUTE_MARK_SCRIPT } from '../contract/first-screen.ts';
import { ROUTES } from '../contract/routes.ts';
import { LOGIN_PAGE, TAB_PAGES } from './chunks.ts';

/**
 * The first screen from HTML: the shell and each start page's first screen (the five tabs signed in, login signed
 * out), rendered at build time by React's server renderer from the app's own components (src/app/first-screen.tsx,
 * in a process of its own: first-screen-render.ts), are written into one page per language, `index.<locale>.html`
 * (its `lang`, and `dir="rtl"` for Arabic). The server sends the visitor's language's page and the service worker
 * keeps the active language's; index.html stays as it was (the boot splash) for any other case.
 *
 * Routes live in the hash, which no server sees: the page holds the six screens, each in a block whose id is its route,
 * and CSS shows the one the address points at (`:target`), with no script; any other address shows the boot splash.
 * The start pages' stylesheets come inline with the document, so the screen paints as it will look. The app, once its
 * first page is ready, renders the same markup over it (main.tsx), and the screen stays as it was. Until then the
 * screen is inert: nothing typed into it or tapped on it is lost in the takeover, and its login form is never sent
 * by the browser itself (its fields in the address).
 */
export const FIRST_SCREENS = [
  { path: ROUTES.home, signedIn: true },
  { path: ROUTES.coinList, signedIn: true },
  { path: ROUTES.option, signedIn: true },
  { path: ROUTES.lockUp, signedIn: true },
  { path: ROUTES.mine, signedIn: true },
  { path: ROUTES.login, signedIn: false },
];

/** The page of a language. */
export const firstScreenFile = (locale: Locale) => `index.${locale}.html`;

/** The start pages' chunks (file names start with the page's name). */
const PAGE_CHUNK = new RegExp(
  `^assets/(${[...TAB_PAGES, LOGIN_PAGE].map((page) => page.replace(/^.*\/|\.tsx$/g, '')).join('|')})-[\\w-]+\\.js$`,
);

/**
 * Shows the screen of the route in the address, and the boot splash only where there is none: by the route the head's
 * script marks on <html> (contract/first-screen.ts), and without scripts by `:target`.
 */
const SHOW_BY_ADDRESS = [
  '.first-screen{display:none}.first-screen:target{display:block}#root:has(>.first-screen:target)>#boot{display:none}',
  ...FIRST_SCREENS.map(
    ({ path }) =>
      `html[data-route="${path}"] [id="${path}"]{display:block}html[data-route="${path}"] #boot{display:none}`,
  ),
].join('');

type Screens = Record<string, Record<string, string>>;
type BundleFile = {
  type: string;
  fileName?: string;
  source?: string | Uint8Array;
  imports?: string[];
  viteMetadata?: { importedCss: Set<string> };
};

/** The stylesheets the start pages' chunks bring with them (and the chunks they import statically), once each. */
export function startPageStyles(bundle: Record<string, BundleFile>): string {
  const seen = new Set<string>();
  const styles: string[] = [];
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (seen.has(fileName) || chunk?.type !== 'chunk') return;
    seen.add(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) {
      const asset = bundle[css];
      if (seen.has(css) || asset?.type !== 'asset') continue;
      seen.add(css);
      styles.push(String(asset.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, ''));
    }
    chunk.imports?.forEach(visit);
  };
  Object.keys(bundle)
    .filter((fileName) => PAGE_CHUNK.test(fileName))
    .sort()
    .forEach(visit);
  return styles.join('');
}

/**
 * index.html with one language's screens: `lang` and `dir` on <html>, the screens in #root before the boot splash,
 * the styles that show them at the end of <head>. The server renderer's hoisted resources (a preload of a picture the
 * markup already names) are left out: the app's own render has none in #root.
 */
export function firstScreenPage(template: string, locale: Locale, screens: Record<string, string>, styles: string) {
  const lang = locale === 'jp' ? 'ja' : locale;
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  if (!/<html lang="\w+" dir="\w+">/.test(template) || !template.includes('<div id="root">'))
    throw new Error('first-screen: index.html has no <html lang dir> or no #root');
  const blocks = Object.entries(screens)
    .map(([path, markup]) => {
      const body = markup.replace(/^(<link [^>]*\/>)+/, '');
      return `<div class="first-screen" id="${path}" inert>${body}</div>`;
    })
    .join('\n      ');
  const css = `${SHOW_BY_ADDRESS}${styles}`.replaceAll('</style', '<\\/style');
  return template
    .replace(/<html lang="\w+" dir="\w+">/, `<html lang="${lang}" dir="${dir}">`)
    .replace('</head>', `  <script>${ROUTE_MARK_SCRIPT}</script>\n    <style>${css}</style>\n  </head>`)
    .replace('<div id="root">', `<div id="root">\n      ${blocks}`);
}

/** Renders the screens of every language in a process of its own (first-screen-render.ts), for build `buildId`. */
async function renderScreens(buildId: string): Promise<Screens> {
  const folder = mkdtempSync(join(tmpdir(), 'coinvest-first-screen-'));
  try {
    const out = join(folder, 'screens.json');
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/build/first-screen-render.ts', out, JSON.stringify(FIRST_SCREENS)],
      { maxBuffer: 16 << 20, env: { ...process.env, BUILD_ID: buildId } },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as Screens;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `buildId`: the build's name, which Mine shows (the same as the app's, vite.config.ts). */
export function firstScreen(buildId: string, render: (buildId: string) => Promise<Screens> = renderScreens): Plugin {
  return {
    name: 'coinvest:first-screen',
    apply: 'build',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') return;
        const template = String(html.source);
        const styles = startPageStyles(bundle as Record<string, BundleFile>);
        const screens = await render(buildId);
        for (const locale of LOCALES) {
          for (const { path } of FIRST_SCREENS)
            if (!screens[locale]?.[path]?.includes('class="page'))
              throw new Error(`first-screen: no page at ${path} in ${locale}`);
          this.emitFile({
            type: 'asset',
            fileName: firstScreenFile(locale),
            source: firstScreenPage(template, locale, screens[locale], styles),
          });
        }
      },
    },
  };
}
