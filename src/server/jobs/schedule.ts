// The one job runner: every periodic job of the server (settlement, contract matching, the day-end
// earn jobs, the retention of price ticks, the removal of unused pictures) runs on `schedule`, and
// `startJobs` is where each is started with its pace. A job claims what it works on in the database
// (row locks, a `daily_runs` row, a pair's row), so any number of server processes can run it side
// by side; the runner only keeps one process from running a job twice at once.
import { sqlFlags, type Db } from '../db/connection.ts';
import type { Clock } from '../domain/clock.ts';
import type { Market } from '../market/market.ts';
import { openAllPending, settlementWhenDue, type BadOrders } from './settlement.ts';
import { contractOrderWaits, matchAllPairs } from './matching.ts';
import { runDueDays } from './daily.ts';
import { thinPriceTicks, type Thinned } from './retention.ts';
import { deleteOldIdempotencyKeys } from './idempotency-retention.ts';
import { deleteExpiredCounters } from '../domain/attempts.ts';
import { deleteOldLoginHistory } from '../domain/login-history.ts';
import { deleteUnusedUploads } from './unused-uploads.ts';
import { deliverDue, type DeliverySettings } from './delivery.ts';
import { pruneOutbox } from '../domain/delivery.ts';
import { jobCounters } from '../observability/metrics.ts';
import { forgetOldProcesses } from '../domain/server-processes.ts';
import type { ReconciliationRun } from '../domain/reconciliation.ts';
import { DEFAULT_RECONCILE_EVERY_MS, reconcilePace, reconcileWhenDue } from './reconciliation.ts';
import { ensureRiskFigure } from '../domain/risk-figure.ts';
import { ensureDailyLiabilities } from '../domain/liabilities.ts';
import { PROCESS_ID } from '../domain/server-processes.ts';
import { priceAlertWaits, weighPriceAlerts } from '../domain/price-alerts.ts';
import { optionOpeningWaits } from '../domain/options.ts';

export interface Job<R = number> {
  /** Runs once now (and resolves when done); the timer keeps running it. */
  runNow(): Promise<R>;
  stop(): Promise<void>;
}

export interface Pace {
  /** Real milliseconds between runs. */
  everyMs: number;
  /** The first run this long after start; at once by default (work a restart left is done first). */
  firstAfterMs?: number;
  /** A run asked for while one is already waiting joins it instead of queueing another. */
  coalesce?: boolean;
  /** The timers do not keep the process alive (a job that waits an hour). */
  unref?: boolean;
  /** The job's name in the metrics (its runs, failures and time); unnamed, its runs are not counted. */
  name?: string;
}

/**
 * Runs `task` at the pace asked, never two runs of this process at once; a failed run is logged and
 * answers `idle`, and the next one goes on.
 */
export function schedule<R>(
  task: () => Promise<R>,
  idle: R,
  log: (error: unknown) => void,
  { everyMs, firstAfterMs = 0, coalesce = false, unref = false, name }: Pace,
): Job<R> {
  const counters = name ? jobCounters(name) : null;
  const counted = (): Promise<R> => {
    if (!counters) return task();
    const end = counters.begin();
    return task().then(
      (result) => {
        end(false);
        return result;
      },
      (error: unknown) => {
        end(true);
        throw error;
      },
    );
  };
  let running: Promise<R> = Promise.resolve(idle);
  let waiting = false;
  let stopped = false;
  const run = () => {
    if (coalesce && waiting) return running;
    waiting = true;
    running = running
      .then(() => {
        waiting = false;
        return stopped ? idle : counted();
      })
      .catch((error) => {
        log(error);
        return idle;
      });
    return running;
  };
  const timer = setInterval(run, everyMs);
  const first = firstAfterMs > 0 ? setTimeout(run, firstAfterMs) : (void run(), undefined);
  if (unref) {
    timer.unref();
    first?.unref();
  }
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/**
 * Settles what is due every `everyMs` (a second), reading only when an order can be due (settlementWhenDue); other
 * processes are kept apart by the row locks. `orderOpened()`: this process opened orders, whose ends it reads next.
 */
export function startSettlementJob(
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  everyMs = 1000,
): Job & { orderOpened(): void } {
  const due = settlementWhenDue(db);
  const job = schedule(() => due.run(clock.now()), 0, log, { everyMs, name: 'settlement' });
  return { ...job, orderOpened: due.orderOpened };
}

/**
 * Opens accepted options at their start tick: whenever `poke()` reports newly published ticks (an
 * order opens as soon as its tick is recorded), and on a timer for the orders a step did not
 * announce (another process's, a restart's) and for those that must go void for want of a tick.
 */
export function startOpeningJob(
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  {
    everyMs = 1000,
    opened = () => {},
  }: { everyMs?: number; /** Orders opened (or voided) by a run. */ opened?: () => void } = {},
): Job & { poke(): void } {
  const bad: BadOrders = new Map();
  const open = async () => {
    const count = await openAllPending(db, clock.now(), undefined, bad);
    if (count) opened();
    return count;
  };
  const job = schedule(open, 0, log, { everyMs, coalesce: true, name: 'opening' });
  return { ...job, poke: () => void job.runNow() };
}

/**
 * Matches resting contract orders on a timer and whenever `poke()` reports newly published ticks; a
 * burst of ticks while one run waits asks for that one run, not one per tick. Orders crossed while
 * the server was down fill at once, from the stored ticks.
 */
export function startMatchingJob(
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  everyMs = 1000,
): Job & { poke(): void } {
  const job = schedule(() => matchAllPairs(db, clock.now()), 0, log, { everyMs, coalesce: true, name: 'matching' });
  return { ...job, poke: () => void job.runNow() };
}

/**
 * Weighs the waiting price alerts against the ticks recorded since each was last weighed (domain/price-alerts.ts)
 * whenever `poke()` reports newly published ticks, and on a timer for what no step announced (a restart's backlog);
 * pokes while a run waits join it. Every process runs it: the alerts are claimed with SKIP LOCKED, and an alert fires
 * only through an update on `fired_at is null`.
 */
export function startPriceAlertsJob(
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  everyMs = 1000,
): Job & { poke(): void } {
  const job = schedule(() => weighPriceAlerts(db, clock.now()), 0, log, {
    everyMs,
    coalesce: true,
    name: 'price-alerts',
  });
  return { ...job, poke: () => void job.runNow() };
}

/** Every `everyMs` (a minute), and once at start to catch up after downtime, runs the ended interest days. */
export const startDailyJobs = (
  db: Db,
  clock: Clock,
  timeZone: string,
  log: (error: unknown) => void,
  everyMs = 60_000,
) => schedule(async () => (await runDueDays(db, clock.now(), timeZone)).length, 0, log, { everyMs, name: 'day-end' });

/**
 * Thins the ticks every `everyMs` (an hour) and once `firstAfterMs` after start, when `leads()` says
 * this process holds the price feed: the one process that writes ticks also removes them (the
 * deletes are idempotent, so any process would be safe too).
 */
export const startRetentionJob = (
  db: Db,
  clock: Clock,
  leads: () => boolean,
  log: (error: unknown) => void,
  { everyMs = 3600_000, firstAfterMs = 30_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job<Thinned | null> =>
  schedule(async () => (leads() ? thinPriceTicks(db, clock.now()) : null), null, log, {
    everyMs,
    firstAfterMs,
    unref: true,
    name: 'tick-retention',
  });

/**
 * Deletes the Idempotency-Keys past their retention (jobs/idempotency-retention.ts) every `everyMs` (an hour) and once
 * `firstAfterMs` after start, on the earlier of the server's clock and real time; any process may (each batch takes its
 * rows with FOR UPDATE SKIP LOCKED).
 */
export const startIdempotencyRetentionJob = (
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  { everyMs = 3600_000, firstAfterMs = 45_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job<Thinned | null> =>
  schedule(() => deleteOldIdempotencyKeys(db, new Date(Math.min(clock.now().getTime(), Date.now()))), null, log, {
    everyMs,
    firstAfterMs,
    unref: true,
    name: 'idempotency-key-retention',
  });

/** Deletes the pictures unused past their grace every `everyMs` (an hour) and once `firstAfterMs` after start; any
 * process may (rows claimed with SKIP LOCKED). */
export const startUnusedUploadsJob = (
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  { everyMs = 3600_000, firstAfterMs = 60_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job =>
  schedule(() => deleteUnusedUploads(db, clock.now()), 0, log, {
    everyMs,
    firstAfterMs,
    unref: true,
    name: 'unused-uploads',
  });

/**
 * Deletes the expired counters (logins, codes, requests per minute), and the sign-in history older than 90 days on the
 * server's clock, every `everyMs` (ten minutes); answers how many rows went;
 * idempotent, so every process may. Request counters run on real time, the others on the server's
 * clock: a row goes once both have passed its end.
 */
export const startCounterCleanupJob = (
  db: Db,
  clock: Clock,
  log: (error: unknown) => void,
  { everyMs = 10 * 60_000, firstAfterMs = 60_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job =>
  schedule(
    async () => {
      const counters = await deleteExpiredCounters(db, new Date(Math.min(clock.now().getTime(), Date.now())));
      // The sign-in history past its 90 days goes with them (the read already leaves such rows out).
      return counters + (await deleteOldLoginHistory(db, clock.now()));
    },
    0,
    log,
    {
      everyMs,
      firstAfterMs,
      unref: true,
      name: 'counter-cleanup',
    },
  );

/** Deletes the sent and failed messages kept long enough (domain/delivery.ts pruneOutbox), hourly on real time. */
export const startOutboxPruneJob = (
  db: Db,
  log: (error: unknown) => void,
  { everyMs = 3600_000, firstAfterMs = 120_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job =>
  schedule(() => pruneOutbox(db, new Date()), 0, log, { everyMs, firstAfterMs, unref: true, name: 'outbox-prune' });

/**
 * The books' check (jobs/reconciliation.ts): each process looks whether a run is due every fifth of
 * `everyMs` (RECONCILE_EVERY_SECONDS, five minutes); one run per interval across processes.
 */
export const startReconciliationJob = (
  db: Db,
  log: (error: unknown) => void,
  everyMs = DEFAULT_RECONCILE_EVERY_MS,
): Job<ReconciliationRun | null> =>
  schedule(reconcileWhenDue(db, everyMs), null, log, { ...reconcilePace(everyMs), name: 'reconciliation' });

/**
 * Stores the day's risk figure of options (domain/risk-figure.ts) every `everyMs` (a minute of the clock) and once at
 * start; one process computes it per UTC day (an advisory lock and the day's row), the others find it stored.
 */
export const startRiskFigureJob = (db: Db, clock: Clock, log: (error: unknown) => void, everyMs = 60_000): Job =>
  schedule(async () => ((await ensureRiskFigure(db, clock.now())) ? 1 : 0), 0, log, {
    everyMs,
    unref: true,
    name: 'risk-figure',
  });

/**
 * Builds the day's proof of liabilities (domain/liabilities.ts; the earn interest days in `timeZone`) every
 * `everyMs` (a minute of the clock) and once at start; one process builds it per UTC day (an advisory lock and the
 * day's unique row), the others find it stored.
 */
export const startLiabilitiesJob = (
  db: Db,
  clock: Clock,
  timeZone: string,
  log: (error: unknown) => void,
  everyMs = 60_000,
): Job =>
  schedule(async () => ((await ensureDailyLiabilities(db, clock.now(), PROCESS_ID, timeZone)) ? 1 : 0), 0, log, {
    everyMs,
    unref: true,
    name: 'liabilities',
  });

/** Deletes the rows of server processes gone for a day (domain/server-processes.ts), hourly; idempotent, so every
 * process may. */
export const startProcessesPruneJob = (
  db: Db,
  log: (error: unknown) => void,
  { everyMs = 3600_000, firstAfterMs = 90_000 }: { everyMs?: number; firstAfterMs?: number } = {},
): Job =>
  schedule(() => forgetOldProcesses(db), 0, log, { everyMs, firstAfterMs, unref: true, name: 'processes-prune' });

/**
 * Sends the queued messages every `everyMs` (a second) and whenever `poke()` says one was queued
 * (a code goes out at once); pokes while a run waits join it. Real time: retries wait real seconds.
 */
export function startDeliveryJob(
  db: Db,
  settings: DeliverySettings,
  log: (error: unknown) => void,
  everyMs = 1000,
): Job & { poke(): void } {
  const job = schedule(() => deliverDue(db, settings), 0, log, { everyMs, coalesce: true, name: 'delivery' });
  return { ...job, poke: () => void job.runNow() };
}

/**
 * The step listener of the jobs a step of ticks can give work: after each step one statement asks which of them have
 * any (an option waiting for its start tick, a contract order waiting for a tick, a price alert waiting to fire) and
 * pokes only those. An idle market costs that one read a step instead of each job's own look (seven statements in two
 * transactions; at the test clock's 20 steps a second, 140). A step arriving while the read runs asks for one more
 * after it. Each job's timer still runs it every real second: the net for whatever the read did not see. The listener
 * answers when its reads are done; it never rejects (a failed read is logged).
 */
export function pokeWhatWaits(
  db: Db,
  jobs: { opening: { poke(): void }; matching: { poke(): void }; priceAlerts: { poke(): void } },
  log: (error: unknown) => void,
): () => Promise<void> {
  let reading = false;
  let again = false;
  const read = async () => {
    if (reading) return void (again = true);
    reading = true;
    try {
      do {
        again = false;
        const waits = await sqlFlags(db, {
          opening: optionOpeningWaits,
          matching: contractOrderWaits,
          priceAlerts: priceAlertWaits,
        });
        for (const name of ['opening', 'matching', 'priceAlerts'] as const) if (waits[name]) jobs[name].poke();
      } while (again);
    } catch (error) {
      log(error);
    } finally {
      reading = false;
    }
  };
  return read;
}

/**
 * Every periodic job of a server process, at the pace of its clock (`clockSpeed` times real time).
 * With several processes on one PostgreSQL:
 * - settlement: every process (it claims due orders with FOR UPDATE SKIP LOCKED; the ledger refuses a second payout);
 * - opening of accepted options at their start tick: every process, after each step of ticks it publishes while one
 * waits (pokeWhatWaits) and every real second (claimed likewise);
 * - contract matching: every process, after each step of ticks it publishes while an order waits, and every real
 * second (one matcher per coin at a time: the pair's row);
 * - day-end jobs (liquidity interest, standard redemption payouts, lock-up income): every process (each day claimed
 * once by its daily_runs row);
 * - retention of price ticks: the holder of the price feed's lease;
 * - retention of Idempotency-Keys: every process (each batch claims its rows with FOR UPDATE SKIP LOCKED);
 * - removal of unused pictures: every process (each batch claims its rows with FOR UPDATE SKIP LOCKED);
 * - removal of expired counters: every process (idempotent deletes);
 * - delivery of queued messages: every process (rows claimed with FOR UPDATE SKIP LOCKED and a lease);
 * - removal of sent and failed messages kept long enough: every process (idempotent deletes);
 * - the books' check: every process looks, one runs it per interval (an advisory lock and the last run's time);
 * - removal of the rows of server processes gone for a day: every process (idempotent deletes);
 * - the day's risk figure of options: every process looks, one computes it per UTC day (an advisory lock, the day's
 * row);
 * - the day's proof of liabilities: every process looks, one builds it per UTC day (an advisory lock, the day's unique
 * row);
 * - price alerts: every process, after each step of ticks it publishes while one waits, and every real second (alerts
 * claimed with SKIP LOCKED; each fires only through an update on `fired_at is null`).
 */
export function startJobs({
  db,
  clock,
  clockSpeed,
  market,
  timeZone,
  delivery,
  reconcileEveryMs,
  log,
}: {
  db: Db;
  clock: Clock;
  clockSpeed: number;
  market: Market;
  timeZone: string;
  delivery: DeliverySettings;
  /** RECONCILE_EVERY_SECONDS in ms (five minutes when not given). */
  reconcileEveryMs?: number;
  log: (what: string, error: unknown) => void;
}) {
  const perSecond = Math.max(50, 1000 / clockSpeed);
  const settlement = startSettlementJob(db, clock, (error) => log('settlement run failed', error), perSecond);
  // Every step this process publishes (its own ticks, or another process's it read) pokes the matcher when an order
  // waits (pokeWhatWaits); the timer is the net for what no step announced (a restart's leftovers) and advances the
  // idle pairs, so it keeps real seconds at any clock speed: at the test clock's 20 steps a second it ran as often as
  // the steps and doubled the matcher's work.
  const matching = startMatchingJob(db, clock, (error) => log('contract matching failed', error));
  // Like matching: a published step pokes it when an order waits to open, the timer (real seconds) is the net for voids
  // and leftovers.
  const opening = startOpeningJob(db, clock, (error) => log('opening of options failed', error), {
    opened: settlement.orderOpened,
  });
  // Like matching: a published step pokes it when an alert waits, the timer (real seconds) is the net for a restart's
  // backlog.
  const priceAlerts = startPriceAlertsJob(db, clock, (error) => log('price alerts failed', error));
  const stopMatchingOnTicks = market.subscribe(
    pokeWhatWaits(db, { opening, matching, priceAlerts }, (error) =>
      log('reading what waits for a step failed', error),
    ),
  );
  const daily = startDailyJobs(
    db,
    clock,
    timeZone,
    (error) => log('day-end job failed', error),
    Math.max(50, 60_000 / clockSpeed),
  );
  const retention = startRetentionJob(
    db,
    clock,
    () => market.leads(),
    (error) => log('tick retention failed', error),
  );
  const keyRetention = startIdempotencyRetentionJob(db, clock, (error) =>
    log('Idempotency-Key retention failed', error),
  );
  const unusedUploads = startUnusedUploadsJob(db, clock, (error) => log('removal of unused pictures failed', error), {
    everyMs: Math.max(60_000, 3600_000 / clockSpeed),
  });
  const counterCleanup = startCounterCleanupJob(db, clock, (error) => log('counter cleanup failed', error));
  const deliveryJob = startDeliveryJob(db, delivery, (error) => log('delivery of queued messages failed', error));
  const outboxPrune = startOutboxPruneJob(db, (error) => log('outbox pruning failed', error));
  const reconciliation = startReconciliationJob(db, (error) => log('reconciliation failed', error), reconcileEveryMs);
  const processesPrune = startProcessesPruneJob(db, (error) => log('removal of old process rows failed', error));
  const riskFigure = startRiskFigureJob(
    db,
    clock,
    (error) => log('risk figure failed', error),
    Math.max(50, 60_000 / clockSpeed),
  );
  const liabilities = startLiabilitiesJob(
    db,
    clock,
    timeZone,
    (error) => log('proof of liabilities failed', error),
    Math.max(50, 60_000 / clockSpeed),
  );
  return {
    /** A message was queued: send it now. */
    deliverNow: () => deliveryJob.poke(),
    async stop() {
      await deliveryJob.stop();
      await outboxPrune.stop();
      await reconciliation.stop();
      await processesPrune.stop();
      await riskFigure.stop();
      await liabilities.stop();
      await settlement.stop();
      stopMatchingOnTicks();
      await opening.stop();
      await matching.stop();
      await priceAlerts.stop();
      await daily.stop();
      await retention.stop();
      await keyRetention.stop();
      await counterCleanup.stop();
      await unusedUploads.stop();
    },
  };
}
