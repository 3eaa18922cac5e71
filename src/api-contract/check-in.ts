// Daily check-in (our addition beside /task/level): one check-in per user and local day (the
// server's configured timezone), a streak of consecutive days and a reward ladder of points. The
// path /task/signin and the answer's `signed_*` fields keep their published spelling.
import { optionalCalendarMonth } from './calendar.ts';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { decimal, isoDay, shape, whole } from './answers.ts';

/** Points per consecutive day: day 1 pays the first step, day n ≥ the ladder's length the last. */
export const DEFAULT_CHECK_IN_LADDER = '5,5,10,10,15,20,30';
/** A ladder has 1–31 steps of 1–1,000,000 whole points each. */
export const CHECK_IN_LADDER = /^[1-9]\d{0,6}(,[1-9]\d{0,6}){0,30}$/;
/** A month to browse: "2026-11". */
export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The steps of a ladder written "5,5,10", or null when it is not one (more than 1,000,000 a step included). */
export function parseLadder(value: string): string[] | null {
  const text = value.replace(/\s+/g, '');
  if (!CHECK_IN_LADDER.test(text)) return null;
  const steps = text.split(',');
  return steps.every((step) => Number(step) <= 1_000_000) ? steps : null;
}

/** The points a check-in on day `streak` of a run pays: the ladder's step, the last one from then on. */
export function ladderReward(ladder: readonly string[], streak: number): string {
  if (!ladder.length || streak < 1) return '0';
  return ladder[Math.min(streak, ladder.length) - 1]!;
}

/** The caller's check-in month: the days checked in, today, the streak, the ladder and the point balance. */
export const CheckInCalendar = shape({
  /** The month shown: "2026-11". */
  month: v.pipe(v.string(), v.regex(MONTH)),
  /** The month's local days the caller checked in on, ascending ("2026-11-03"). */
  signed_days: v.array(isoDay),
  /** Today in the server's timezone ("2026-11-23"). */
  today: isoDay,
  /** Whether the caller has checked in today. */
  signed_today: v.boolean(),
  /** Consecutive days up to today (checked in) or yesterday (not yet checked in today); 0 when the run is broken. */
  streak: whole,
  /** Whole points per consecutive day. */
  ladder: v.array(decimal),
  /** What checking in today pays, or paid. */
  today_reward: decimal,
  /** What tomorrow pays if the run goes on. */
  next_reward: decimal,
  /** The IANA timezone whose midnight starts a day. */
  time_zone: v.string(),
  /** The caller's point balance. */
  balance: decimal,
});
export type CheckInCalendar = v.InferOutput<typeof CheckInCalendar>;
/** The caller's month: `month` browses an earlier one (default: this month). */
export const checkInCalendar = get(
  '/task/signin',
  v.object({ month: optionalCalendarMonth() }),
  returns(CheckInCalendar),
  { cache: 'user' },
);

/** A check-in's answer: the local day it counts for, the streak it makes, the points paid. */
export const CheckInAnswer = shape({
  day: isoDay,
  streak: whole,
  /** Points paid. */
  reward: decimal,
  /** The point balance after it. */
  balance: decimal,
});
export type CheckInAnswer = v.InferOutput<typeof CheckInAnswer>;
/** Checks in for today; a second time the same day is refused and changes nothing. */
export const dailyCheckIn = post('/task/signin', NoInput, returns(CheckInAnswer));
