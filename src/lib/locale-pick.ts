// Which language the app starts in: the stored choice, else the browser's, else Thai (the fallback). Apart
// from i18n.ts so the service worker can tell it too (the language whose texts it installs first).
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../api-contract/constants.ts';
import { pickLanguage } from '../api-contract/language-pick.ts';

export { intlLocale } from '../api-contract/language-pick.ts';

/** Where the app keeps its device records (storage.ts): IndexedDB database, store, and the language choice's key. */
export const DEVICE_DB = 'coinvest';
export const DEVICE_STORE = 'state';
export const LOCALE_KEY = 'locale';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

export const pickLocale = (stored: Locale | null, browserLanguages: readonly string[]): Locale =>
  pickLanguage(LOCALES, FALLBACK_LOCALE, stored, browserLanguages);

export const isRightToLeft = (locale: Locale) => locale === 'ar';
