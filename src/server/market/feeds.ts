// Which price feed the server runs, by configuration (PRICE_FEED): the simulator (the default, it
// needs no network) or the index of public exchanges. Both implement PriceFeed; nothing else changes.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { EVERYTHING, type Changes } from '../db/changes.ts';
import { coins, contractPairs } from '../db/schema.ts';
import type { Clock } from '../domain/clock.ts';
import type { PriceFeed } from './feed.ts';
import { lastRecordedPrice } from './market.ts';
import { simulatedFeed } from './simulator.ts';
import { indexFeed } from './index-feed.ts';
import type { Exchange } from './exchanges/exchange.ts';
import { keepCandlesWhole, type CandleKeeper } from './backfill.ts';

export interface FeedOptions {
  name: string;
  /** The simulator's seed, for a replay only; null (the default) makes its prices unpredictable. */
  seed: number | null;
  clock: Clock;
  /** Real milliseconds between steps. */
  intervalMs: number;
  /** PRICE_FEED=index: the exchanges it reads. */
  exchanges?: Exchange[];
  log?: (line: string) => void;
  /** PRICE_FEED=index: real milliseconds between the passes that fill the charts' holes (default: a market minute). */
  backfillEveryMs?: number;
  /**
   * The database's change notices: each coin's tick is read again when the coins or a pair's tick change (an
   * operator's command, by any process), so the feed records on the new tick from its next step. Without them the
   * ticks read when the feed is made stay.
   */
  changes?: Changes;
}

export const PRICE_FEEDS = ['simulator', 'index'];

/**
 * The decimals a price of a coin is recorded with (by either feed): the fewer of the coin's price decimals (what its
 * quotes, options and markets show) and its contract pair's tick (what contract orders show and price at; none when the
 * coin has no pair). A multiple of the coarser tick is a multiple of the finer one too, so every screen shows the
 * recorded price exactly, at its own decimals. Read when the feed is made, and again on every change notice of the
 * coins or of a pair's tick (followTicks).
 */
export function tickDecimals(coinDecimals: number, pairDecimals: number | undefined): number {
  return pairDecimals === undefined ? coinDecimals : Math.min(coinDecimals, pairDecimals);
}

export async function createFeed(db: Db, options: FeedOptions): Promise<PriceFeed> {
  if (!PRICE_FEEDS.includes(options.name))
    throw new Error(`Unknown PRICE_FEED "${options.name}" (known: ${PRICE_FEEDS.join(', ')})`);
  const listed = await db.select().from(coins).where(eq(coins.active, true)).orderBy(asc(coins.sort));
  const log = options.log ?? ((line: string) => console.log(line));
  const pairDecimals = await pairTicks(db);
  if (options.name === 'index') {
    const exchanges = options.exchanges ?? [];
    // Each coin's symbol on each exchange: the exchange's usual spelling unless the coin data names another ("" = not
    // listed there).
    const indexed = listed.map((coin) => ({
      code: coin.code,
      priceDecimals: tickDecimals(coin.priceDecimals, pairDecimals.get(coin.code)),
      symbols: Object.fromEntries(
        exchanges.flatMap((exchange) => {
          const symbol = coin.exchangeSymbols[exchange.name] ?? exchange.symbolOf(coin.code);
          return symbol ? [[exchange.name, symbol]] : [];
        }),
      ),
    }));
    followTicks(db, indexed, options.changes, log);
    // Whoever runs the feed (the lease holder) keeps the charts whole from the exchanges' candles while it runs it.
    let keeper: CandleKeeper | null = null;
    const everyMs = options.backfillEveryMs ?? 60 * options.intervalMs;
    const feed = indexFeed({
      exchanges,
      coins: indexed,
      clock: options.clock,
      log,
      intervalMs: options.intervalMs,
      onStart: () => {
        void keeper?.stop();
        keeper = keepCandlesWhole(db, exchanges, indexed, { clock: options.clock, log, everyMs });
      },
    });
    // Stopping the feed (the lease lost, a shutdown) ends the passes too: the next holder runs its own.
    const stopFeed = feed.stop;
    feed.stop = async () => {
      const passes = keeper?.stop();
      keeper = null;
      await Promise.all([stopFeed(), passes]);
    };
    return feed;
  }
  // Continue from the last recorded prices, so a restart does not jump back to the seed prices.
  const lastPrices = new Map<string, string>();
  for (const coin of listed) {
    const last = await lastRecordedPrice(db, coin.code);
    if (last) lastPrices.set(coin.code, last.price);
  }
  const simulated = listed.map((coin) => ({
    code: coin.code,
    startPrice: coin.startPrice,
    volatility: Number(coin.volatility),
    priceDecimals: tickDecimals(coin.priceDecimals, pairDecimals.get(coin.code)),
  }));
  followTicks(db, simulated, options.changes, log);
  return simulatedFeed({
    coins: simulated,
    seed: options.seed,
    clock: options.clock,
    lastPrices,
    intervalMs: options.intervalMs,
  });
}

/** Each contract pair's tick (price decimals), by coin. */
async function pairTicks(db: Db): Promise<Map<string, number>> {
  const pairs = await db
    .select({ coin: contractPairs.coin, priceDecimals: contractPairs.priceDecimals })
    .from(contractPairs);
  return new Map(pairs.map((pair) => [pair.coin, pair.priceDecimals]));
}

/**
 * Keeps `specs`' `priceDecimals` (the very objects the feed steps with) at tickDecimals of the database's coins and
 * pairs: read again on each notice of a change to the coins or a pair's tick (migration 0041), or to anything (the
 * channel reopened after a loss), one read at a time, in order. For the life of the process, like the feed itself. A
 * read that fails keeps the ticks as they were and is logged; the next notice reads again.
 */
function followTicks(
  db: Db,
  specs: { code: string; priceDecimals: number }[],
  changes: Changes | undefined,
  log: (line: string) => void,
): void {
  if (!changes) return;
  let reading = Promise.resolve();
  const read = async () => {
    const [listed, pairs] = await Promise.all([
      db.select({ code: coins.code, priceDecimals: coins.priceDecimals }).from(coins),
      pairTicks(db),
    ]);
    const coinDecimals = new Map(listed.map((coin) => [coin.code, coin.priceDecimals]));
    for (const spec of specs) {
      const decimals = coinDecimals.get(spec.code);
      if (decimals === undefined) continue;
      const next = tickDecimals(decimals, pairs.get(spec.code));
      if (next !== spec.priceDecimals)
        log(`${spec.code}: prices recorded at ${next} decimals from now on (was ${spec.priceDecimals})`);
      spec.priceDecimals = next;
    }
  };
  changes.subscribe((notice) => {
    if (notice !== 'coins' && notice !== 'contract_pairs' && notice !== EVERYTHING) return;
    reading = reading.then(read).catch((error: unknown) => log(`ticks not read again: ${String(error)}`));
  });
}
