// The rules every use of a recorded price follows, whichever order type uses it: how old a price
// may be, that a halted coin has none, and what an index price was made of (kept on the order that
// used it, since the ticks themselves are thinned after 48 h).
import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { marketHalts, priceTicks, type Constituent } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';

/** The latest recorded price in USDT of each of `coins` that has one, by coin code (a decimal string). */
export async function latestPrices(db: Executor, coins: readonly string[]): Promise<Map<string, string>> {
  if (!coins.length) return new Map();
  const rows = await db
    .selectDistinctOn([priceTicks.coin], { coin: priceTicks.coin, price: priceTicks.price })
    .from(priceTicks)
    .where(inArray(priceTicks.coin, [...coins]))
    .orderBy(priceTicks.coin, desc(priceTicks.at));
  return new Map(rows.map((row) => [row.coin, row.price]));
}

/** A price older than this is not a fair start price: the feed is down. */
export const MAX_QUOTE_AGE_MS = 10_000;

/** A coin the market index has halted has no price anyone may trade at, however recent its last one. */
export async function refuseWhileHalted(tx: Executor, coin: string): Promise<void> {
  const [halt] = await tx.select({ coin: marketHalts.coin }).from(marketHalts).where(eq(marketHalts.coin, coin));
  if (halt) throw haltedRefusal(coin);
}

/** The refusal of an order of `coin` while the market index has it halted (what the customer reads names the coin). */
export const haltedRefusal = (coin: string) => new Refusal(texts.pricesPaused.id, { 0: coin });

/** In a write: the constituents recorded with the tick of `coin` at `at` (null for the simulator's). */
export const constituentsAt = (coin: string, at: Date) =>
  sql<
    Constituent[] | null
  >`(select constituents from price_ticks where coin = ${coin} and at = ${at.toISOString()}::timestamptz)`;

/** As an answer carries them: each exchange's price, its digits as recorded, and its trade id where the tick kept one.
 * */
export const answerConstituents = (recorded: readonly Constituent[] | null) =>
  recorded?.map(({ exchange, price, at, tradeId }) => ({
    exchange,
    price,
    at,
    ...(tradeId === undefined ? {} : { trade_id: tradeId }),
  })) ?? null;

/**
 * SQL boolean: the price tick `t` (a row of price_ticks, or one selected with its `constituents`) came from the
 * simulated feed; a market index tick carries the exchanges' prices it is the median of. What a customer is told of a
 * price from it says it is simulated.
 */
export const simulatedTick = (t: SQL) => simulatedConstituents(sql`${t}.constituents`);

/**
 * SQL boolean: a price recorded with `constituents` (a jsonb array of exchanges' prices, or null) came from the
 * simulated feed: an index price always names the exchanges it is the median of. Serves a tick and a price an order
 * kept from its tick (an option's start and end prices).
 */
export const simulatedConstituents = (constituents: SQL) => sql`coalesce(jsonb_array_length(${constituents}), 0) = 0`;
