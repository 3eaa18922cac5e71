// Live prices, shared by every screen that shows them: the coin list from the server, kept on
// the device (the last known prices stay on screen offline), updated by the price stream, which
// reconnects with a growing pause on a flaky network.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { PRICE_STREAM_PATH, coinList, type CoinQuote, type TickEvent } from '../contract/markets.ts';
import { api, apiUrl } from './api.ts';
import { persistedStore } from './storage.ts';
import { offlineData } from './offline.ts';

export const prices = persistedStore('prices', {
  quotes: {} as Record<string, CoinQuote>,
  /** Order of the list as the server gave it. */
  codes: [] as string[],
  /** When the list was last confirmed by the server (ISO). */
  updatedAt: null as string | null,
});

export type StreamStatus = 'idle' | 'connecting' | 'live' | 'reconnecting';
export const priceStream = proxy({ status: 'idle' as StreamStatus });

export async function loadCoinList(options: { loading?: boolean } = {}): Promise<void> {
  const { lists } = await api(coinList, undefined, options);
  // The service worker may answer from its cache (stale-while-revalidate): a price already
  // newer on screen (from the stream) stays, and the list is as old as the cached answer.
  const newest = (quote: CoinQuote) => {
    const known = prices.quotes[quote.code];
    return known && known.at > quote.at ? { ...known } : quote;
  };
  prices.quotes = Object.fromEntries(lists.map((quote) => [quote.code, newest(quote)]));
  prices.codes = lists.map((quote) => quote.code);
  prices.updatedAt = offlineData.asOf[coinList.path] ?? new Date().toISOString();
}

/** Applies streamed ticks: the new price, and the 24 h change against the same opening price. */
export function applyTicks(ticks: TickEvent[]): void {
  for (const tick of ticks) {
    const quote = prices.quotes[tick.code];
    if (!quote || tick.at <= quote.at) continue;
    const price = new Big(tick.price);
    const open = new Big(quote.open_24h);
    quote.price = price.toFixed(quote.price_decimals);
    quote.at = tick.at;
    if (open.gt(0)) quote.change_24h = price.minus(open).div(open).times(100).toFixed(2);
    if (price.gt(quote.high_24h)) quote.high_24h = quote.price;
    if (price.lt(quote.low_24h)) quote.low_24h = quote.price;
  }
}

type TickListener = (ticks: TickEvent[]) => void;
const tickListeners = new Set<TickListener>();
let source: EventSource | null = null;
let users = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

/** Pause before reconnect n: 1 s, 2 s, 4 s … at most 30 s. */
export const reconnectDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

function open(): void {
  clearTimeout(retryTimer);
  if (typeof EventSource === 'undefined' || users === 0) return;
  if (navigator.onLine === false) {
    priceStream.status = 'reconnecting';
    return; // the `online` event reopens it
  }
  priceStream.status = failures ? 'reconnecting' : 'connecting';
  source = new EventSource(apiUrl(PRICE_STREAM_PATH));
  source.addEventListener('open', () => {
    failures = 0;
    priceStream.status = 'live';
    void loadCoinList({ loading: false }).catch(() => undefined);
  });
  source.addEventListener('ticks', (event) => {
    const ticks = JSON.parse((event as MessageEvent<string>).data) as TickEvent[];
    applyTicks(ticks);
    for (const listener of tickListeners) listener(ticks);
  });
  source.addEventListener('error', () => {
    source?.close();
    source = null;
    failures += 1;
    priceStream.status = 'reconnecting';
    retryTimer = setTimeout(open, reconnectDelay(failures));
  });
}

function reopenWhenOnline() {
  failures = 0;
  if (users > 0 && !source) open();
}

/** Keeps the stream open while at least one screen uses it; returns the release. */
export function subscribePrices(onTicks?: TickListener): () => void {
  users += 1;
  if (onTicks) tickListeners.add(onTicks);
  if (users === 1) {
    addEventListener('online', reopenWhenOnline);
    open();
  }
  return () => {
    users -= 1;
    if (onTicks) tickListeners.delete(onTicks);
    if (users > 0) return;
    removeEventListener('online', reopenWhenOnline);
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    priceStream.status = 'idle';
  };
}
