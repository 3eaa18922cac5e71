// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../src/contract/constants.ts';
import { ROUTE_MARK_SCRIPT } from '../../../src/contract/first-screen.ts';
import { ROUTES } from '../../../src/contract/routes.ts';
import { precacheGroups } from '../../../src/build/bundle-facts.ts';
import {
  FIRST_SCREENS,
  firstScreen,
  firstScreenFile,
  firstScreenPage,
  startPageStyles,
} from '../../../src/build/first-screen.ts';
import { hook } from './helpers.ts';

const TEMPLATE = [
  '<!doctype html>',
  '<html lang="th" dir="ltr">',
  '  <head>',
  '    <style>#boot{display:flex}</style>',
  '  </head>',
  '  <body>',
  '    <div id="root">',
  '      <div id="boot" role="status">Coinvest</div>',
  '    </div>',
  '  </body>',
  '</html>',
].join('\n');

const screens = (word: string) =>
  Object.fromEntries(
    FIRST_SCREENS.map(({ path }) => [
      path,
      `<link rel="preload" as="image" href="/favicon.svg"/><div class="app"><main class="app-main"><div class="page">${word} ${path}</div></main></div>`,
    ]),
  );

describe('firstScreenPage (src/build/first-screen.ts)', () => {
  it("puts each route's screen in #root before the boot splash, inert, in a block named by its route", () => {
    const page = firstScreenPage(TEMPLATE, 'en', screens('Hello'), '');
    const root = page.slice(page.indexOf('<div id="root">'), page.indexOf('<div id="boot"'));
    for (const { path } of FIRST_SCREENS)
      expect(root).toContain(
        `<div class="first-screen" id="${path}" inert><div class="app"><main class="app-main"><div class="page">Hello ${path}</div></main></div></div>`,
      );
    // The server renderer's hoisted preload is not the app's markup.
    expect(page).not.toContain('rel="preload"');
  });

  it('names the language on <html>: Japanese as ja, Arabic right to left', () => {
    expect(firstScreenPage(TEMPLATE, 'en', screens(''), '')).toContain('<html lang="en" dir="ltr">');
    expect(firstScreenPage(TEMPLATE, 'jp', screens(''), '')).toContain('<html lang="ja" dir="ltr">');
    expect(firstScreenPage(TEMPLATE, 'ar', screens(''), '')).toContain('<html lang="ar" dir="rtl">');
  });

  it("shows the addressed route's screen with CSS alone, and brings the pages' styles in <head>", () => {
    const page = firstScreenPage(TEMPLATE, 'th', screens(''), '.lockup{color:red}</style>');
    const head = page.slice(0, page.indexOf('</head>'));
    expect(head).toContain('.first-screen{display:none}.first-screen:target{display:block}');
    expect(head).toContain('#root:has(>.first-screen:target)>#boot{display:none}');
    // From the first paint, by the route the head's script marks on <html> (the server allows it by its hash).
    expect(head).toContain(`<script>${ROUTE_MARK_SCRIPT}</script>`);
    expect(head).toContain(
      `html[data-route="${ROUTES.lockUp}"] [id="${ROUTES.lockUp}"]{display:block}html[data-route="${ROUTES.lockUp}"] #boot{display:none}`,
    );
    expect(head).toContain('.lockup{color:red}<\\/style>');
    // After the page's own styles, so the boot splash's rule does not win over the one that hides it.
    expect(head.indexOf('#boot{display:flex}')).toBeLessThan(head.indexOf('.first-screen{display:none}'));
  });

  it('fails the build on an index.html it cannot place the screens in', () => {
    expect(() => firstScreenPage('<html><body></body></html>', 'en', screens(''), '')).toThrow('#root');
  });
});

describe('startPageStyles (src/build/first-screen.ts)', () => {
  it("collects the start pages' stylesheets and those of the chunks they import, once each; no other page's", () => {
    const bundle = {
      'assets/MinePage-a1.js': {
        type: 'chunk',
        imports: ['assets/profile-store-b2.js'],
        viteMetadata: { importedCss: new Set(['assets/MinePage-a1.css']) },
      },
      'assets/LockupPage-c3.js': {
        type: 'chunk',
        imports: ['assets/profile-store-b2.js'],
        viteMetadata: { importedCss: new Set(['assets/lockup-c3.css']) },
      },
      'assets/profile-store-b2.js': {
        type: 'chunk',
        imports: [],
        viteMetadata: { importedCss: new Set(['assets/records-d4.css']) },
      },
      'assets/SharePage-e5.js': {
        type: 'chunk',
        imports: [],
        viteMetadata: { importedCss: new Set(['assets/SharePage-e5.css']) },
      },
      'assets/MinePage-a1.css': { type: 'asset', source: '.mine{}/*$vite$:1*/\n' },
      'assets/lockup-c3.css': { type: 'asset', source: '.lockup{}' },
      'assets/records-d4.css': { type: 'asset', source: '.records{}' },
      'assets/SharePage-e5.css': { type: 'asset', source: '.share{}' },
    };
    expect(startPageStyles(bundle)).toBe('.lockup{}.records{}.mine{}');
  });
});

describe('firstScreen (src/build/first-screen.ts)', () => {
  it('emits one page per language from the rendered screens, for the build it is given; index.html stays', async () => {
    const emitted: { fileName: string; source: string }[] = [];
    const asked: string[] = [];
    const plugin = firstScreen('202601010000', async (buildId) => {
      asked.push(buildId);
      return Object.fromEntries(LOCALES.map((locale) => [locale, screens(locale)]));
    });
    const bundle = { 'index.html': { type: 'asset', source: TEMPLATE } };
    await hook(plugin.generateBundle).call({ emitFile: (file: never) => emitted.push(file) }, {}, bundle);
    expect(asked).toEqual(['202601010000']);
    expect(emitted.map((file) => file.fileName)).toEqual(LOCALES.map(firstScreenFile));
    expect(emitted.find((file) => file.fileName === 'index.hi.html')!.source).toContain(`hi ${FIRST_SCREENS[0]!.path}`);
    expect(bundle['index.html'].source).toBe(TEMPLATE);
  });

  it('fails the build when a screen did not render its page (a signed-in page rendered signed out, say)', async () => {
    const plugin = firstScreen('1', async () =>
      Object.fromEntries(
        LOCALES.map((locale) => [
          locale,
          { ...screens(locale), [FIRST_SCREENS[0]!.path]: '<div class="app"><main class="app-main"></main></div>' },
        ]),
      ),
    );
    const bundle = { 'index.html': { type: 'asset', source: TEMPLATE } };
    await expect(hook(plugin.generateBundle).call({ emitFile: () => '' }, {}, bundle)).rejects.toThrow(
      `no page at ${FIRST_SCREENS[0]!.path}`,
    );
  });
});

describe('precacheGroups (src/build/bundle-facts.ts) on the pages with first screens', () => {
  it("tags each language's page with its language: the worker installs the active language's only", () => {
    const { manifest } = precacheGroups([
      { url: 'index.html', revision: '1', size: 1 },
      { url: 'index.ar.html', revision: '2', size: 1 },
    ]);
    expect(manifest).toEqual([
      { url: 'index.html', revision: '1', size: 1 },
      { url: 'index.ar.html', revision: '2', size: 1, locale: 'ar' },
    ]);
  });
});
