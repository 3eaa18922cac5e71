// What a page's document brings beside its first screens: the server's answers at the moment it sent the page, so
// that Home and Markets paint their slides and coins with the HTML, and the app's first render shows the same ones.
// The server writes it into the document it sends to a browser's navigation only (src/server/http/first-document.ts);
// the copy of the page the service worker keeps has none, as a price kept there would be shown later as if current.
import type { Locale } from './constants.ts';
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
