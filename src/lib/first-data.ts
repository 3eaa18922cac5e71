// The answers the page's document brought (api-contract/first-data.ts): the coins and slides the server had when it
// sent the page, already painted in the first screen from the HTML. The first page takes them for its first render, so
// the app draws what the HTML showed. A document the service worker answered with has none.
import { FIRST_DATA_ID, type FirstData } from '../api-contract/first-data.ts';

/** The document's data; null when it has none (or none that reads). */
export function documentData(): FirstData | null {
  try {
    const text = typeof document === 'undefined' ? null : document.getElementById(FIRST_DATA_ID)?.textContent;
    return text ? (JSON.parse(text) as FirstData) : null;
  } catch {
    // Not JSON: as a document without data; the page loads its data itself.
    return null;
  }
}
