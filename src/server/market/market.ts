// The market: records every tick and the one-minute candles in one transaction, keeps the latest
// price of each coin, answers the coin list and K-lines, and fans ticks out to live streams.
// With several server processes on one database (a lease given), exactly one of them — the lease
// holder — runs the feed and records; every other one follows: it reads the ticks recorded since its
// last one and fans them out the same way, so every process quotes the same latest price and every
// stream sends the same events. A follower that finds the lease free or expired takes the feed over.
// Each recording notifies (pg_notify, on commit): a follower reads at once instead of at its next poll.
import Big from 'big.js';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { CHANGES_CHANNEL, EVERYTHING, type Changes } from '../db/changes.ts';
import { candles, coins, marketHalts, priceTicks } from '../db/schema.ts';
import type { Clock } from '../domain/clock.ts';
import type { Candle, CoinQuote, Period, PriceSource, TickEvent } from '../../api-contract/markets.ts';
import { PERIOD_SECONDS } from '../../api-contract/markets.ts';
import type { PriceFeed, Tick } from './feed.ts';
import { LEASE_RENEW_MS, type Lease } from './lease.ts';

export interface Quote {
  price: string;
  at: Date;
}

/**
 * What the market says of a coin now, as a process holds it in memory: an order reads it before its transaction, so it
 * is not read again from the tables inside it.
 */
export interface MarketNow {
  /** The market index has halted the coin (too few fresh exchange prices): no order may use its price. */
  halted: boolean;
  /** The latest recorded price of the coin (null: none yet). */
  quote: Quote | null;
}

/** The coin's MarketNow from `market` (its halts, its latest price: memory, else the database through `executor`). */
export async function marketNow(market: Market, coin: string, executor?: Executor): Promise<MarketNow> {
  return { halted: market.halted().has(coin), quote: await market.quote(coin, executor) };
}

/** Gets each step's events and their JSON, serialised once for every listener. */
type Listener = (ticks: TickEvent[], json: string) => void;

export interface Market {
  /** Where the prices come from (the feed's), carried by every answer that shows one. */
  readonly source: PriceSource;
  /**
   * Records one step of ticks and the coins the feed halted at that step (fenced by the lease when
   * there is one: a process that lost it writes nothing).
   */
  record(ticks: Tick[], halted?: readonly string[]): Promise<void>;
  /** Coins halted now (no order may use their price): the feed holder's last step, as recorded. */
  halted(): ReadonlySet<string>;
  /** Called with the coins halted whenever that set changes (in this process: recorded, or read as a follower). */
  onHalts(listener: (halted: readonly string[]) => void): () => void;
  /** The latest recorded price of a coin (from memory, else the database: `executor` when given). */
  quote(coin: string, executor?: Executor): Promise<Quote | null>;
  coinList(): Promise<CoinQuote[]>;
  klines(coin: string, period: Period, limit: number, executor?: Executor): Promise<Candle[]>;
  subscribe(listener: Listener): () => void;
  latestEvents(): TickEvent[];
  /** True while this process runs the feed (it holds the lease, or runs alone without one). */
  leads(): boolean;
  start(): void;
  stop(): Promise<void>;
}

export interface MarketOptions {
  /** Several processes on one database: only the holder of this lease runs the feed. */
  lease?: Lease;
  /** Real milliseconds between a follower's reads of newly recorded ticks (when no notice wakes it sooner). */
  followIntervalMs?: number;
  /** The database's change notices: a follower reads the moment another process records a step. */
  changes?: Pick<Changes, 'subscribe'>;
  /** Real milliseconds between renewals of the lease (or attempts to take it over). */
  leaseRenewMs?: number;
}

/** Rows a follower reads at once; a full page is cut before its last step so no step is split. */
const FOLLOW_PAGE = 5_000;
/** The change notice of a recorded step (like the triggers' notices, the table's name). */
export const TICKS_NOTICE = 'price_ticks';

class LeaseLost extends Error {}

/** One spelling of a recorded price whichever process says it: the feed's digits, no padding zeros. */
const canonical = (price: string) => new Big(price).toFixed();

const STATS_TTL_MS = 5_000;

export function createMarket(
  db: Db,
  feed: PriceFeed,
  clock: Clock,
  log: (error: unknown) => void = () => {},
  options: MarketOptions = {},
): Market {
  const { lease, followIntervalMs = 250, leaseRenewMs = LEASE_RENEW_MS, changes } = options;
  const source: PriceSource = { simulated: feed.simulated, seeded: feed.seeded, exchanges: feed.exchanges };
  const latest = new Map<string, Quote>();
  let haltedCoins: ReadonlySet<string> = new Set<string>();
  /** haltedCoins is what the database holds (a crashed run may have left halts behind). */
  let haltsSynced = false;
  const listeners = new Set<Listener>();
  const haltListeners = new Set<(halted: readonly string[]) => void>();
  /** The last recorded second this process has published (a follower reads after it). */
  let seen = new Date(0);
  type Role = 'idle' | 'alone' | 'follower' | 'leader';
  let role: Role = 'idle';
  let leaseLost = false;
  let stopping = false;
  let wake: (() => void) | null = null;
  /** A step was recorded elsewhere since the follower last started reading. */
  let recordedElsewhere = false;
  let coordinating: Promise<void> = Promise.resolve();
  let stats: { at: number; rows: Map<string, { open: string; high: string; low: string; volume: string }> } | null =
    null;

  async function record(ticks: Tick[], halted: readonly string[] = []) {
    // Nothing to write: no tick, and no halt begun or ended.
    if (
      haltsSynced &&
      !ticks.length &&
      halted.length === haltedCoins.size &&
      halted.every((coin) => haltedCoins.has(coin))
    )
      return;
    let recorded: Tick[];
    try {
      recorded = await db.transaction(async (tx) => {
        // First, so the lease row stays locked until this commits: no one takes over meanwhile, and a
        // process that lost the lease (it hung past the TTL) writes nothing.
        if (lease && !(await lease.confirm(tx))) throw new LeaseLost();
        await recordHalts(tx, halted, ticks[0]?.at ?? clock.now());
        if (!ticks.length) return [];
        const inserted = await tx
          .insert(priceTicks)
          .values(
            ticks.map(({ coin, at, price, constituents }) => ({
              coin,
              at,
              price,
              constituents:
                constituents?.map((c) => ({
                  exchange: c.exchange,
                  price: c.price,
                  at: c.at.toISOString(),
                  tradeId: c.tradeId,
                })) ?? null,
            })),
          )
          .onConflictDoNothing()
          .returning({ coin: priceTicks.coin, at: priceTicks.at });
        // A tick already recorded (a repeat) must not move a candle or the price again.
        const fresh = new Set(inserted.map(({ coin, at }) => `${coin} ${at.getTime()}`));
        const kept = ticks.filter(({ coin, at }) => fresh.delete(`${coin} ${at.getTime()}`));
        if (kept.length) {
          // Delivered on commit to every process listening (db/changes.ts): the followers read at once.
          await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${TICKS_NOTICE})`);
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
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      // Another process runs the feed now: stop ours and follow (done by the coordinator, not here,
      // since stopping the feed waits for this very call).
      leaseLost = true;
      wake?.();
      return;
    }
    setHalts(halted);
    publish(recorded);
  }

  /** The halts as of this step: new ones begin now, ended ones are deleted (before the step's ticks, in its
   * transaction). */
  async function recordHalts(tx: Executor, halted: readonly string[], at: Date) {
    if (haltsSynced && !halted.length && !haltedCoins.size) return; // the simulator's every step
    const list = `{${halted.join(',')}}`;
    await tx.execute(sql`delete from market_halts where not (coin = any(${list}::text[]))`);
    if (halted.length)
      await tx
        .insert(marketHalts)
        .values(halted.map((coin) => ({ coin, since: at })))
        .onConflictDoNothing();
  }

  /** The halts now in force, told to the listeners when they changed. */
  function setHalts(halted: readonly string[]) {
    const changed = halted.length !== haltedCoins.size || halted.some((coin) => !haltedCoins.has(coin));
    haltedCoins = new Set(halted);
    haltsSynced = true;
    if (!changed) return;
    const now = [...haltedCoins].sort();
    for (const listener of haltListeners) listener(now);
  }

  /** Keeps the latest prices and sends one step's events to every listener of this process. */
  function publish(ticks: { coin: string; at: Date; price: string }[]) {
    if (!ticks.length) return;
    for (const tick of ticks) {
      const known = latest.get(tick.coin);
      if (!known || known.at.getTime() <= tick.at.getTime())
        latest.set(tick.coin, { price: canonical(tick.price), at: tick.at });
      if (tick.at.getTime() > seen.getTime()) seen = tick.at;
    }
    const events = stepEvents(ticks);
    const json = JSON.stringify(events);
    for (const listener of listeners) listener(events, json);
  }

  /** A follower's read: the ticks recorded since the last one published, one event per step, in the feed's (listing)
   * order. */
  async function follow() {
    setHalts((await db.select({ coin: marketHalts.coin }).from(marketHalts)).map((row) => row.coin));
    for (;;) {
      const { steps, full } = await recordedSteps(db, seen, FOLLOW_PAGE);
      for (const step of steps) publish(step);
      if (!full) return;
    }
  }

  /** On start: the latest recorded price of every coin (the stream's first snapshot) and where to follow from. */
  async function loadLatest() {
    const listed = await db.select({ code: coins.code }).from(coins).where(eq(coins.active, true));
    for (const { code } of listed) {
      const last = await lastRecordedPrice(db, code);
      if (last && !latest.has(code)) latest.set(code, { price: canonical(last.price), at: last.at });
      if (last && last.at.getTime() > seen.getTime()) seen = last.at;
    }
  }

  async function takeOver() {
    // Nothing can be recorded by anyone else now: publish what was, then continue after it.
    await follow();
    const listed = await db.select({ code: coins.code }).from(coins).where(eq(coins.active, true));
    const prices = new Map<string, string>();
    let after: Date | null = null;
    for (const { code } of listed) {
      const last = await lastRecordedPrice(db, code);
      if (!last) continue;
      prices.set(code, last.price);
      if (!after || last.at.getTime() > after.getTime()) after = last.at;
    }
    feed.resume?.({ prices, after });
    leaseLost = false;
    role = 'leader';
    startFeed();
  }

  async function stepDown() {
    role = 'follower';
    await feed.stop();
  }

  function startFeed() {
    feed.start((ticks, halted) =>
      record(ticks, halted).catch((error) => {
        log(error);
      }),
    );
  }

  /** Leader or follower: renews or tries the lease every second, and follows in between. */
  async function coordinate(held: Lease) {
    const stopNotices = changes?.subscribe((notice) => {
      if (notice !== TICKS_NOTICE && notice !== EVERYTHING) return;
      recordedElsewhere = true;
      if (role === 'follower') wake?.();
    });
    try {
      await leadOrFollow(held);
    } finally {
      stopNotices?.();
    }
  }

  async function leadOrFollow(held: Lease) {
    // Where to follow from; without it a follower would replay the whole table to its streams.
    for (;;) {
      try {
        await loadLatest();
        break;
      } catch (error) {
        log(error);
        if (stopping) return;
        await new Promise((resolve) => setTimeout(resolve, leaseRenewMs));
      }
    }
    role = 'follower' as Role; // (the awaited steps below change it)
    let leaseDue = 0;
    while (!stopping) {
      try {
        if (leaseLost && role === 'leader') await stepDown();
        if (Date.now() >= leaseDue) {
          leaseDue = Date.now() + leaseRenewMs;
          const holds = await held.acquire();
          if (role === 'leader' && !holds) await stepDown();
          else if (role === 'follower' && holds && !stopping) await takeOver();
          else if (role === 'follower') {
            // Try again right when the holder's lease runs out, if that is sooner: a quicker takeover.
            const left = await held.expiresIn();
            if (left !== null) leaseDue = Math.min(leaseDue, Date.now() + Math.max(0, left) + 10);
          }
        }
        if (role === 'follower') {
          recordedElsewhere = false;
          await follow();
        }
      } catch (error) {
        log(error);
      }
      if (stopping) break;
      // Notified while reading: read again now.
      if (recordedElsewhere && role === 'follower') continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const timer = setTimeout(
          done,
          role === 'leader'
            ? Math.max(0, leaseDue - Date.now())
            : Math.min(followIntervalMs, Math.max(0, leaseDue - Date.now())),
        );
        wake = done;
      });
    }
  }

  async function quote(coin: string, executor: Executor = db): Promise<Quote | null> {
    const known = latest.get(coin);
    if (known) return known;
    return lastRecordedPrice(executor, coin);
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
    const rows = new Map(
      rowsOf<{ coin: string; open: string; high: string; low: string; volume: string }>(result).map((row) => [
        row.coin,
        row,
      ]),
    );
    stats = { at: now, rows };
    return rows;
  }

  async function coinList(): Promise<CoinQuote[]> {
    const [listed, day] = await Promise.all([
      db.select().from(coins).where(eq(coins.active, true)).orderBy(asc(coins.sort), asc(coins.code)),
      dayStats(),
    ]);
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
          ...source,
          halted: haltedCoins.has(coin.code),
        },
      ];
    });
  }

  async function klines(coin: string, period: Period, limit: number, executor: Executor = db): Promise<Candle[]> {
    const seconds = PERIOD_SECONDS[period];
    const until = clock.now();
    const from = new Date(Math.floor(until.getTime() / 1000 / seconds - limit + 1) * seconds * 1000);
    const result = await executor.execute(sql`
      select extract(epoch from date_bin(${`${seconds} seconds`}::interval, minute, timestamptz '2000-01-01'))::bigint as time,
        (array_agg(open order by minute))[1]::text as open,
        max(high)::text as high, min(low)::text as low,
        (array_agg(close order by minute desc))[1]::text as close,
        sum(volume)::text as volume
      from candles_1m
      where coin = ${coin} and minute >= ${from.toISOString()}::timestamptz and minute <= ${until.toISOString()}::timestamptz
      group by 1 order by 1`);
    return rowsOf<{
      time: string | number | bigint;
      open: string;
      high: string;
      low: string;
      close: string;
      volume: string;
    }>(result).map((row) => ({
      time: Number(row.time),
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      volume: row.volume,
    }));
  }

  return {
    source,
    record,
    quote,
    coinList,
    klines,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    latestEvents: () => [...latest].map(([code, { price, at }]) => ({ code, price, at: at.toISOString() })),
    leads: () => role === 'leader' || role === 'alone',
    halted: () => haltedCoins,
    onHalts(listener) {
      haltListeners.add(listener);
      return () => haltListeners.delete(listener);
    },
    start() {
      if (role !== 'idle') return;
      stopping = false;
      if (!lease) {
        role = 'alone';
        startFeed();
        return;
      }
      coordinating = coordinate(lease);
    },
    async stop() {
      stopping = true;
      wake?.();
      await coordinating;
      const led = role === 'leader';
      if (role !== 'idle') await feed.stop();
      role = 'idle';
      // After the feed stopped, so no tick follows the release: the next process takes over at once.
      if (led && lease) await lease.release().catch(log);
    },
  };
}

/**
 * One candle row per coin and minute of a batch, in time order (an upsert cannot touch one row
 * twice in a statement, and a feed may deliver several ticks of a coin at once).
 */
function minuteCandles(ticks: Tick[]) {
  const rows = new Map<
    string,
    { coin: string; minute: Date; open: string; high: string; low: string; close: string; volume: string }
  >();
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
export interface RecordedTick {
  coin: string;
  at: Date;
  price: string;
}

/**
 * The steps recorded after `after`, oldest first, each in the feed's (listing) order. A page of
 * `rows` rows is cut before its last step so no step is split: `full` says to read again from the
 * last step returned.
 */
export async function recordedSteps(
  db: Executor,
  after: Date,
  rows: number,
): Promise<{ steps: RecordedTick[][]; full: boolean }> {
  const ticks = rowsOf<{ coin: string; at: Date | string; price: string }>(
    await db.execute(sql`
      select t.coin, t.at, t.price::text as price from price_ticks t left join coins c on c.code = t.coin
      where t.at > ${after.toISOString()}::timestamptz order by t.at, c.sort, t.coin limit ${rows}`),
  ).map((row) => ({ coin: row.coin, at: new Date(row.at), price: canonical(row.price) }));
  const steps: RecordedTick[][] = [];
  for (const tick of ticks) {
    const step = steps.at(-1);
    if (step && step[0]!.at.getTime() === tick.at.getTime()) step.push(tick);
    else steps.push([tick]);
  }
  const full = ticks.length === rows && steps.length > 1;
  if (full) steps.pop(); // maybe cut short: read again from its start
  return { steps, full };
}

/** A step as the stream sends it. */
export const stepEvents = (step: RecordedTick[]): TickEvent[] =>
  step.map((tick) => ({ code: tick.coin, price: canonical(tick.price), at: tick.at.toISOString() }));

export async function lastRecordedPrice(db: Executor, coin: string, at?: Date): Promise<Quote | null> {
  const [row] = await db
    .select({ price: priceTicks.price, at: priceTicks.at })
    .from(priceTicks)
    .where(at ? and(eq(priceTicks.coin, coin), lte(priceTicks.at, at)) : eq(priceTicks.coin, coin))
    .orderBy(desc(priceTicks.at))
    .limit(1);
  return row ?? null;
}
