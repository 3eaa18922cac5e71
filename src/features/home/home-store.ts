// Home: the slides and the scrolling notice, kept from the last visit so home never starts blank
// (in the language they were read in: another language's are never shown), and the few figures the
// home cards show.
import Big from 'big.js';
import { config, slides, type Slide } from '../../api-contract/content.ts';
import type { CoinQuote } from '../../api-contract/markets.ts';
import { api } from '../../lib/api.ts';
import { formatAmount } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { persistedStore, storeHydrated } from '../../lib/storage.ts';
import { preloadFirstSlide } from '../../ui/Carousel.tsx';
import { documentData } from '../../lib/first-data.ts';
import { takeDocumentCoins } from '../../lib/prices.ts';

export const home = persistedStore('home', { slides: [] as Slide[], notice: '', lang: '' });

/** How many coins the home card lists. */
export const TOP_COINS = 5;

/**
 * Slides (position home) and the notice; each lands as it arrives (the slides, Home's largest
 * picture, never wait for the notice); the first failure is thrown once both have answered.
 */
export async function loadHome(): Promise<void> {
  await storeHydrated(home);
  // The operators' words are per language: after a switch, what was kept in the other one goes.
  const lang = currentLocale();
  if (home.lang !== lang) Object.assign(home, { slides: [], notice: '', lang });
  const answers = await Promise.allSettled([
    api(slides, { position: 'home' }, { loading: home.slides.length === 0 }).then(({ lists }) => {
      preloadFirstSlide(lists);
      home.slides = lists;
    }),
    api(config, { act: 'system' }, { loading: false }).then(
      (system) => void (home.notice = system.scroll_notice ?? ''),
    ),
  ]);
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed) throw failed.reason;
}

let startedAtStart: Promise<void> | null = null;

/**
 * An app start on Home (app/routes.ts): the slides and notice start loading as the page's code
 * arrives, so that its first render already shows them.
 */
export function prepareHome(): void {
  // What the document brought (its first screen painted them): the first render shows the same slides and coins.
  const data = documentData();
  const slides = data?.slides[currentLocale()];
  if (slides) Object.assign(home, { slides, lang: currentLocale() });
  takeDocumentCoins(data);
  startedAtStart ??= loadHome();
  startedAtStart.catch(() => undefined); // the page reports it
}

/** For the page as it opens: the load started at app start (taken once), or a new one. */
export function loadHomeForPage(): Promise<void> {
  const load = startedAtStart ?? loadHome();
  startedAtStart = null;
  return load;
}

/** The coins home lists: the first few in the server's order. */
export const topCoins = (codes: readonly string[], quotes: Readonly<Record<string, CoinQuote>>) =>
  codes
    .slice(0, TOP_COINS)
    .map((code) => quotes[code])
    .filter((quote): quote is CoinQuote => quote !== undefined);

/** "+1.25%" or "-0.40%" and whether it rose; no change counts as a rise. */
export function coinChange(change: string): { up: boolean; text: string } {
  const value = new Big(change || '0');
  const up = value.gte(0);
  return { up, text: `${up ? '+' : '-'}${formatAmount(value.abs().toFixed(2), 2)}%` };
}
