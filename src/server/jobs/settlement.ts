// The option jobs: opening accepted orders at their start tick, and settlement: every second it settles what is due,
// coin by coin, batch by batch, each batch in its own
// transaction. Idempotent by construction (the claim and the payout commit together, and the
// ledger refuses a second payout), so a crash, a restart or a second server never pays twice.
// Each coin's run stands alone: one that fails (its batch rolled back, its orders left as they were for the next run)
// holds back no other coin's orders; within a coin, an order whose run fails alone holds back no other order
// (batchesAroundBadRows). The failures are thrown together once every coin had its run, each naming its coin and
// order (an AggregateError).
import type { Db } from '../db/connection.ts';
import {
  nextOptionEnd,
  openPendingOptions,
  optionCoinsEnded,
  optionCoinsOpening,
  optionsClaimable,
  settleDueOptions,
} from '../domain/options.ts';
import { batchesAroundBadRows, eachCoin } from './each-coin.ts';

/**
 * A job's orders whose run failed alone, by coin, kept between its runs (batchesAroundBadRows): each run tries them
 * alone first and its batches leave them out. One per job and process; a fresh one forgets them.
 */
export type BadOrders = Map<string, Set<number>>;

/** `coin`'s set in `bad`, made empty the first time. */
function badOf(bad: BadOrders, coin: string): Set<number> {
  let set = bad.get(coin);
  if (!set) bad.set(coin, (set = new Set()));
  return set;
}

export const SETTLEMENT_BATCH = 500;

/** Settles everything due at `now`; returns how many orders it settled. `bad`: see BadOrders (none by default). */
export async function settleAllDue(
  db: Db,
  now: Date,
  batch = SETTLEMENT_BATCH,
  bad: BadOrders = new Map(),
): Promise<number> {
  return (await settleDue(db, now, batch, bad)).settled;
}

/**
 * Settles everything due at `now`: the orders settled, and the end time of the earliest order still holding after
 * them (null when none holds), read before any batch when nothing is due and again after the batches otherwise.
 */
async function settleDue(
  db: Db,
  now: Date,
  batch: number,
  bad: BadOrders,
): Promise<{ settled: number; nextEndAt: Date | null }> {
  const first = await nextOptionEnd(db);
  if (!first || first > now) return { settled: 0, nextEndAt: first };
  let settled = 0;
  await eachCoin(
    await optionCoinsEnded(db, now),
    (coin) => `settling ${coin} options`,
    async (coin) => {
      // Each batch continues after the last one; rows another runner holds are left to it (or to the next run).
      const cursor = { endAt: new Date(0).toISOString(), id: 0 };
      settled += await batchesAroundBadRows(badOf(bad, coin), {
        batch,
        runBatch: (exclude) =>
          db.transaction((tx) => settleDueOptions(tx, now, batch, { cursor, coin, rows: { exclude } })),
        claimable: (exclude) => optionsClaimable(db, 'settlement', now, coin, batch, exclude),
        runRow: (only) => db.transaction((tx) => settleDueOptions(tx, now, 1, { coin, rows: { only } })),
      });
    },
  );
  return { settled, nextEndAt: await nextOptionEnd(db) };
}

/**
 * The settlement job's reads, kept to what can be due. A run that knows when the earliest holding order ends (read
 * less than `recheckMs` real milliseconds ago) reads nothing before that time; `orderOpened()` (this process opened
 * orders) or the recheck (another process may have) reads it again. At the real clock the job runs each second and
 * reads every time, as before; on an accelerated test clock (20 runs a second) an idle server read option_orders
 * twenty times a second for nothing. No order is settled later than its end for it: an order this process opened is
 * known at once, one another process opened within `recheckMs` (and that process settles it on time itself).
 */
export function settlementWhenDue(db: Db, recheckMs = 1000, realNow: () => number = () => performance.now()) {
  /** The earliest end as last read (ms since the epoch, market time); undefined: read on the next run. */
  let nextEndAt: number | null | undefined;
  let readAt = 0;
  /** Counts orderOpened() calls: a read that began before one is not kept. */
  let opened = 0;
  const bad: BadOrders = new Map();
  return {
    /** Settles what is due at `now` (a read only when something can be); returns how many orders it settled. */
    async run(now: Date): Promise<number> {
      const known = nextEndAt !== undefined && realNow() - readAt < recheckMs;
      if (known && (nextEndAt === null || now.getTime() < nextEndAt!)) return 0;
      const [read, openedBefore] = [realNow(), opened];
      const result = await settleDue(db, now, SETTLEMENT_BATCH, bad);
      nextEndAt = opened === openedBefore ? (result.nextEndAt?.getTime() ?? null) : undefined;
      readAt = read;
      return result.settled;
    },
    /** Orders began holding here: the next run reads their end times. */
    orderOpened(): void {
      opened += 1;
      nextEndAt = undefined;
    },
  };
}

/**
 * Opens (or voids) every accepted order whose start tick is recorded (or overdue), coin by coin (a coin whose run
 * fails holds back no other: eachCoin), and within a coin around the orders whose run fails alone (`bad`: see
 * BadOrders; none by default); returns how many.
 */
export async function openAllPending(
  db: Db,
  now: Date,
  batch = SETTLEMENT_BATCH,
  bad: BadOrders = new Map(),
): Promise<number> {
  let total = 0;
  await eachCoin(
    await optionCoinsOpening(db),
    (coin) => `opening ${coin} options`,
    async (coin) => {
      total += await batchesAroundBadRows(badOf(bad, coin), {
        batch,
        runBatch: (exclude) => db.transaction((tx) => openPendingOptions(tx, now, batch, coin, { exclude })),
        claimable: (exclude) => optionsClaimable(db, 'opening', now, coin, batch, exclude),
        runRow: (only) => db.transaction((tx) => openPendingOptions(tx, now, 1, coin, { only })),
      });
    },
  );
  return total;
}
