// Run by the build (first-screen.ts) in a process of its own: renders the first screens of src/app/first-screen.tsx
// for every language and start page, and writes them as JSON to the file named by its first argument
// ({ [locale]: { [path]: markup } }). The app's modules are loaded through Vite (its plugins, aliases and the
// catalogs' parts), in a DOM stand-in (jsdom) where the app's modules read the browser's globals; a process of its
// own keeps those globals out of the build's.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';
import { createServer } from 'vite';
import { LOCALES } from '../contract/constants.ts';

const [out, pagesJson] = process.argv.slice(2);
if (!out || !pagesJson) throw new Error('usage: first-screen-render.ts <out.json> <pages as JSON>');
const pages = JSON.parse(pagesJson) as { path: string; signedIn: boolean }[];

const dom = new JSDOM('<!doctype html><html><head></head><body><div id="root"></div></body></html>', {
  url: 'http://localhost/',
  pretendToBeVisual: true,
});
// The window's own names and those of its prototypes (addEventListener, matchMedia…), its methods bound to it.
for (let from: object | null = dom.window; from && from !== Object.prototype; from = Object.getPrototypeOf(from))
  for (const name of Object.getOwnPropertyNames(from)) {
    if (name in globalThis || name.startsWith('_')) continue;
    const value: unknown = dom.window[name as never];
    const bound = typeof value === 'function' && !/^[A-Z]/.test(name) ? value.bind(dom.window) : value;
    Object.defineProperty(globalThis, name, { configurable: true, writable: true, value: bound });
  }
for (const name of ['window', 'self', 'navigator', 'location', 'document', 'localStorage', 'sessionStorage'])
  Object.defineProperty(globalThis, name, { configurable: true, writable: true, value: dom.window[name as never] });

// The server renderer asks a store for its server snapshot, which the app's hooks leave out (the browser never
// hydrates): on this server the store's current value is that snapshot. Set before the app's modules import React.
const react = createRequire(import.meta.url)('react') as { useSyncExternalStore: (...args: unknown[]) => unknown };
const storeHook = react.useSyncExternalStore;
react.useSyncExternalStore = (subscribe: unknown, getSnapshot: unknown, getServerSnapshot?: unknown) =>
  storeHook(subscribe, getSnapshot, getServerSnapshot ?? getSnapshot);

const vite = await createServer({
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: 'custom',
  logLevel: 'error',
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { renderFirstScreen } = (await vite.ssrLoadModule('/src/app/first-screen.tsx')) as {
    renderFirstScreen: (locale: string, path: string, signedIn: boolean) => Promise<string>;
  };
  const screens: Record<string, Record<string, string>> = {};
  for (const locale of LOCALES) {
    screens[locale] = {};
    for (const { path, signedIn } of pages) screens[locale][path] = await renderFirstScreen(locale, path, signedIn);
  }
  writeFileSync(out, JSON.stringify(screens));
} finally {
  await vite.close();
}
// Timers the app's modules started (the DOM stand-in's, a store's) must not hold the build.
process.exit(0);
