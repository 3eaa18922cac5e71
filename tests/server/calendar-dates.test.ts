// Every date and time a call takes is a real calendar date from 2000-01-01 to 2199-12-31: a day that
// does not exist (30 February, 29 February outside a leap year, month 13, day 0) or lies outside the
// range is refused with the translated text and changes nothing, never rolled over to another day and
// never an HTTP 500. The statement's time zone is read in any letter case and kept by its canonical
// name: thousands of spellings, or of zones that do not exist, leave one formatter kept at most.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { statement } from '../../src/api-contract/statements.ts';
import { protection, setProtection } from '../../src/api-contract/protection.ts';
import { consoleAuditLog } from '../../src/api-contract/console.ts';
import { checkInCalendar } from '../../src/api-contract/check-in.ts';
import { ZONE_FORMATS_KEPT, dayFormats } from '../../src/api-contract/earn-days.ts';
import { partFormats } from '../../src/server/domain/earn-days.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';

let h: Harness;
let user: { token: string; id: number };
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  user = await customer(h, '100');
  admin = await operatorToken(h, 'calendar-root', 'admin');
});
afterAll(() => h.close());

/** The refusal as each of the six languages reads it. */
const CALENDAR_TEXT: Record<string, string> = {
  en: 'Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!',
  zh: '请选择日历上存在的日期，范围为 2000-01-01 至 2199-12-31！',
  th: 'โปรดเลือกวันที่ที่มีอยู่จริงในปฏิทิน ตั้งแต่ 2000-01-01 ถึง 2199-12-31!',
  jp: 'カレンダーに存在する日付を、2000-01-01 から 2199-12-31 までの間で選んでください！',
  ar: 'يرجى اختيار تاريخ موجود في التقويم، من 2000-01-01 إلى 2199-12-31!',
  hi: 'कृपया कैलेंडर में मौजूद कोई तारीख चुनें, 2000-01-01 से 2199-12-31 तक!',
};
const CALENDAR = CALENDAR_TEXT.en!;

const askStatement = (input: Record<string, string>, lang = 'en') =>
  h.call(statement, { tz: 'Asia/Bangkok', ...input }, { token: user.token, lang });

describe('statements', () => {
  it.each([
    '9999-12-31',
    '0000-01-01',
    '0050-01-01',
    '1999-12-31',
    '2200-01-01',
    '2100-02-29',
    '2027-02-29',
    '2027-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-04-31',
  ])('refuses %s as the first or the last day with the calendar text, never an HTTP 500', async (day) => {
    expect(await askStatement({ from: day, to: '2026-01-01' })).toEqual(refused(CALENDAR));
    expect(await askStatement({ from: '2026-01-01', to: day })).toEqual(refused(CALENDAR));
  });

  it.each(Object.entries(CALENDAR_TEXT))('says so in %s', async (lang, text) => {
    expect(await askStatement({ from: '2027-02-30', to: '2027-03-01' }, lang)).toEqual(refused(text));
  });

  it.each([
    ['2000-02-29', '2000-02-29', 'Asia/Bangkok'],
    ['2024-02-29', '2024-03-01', 'UTC'],
    ['2000-01-01', '2000-01-01', 'Pacific/Kiritimati'],
    ['2199-12-31', '2199-12-31', 'Pacific/Pago_Pago'],
    ['2199-12-01', '2199-12-31', 'Pacific/Kiritimati'],
    ['2026-03-08', '2026-03-08', 'America/New_York'],
    ['2026-10-04', '2026-10-04', 'Australia/Lord_Howe'],
  ])('answers a real day from %s to %s in %s, from its midnights', async (from, to, tz) => {
    const answer = await askStatement({ from, to, tz });
    expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1, data: { from, to, time_zone: tz } });
    // The period starts at the zone's midnight on the first day: its wall clock there reads 00:00 on that day.
    const wall = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(answer.data.starts_at));
    expect(wall).toBe(`${from}, 00:00`);
  });

  it('reads a zone in any letter case by its canonical name, and keeps no formatter per spelling', async () => {
    const upper = await askStatement({ from: '2026-11-01', to: '2026-11-30', tz: 'ASIA/BANGKOK' });
    expect(upper).toMatchObject({ ret: 1, data: { time_zone: 'Asia/Bangkok', starts_at: '2026-10-31T17:00:00.000Z' } });
    const before = { part: partFormats.size, day: dayFormats.size };
    // 200 spellings of one zone, each a call (a statement each: thousands more go through the rule in
    // tests/unit/calendar.test.ts): none of them is kept apart.
    const zone = 'asia/bangkok';
    for (let n = 0; n < 200; n++) {
      const spelled = [...zone].map((char, i) => (((n * 5 + 1) >> (i % 10)) & 1 ? char.toUpperCase() : char)).join('');
      const answer = await askStatement({ from: '2026-11-01', to: '2026-11-01', tz: spelled });
      expect(answer.ret, spelled).toBe(1);
    }
    expect(partFormats.size).toBe(before.part);
    expect(dayFormats.size).toBe(before.day);
    expect(partFormats.size).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
  });

  it('refuses thousands of zones that do not exist and keeps nothing for them', async () => {
    const before = { part: partFormats.size, day: dayFormats.size };
    for (let n = 0; n < 1000; n++) {
      const answer = await askStatement({ from: '2026-11-01', to: '2026-11-01', tz: `Mars/Crater_${n}` });
      expect(answer).toEqual(
        refused('The time zone of this device is not known: please check its date and time settings!'),
      );
    }
    expect(partFormats.size).toBe(before.part);
    expect(dayFormats.size).toBe(before.day);
  });
});

describe('the time-out', () => {
  const askTimeout = (value: string, lang = 'en') =>
    h.call(setProtection, { setting: 'timeout_until', value }, { token: user.token, lang });

  it.each([
    ['2027-02-30T10:00:00Z', CALENDAR],
    ['2027-02-29T10:00:00+07:00', CALENDAR],
    ['2100-02-29T00:00Z', CALENDAR],
    ['2027-13-01T10:00Z', CALENDAR],
    ['2027-01-00T10:00Z', CALENDAR],
    ['9999-12-31T00:00:00Z', CALENDAR],
    ['0050-01-01T00:00:00Z', CALENDAR],
    ['2027-02-28T24:00Z', 'Please choose when the time-out ends!'],
    ['2027-02-28T10:60Z', 'Please choose when the time-out ends!'],
    ['2027-02-28T10:00:60Z', 'Please choose when the time-out ends!'],
    ['2027-02-28T10:00+14:30', 'Please choose when the time-out ends!'],
    ['2027-02-28T10:00-15:00', 'Please choose when the time-out ends!'],
  ])('refuses %s and changes nothing', async (value, text) => {
    expect(await askTimeout(value)).toEqual(refused(text));
    expect((await h.call(protection, {}, { token: user.token })).data.limits.timeout_until).toBe('');
  });

  it.each(Object.entries(CALENDAR_TEXT))('says so in %s', async (lang, text) => {
    expect(await askTimeout('2027-02-30T10:00:00Z', lang)).toEqual(refused(text));
  });

  it('takes a real moment at a zone’s edge as the instant it names: 29 February of a leap year, +14:00', async () => {
    const answer = await askTimeout('2028-02-29T23:30:00+14:00');
    expect(answer).toMatchObject({ ret: 1, data: { limits: { timeout_until: '2028-02-29T09:30:00.000Z' } } });
    await expectLedgerBalanced(h);
  });
});

describe('the console’s audit log and the check-in calendar', () => {
  it.each([
    [{ from: '2026-02-29' }, CALENDAR],
    [{ to: '2100-02-29' }, CALENDAR],
    [{ from: '9999-12-31' }, CALENDAR],
    [{ from: '0050-01-01' }, CALENDAR],
    [{ from: '2026-02-30T00:00:00+07:00' }, CALENDAR],
    [{ from: '2026-02-28T00:00:00+15:00' }, 'Write dates as YYYY-MM-DD!'],
  ])('refuses %j in the audit log filter', async (filter, text) => {
    expect(await h.call(consoleAuditLog, filter, { token: admin })).toEqual(refused(text));
  });

  it('filters by a real day: 29 February of a leap year, and the range’s first and last days', async () => {
    for (const filter of [{ from: '2028-02-29' }, { from: '2000-01-01', to: '2199-12-31' }])
      expect((await h.call(consoleAuditLog, filter, { token: admin })).ret, JSON.stringify(filter)).toBe(1);
  });

  it.each([
    ['2026-13', CALENDAR],
    ['2026-00', CALENDAR],
    ['0050-01', CALENDAR],
    ['9999-12', CALENDAR],
    ['2026-1', CALENDAR],
  ])('refuses the check-in month %s', async (month, text) => {
    expect(await h.call(checkInCalendar, { month }, { token: user.token })).toEqual(refused(text));
  });

  it('shows a real month', async () => {
    expect(await h.call(checkInCalendar, { month: '2028-02' }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { month: '2028-02' },
    });
  });
});

describe('the operator command', () => {
  const ops = (...argv: string[]) =>
    runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);

  it.each(['2099-02-29', '2100-02-29', '2099-13-01', '9999-12-31', '0050-01-01'])(
    'refuses a ladder for %s and publishes none',
    async (day) => {
      expect(await ops('ladder', day, '1000:0.06,*:0.03')).toMatchObject({ ok: false });
      expect((await ops('ladders')).output).not.toContain(day);
    },
  );

  it('publishes one for 29 February of a leap year', async () => {
    expect(await ops('ladder', '2096-02-29', '1000:0.06,*:0.03')).toMatchObject({ ok: true });
  });
});
