// The option jobs: opening accepted orders at their start tick, and settlement: every second it settles what is due,
// batch by batch, each batch in its own
// transaction. Idempotent by construction (the claim and the payout commit together, and the
// ledger refuses a second payout), so a crash, a restart or a second server never pays twice.
import type { Db } from '../db/connection.ts';
import { anyOptionEnded, anyOptionOpening, openPendingOptions, settleDueOptions } from '../domain/options.ts';

export const SETTLEMENT_BATCH = 500;

/** Settles everything due at `now`; returns how many orders it settled. */
export async function settleAllDue(db: Db, now: Date, batch = SETTLEMENT_BATCH): Promise<number> {
  if (!(await anyOptionEnded(db, now))) return 0;
  let total = 0;
  // Each batch continues after the last one; rows another runner holds are left to it (or to the next run).
  const cursor = { endAt: new Date(0).toISOString(), id: 0 };
  for (;;) {
    const settled = await db.transaction((tx) => settleDueOptions(tx, now, batch, undefined, cursor));
    total += settled;
    if (settled < batch) return total;
  }
}

/** Opens (or voids) every accepted order whose start tick is recorded (or overdue); returns how many. */
export async function openAllPending(db: Db, now: Date, batch = SETTLEMENT_BATCH): Promise<number> {
  if (!(await anyOptionOpening(db))) return 0;
  let total = 0;
  for (;;) {
    const opened = await db.transaction((tx) => openPendingOptions(tx, now, batch));
    total += opened;
    if (opened < batch) return total;
  }
}
