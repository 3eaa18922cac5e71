// Which interest day an instant falls on: calendar days in the earn zone (EARN_TIMEZONE, default
// Asia/Bangkok). The server's day-end jobs and the app's "today" read the same rule. In a file of
// its own so the app's start chunk, which carries the earn calls, does not carry it too.
import type { InterestDay } from './earn.ts';
import { BoundedCache } from './bounded-cache.ts';

/** Interest days are calendar days in this zone unless the server's EARN_TIMEZONE (and its answers' `timezone`) says
 * another. */
export const DEFAULT_EARN_TIMEZONE = 'Asia/Bangkok';

/** How many zones' formatters a process keeps: the zones in use at once are few (the earn zone, customers' own). */
export const ZONE_FORMATS_KEPT = 64;

/** Formatters per zone: bounded, since a zone can come from a caller (a statement's `tz`) in any spelling. */
export const dayFormats = new BoundedCache<string, Intl.DateTimeFormat>(ZONE_FORMATS_KEPT);

/** The interest day `at` falls on in `timeZone` ("2026-11-23"): the server's rule, and the app's when it has no answer
 * yet. */
export function interestDay(at: Date, timeZone: string = DEFAULT_EARN_TIMEZONE): InterestDay {
  return dayFormats
    .getOrMake(
      timeZone,
      () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
    )
    .format(at);
}
