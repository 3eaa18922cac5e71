// The contract matching job: after each step of recorded ticks (and every second, for what another
// process recorded or a restart left behind) it fills the open limit orders those ticks crossed,
// coin by coin, batch by batch, each batch its own transaction. Exactly once by construction: the
// pair's row serialises the matchers of a coin, an order is filled only while open, and the ledger
// refuses a second posting of the same fill. Every server process runs it.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/connection.ts';
import type { Clock } from '../http/context.ts';
import { matchCrossedOrders } from '../domain/contracts.ts';
import { repeatEvery, type Job } from './settlement.ts';

export const MATCHING_BATCH = 2_000;

/** Applies every recorded tick not yet matched, for every active pair; returns how many orders it filled. */
export async function matchAllPairs(db: Db, now: Date, batch = MATCHING_BATCH): Promise<number> {
  const pairs = rowsOf<{ coin: string }>(await db.execute(sql`select coin from contract_pairs where active order by coin`));
  let total = 0;
  for (const { coin } of pairs) {
    for (;;) {
      const { filled, more } = await db.transaction((tx) => matchCrossedOrders(tx, coin, now, batch));
      total += filled;
      if (!more) break;
    }
  }
  return total;
}

/**
 * Runs on a timer and whenever `poke()` reports newly published ticks; a burst of ticks while one
 * run waits asks for that one run, not one per tick. Orders crossed while the server was down fill
 * at once, from the stored ticks.
 */
export function startMatchingJob(db: Db, clock: Clock, log: (error: unknown) => void, intervalMs = 1000): Job & { poke(): void } {
  const job = repeatEvery(intervalMs, () => matchAllPairs(db, clock.now()), log, { coalesce: true });
  return { ...job, poke: () => void job.runNow() };
}
