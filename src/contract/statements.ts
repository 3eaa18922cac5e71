// Statements: the ledger of one asset over a chosen period, as the customer downloads it from the
// account details (a CSV file made on the device). The period is named by calendar days in the
// customer's time zone; the answer carries the balance before its first day, every entry in it and
// the balance after its last day, so that opening + the entries = closing. Kept for offline use:
// a period already loaded can be downloaded again without a network.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { decimal, isoDay, isoTime, shape, signedDecimal, whole } from './answers.ts';
import { CALENDAR_DAY, calendarDay, isCalendarDay } from './calendar.ts';

/** The longest period one statement covers, in calendar days (a leap year). */
export const STATEMENT_MAX_DAYS = 366;
/** The most entries one statement lists: a busier period is refused with a request for a shorter one. */
export const STATEMENT_MAX_ENTRIES = 5000;

/** A calendar day, "2026-11-23" (its form only: isCalendarDay says whether it exists and is in range). */
export const STATEMENT_DAY = CALENDAR_DAY;

/** Days between two calendar days ("2026-01-01" → "2026-01-02" is 1); NaN when either is not one (isCalendarDay). */
export function daysBetween(from: string, to: string): number {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return NaN;
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * What is wrong with a period, or null: 'date' when a day is missing or not written YYYY-MM-DD, 'calendar' when one
 * does not exist or is out of the calendar's range (contract/calendar.ts), 'order' when from > to, 'length' beyond
 * STATEMENT_MAX_DAYS days.
 */
export function periodProblem(from: string, to: string): 'date' | 'calendar' | 'order' | 'length' | null {
  if (!STATEMENT_DAY.test(from) || !STATEMENT_DAY.test(to)) return 'date';
  const days = daysBetween(from, to);
  if (Number.isNaN(days)) return 'calendar';
  if (days < 0) return 'order';
  return days + 1 > STATEMENT_MAX_DAYS ? 'length' : null;
}

export const StatementInput = v.object({
  asset: v.optional(matching(/^[A-Z0-9]{2,10}$/, texts.invalidRequest), 'USDT'),
  /** The first day of the period and the last (both included), in `tz`. */
  from: calendarDay(),
  to: calendarDay(),
  /** The customer's IANA time zone: the days run from its midnights. */
  tz: matching(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, texts.invalidRequest),
});
export type StatementInputType = v.InferInput<typeof StatementInput>;

export const StatementEntry = shape({
  id: whole,
  /** Signed: "+" credited to the available balance, "-" taken from it. */
  amount: signedDecimal,
  /** The available balance right after this entry. */
  balance: decimal,
  kind: v.string(),
  /** The business event: "recharge:12", "option:40"… */
  reference: v.string(),
  created_at: isoTime,
});
export type StatementEntry = v.InferOutput<typeof StatementEntry>;

export const Statement = shape({
  asset: v.string(),
  from: isoDay,
  to: isoDay,
  time_zone: v.string(),
  /** The period's bounds as instants: [starts_at, ends_at). */
  starts_at: isoTime,
  ends_at: isoTime,
  /** The available balance before the period's first entry. */
  opening: decimal,
  /** Oldest first. */
  entries: v.pipe(v.array(StatementEntry), v.readonly()),
  /** The available balance after the period's last entry: opening + every entry's amount. */
  closing: decimal,
});
export type Statement = v.InferOutput<typeof Statement>;

/** The caller's statement of one asset's available balance for a period. */
export const statement = get('/users/account/statement', StatementInput, returns(Statement), { cache: 'user' });
