// The calendar rule every date input shares (api-contract/calendar.ts), the forms that use it, and the
// caches a caller could fill: each stays within its stated size whatever keys it is asked for.
import { describe, expect, it } from 'vitest';
import {
  CALENDAR_FIRST_DAY,
  CALENDAR_LAST_DAY,
  calendarMoment,
  canonicalTimeZone,
  isCalendarDay,
  isCalendarMonth,
} from '../../src/api-contract/calendar.ts';
import { BoundedCache } from '../../src/api-contract/bounded-cache.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { periodProblem } from '../../src/api-contract/statements.ts';
import { validSettingValue } from '../../src/api-contract/protection.ts';
import { ZONE_FORMATS_KEPT, dayFormats, interestDay } from '../../src/api-contract/earn-days.ts';
import { dayEnd, dayStart, partFormats } from '../../src/server/domain/earn-days.ts';
import { FORMATTERS_KEPT, formatterOnce, formattersKept } from '../../src/lib/formatter-once.ts';
import { timeFormats, wallClock } from '../../src/lib/csv.ts';
import { localMoment, timeoutProblem } from '../../src/features/protection/protection-store.ts';

describe('a calendar day', () => {
  it.each([
    ['2000-02-29', true, 'a leap year divisible by 400'],
    ['2024-02-29', true, 'a leap year divisible by 4'],
    ['2100-02-29', false, 'not a leap year: divisible by 100, not by 400'],
    ['2027-02-29', false, 'not a leap year'],
    ['2027-02-30', false, 'no 30 February'],
    ['2026-04-31', false, 'April has 30 days'],
    ['2026-12-31', true, 'the last day of a year'],
    ['2026-13-01', false, 'month 13'],
    ['2026-00-10', false, 'month 0'],
    ['2026-01-00', false, 'day 0'],
    ['2026-01-32', false, 'day 32'],
    ['2000-01-01', true, 'the range’s first day'],
    ['1999-12-31', false, 'before the range'],
    ['2199-12-31', true, 'the range’s last day'],
    ['2200-01-01', false, 'after the range'],
    ['0000-01-01', false, 'year 0'],
    ['0050-01-01', false, 'year 50 (not 1950)'],
    ['9999-12-31', false, 'year 9999'],
    ['2026-1-01', false, 'one digit'],
    ['2026-01-01T00:00', false, 'a moment'],
    [' 2026-01-01', false, 'a space'],
    ['２０２６-01-01', false, 'full-width digits: the wire is ASCII'],
    ['', false, 'nothing'],
  ])('%s: %s (%s)', (day, real) => {
    expect(isCalendarDay(day)).toBe(real);
  });

  it('names its range in the text that refuses a day (the same days as the constants)', () => {
    expect(texts.calendarDate.message).toContain(`from ${CALENDAR_FIRST_DAY} to ${CALENDAR_LAST_DAY}`);
  });

  it.each([
    ['2026-11', true],
    ['2028-02', true],
    ['2026-13', false],
    ['2026-00', false],
    ['1999-12', false],
    ['2200-01', false],
    ['0050-01', false],
    ['2026-1', false],
  ])('month %s: %s', (month, real) => {
    expect(isCalendarMonth(month)).toBe(real);
  });
});

describe('a moment', () => {
  it.each([
    ['2027-02-28T10:00Z', '2027-02-28T10:00:00.000Z'],
    ['2027-02-28T10:00:00.5Z', '2027-02-28T10:00:00.500Z'],
    ['2028-02-29T23:59:59.999+07:00', '2028-02-29T16:59:59.999Z'],
    ['2028-02-29T23:30:00+14:00', '2028-02-29T09:30:00.000Z'],
    ['2000-01-01T00:00:00-12:00', '2000-01-01T12:00:00.000Z'],
    ['2000-01-01T00:00:00+14:00', '1999-12-31T10:00:00.000Z'],
    ['2199-12-31T23:59:59-11:00', '2200-01-01T10:59:59.000Z'],
    ['2026-03-08T02:30:00-05:00', '2026-03-08T07:30:00.000Z'],
  ])('%s is %s', (text, instant) => {
    expect(calendarMoment(text)?.toISOString()).toBe(instant);
  });

  it.each([
    '2027-02-30T10:00:00Z',
    '2100-02-29T00:00Z',
    '2027-13-01T10:00Z',
    '2027-02-28T24:00Z',
    '2027-02-28T23:60Z',
    '2027-02-28T23:59:60Z',
    '2027-02-28T10:00+14:01',
    '2027-02-28T10:00-14:30',
    '2027-02-28T10:00+07:60',
    '2027-02-28T10:00',
    '2027-02-28 10:00Z',
    '0050-01-01T00:00Z',
    '9999-12-31T23:59:59Z',
    '275760-09-13T00:00:00Z',
  ])('%s is none', (text) => {
    expect(calendarMoment(text)).toBeNull();
    expect(validSettingValue('timeout_until', text)).toBe(false);
  });
});

describe('the forms', () => {
  it('the statement form tells a day not on the calendar from one not chosen', () => {
    expect(periodProblem('', '2026-11-30')).toBe('date');
    expect(periodProblem('2027-02-30', '2027-03-01')).toBe('calendar');
    expect(periodProblem('2026-11-01', '9999-12-31')).toBe('calendar');
    expect(periodProblem('2000-02-01', '2000-02-29')).toBeNull();
    expect(periodProblem('2100-02-28', '2100-02-29')).toBe('calendar');
  });

  it('the time-out form refuses a day not on the calendar instead of rolling it over', () => {
    expect(localMoment('2027-02-30T10:00')).toBe('');
    expect(timeoutProblem('', Date.now(), '2027-02-30T10:00')).toBe(texts.calendarDate.message);
    expect(localMoment('0050-01-01T10:00')).toBe('');
    expect(localMoment('2027-02-28T24:00')).toBe('');
    expect(timeoutProblem('', Date.now(), '')).toBe('Please choose when the time-out ends!');
    expect(localMoment('2028-02-29T10:00')).toBe(new Date(2028, 1, 29, 10, 0).toISOString());
    expect(timeoutProblem(new Date(Date.now() + 6 * 366 * 86_400_000).toISOString())).toBe(
      'A time-out lasts at most 5 years!',
    );
  });
});

describe('time zones', () => {
  it.each([
    ['Asia/Bangkok', 'Asia/Bangkok'],
    ['asia/bangkok', 'Asia/Bangkok'],
    ['ASIA/BANGKOK', 'Asia/Bangkok'],
    ['utc', 'UTC'],
    ['Mars/Olympus', null],
    ['', null],
  ])('%s is known as %s', (zone, canonical) => {
    expect(canonicalTimeZone(zone)).toBe(canonical);
  });
});

/** `count` spellings of `zone` in mixed letter case, all different. */
const spellings = (zone: string, count: number) =>
  Array.from({ length: count }, (_, n) =>
    [...zone]
      .map((char, i) => (/[a-z]/i.test(char) && (n >> (i % 12)) & 1 ? char.toUpperCase() : char.toLowerCase()))
      .join(''),
  );

describe('caches that callers fill stay bounded', () => {
  it('keeps the least recently used out first, at most its limit', () => {
    const cache = new BoundedCache<string, number>(3);
    let made = 0;
    const get = (key: string) => cache.getOrMake(key, () => ++made);
    expect([get('a'), get('b'), get('c'), get('a')]).toEqual([1, 2, 3, 1]);
    get('d'); // room is made by dropping b, the least recently used
    expect(cache.size).toBe(3);
    expect(get('a')).toBe(1);
    expect(get('b')).toBe(5);
    expect(() =>
      cache.getOrMake('broken', () => {
        throw new RangeError('an unknown zone');
      }),
    ).toThrow(RangeError);
    expect(cache.size).toBe(3);
  });

  it('the zone formatters of the day rules: 3,000 spellings and 3,000 unknown zones', () => {
    const zones = new Set(spellings('America/Argentina/Buenos_Aires', 3000));
    expect(zones.size).toBeGreaterThanOrEqual(3000);
    for (const zone of zones) {
      expect(dayStart('2026-11-01', zone).toISOString()).toBe('2026-11-01T03:00:00.000Z');
      expect(dayEnd('2026-11-01', zone).toISOString()).toBe('2026-11-02T03:00:00.000Z');
      expect(interestDay(new Date('2026-11-01T03:00:00Z'), zone)).toBe('2026-11-01');
    }
    for (let n = 0; n < 3000; n++) expect(() => dayStart('2026-11-01', `Mars/Crater_${n}`)).toThrow(RangeError);
    expect(partFormats.size).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
    expect(dayFormats.size).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
  });

  it('the statement file’s wall clock: 3,000 spellings of the device’s zone', () => {
    for (const zone of spellings('Asia/Kolkata', 3000))
      expect(wallClock(new Date('2026-11-01T00:00:00Z'), zone)).toBe('2026-11-01 05:30:00');
    expect(timeFormats.size).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
  });

  it('the app’s and the console’s formatters: 3,000 keys', () => {
    for (let n = 0; n < 3000; n++)
      formatterOnce(`test:${n}`, () => new Intl.NumberFormat('en', { minimumFractionDigits: n % 20 }));
    expect(formattersKept()).toBe(FORMATTERS_KEPT);
  });
});
