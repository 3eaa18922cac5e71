// The books' check on the runner (domain/reconciliation.ts; started by schedule.ts): every process
// looks, every fifth of the interval, whether a run is due, and the first to find it due runs it; so
// there is one run per interval whatever the number of processes, and never two at once (an
// advisory lock). The first look comes shortly after start.
import type { Db } from '../db/connection.ts';
import { reconcileIfDue, type ReconciliationRun } from '../domain/reconciliation.ts';

/** RECONCILE_EVERY_SECONDS' default: every five minutes. */
export const DEFAULT_RECONCILE_EVERY_MS = 300_000;

/** How often each process looks whether a run is due, and how soon after start it first does. */
export const reconcilePace = (everyMs: number) => ({
  everyMs: Math.max(1_000, Math.min(60_000, everyMs / 5)),
  firstAfterMs: Math.min(10_000, everyMs),
  unref: true,
});

/** One look: a run when due (its result), else null. */
export const reconcileWhenDue =
  (db: Db, everyMs: number): (() => Promise<ReconciliationRun | null>) =>
  () =>
    reconcileIfDue(db, everyMs);
