// Dates and times as people and forms send them: one rule for every date, month, moment and time
// zone a call takes. A date must exist on the Gregorian calendar (no 30 February, no month 13, no
// 29 February outside a leap year) and fall from CALENDAR_FIRST_DAY to CALENDAR_LAST_DAY; a moment
// must also name a real clock time (00:00–23:59:59) and an offset that exists (±14:00 at most). JavaScript's
// own parser rolls "2027-02-30" over to 2 March and reads years 0–99 as 1900–1999, so nothing here
// trusts it: the parts are read from the text and checked by a round trip through Date.UTC.
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { texts } from './texts.ts';

/** The first and the last day any date input may name (UTC calendar), both included: texts.calendarDate states them
 * (a test checks they agree). Before 2000 the product kept no records; after 2199 nothing is planned. */
export const CALENDAR_FIRST_DAY = '2000-01-01';
export const CALENDAR_LAST_DAY = '2199-12-31';

/** A calendar day as written on the wire: "2026-11-23". */
export const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A calendar month: "2026-11". */
export const CALENDAR_MONTH = /^(\d{4})-(\d{2})$/;
/** A moment with its offset (RFC 3339 without leap seconds): "2027-02-28T10:00Z", "2027-02-28T10:00:00.000+07:00". */
export const CALENDAR_MOMENT =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
/** The widest offset a zone has ever used is +14:00 (Kiribati) and −12:00; RFC 3339 allows any, we allow ±14:00. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** True when year, month (1–12) and day name a day of the Gregorian calendar (leap years by its rule). */
function exists(year: number, month: number, day: number): boolean {
  // Date.UTC reads years 0–99 as 1900–1999: set the year apart, then compare every part.
  const at = new Date(Date.UTC(2000, month - 1, day));
  at.setUTCFullYear(year);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/** True for "YYYY-MM-DD" naming a real day from CALENDAR_FIRST_DAY to CALENDAR_LAST_DAY ("2000-02-29" yes,
 * "2100-02-29", "2027-02-30", "2026-13-01", "2026-01-00", "9999-12-31" no). */
export function isCalendarDay(text: string): boolean {
  const match = CALENDAR_DAY.exec(text);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  // The fixed-width form sorts as the calendar does.
  return exists(year, month, day) && text >= CALENDAR_FIRST_DAY && text <= CALENDAR_LAST_DAY;
}

/** True for "YYYY-MM" naming a month (01–12) of a year within the calendar's range. */
export function isCalendarMonth(text: string): boolean {
  const match = CALENDAR_MONTH.exec(text);
  return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 12 && isCalendarDay(`${text}-01`);
}

/**
 * The instant a moment names ("2027-02-28T10:00:00+07:00"), or null when it is not one: its date a calendar day
 * (isCalendarDay, as written, before the offset), its clock 00:00:00–23:59:59.999, its offset at most ±14:00.
 */
export function calendarMoment(text: string): Date | null {
  const match = CALENDAR_MOMENT.exec(text);
  if (!match) return null;
  const [, day, hour, minute, second = '0', fraction = '0', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  if (!isCalendarDay(day!) || +hour! > 23 || +minute! > 59 || +second > 59 || +offsetMinutes > 59) return null;
  const offset = (sign === '-' ? -1 : 1) * (+offsetHours * 60 + +offsetMinutes);
  if (Math.abs(offset) > MAX_OFFSET_MINUTES) return null;
  const wall = Date.parse(`${day}T00:00:00Z`) + ((+hour! * 60 + +minute!) * 60 + +second) * 1000;
  return new Date(wall + Number(fraction.padEnd(3, '0')) - offset * 60_000);
}

/**
 * The canonical IANA name of a time zone the runtime knows ("asia/BANGKOK" → "Asia/Bangkok"), or null for none.
 * Keys of anything kept per zone are canonical names, so the spellings a caller may invent cannot grow them.
 */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A field holding a calendar day (isCalendarDay); `message` is shown for any other text. */
export const calendarDay = /*#__NO_SIDE_EFFECTS__*/ (message: MessageDescriptor = texts.calendarDate) =>
  v.pipe(v.string(message.id), v.trim(), v.check(isCalendarDay, message.id));

/** An optional field holding a calendar month (isCalendarMonth): absent or '' is none. */
export const optionalCalendarMonth = /*#__NO_SIDE_EFFECTS__*/ (message: MessageDescriptor = texts.calendarDate) =>
  v.optional(
    v.pipe(
      v.string(message.id),
      v.trim(),
      v.check((given) => given === '' || isCalendarMonth(given), message.id),
    ),
    '',
  );
