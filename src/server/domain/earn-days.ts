// Interest days: calendar days in the earn timezone (EARN_TIMEZONE, default Asia/Bangkok). A day
// is named by its date ("2026-11-23") and runs from that date's local midnight to the next one.
// Which day an instant falls on (interestDay) and the zone's default are the API contract's: the app reads them too.
import { addDays, type InterestDay } from '../../api-contract/earn.ts';
import { ZONE_FORMATS_KEPT, interestDay } from '../../api-contract/earn-days.ts';
import { BoundedCache } from '../../api-contract/bounded-cache.ts';

/** Formatters per zone: bounded, since a zone can come from a caller (a statement's `tz`) in any spelling. */
export const partFormats = new BoundedCache<string, Intl.DateTimeFormat>(ZONE_FORMATS_KEPT);

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const format = partFormats.getOrMake(
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  );
  const part = Object.fromEntries(format.formatToParts(at).map(({ type, value }) => [type, Number(value)]));
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a day starts: its local midnight (a zone that changes its offset at midnight is handled). */
export function dayStart(day: InterestDay, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const first = midnightUtc - offsetAt(new Date(midnightUtc), timeZone);
  const second = midnightUtc - offsetAt(new Date(first), timeZone);
  // Clocks jumping from 00:00 to 01:00 west of UTC: `second` is an hour into the day before; the day starts at the
  // jump.
  return new Date(interestDay(new Date(second), timeZone) === day ? second : first);
}

/** The instant a day ends: the next day's start. */
export const dayEnd = (day: InterestDay, timeZone: string) => dayStart(addDays(day, 1), timeZone);
