// Which price feed the server runs, by configuration (PRICE_FEED): the simulator (the default, it
// needs no network) or the index of public exchanges. Both implement PriceFeed; nothing else changes.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
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
}

export const PRICE_FEEDS = ['simulator', 'index'];

/**
 * The decimals a price of a coin is recorded with (by either feed): the fewer of the coin's price decimals (what its
 * quotes, options and markets show) and its contract pair's tick (what contract orders show and price at; none when the
 * coin has no pair). A multiple of the coarser tick is a multiple of the finer one too, so every screen shows the
 * recorded price exactly, at its own decimals. Read when the feed starts: a tick the operator changes applies from the
 * next start of the feed.
 */
export function tickDecimals(coinDecimals: number, pairDecimals: number | undefined): number {
  return pairDecimals === undefined ? coinDecimals : Math.min(coinDecimals, pairDecimals);
}

export async function createFeed(db: Db, options: FeedOptions): Promise<PriceFeed> {
  if (!PRICE_FEEDS.includes(options.name))
    throw new Error(`Unknown PRICE_FEED "${options.name}" (known: ${PRICE_FEEDS.join(', ')})`);
  const listed = await db.select().from(coins).where(eq(coins.active, true)).orderBy(asc(coins.sort));
  const log = options.log ?? ((line: string) => console.log(line));
  const pairs = await db
    .select({ coin: contractPairs.coin, priceDecimals: contractPairs.priceDecimals })
    .from(contractPairs);
  const pairDecimals = new Map(pairs.map((pair) => [pair.coin, pair.priceDecimals]));
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
  return simulatedFeed({
    coins: listed.map((coin) => ({
      code: coin.code,
      startPrice: coin.startPrice,
      volatility: Number(coin.volatility),
      priceDecimals: tickDecimals(coin.priceDecimals, pairDecimals.get(coin.code)),
    })),
    seed: options.seed,
    clock: options.clock,
    lastPrices,
    intervalMs: options.intervalMs,
  });
}
