// The contract matching job: after each step of recorded ticks (and every second, for what another
// process recorded or a restart left behind) it fills the market orders waiting for their tick
// (or voids those that got none in time), releases the conditional orders those ticks reached, fills the open
// limit orders those ticks crossed, and expires the conditional orders whose lifetime is over (a tick or none),
// coin by coin, batch by batch, each batch its own transaction. Exactly once by construction: the
// pair's row serialises the matchers of a coin, an order is filled only while open, and the ledger
// refuses a second posting of the same fill. Every server process runs it.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/connection.ts';
import { fillPendingMarketOrders, matchCrossedOrders } from '../domain/contracts.ts';
import { eachCoin } from './each-coin.ts';

export const MATCHING_BATCH = 2_000;

/** SQL boolean over a pair row `p`: an order of its coin waits for a tick (open, filling or waiting for its trigger).
 * */
const pairHasWork = sql`exists (select 1 from contract_orders o where o.coin = p.coin and o.status in ('open', 'filling', 'waiting'))`;

/** SQL boolean: some pair has an order waiting for a tick (pairHasWork), so matching has work after a step. */
export const contractOrderWaits = sql`exists (select 1 from contract_pairs p where ${pairHasWork})`;

/**
 * Applies every recorded tick not yet matched, for every pair, open to new orders or not (the orders it accepted
 * before it was closed still fill, void or expire by their ticks); returns how many orders it filled (or voided).
 * Each pair's run stands alone: one that fails (its transaction rolled back, its orders left as they were for the next
 * run) holds back no other pair's orders; the failures are thrown together once every pair had its run, each naming
 * its pair (an AggregateError).
 */
export async function matchAllPairs(db: Db, now: Date, batch = MATCHING_BATCH): Promise<number> {
  const busy = await advanceIdlePairs(db);
  let total = 0;
  await eachCoin(
    busy,
    (coin) => `matching ${coin}/USDT`,
    async (coin) => void (total += await matchPair(db, coin, now, batch)),
  );
  return total;
}

/** One pair's run (matchAllPairs): its market orders, its crossed orders, then the stops that released; the count. */
async function matchPair(db: Db, coin: string, now: Date, batch: number): Promise<number> {
  let total = 0;
  // Market orders first: they were accepted before any tick that could fill them, like the limits.
  for (;;) {
    const finished = await db.transaction((tx) => fillPendingMarketOrders(tx, coin, now, batch));
    total += finished;
    if (finished < batch) break;
  }
  let released = 0;
  for (;;) {
    const result = await db.transaction((tx) => matchCrossedOrders(tx, coin, now, batch));
    total += result.filled;
    released += result.released ?? 0;
    if (!result.more) break;
  }
  // A stop-market released just now fills at the tick after its trigger, when that is recorded already.
  while (released > 0) {
    const finished = await db.transaction((tx) => fillPendingMarketOrders(tx, coin, now, batch));
    total += finished;
    if (finished < batch) break;
  }
  return total;
}

/**
 * A pair with no open order has nothing to fill: its matched_through moves to its latest tick in
 * one statement for all such pairs, instead of a transaction per pair on every tick. The pairs are
 * locked first and checked in the next statement, which sees every order committed before the lock;
 * an order placed after it waits (it reads the pair FOR SHARE) and starts after the new mark. A pair
 * another matcher holds is left to it. Returns the pairs that do have open orders.
 */
async function advanceIdlePairs(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const locked = rowsOf<{ coin: string }>(
      await tx.execute(sql`select coin from contract_pairs order by coin for update skip locked`),
    ).map(({ coin }) => coin);
    if (!locked.length) return [];
    const busy = rowsOf<{ coin: string }>(
      await tx.execute(sql`
        select p.coin from contract_pairs p
        where p.coin in (${sql.join(
          locked.map((coin) => sql`${coin}`),
          sql`, `,
        )})
          and ${pairHasWork}
        order by p.coin`),
    ).map(({ coin }) => coin);
    const idle = locked.filter((coin) => !busy.includes(coin));
    if (idle.length) {
      await tx.execute(sql`
        update contract_pairs p
        set matched_through = greatest(p.matched_through, (select max(t.at) from price_ticks t where t.coin = p.coin))
        where p.coin in (${sql.join(
          idle.map((coin) => sql`${coin}`),
          sql`, `,
        )})
          and exists (select 1 from price_ticks t where t.coin = p.coin and t.at > p.matched_through)`);
    }
    return busy;
  });
}
