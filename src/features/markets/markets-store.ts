// Markets (the coin list, the K-line chart): the list's refresh state and search, the chart's candles
// kept live from the price stream, and the number and time formats these screens show.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { klines, type Candle, type CoinQuote, type TickEvent } from '../../api-contract/markets.ts';
import { api, errorText } from '../../lib/api.ts';
import { FRAME_SECONDS, aggregateCandles, applyTick, frameSource, type Frame } from '../../lib/candles.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { loadCoinList, prices, takeDocumentCoins } from '../../lib/prices.ts';
import { formatAmount } from '../../lib/format.ts';
import { storeHydrated } from '../../lib/storage.ts';

export const coinListState = proxy({
  /** The last refresh of the list failed: what it said, and `prices.updatedAt` at that moment. */
  failure: null as { message: string; asOf: string | null } | null,
});

/** Refreshes the list; the mask shows only when there is nothing on the device to show meanwhile. */
export async function refreshCoinList(): Promise<void> {
  await storeHydrated(prices);
  try {
    await loadCoinList({ loading: prices.codes.length === 0 });
    coinListState.failure = null;
  } catch (error) {
    coinListState.failure = { message: errorText(error), asOf: prices.updatedAt };
  }
}

/** Whether this start's document brought the coin list Markets shows first (prepareMarkets). */
let listFromDocument = false;

/**
 * An app start on Markets (app/routes.ts): the coins the page's document brought and painted, for the first render.
 */
export function prepareMarkets(): void {
  listFromDocument = takeDocumentCoins();
}

/**
 * As Markets opens: the list again, unless this start's document has just brought it (the stream keeps its prices
 * from there).
 */
export async function refreshCoinListOnOpen(): Promise<void> {
  if (listFromDocument) {
    listFromDocument = false;
    return;
  }
  await refreshCoinList();
}

/** Fetches the list only when the device holds none (a deep link to a coin, say). */
export async function ensureCoinList(): Promise<void> {
  await storeHydrated(prices);
  if (prices.codes.length === 0) await refreshCoinList();
}

/** Offline since the failed refresh: a later success (the stream refreshes on connect) moves updatedAt on. */
export const isListStale = (failure: { asOf: string | null } | null, updatedAt: string | null) =>
  failure !== null && failure.asOf === updatedAt;

/** The coins in the server's order whose code or name contains the query (any case). */
export function searchCoins(
  codes: readonly string[],
  quotes: Readonly<Record<string, CoinQuote>>,
  query: string,
): CoinQuote[] {
  const needle = query.trim().toLowerCase();
  return codes
    .map((code) => quotes[code])
    .filter((quote): quote is CoinQuote => quote !== undefined)
    .filter(
      (quote) => !needle || quote.code.toLowerCase().includes(needle) || quote.name.toLowerCase().includes(needle),
    );
}

/** "+1.25 %" or "-0.40 %" with the direction for its colour; a zero change counts as up. */
export function formatChange(change: string): { up: boolean; text: string } {
  const value = new Big(change || '0');
  const up = value.gte(0);
  return { up, text: `${up ? '+' : '-'}${formatAmount(value.abs().toFixed(2), 2)}%` };
}

const compactFormats = new Map<string, Intl.NumberFormat>();
/** A volume for a glance: 1.2K, 3.45M (not money: a float is fine here). */
export function formatCompact(value: string): string {
  const locale = intlLocale(currentLocale());
  let format = compactFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2, numberingSystem: 'latn' });
    compactFormats.set(locale, format);
  }
  return format.format(Number(value));
}

export { formatClock } from '../../lib/format.ts';

export const coinChart = proxy({
  code: '',
  /** The time frame shown (the page keeps the one chosen on the device, in chartSettings). */
  period: '1m' as Frame,
  candles: [] as Candle[],
  status: 'idle' as 'idle' | 'loading' | 'ready' | 'failed',
  error: '',
});

let chartRequest = 0;
/**
 * Loads the last 200 candles of a coin and time frame (4 h: made of the last 500 hours); an answer
 * to an older request is dropped.
 */
export async function loadCandles(code: string, period: Frame): Promise<void> {
  const request = ++chartRequest;
  if (coinChart.code !== code || coinChart.period !== period) coinChart.candles = [];
  coinChart.code = code;
  coinChart.period = period;
  coinChart.status = 'loading';
  const source = frameSource(period);
  const limit = source.per > 1 ? '500' : '200';
  try {
    const { lists } = await api(
      klines,
      { code, period: source.period, limit },
      { loading: coinChart.candles.length === 0 },
    );
    if (request !== chartRequest) return;
    coinChart.candles = source.per > 1 ? aggregateCandles(lists, FRAME_SECONDS[period]) : lists;
    coinChart.status = 'ready';
  } catch (error) {
    if (request !== chartRequest) return;
    coinChart.error = errorText(error);
    coinChart.status = 'failed';
  }
}

/** Feeds streamed ticks of the charted coin into its candles. */
export function applyTicksToChart(ticks: readonly TickEvent[]): void {
  if (coinChart.status !== 'ready') return;
  for (const tick of ticks) {
    if (tick.code === coinChart.code)
      coinChart.candles = applyTick(coinChart.candles, tick, FRAME_SECONDS[coinChart.period]) as Candle[];
  }
}
