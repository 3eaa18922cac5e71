// The app language: stored choice, else the browser's, else Thai (the fallback). Changing it stores the
// choice and reloads the page. `ar` is laid out right to left; `jp` is `ja` for Intl. A language's
// catalog comes in parts (src/build/catalogs-by-area.ts): the shell's at start, a product area's
// with its first page.
import { i18n, type Messages } from '@lingui/core';
import { FALLBACK_LOCALE, type Locale } from '../api-contract/constants.ts';
import { flushStores, persistedStore } from './storage.ts';
import { startIntlWarm } from './intl-formats.ts';
import { LOCALE_KEY, intlLocale, isLocale, isRightToLeft, pickLocale } from './locale-pick.ts';

export { isLocale, pickLocale };

export const localeChoice = persistedStore(LOCALE_KEY, { locale: null as Locale | null });

type AreaCatalog = () => Promise<{ messages: Messages }>;
const catalogs = import.meta.glob<{ messages: Messages; areas: Partial<Record<string, AreaCatalog>> }>(
  '../locales/*/messages.po',
  { query: '?area=shell' },
);
/**
 * The parts of the areas a visit starts in (the tab pages, login, the startup message), by language:
 * asked for at start alongside the shell's part (startAreaMessages), instead of once it has arrived.
 * The same modules as the shell part's loaders, so each still arrives once.
 */
const startAreas: Partial<Record<string, Record<string, AreaCatalog>>> = {
  home: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=home' }),
  markets: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=markets' }),
  options: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=options' }),
  lockup: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=lockup' }),
  profile: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=profile' }),
  account: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=account' }),
  messages: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { query: '?area=messages' }),
};

/** Starts the download of an area's part for `locale` before the language is active (a visit's first page). */
export function startAreaMessages(locale: Locale, area: string): void {
  startAreas[area]?.[`../locales/${locale}/messages.po`]?.().catch(() => undefined); // loadAreaMessages reports a failure
}

/** The active language's parts of areas, each loaded once. */
let areaCatalogs: Partial<Record<string, AreaCatalog>> = {};
const loadedAreas = new Map<string, Promise<void>>();

export { intlLocale, isRightToLeft };

/**
 * Loads the browser's number and date data for `locale` off the main thread. The first Intl formatter a
 * page makes loads ICU's data: ~15 ms on a fast machine, 45 ms in Lighthouse's unthrottled run here, four
 * times that on its phone, in one task that cannot be split. ICU keeps that data for the whole process,
 * and a dedicated worker runs in the page's process: a worker formats once (lib/intl-warm.ts) while the
 * first page's code is on the network, and the page's first formatter finds the data loaded. Without a
 * worker, the first amount on screen loads it.
 */
export function warmIntl(locale: Locale): void {
  // Written out whole: the bundler builds the worker from this `new Worker(new URL(…))`.
  startIntlWarm(
    intlLocale(locale),
    (name) => new Worker(new URL('./intl-warm.ts', import.meta.url), { type: 'module', name }),
  );
}

/** The request language header is zh for any Chinese locale, otherwise the app locale. */
export { requestLanguage } from './call-core.ts';

/** The language being activated: calls made while its texts arrive already ask in it. */
let activating: Locale | null = null;

export function currentLocale(): Locale {
  return activating ?? (isLocale(i18n.locale) ? i18n.locale : FALLBACK_LOCALE);
}

export async function activateLocale(locale: Locale): Promise<void> {
  activating = locale;
  const load = catalogs[`../locales/${locale}/messages.po`];
  const { messages, areas } = load ? await load() : { messages: {}, areas: {} };
  areaCatalogs = areas;
  loadedAreas.clear();
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = intlLocale(locale);
  document.documentElement.dir = isRightToLeft(locale) ? 'rtl' : 'ltr';
}

/** Adds the texts of a product area (src/features/<area>) to the active language, before its page renders. */
export function loadAreaMessages(area: string): Promise<void> {
  let loaded = loadedAreas.get(area);
  if (!loaded) {
    const locale = i18n.locale;
    loaded = (areaCatalogs[area]?.() ?? Promise.resolve({ messages: {} })).then(({ messages }) =>
      i18n.load(locale, messages),
    );
    // A part that failed to arrive is asked for again next time.
    loaded.catch(() => loadedAreas.delete(area));
    loadedAreas.set(area, loaded);
  }
  return loaded;
}

/** Stores the choice and reloads, so every screen and cached text starts in the new language. */
export async function changeLocale(locale: Locale): Promise<void> {
  localeChoice.locale = locale;
  await flushStores();
  location.reload();
}
