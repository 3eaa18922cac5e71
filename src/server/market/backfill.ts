// No holes in the charts: the minutes the index did not see live (a first start, a restart, a
// disconnect) are filled from the exchanges' REST 1-minute candles, each field the median of the
// exchanges that answered and the volume their sum. A minute already recorded live is never
// overwritten. An exchange that is down, slow or answering garbage is logged and left out.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';
import { candles as candleTable } from '../db/schema.ts';
import type { Exchange, ExchangeCandle } from './exchanges/exchange.ts';
import type { IndexedCoin } from './index-feed.ts';
import { median } from './index-rule.ts';

/** A first start loads this much history; a longer gap is filled this far back at most. */
export const BACKFILL_MAX_MS = 24 * 3600_000;
const REQUEST_TIMEOUT_MS = 10_000;

export interface BackfillOptions {
  now: Date;
  log: (line: string) => void;
  /** GETs a URL's JSON (tests may count or slow it); the default is fetch with a 10 s timeout. */
  getJson?: (url: string) => Promise<unknown>;
}

const getJsonByFetch = async (url: string) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json() as Promise<unknown>;
};

/** Fills each coin's missing minutes from its last recorded candle (or 24 h back) up to the minute before `now`. Returns the minutes written. */
export async function backfillCandles(
  db: Executor,
  exchanges: readonly Exchange[],
  coins: readonly IndexedCoin[],
  { now, log, getJson = getJsonByFetch }: BackfillOptions,
): Promise<number> {
  const until = Math.floor(now.getTime() / 60_000) * 60_000; // the current minute is still live
  let written = 0;
  for (const coin of coins) {
    const [last] = rowsOf<{ minute: Date | string | null }>(await db.execute(sql`select max(minute) as minute from candles_1m where coin = ${coin.code}`));
    const from = Math.max(until - BACKFILL_MAX_MS, last?.minute ? new Date(last.minute).getTime() + 60_000 : 0);
    if (from >= until) continue;
    const byMinute = new Map<number, ExchangeCandle[]>();
    for (const exchange of exchanges) {
      const symbol = coin.symbols[exchange.name];
      if (!symbol) continue;
      try {
        for (const candle of await candlesBetween(exchange, symbol, from, until, getJson)) {
          const list = byMinute.get(candle.minute.getTime()) ?? [];
          list.push(candle);
          byMinute.set(candle.minute.getTime(), list);
        }
      } catch (error) {
        log(`${exchange.label}: no candles for ${coin.code} (${(error as Error).message}); filled from the other exchanges`);
      }
    }
    const rows = [...byMinute].map(([minute, list]) => ({
      coin: coin.code,
      minute: new Date(minute),
      open: median(list.map((c) => c.open)).toFixed(),
      high: median(list.map((c) => c.high)).toFixed(),
      low: median(list.map((c) => c.low)).toFixed(),
      close: median(list.map((c) => c.close)).toFixed(),
      volume: list.reduce((sum, c) => sum.plus(c.volume), new Big(0)).toFixed(),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await db
        .insert(candleTable)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ minute: candleTable.minute });
      written += inserted.length;
    }
  }
  return written;
}

/** One exchange's candles of [from, until), page by page; a page that brings nothing new ends it. */
async function candlesBetween(exchange: Exchange, symbol: string, from: number, until: number, getJson: (url: string) => Promise<unknown>): Promise<ExchangeCandle[]> {
  const found: ExchangeCandle[] = [];
  let next = from;
  while (next < until) {
    const limit = Math.min(exchange.candlesPerRequest, Math.ceil((until - next) / 60_000));
    const page = exchange.parseCandles(await getJson(exchange.candlesUrl(symbol, new Date(next), limit))).filter((c) => c.minute.getTime() >= next && c.minute.getTime() < until);
    if (!page.length) break;
    found.push(...page);
    next = page.at(-1)!.minute.getTime() + 60_000;
  }
  return found;
}
