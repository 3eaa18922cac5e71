// Interest days: calendar days in the earn timezone (EARN_TIMEZONE, default Asia/Bangkok). A day
// is named by its date ("2026-11-23") and runs from that date's local midnight to the next one.
import { addDays, type InterestDay } from '../../contract/earn.ts';

export const DEFAULT_EARN_TIMEZONE = 'Asia/Bangkok';

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The interest day `at` falls on. */
export function interestDay(at: Date, timeZone: string): InterestDay {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(at);
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map(({ type, value }) => [type, Number(value)]));
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a day starts: its local midnight (a zone that changes its offset at midnight is handled). */
export function dayStart(day: InterestDay, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const first = midnightUtc - offsetAt(new Date(midnightUtc), timeZone);
  const second = midnightUtc - offsetAt(new Date(first), timeZone);
  // Clocks jumping from 00:00 to 01:00 west of UTC: `second` is an hour into the day before; the day starts at the jump.
  return new Date(interestDay(new Date(second), timeZone) === day ? second : first);
}

/** The instant a day ends: the next day's start. */
export const dayEnd = (day: InterestDay, timeZone: string) => dayStart(addDays(day, 1), timeZone);
