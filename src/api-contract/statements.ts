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
/** The most entries one answer lists: a busier period comes in several pages, each asked `after` the one before. */
export const STATEMENT_PAGE_SIZE = 1000;

/** A calendar day, "2026-11-23" (its form only: isCalendarDay says whether it exists and is in range). */
export const STATEMENT_DAY = CALENDAR_DAY;

/** Days between two calendar days ("2026-01-01" → "2026-01-02" is 1); NaN when either is not one (isCalendarDay). */
export function daysBetween(from: string, to: string): number {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return NaN;
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * What is wrong with a period, or null: 'date' when a day is missing or not written YYYY-MM-DD, 'calendar' when one
 * does not exist or is out of the calendar's range (api-contract/calendar.ts), 'order' when from > to, 'length' beyond
 * STATEMENT_MAX_DAYS days.
 */
export function periodProblem(from: string, to: string): 'date' | 'calendar' | 'order' | 'length' | null {
  if (!STATEMENT_DAY.test(from) || !STATEMENT_DAY.test(to)) return 'date';
  const days = daysBetween(from, to);
  if (Number.isNaN(days)) return 'calendar';
  if (days < 0) return 'order';
  return days + 1 > STATEMENT_MAX_DAYS ? 'length' : null;
}

/** A page's place in the statement: the ledger sequence number of the entry it follows. */
export const STATEMENT_CURSOR = /^\d{1,15}$/;

export const StatementInput = v.object({
  asset: v.optional(matching(/^[A-Z0-9]{2,10}$/, texts.invalidRequest), 'USDT'),
  /** The first day of the period and the last (both included), in `tz`. */
  from: calendarDay(),
  to: calendarDay(),
  /** The customer's IANA time zone: the days run from its midnights. */
  tz: matching(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, texts.invalidRequest),
  /** The page after this one: the `next` of the answer before (absent for the first page). */
  after: v.optional(matching(STATEMENT_CURSOR, texts.invalidRequest)),
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

/**
 * One page of a statement: its entries in the order they took effect (the ledger's commit order, which a running
 * balance needs), at most STATEMENT_PAGE_SIZE of them. The first page's `opening` is the period's; each page's
 * `closing` is the balance after its last entry, the last page's (`next` null) the period's. A period belongs to the
 * entries that took effect from the first one stamped at or after its start until the first one stamped at or after
 * its end, so adjacent periods never share or miss an entry.
 */
export const Statement = shape({
  asset: v.string(),
  from: isoDay,
  to: isoDay,
  time_zone: v.string(),
  /** The period's bounds as instants: [starts_at, ends_at). */
  starts_at: isoTime,
  ends_at: isoTime,
  /** The available balance before this page's first entry. */
  opening: decimal,
  /** In the order they took effect, oldest first. */
  entries: v.pipe(v.array(StatementEntry), v.readonly()),
  /** The available balance after this page's last entry: opening + every entry's amount. */
  closing: decimal,
  /** The `after` of the next page, or null on the period's last page. */
  next: v.nullable(v.pipe(v.string(), v.regex(STATEMENT_CURSOR), v.examples(['4821']))),
});
export type Statement = v.InferOutput<typeof Statement>;

/** The caller's statement of one asset's available balance for a period. */
export const statement = get('/users/account/statement', StatementInput, returns(Statement), { cache: 'user' });
