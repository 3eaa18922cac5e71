// The daily scheduler every day-end job shares: liquidity interest, standard redemption payouts and
// lock-up income. For each job it takes the next interest day not done yet, once that day has ended
// (plus a short grace), and does the day's
// work in one transaction together with the job's `daily_runs` row. A second process inserting the
// same (job, day) waits for the first and then finds it done: any number of server processes can
// run the scheduler; a crash rolls the day back whole; after downtime each missed day runs once, in
// order.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor, type Tx } from '../db/connection.ts';
import { addDays, type InterestDay } from '../../api-contract/earn.ts';
import { dayEnd } from '../domain/earn-days.ts';
import {
  LIQUIDITY_FIRST_DAY,
  LIQUIDITY_INTEREST_JOB,
  creditDailyInterest,
  payStandardRedemptions,
} from '../domain/liquidity.ts';
import { payLockupDay } from '../domain/lockup.ts';

export interface DailyJob {
  name: string;
  /** The first day the job has anything to do, when it has never run. */
  firstDay(db: Executor): Promise<InterestDay | null>;
  /** The day's work, in the scheduler's transaction; returns the rows it touched. */
  run(tx: Tx, day: InterestDay, now: Date): Promise<number>;
}

const firstOf = (query: ReturnType<typeof sql>) => async (db: Executor) =>
  rowsOf<{ day: string | null }>(await db.execute(query))[0]?.day ?? null;

/** In this order each day: the interest (which moves the day's standard redemptions to waiting), then payouts, then
 * lock-up. */
export const DAILY_JOBS: DailyJob[] = [
  {
    name: LIQUIDITY_INTEREST_JOB,
    firstDay: firstOf(LIQUIDITY_FIRST_DAY),
    run: (tx, day, now) => creditDailyInterest(tx, day, now),
  },
  {
    name: 'yuebao-payout',
    firstDay: firstOf(sql`select min(pay_day) as day from liquidity_records`),
    run: (tx, day, now) => payStandardRedemptions(tx, day, now),
  },
  {
    name: 'lockup-income',
    firstDay: firstOf(sql`select min(start_day) as day from lockup_orders`),
    run: (tx, day, now) => payLockupDay(tx, day, now),
  },
];

/**
 * How long after a day ends its jobs run. No rule relies on it to count a move in its day: the liquidity interest waits
 * for every subscription and redemption being made (creditDailyInterest), and a move's day is the one it was accepted
 * in (liquidity.ts, acceptedAt).
 */
export const DAY_END_GRACE_MS = 10_000;

export interface DayDone {
  job: string;
  day: InterestDay;
  rows: number;
}

/** Runs every job's ended days not done yet, in order; returns what it did (nothing when another process did it). */
export async function runDueDays(
  db: Db,
  now: Date,
  timeZone: string,
  jobs: DailyJob[] = DAILY_JOBS,
  beforeCommit?: (done: DayDone) => void,
): Promise<DayDone[]> {
  const done: DayDone[] = [];
  for (const job of jobs) {
    for (;;) {
      const [last] = rowsOf<{ day: string | null }>(
        await db.execute(sql`select max(day) as day from daily_runs where job = ${job.name}`),
      );
      const day = last?.day ? addDays(last.day, 1) : await job.firstDay(db);
      if (!day || dayEnd(day, timeZone).getTime() + DAY_END_GRACE_MS > now.getTime()) break;
      const result = await db.transaction(async (tx) => {
        const claimed = await tx.execute(
          sql`insert into daily_runs (job, day, done_at) values (${job.name}, ${day}, ${now.toISOString()}::timestamptz) on conflict do nothing returning job`,
        );
        if (!rowsOf(claimed).length) return null; // another process did this day
        const rows = await job.run(tx, day, now);
        await tx.execute(sql`update daily_runs set rows = ${rows} where job = ${job.name} and day = ${day}`);
        beforeCommit?.({ job: job.name, day, rows });
        return { job: job.name, day, rows };
      });
      if (result) done.push(result);
    }
  }
  return done;
}
