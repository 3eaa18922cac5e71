// Daily check-in: one row per user and local day (EARN_TIMEZONE, the same days as interest);
// the primary key of sign_ins makes a second one that day impossible, and the reward — the
// ladder's step for the streak — is a POINT ledger entry in the same transaction. The stored names
// keep their historical "sign-in" spelling: the table sign_ins, the ledger kind `sign_in` and its
// references `signin:<user>:<day>`, the config act `signin`, the audit action `signin.ladder`.
import { serverTexts } from '../../api-contract/server-texts.ts';
import Big from 'big.js';
import { and, eq, gte, lte } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { configEntries, checkIns } from '../db/schema.ts';
import { addDays } from '../../api-contract/earn.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import {
  DEFAULT_CHECK_IN_LADDER,
  ladderReward,
  parseLadder,
  type CheckInAnswer,
  type CheckInCalendar,
} from '../../api-contract/check-in.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { Refusal } from './refusal.ts';
import { holdOpenAccount, isUniqueViolation } from './accounts.ts';
import { configValue, setConfigEntry } from './config-entries.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { AlreadyPosted, post } from './ledger.ts';
import { pointBalance } from './points.ts';
import { checkRewardCap, type RewardCaps } from './reward-caps.ts';

/** Where the ladder is configured: config_entries act `signin`, key `ladder` ("5,5,10,…"). */
export const LADDER_CONFIG = { act: 'signin', key: 'ladder' } as const;

/** A check-in's streak: one more than yesterday's, else a new run of 1. */
export const streakAfter = (yesterdayStreak: number | null) => (yesterdayStreak ?? 0) + 1;

/**
 * The streak shown on a day: today's when checked in, else yesterday's (the run is still alive until
 * today ends), else 0.
 */
export const currentStreak = (todayStreak: number | null, yesterdayStreak: number | null) =>
  todayStreak ?? yesterdayStreak ?? 0;

/** The configured ladder; the default one when none is configured (or it was stored broken). */
export async function ladderOf(db: Executor): Promise<string[]> {
  return (
    parseLadder((await configValue(db, LADDER_CONFIG.act, LADDER_CONFIG.key)) ?? '') ??
    parseLadder(DEFAULT_CHECK_IN_LADDER)!
  );
}

/**
 * Sets the ladder from its written form ("5,5,10,…") with its audit entry (the ladder before and
 * after), in the caller's transaction: every entry point's way in. It pays from the next check-in on; what
 * was paid stays. Every customer who checks in is paid a step unreviewed, so each step is at most the points' bound
 * of `caps` (reward-caps.ts).
 * @throws Refusal consoleLadderFormat for a ladder that cannot be read; consoleRewardAboveCap (field `ladder`) for
 * a step above the bound.
 */
export async function setCheckInLadderAs(
  tx: Tx,
  actor: Actor,
  written: string,
  now: Date,
  caps: RewardCaps,
): Promise<string[]> {
  const ladder = parseLadder(written);
  if (!ladder) throw new Refusal(consoleTexts.consoleLadderFormat.id);
  for (const step of ladder) checkRewardCap(caps, POINTS, step, 'ladder');
  // Two operators setting it at once: the second waits here, and its "before" is the first one's ladder.
  await tx
    .select()
    .from(configEntries)
    .where(and(eq(configEntries.act, LADDER_CONFIG.act), eq(configEntries.key, LADDER_CONFIG.key)))
    .for('update');
  const before = await ladderOf(tx);
  await setConfigEntry(tx, LADDER_CONFIG.act, LADDER_CONFIG.key, ladder.join(','));
  await appendAudit(
    tx,
    actor,
    'signin.ladder',
    'signin:ladder',
    { before: { ladder: before }, after: { ladder } },
    now,
  );
  return ladder;
}

async function checkInOn(db: Executor, userId: number, day: string) {
  const [row] = await db
    .select({ streak: checkIns.streak, reward: checkIns.reward })
    .from(checkIns)
    .where(and(eq(checkIns.userId, userId), eq(checkIns.day, day)));
  return row ?? null;
}

async function streakOn(db: Executor, userId: number, day: string): Promise<number | null> {
  const row = await checkInOn(db, userId, day);
  return row ? Number(row.streak) : null;
}

/**
 * After a check-in recorded for `day` with `streak`, the days checked in right after it count on from it: each one
 * more than the day before, until a day without a check-in. Only a late tap finds such days (see checkInToday); their
 * rewards stay as paid, one reward per business day.
 */
async function countOnAfter(tx: Tx, userId: number, day: string, streak: number): Promise<void> {
  for (let later = addDays(day, 1), next = streak + 1; ; later = addDays(later, 1), next++) {
    const updated = await tx
      .update(checkIns)
      .set({ streak: next })
      .where(and(eq(checkIns.userId, userId), eq(checkIns.day, later)))
      .returning({ day: checkIns.day });
    if (!updated.length) return;
  }
}

/**
 * Checks the caller in for the business day (a local day of `timeZone`) that `now` falls on, the server's clock when
 * the tap was taken in (a device's clock is never trusted), and pays the ladder's step for the streak: consecutive
 * business days ending with that one. A second check-in of the day is the refusal (Refusal alreadyCheckedIn).
 *
 * A tap taken in just before local midnight whose transaction runs after it still counts for its own day, and may
 * even run after the next day's check-in committed (two processes: the next day's tap took the customer's lock
 * first, and counted a new run since it saw no check-in of the day before). It is then recorded for its own day with
 * its own reward, and the next days' streaks count on from it, so the run a customer kept is never broken by the
 * order the server took the taps in; what those days paid stays (never a second reward for a day).
 */
export async function checkInToday(tx: Tx, userId: number, now: Date, timeZone: string): Promise<CheckInAnswer> {
  // A check-in racing the customer's closure credits no closed account. The customer's check-ins pass one at a time:
  // a tap just after local midnight reads yesterday's streak once a tap of yesterday that took the lock first
  // committed; one of yesterday that takes it after is the late tap above.
  await holdOpenAccount(tx, userId, 'no key update');
  const day = interestDay(now, timeZone);
  const streak = streakAfter(await streakOn(tx, userId, addDays(day, -1)));
  const reward = ladderReward(await ladderOf(tx), streak);
  // A parallel tap of the same day waits here for the first one's commit, then inserts nothing.
  const inserted = await tx
    .insert(checkIns)
    .values({ userId, day, streak, reward, createdAt: now })
    .onConflictDoNothing()
    .returning({ day: checkIns.day });
  if (!inserted.length) throw new Refusal(serverTexts.alreadyCheckedIn.id);
  await countOnAfter(tx, userId, day, streak);
  await post(tx, { userId, asset: POINTS, amount: reward, kind: 'sign_in', reference: `signin:${userId}:${day}` }, now);
  return { day, streak, reward, balance: await pointBalance(tx, userId) };
}

/**
 * Runs the check-in in its own transaction; the same day checked in by a racing request is the refusal, never a 500.
 */
export async function checkInOnce(db: Executor, userId: number, now: Date, timeZone: string): Promise<CheckInAnswer> {
  try {
    return await db.transaction((tx) => checkInToday(tx, userId, now, timeZone));
  } catch (error) {
    if (error instanceof AlreadyPosted || isUniqueViolation(error)) throw new Refusal(serverTexts.alreadyCheckedIn.id);
    throw error;
  }
}

/** The caller's month (default: this one) with today, the streak and the ladder. */
export async function calendarOf(
  db: Executor,
  userId: number,
  now: Date,
  timeZone: string,
  month = '',
): Promise<CheckInCalendar> {
  const today = interestDay(now, timeZone);
  const shown = month || today.slice(0, 7);
  const [days, todayRow, yesterdayStreak, ladder, balance] = await Promise.all([
    db
      .select({ day: checkIns.day })
      .from(checkIns)
      .where(and(eq(checkIns.userId, userId), gte(checkIns.day, `${shown}-01`), lte(checkIns.day, `${shown}-31`)))
      .orderBy(checkIns.day),
    checkInOn(db, userId, today),
    streakOn(db, userId, addDays(today, -1)),
    ladderOf(db),
    pointBalance(db, userId),
  ]);
  const streak = currentStreak(todayRow ? Number(todayRow.streak) : null, yesterdayStreak);
  const checkedInToday = todayRow !== null;
  return {
    month: shown,
    signed_days: days.map((row) => row.day),
    today,
    signed_today: checkedInToday,
    streak,
    ladder,
    // What today paid when checked in: neither a later ladder nor a late tap of yesterday (which lengthens today's
    // streak) changes it.
    today_reward: todayRow ? new Big(todayRow.reward).toFixed(0) : ladderReward(ladder, streak + 1),
    next_reward: ladderReward(ladder, (checkedInToday ? streak : streak + 1) + 1),
    time_zone: timeZone,
    balance,
  };
}
