// The settlement job: every second it settles what is due, batch by batch, each batch in its own
// transaction. Idempotent by construction (the claim and the payout commit together, and the
// ledger refuses a second payout), so a crash, a restart or a second server never pays twice.
import type { Db } from '../db/connection.ts';
import type { Clock } from '../domain/clock.ts';
import { settleDueOptions } from '../domain/options.ts';

export const SETTLEMENT_BATCH = 500;

/** Settles everything due at `now`; returns how many orders it settled. */
export async function settleAllDue(db: Db, now: Date, batch = SETTLEMENT_BATCH): Promise<number> {
  let total = 0;
  // Each batch continues after the last one; rows another runner holds are left to it (or to the next run).
  const cursor = { endAt: new Date(0).toISOString(), id: 0 };
  for (;;) {
    const settled = await db.transaction((tx) => settleDueOptions(tx, now, batch, undefined, cursor));
    total += settled;
    if (settled < batch) return total;
  }
}

export interface Job {
  /** Runs once now (and resolves when done); the timer keeps running it. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs` and once at start (work left by a restart is done at once), never
 * two runs of this process at once; a failed run is logged and the next one goes on. With
 * `coalesce`, a run asked for while one is already waiting joins it instead of queueing another.
 */
export function repeatEvery(intervalMs: number, task: () => Promise<number>, log: (error: unknown) => void, { coalesce = false } = {}): Job {
  let running: Promise<number> = Promise.resolve(0);
  let waiting = false;
  let stopped = false;
  const run = () => {
    if (coalesce && waiting) return running;
    waiting = true;
    running = running
      .then(() => {
        waiting = false;
        return stopped ? 0 : task();
      })
      .catch((error) => {
        log(error);
        return 0;
      });
    return running;
  };
  const timer = setInterval(run, intervalMs);
  void run();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Other processes are kept apart by the row locks; overdue orders from before a restart settle at once. */
export function startSettlementJob(db: Db, clock: Clock, log: (error: unknown) => void, intervalMs = 1000): Job {
  return repeatEvery(intervalMs, () => settleAllDue(db, clock.now()), log);
}
