// @vitest-environment jsdom
// The data a page's document brings (api-contract/first-data.ts): the first page takes it before its first render, so
// the app draws the coins and slides the HTML painted. Markets and Home take the coins (a price the device already has
// newer stays); Home takes its slides in the app's language. A document without data, or with data that does not
// read, changes nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_DATA_ID, firstDataJson, type FirstData } from '../../src/api-contract/first-data.ts';
import { home, prepareHome } from '../../src/features/home/home-store.ts';
import { prepare as prepareMarkets } from '../../src/features/markets/CoinListPage.tsx';
import { currentLocale } from '../../src/lib/i18n.ts';
import { prices } from '../../src/lib/prices.ts';
import { refreshCoinListOnOpen } from '../../src/features/markets/markets-store.ts';
import { coinQuote, envelope, resetClientState, stubFetch } from './helpers.ts';

const DATA: FirstData = {
  at: '2026-11-28T12:00:00.000Z',
  coins: [
    coinQuote('BTC', '97000.00', '2026-11-28T12:00:00.000Z'),
    coinQuote('ETH', '3400.00', '2026-11-28T12:00:00.000Z'),
  ],
  slides: {
    en: [{ id: 1, title: 'Options in </script> minutes', image: '/slides/slide-1.svg', link: '' }],
    zh: [{ id: 1, title: '几分钟内交易期权', image: '/slides/slide-1.svg', link: '' }],
  },
};

/** The document's data element, as the server writes it. */
function documentWith(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = FIRST_DATA_ID;
  element.textContent = text;
  document.head.append(element);
}

beforeEach(() => {
  resetClientState();
  Object.assign(prices, { quotes: {}, codes: [], updatedAt: null });
  Object.assign(home, { slides: [], notice: '', lang: '' });
});
afterEach(() => {
  document.getElementById(FIRST_DATA_ID)?.remove();
  resetClientState();
  vi.unstubAllGlobals();
});

describe('the data a document brings', () => {
  it('Markets takes the coins at once, in the server’s order, as of when the server read them', () => {
    documentWith(firstDataJson(DATA));
    prepareMarkets();
    expect(prices.codes).toEqual(['BTC', 'ETH']);
    expect(prices.quotes.BTC).toEqual(DATA.coins[0]);
    expect(prices.updatedAt).toBe(DATA.at);
  });

  it('a price the device has from later stays', () => {
    const later = coinQuote('BTC', '97100.00', '2026-11-28T12:00:05.000Z');
    Object.assign(prices, { quotes: { BTC: later }, codes: ['BTC'] });
    documentWith(firstDataJson(DATA));
    prepareMarkets();
    expect(prices.quotes.BTC!.price).toBe('97100.00');
    expect(prices.quotes.ETH!.price).toBe('3400.00');
  });

  it('Home takes its slides in the app’s language and the coins before any answer', () => {
    const { fetch } = stubFetch(envelope(1, 'Success', {}));
    // The calls Home makes afterwards never answer here: what shows is the document's.
    fetch.mockImplementation(() => new Promise(() => {}));
    documentWith(firstDataJson(DATA));
    prepareHome();
    expect(currentLocale()).toBe('en');
    expect(home.slides).toEqual(DATA.slides.en);
    expect(home.slides[0]!.title).toBe('Options in </script> minutes');
    expect(home.lang).toBe('en');
    expect(prices.codes).toEqual(['BTC', 'ETH']);
  });

  it('Markets does not read again the list its start’s document brought; it reads it when opened again', async () => {
    const { calls } = stubFetch(envelope(1, 'Success', { lists: DATA.coins, page: 1, total: 2 }));
    documentWith(firstDataJson(DATA));
    prepareMarkets();
    await refreshCoinListOnOpen();
    expect(calls).toHaveLength(0);
    await refreshCoinListOnOpen();
    expect(calls.map((call) => new URL(call.request.url).pathname)).toEqual(['/api/coin/lists']);
  });

  it('Markets started without data in its document reads the list as it opens', async () => {
    const { calls } = stubFetch(envelope(1, 'Success', { lists: DATA.coins, page: 1, total: 2 }));
    prepareMarkets();
    await refreshCoinListOnOpen();
    expect(calls).toHaveLength(1);
    expect(prices.codes).toEqual(['BTC', 'ETH']);
  });

  it('a document without data, or with data that does not read, changes nothing', () => {
    prepareMarkets();
    expect(prices.codes).toEqual([]);
    documentWith('{"at": "2026-11-28T12:00:00.000Z", "coins": [');
    prepareMarkets();
    expect(prices.codes).toEqual([]);
    expect(prices.updatedAt).toBeNull();
  });
});
