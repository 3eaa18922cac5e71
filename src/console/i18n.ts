// The console's languages: English, Chinese and Thai. Its texts are one part of each
// language's catalog (messages.po?area=console, src/build/console-text.ts); the choice is kept in
// this browser and sent as the lang header, so the server's answers come in the same language.
import { i18n, type Messages } from '@lingui/core';
import { pickLanguage } from '../api-contract/language-pick.ts';

export const CONSOLE_LOCALES = ['en', 'zh', 'th'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];
export const LOCALE_NAMES: Record<ConsoleLocale, string> = { en: 'English', zh: '中文', th: 'ไทย' };
const STORED_KEY = 'coinvest.console.locale';

const catalogs = import.meta.glob<{ messages: Messages }>('../locales/{en,zh,th}/messages.po', {
  query: '?area=console',
});

const isConsoleLocale = (value: unknown): value is ConsoleLocale => CONSOLE_LOCALES.includes(value as ConsoleLocale);

/** The stored choice, else the browser's first language the console has, else English. */
export const pickConsoleLocale = (stored: string | null, languages: readonly string[]): ConsoleLocale =>
  pickLanguage(CONSOLE_LOCALES, 'en', stored, languages);

export const consoleLocale = (): ConsoleLocale => (isConsoleLocale(i18n.locale) ? i18n.locale : 'en');

export async function activateConsoleLocale(locale: ConsoleLocale): Promise<void> {
  const { messages } = await catalogs[`../locales/${locale}/messages.po`]!();
  i18n.loadAndActivate({ locale, messages });
  localStorage.setItem(STORED_KEY, locale);
  document.documentElement.lang = locale;
}

export const startingLocale = () => pickConsoleLocale(localStorage.getItem(STORED_KEY), navigator.languages);
