// Live prices, shared by every screen that shows them: the coin list from the server, kept on
// the device (the last known prices stay on screen offline), updated by the price stream, which
// reconnects with a growing pause on a flaky network, resumes after the last step it got (no gap on
// a chart), notices a connection gone silent, and sleeps while the page is hidden.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { i18n } from '@lingui/core';
import {
  HALTS_EVENT,
  PRICE_STREAM_PATH,
  STREAM_STALL_MS,
  coinList,
  type CoinQuote,
  type TickEvent,
} from '../api-contract/markets.ts';
import { texts } from '../api-contract/texts.ts';
import { FRESH_READ_MS, api, apiUrl } from './api.ts';
import { persistedStore } from './storage.ts';
import { noteNetworkBack, offlineData } from './offline.ts';
import { documentData } from './first-data.ts';

export const prices = persistedStore('prices', {
  quotes: {} as Record<string, CoinQuote>,
  /** Order of the list as the server gave it. */
  codes: [] as string[],
  /** When the list was last confirmed by the server (ISO). */
  updatedAt: null as string | null,
});

/** `paused`: the page is hidden, so the stream is closed until it is shown again. */
export type StreamStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'paused';
export const priceStream = proxy({ status: 'idle' as StreamStatus });

export async function loadCoinList(options: { loading?: boolean } = {}): Promise<void> {
  const { lists } = await api(coinList, undefined, options);
  applyCoinList(lists, offlineData.asOf[coinList.path] ?? new Date().toISOString());
}

/**
 * The coins the page's document brought (lib/first-data.ts), for the first page's first render: the rows the HTML
 * painted stay as they were when the app takes the screen over. Whether it brought any.
 */
export function takeDocumentCoins(data = documentData()): boolean {
  if (data) applyCoinList(data.coins, data.at);
  return data !== null;
}

/**
 * A coin list the server gave, as of `asOf`. The service worker may answer from its cache (stale-while-revalidate): a
 * price already newer on screen (from the stream) stays, and the list is as old as the cached answer.
 */
function applyCoinList(lists: readonly CoinQuote[], asOf: string): void {
  const newest = (quote: CoinQuote) => {
    const known = prices.quotes[quote.code];
    return known && known.at > quote.at ? { ...known } : quote;
  };
  prices.quotes = Object.fromEntries(lists.map((quote) => [quote.code, newest(quote)]));
  prices.codes = lists.map((quote) => quote.code);
  prices.updatedAt = asOf;
}

/** The list on screen came from the server less than FRESH_READ_MS ago (not from a cache, not from the last visit). */
const coinListJustLoaded = () => prices.updatedAt !== null && Date.now() - Date.parse(prices.updatedAt) < FRESH_READ_MS;

/**
 * Applies streamed ticks: each coin's newest price, the 24 h change against the same opening price, and the
 * day's high and low over every step. A resumed stream brings many steps at once: each coin's quote is
 * written once (each write re-renders what shows it), not once per step.
 */
export function applyTicks(ticks: TickEvent[]): void {
  const steps = new Map<string, { last: TickEvent; high: Big; low: Big }>();
  for (const tick of ticks) {
    const quote = prices.quotes[tick.code];
    const seen = steps.get(tick.code);
    if (!quote || tick.at <= (seen?.last.at ?? quote.at)) continue;
    const price = new Big(tick.price);
    steps.set(tick.code, {
      last: tick,
      high: seen?.high.gt(price) ? seen.high : price,
      low: seen?.low.lt(price) ? seen.low : price,
    });
  }
  for (const [code, { last, high, low }] of steps) {
    const quote = prices.quotes[code]!;
    const price = new Big(last.price);
    const open = new Big(quote.open_24h);
    quote.price = price.toFixed(quote.price_decimals);
    quote.at = last.at;
    if (open.gt(0)) quote.change_24h = price.minus(open).div(open).times(100).toFixed(2);
    if (high.gt(quote.high_24h)) quote.high_24h = high.toFixed(quote.price_decimals);
    if (low.lt(quote.low_24h)) quote.low_24h = low.toFixed(quote.price_decimals);
  }
}

/** The stream said which coins are halted now: every other coin is not. */
export function applyHalts(halted: readonly string[]): void {
  for (const [code, quote] of Object.entries(prices.quotes)) {
    const now = halted.includes(code);
    if (quote.halted !== now) quote.halted = now;
  }
}

/** Why no order on `code` can be placed now: the market index has halted it (null when it has not). */
export function pausedText(code: string): string | null {
  if (!prices.quotes[code]?.halted) return null;
  // A named descriptor: Lingui's extractor cannot read an object literal with a spread here.
  const text = { ...texts.pricesPaused, values: { 0: code } };
  return i18n._(text);
}

type TickListener = (ticks: TickEvent[]) => void;
const tickListeners = new Set<TickListener>();
let source: EventSource | null = null;
let users = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let stallTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;
/** The id of the last step received: a reconnect asks the server for every step since. */
let lastEventId = '';

/** Pause before reconnect n: 1 s, 2 s, 4 s … at most 30 s. */
export const reconnectDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

const pageHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

function close(): void {
  clearTimeout(retryTimer);
  clearTimeout(stallTimer);
  source?.close();
  source = null;
}

/**
 * The screens take the stream's steps at most this often. One step a second (the market's pace) is
 * shown as it comes; a faster feed (the test clock, at 20 steps a second) or a resumed burst is shown
 * in batches: each coin's newest price, and the day's high and low over every step of the batch
 * (applyTicks). A phone repaints 4 times a second at most, not once per step.
 */
export const PRICE_PAINT_MS = 250;
let unpainted: TickEvent[] = [];
let paintTimer: ReturnType<typeof setTimeout> | undefined;
let paintedAt = -Infinity;

function paint(): void {
  paintTimer = undefined;
  paintedAt = Date.now();
  const ticks = unpainted;
  unpainted = [];
  applyTicks(ticks);
  for (const listener of tickListeners) listener(ticks);
  if (prices.updatedAt !== null && ticks.some((tick) => !prices.quotes[tick.code])) listAgain();
}

/** The list read again when the stream prices a coin it lacks, at most this often. */
const LIST_AGAIN_MS = 5_000;
let listAskedAt = -Infinity;

/**
 * A coin is listed once it has a price: one whose first price (the market index's first fair price
 * after a start) came after the list was read is missing from it, and its steps had nowhere to go. The
 * list again brings it, with its day's figures. (The service worker answers the list from its kept
 * copy while it fetches a fresh one: the coin may come with the next read, 5 s later.)
 */
function listAgain(): void {
  if (Date.now() - listAskedAt < LIST_AGAIN_MS) return;
  listAskedAt = Date.now();
  void loadCoinList({ loading: false }).catch(() => undefined);
}

function deliver(ticks: TickEvent[]): void {
  unpainted = unpainted.length ? unpainted.concat(ticks) : ticks;
  if (paintTimer !== undefined) return;
  const wait = Math.min(PRICE_PAINT_MS, paintedAt + PRICE_PAINT_MS - Date.now());
  if (wait <= 0) paint();
  else paintTimer = setTimeout(paint, wait);
}

/** The connection went down or silent: reconnect after a growing pause, resuming after the last step. */
function dropped(): void {
  close();
  failures += 1;
  priceStream.status = 'reconnecting';
  retryTimer = setTimeout(open, reconnectDelay(failures));
}

/** Any event (a step, a heartbeat) proves the connection alive; silence past the limit does not. */
function heard(): void {
  clearTimeout(stallTimer);
  stallTimer = setTimeout(dropped, STREAM_STALL_MS);
}

/** An event of the server arrived: the stream is alive and so is the network (a dropped call had said offline). */
function answered(): void {
  heard();
  noteNetworkBack();
}

function open(): void {
  close();
  if (typeof EventSource === 'undefined' || users === 0) return;
  if (pageHidden()) {
    priceStream.status = 'paused';
    return; // `visibilitychange` reopens it
  }
  if (navigator.onLine === false) {
    priceStream.status = 'reconnecting';
    return; // the `online` event reopens it
  }
  priceStream.status = failures ? 'reconnecting' : 'connecting';
  // A new EventSource cannot send Last-Event-ID itself: the server also reads it from `last`.
  const url = apiUrl(PRICE_STREAM_PATH);
  source = new EventSource(
    lastEventId ? `${url}${url.includes('?') ? '&' : '?'}last=${encodeURIComponent(lastEventId)}` : url,
  );
  heard();
  source.addEventListener('open', () => {
    failures = 0;
    priceStream.status = 'live';
    answered();
    // The list again for the day's figures, unless it has just come from the server (the read of an
    // app start): the stream's first event carries the latest prices, or every step since the last.
    if (!coinListJustLoaded()) void loadCoinList({ loading: false }).catch(() => undefined);
  });
  source.addEventListener('ticks', (event) => {
    const message = event as MessageEvent<string>;
    answered();
    if (message.lastEventId) lastEventId = message.lastEventId;
    deliver(JSON.parse(message.data) as TickEvent[]);
  });
  source.addEventListener(HALTS_EVENT, (event) => {
    answered();
    applyHalts(JSON.parse((event as MessageEvent<string>).data) as string[]);
  });
  source.addEventListener('heartbeat', answered);
  // Away longer than the server resends: the latest prices, and the list again for the day's figures.
  source.addEventListener('reset', (event) => {
    const message = event as MessageEvent<string>;
    answered();
    if (message.lastEventId) lastEventId = message.lastEventId;
    deliver(JSON.parse(message.data) as TickEvent[]);
    void loadCoinList({ loading: false }).catch(() => undefined);
  });
  source.addEventListener('error', dropped);
}

function reopenWhenOnline() {
  failures = 0;
  if (users > 0 && !source) open();
}

/** A hidden page holds no connection; shown again, it resumes with the steps it missed. */
function followVisibility() {
  if (pageHidden()) {
    close();
    priceStream.status = 'paused';
  } else if (users > 0 && !source) {
    failures = 0;
    open();
  }
}

/** Keeps the stream open while at least one screen uses it; returns the release. */
export function subscribePrices(onTicks?: TickListener): () => void {
  users += 1;
  if (onTicks) tickListeners.add(onTicks);
  if (users === 1) {
    addEventListener('online', reopenWhenOnline);
    document.addEventListener('visibilitychange', followVisibility);
    open();
  }
  return () => {
    users -= 1;
    if (onTicks) tickListeners.delete(onTicks);
    if (users > 0) return;
    removeEventListener('online', reopenWhenOnline);
    document.removeEventListener('visibilitychange', followVisibility);
    close();
    priceStream.status = 'idle';
  };
}
