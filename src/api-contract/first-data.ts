// What a page's document brings beside its first screens: the server's answers at the moment it sent the page, so
// that Home and Markets paint their slides and coins with the HTML, and the app's first render shows the same ones.
// The server writes it into the document it sends to a browser's navigation only (src/server/http/first-document.ts);
// the copy of the page the service worker keeps has none, as a price kept there would be shown later as if current.
import { LOCALES, type Locale } from './constants.ts';
import type { CoinQuote } from './markets.ts';
import type { Slide } from './content.ts';

/**
 * The build's folder for what only the server reads: a dot folder, as the server sends no file whose path has one
 * (src/server/http/serving.ts).
 */
export const SERVER_FILES_DIR = '.server';
/**
 * src/app/first-screens.tsx built for Node, in the build's folder: the server renders Home's and Markets' screens with
 * it (its `renderDataScreens`), with the data of the moment.
 */
export const FIRST_SCREENS_MODULE = `${SERVER_FILES_DIR}/first-screens.mjs`;

/** The id of the document's `<script type="application/json">` that holds it. */
export const FIRST_DATA_ID = 'first-data';

export interface FirstData {
  /** When the server read it (ISO): the coin list's "as of". */
  at: string;
  /** The coin list's answer (`/coin/lists`), in the server's order. */
  coins: CoinQuote[];
  /** Home's slides (`/content/slide`, position home) in each language. */
  slides: Partial<Record<Locale, Slide[]>>;
}

/**
 * The data as the text of a `<script type="application/json">`: JSON whose every `<` is escaped, so no text in it (an
 * operator's slide title, say) can close the element or open a comment; JSON.parse reads it back the same.
 */
export const firstDataJson = (data: FirstData) => JSON.stringify(data).replaceAll('<', '\\u003c');

/** The id of a first screen's <template> in index.html: the `index`th of the screens the build renders, in `locale`. */
export const firstScreenId = (locale: Locale, index: number) => `first-screen-${locale}-${index}`;

/** The id of the <template> that shows, in `locale`, that the app's own code failed to arrive. */
export const startFailedId = (locale: Locale) => `start-failed-${locale}`;

/** The language of a template of the first screens (firstScreenId, startFailedId), from its id; null for any other. */
export function templateLocale(id: string): Locale | null {
  const index = id.slice(id.lastIndexOf('-') + 1);
  return LOCALES.find((locale) => id === startFailedId(locale) || id === firstScreenId(locale, Number(index))) ?? null;
}

/**
 * The cookie that tells the server the language the app starts in (its stored choice, else the browser's): a
 * navigation then gets that language's first screens alone, and Home's and Markets' data screens in it. It carries
 * nothing else, and a value that is not a language of the app counts as none.
 */
export const LOCALE_COOKIE = 'coinvest-locale';

/** The Set-Cookie text the app writes (`document.cookie`): for a year, on every path, never sent from another site. */
export const localeCookie = (locale: Locale, https: boolean) =>
  `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${https ? '; Secure' : ''}`;

/** The language a request's Cookie header names (LOCALE_COOKIE), or null. */
export function cookieLocale(header: string | undefined): Locale | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== LOCALE_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return LOCALES.find((locale) => locale === value) ?? null;
  }
  return null;
}
