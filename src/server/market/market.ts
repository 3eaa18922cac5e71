// The market: records every tick and the one-minute candles in one transaction, keeps the latest
// price of each coin, answers the coin list and K-lines, and fans ticks out to live streams.
import Big from 'big.js';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { candles, coins, priceTicks } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import type { Candle, CoinQuote, Period, TickEvent } from '../../contract/markets.ts';
import { PERIOD_SECONDS } from '../../contract/markets.ts';
import type { PriceFeed, Tick } from './feed.ts';

export interface Quote {
  price: string;
  at: Date;
}

/** Gets each step's events and their JSON, serialised once for every listener. */
type Listener = (ticks: TickEvent[], json: string) => void;

export interface Market {
  readonly simulated: boolean;
  record(ticks: Tick[]): Promise<void>;
  /** The latest recorded price of a coin (from memory, else the database). */
  quote(coin: string): Promise<Quote | null>;
  coinList(): Promise<CoinQuote[]>;
  klines(coin: string, period: Period, limit: number): Promise<Candle[]>;
  subscribe(listener: Listener): () => void;
  latestEvents(): TickEvent[];
  start(): void;
  stop(): Promise<void>;
}

const STATS_TTL_MS = 5_000;

export function createMarket(db: Db, feed: PriceFeed, clock: Clock, log: (error: unknown) => void = () => {}): Market {
  const latest = new Map<string, Quote>();
  const listeners = new Set<Listener>();
  let stats: { at: number; rows: Map<string, { open: string; high: string; low: string; volume: string }> } | null = null;

  async function record(ticks: Tick[]) {
    if (!ticks.length) return;
    const recorded = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(priceTicks)
        .values(ticks.map(({ coin, at, price }) => ({ coin, at, price })))
        .onConflictDoNothing()
        .returning({ coin: priceTicks.coin, at: priceTicks.at });
      // A tick already recorded (a repeat, a second process) must not move a candle or the price again.
      const fresh = new Set(inserted.map(({ coin, at }) => `${coin} ${at.getTime()}`));
      const kept = ticks.filter(({ coin, at }) => fresh.delete(`${coin} ${at.getTime()}`));
      if (kept.length) {
        await tx
          .insert(candles)
          .values(minuteCandles(kept))
          .onConflictDoUpdate({
            target: [candles.coin, candles.minute],
            set: {
              high: sql`greatest(${candles.high}, excluded.high)`,
              low: sql`least(${candles.low}, excluded.low)`,
              close: sql`excluded.close`,
              volume: sql`${candles.volume} + excluded.volume`,
            },
          });
      }
      return kept;
    });
    if (!recorded.length) return;
    for (const tick of recorded) {
      const known = latest.get(tick.coin);
      if (!known || known.at.getTime() <= tick.at.getTime()) latest.set(tick.coin, { price: tick.price, at: tick.at });
    }
    const events = recorded.map((tick) => ({ code: tick.coin, price: tick.price, at: tick.at.toISOString() }));
    const json = JSON.stringify(events);
    for (const listener of listeners) listener(events, json);
  }

  async function quote(coin: string): Promise<Quote | null> {
    const known = latest.get(coin);
    if (known) return known;
    return lastRecordedPrice(db, coin);
  }

  async function dayStats() {
    // Kept for 5 s of market time (the injected clock), like the 24 h window it summarises.
    const now = clock.now().getTime();
    if (stats && now >= stats.at && now - stats.at < STATS_TTL_MS) return stats.rows;
    const since = new Date(now - 24 * 3600_000);
    const result = await db.execute(sql`
      select coin,
        (array_agg(open order by minute))[1]::text as open,
        max(high)::text as high, min(low)::text as low, sum(volume)::text as volume
      from candles_1m where minute >= ${since.toISOString()}::timestamptz group by coin`);
    const rows = new Map(rowsOf<{ coin: string; open: string; high: string; low: string; volume: string }>(result).map((row) => [row.coin, row]));
    stats = { at: now, rows };
    return rows;
  }

  async function coinList(): Promise<CoinQuote[]> {
    const [listed, day] = await Promise.all([db.select().from(coins).where(eq(coins.active, true)).orderBy(asc(coins.sort), asc(coins.code)), dayStats()]);
    const quotes = await Promise.all(listed.map((coin) => quote(coin.code)));
    return listed.flatMap((coin, i) => {
      const current = quotes[i];
      if (!current) return [];
      const window = day.get(coin.code);
      const open = window ? new Big(window.open) : new Big(current.price);
      const change = open.eq(0) ? new Big(0) : new Big(current.price).minus(open).div(open).times(100);
      const decimals = coin.priceDecimals;
      return [
        {
          code: coin.code,
          name: coin.name,
          price: new Big(current.price).toFixed(decimals),
          at: current.at.toISOString(),
          change_24h: change.toFixed(2),
          open_24h: open.toFixed(decimals),
          high_24h: new Big(window?.high ?? current.price).toFixed(decimals),
          low_24h: new Big(window?.low ?? current.price).toFixed(decimals),
          volume_24h: new Big(window?.volume ?? 0).toFixed(2),
          price_decimals: decimals,
          simulated: feed.simulated,
        },
      ];
    });
  }

  async function klines(coin: string, period: Period, limit: number): Promise<Candle[]> {
    const seconds = PERIOD_SECONDS[period];
    const until = clock.now();
    const from = new Date(Math.floor(until.getTime() / 1000 / seconds - limit + 1) * seconds * 1000);
    const result = await db.execute(sql`
      select extract(epoch from date_bin(${`${seconds} seconds`}::interval, minute, timestamptz '2000-01-01'))::bigint as time,
        (array_agg(open order by minute))[1]::text as open,
        max(high)::text as high, min(low)::text as low,
        (array_agg(close order by minute desc))[1]::text as close,
        sum(volume)::text as volume
      from candles_1m
      where coin = ${coin} and minute >= ${from.toISOString()}::timestamptz and minute <= ${until.toISOString()}::timestamptz
      group by 1 order by 1`);
    return rowsOf<{ time: string | number | bigint; open: string; high: string; low: string; close: string; volume: string }>(result).map((row) => ({
      time: Number(row.time),
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      volume: row.volume,
    }));
  }

  return {
    simulated: feed.simulated,
    record,
    quote,
    coinList,
    klines,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    latestEvents: () => [...latest].map(([code, { price, at }]) => ({ code, price, at: at.toISOString() })),
    start() {
      feed.start((ticks) =>
        record(ticks).catch((error) => {
          log(error);
        }),
      );
    },
    stop: () => feed.stop(),
  };
}

/**
 * One candle row per coin and minute of a batch, in time order (an upsert cannot touch one row
 * twice in a statement, and a feed may deliver several ticks of a coin at once).
 */
function minuteCandles(ticks: Tick[]) {
  const rows = new Map<string, { coin: string; minute: Date; open: string; high: string; low: string; close: string; volume: string }>();
  for (const { coin, at, price, volume } of [...ticks].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    const key = `${coin} ${minute.getTime()}`;
    const row = rows.get(key);
    if (!row) rows.set(key, { coin, minute, open: price, high: price, low: price, close: price, volume });
    else {
      if (new Big(price).gt(row.high)) row.high = price;
      if (new Big(price).lt(row.low)) row.low = price;
      row.close = price;
      row.volume = new Big(row.volume).plus(volume).toFixed();
    }
  }
  return [...rows.values()];
}

/** The last price recorded at or before `at` (settlement's rule), or the latest one. */
export async function lastRecordedPrice(db: Executor, coin: string, at?: Date): Promise<Quote | null> {
  const [row] = await db
    .select({ price: priceTicks.price, at: priceTicks.at })
    .from(priceTicks)
    .where(at ? and(eq(priceTicks.coin, coin), lte(priceTicks.at, at)) : eq(priceTicks.coin, coin))
    .orderBy(desc(priceTicks.at))
    .limit(1);
  return row ?? null;
}
