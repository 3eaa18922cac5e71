// Which price feed the server runs, by configuration (PRICE_FEED). A real exchange feed is added
// here as another case implementing PriceFeed; nothing else changes.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { coins } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import type { PriceFeed } from './feed.ts';
import { lastRecordedPrice } from './market.ts';
import { simulatedFeed } from './simulator.ts';

export interface FeedOptions {
  name: string;
  /** The simulator's seed, for a replay only; null (the default) makes its prices unpredictable. */
  seed: number | null;
  clock: Clock;
  /** Real milliseconds between steps. */
  intervalMs: number;
}

export async function createFeed(db: Db, options: FeedOptions): Promise<PriceFeed> {
  if (options.name !== 'simulator') throw new Error(`Unknown PRICE_FEED "${options.name}" (known: simulator)`);
  const listed = await db.select().from(coins).where(eq(coins.active, true)).orderBy(asc(coins.sort));
  // Continue from the last recorded prices, so a restart does not jump back to the seed prices.
  const lastPrices = new Map<string, string>();
  for (const coin of listed) {
    const last = await lastRecordedPrice(db, coin.code);
    if (last) lastPrices.set(coin.code, last.price);
  }
  return simulatedFeed({
    coins: listed.map((coin) => ({ code: coin.code, startPrice: coin.startPrice, volatility: Number(coin.volatility), priceDecimals: coin.priceDecimals })),
    seed: options.seed,
    clock: options.clock,
    lastPrices,
    intervalMs: options.intervalMs,
  });
}
