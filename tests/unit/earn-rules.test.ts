// The earn rules (src/api-contract/liquidity.ts, lockup.ts and earn.ts) and interest days
// (src/server/domain/earn-days.ts): the marginal ladder's daily interest cut to 8 decimals, the
// effective rate, lock-up income, calendar arithmetic and where a day starts and ends in a timezone. Expected amounts
// are worked out by hand
// or by the exact integer reference below (BigInt, no big.js), never with floats; the cases where
// float maths gives another answer say so.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/api-contract/earn.ts';
import { dailyInterest, effectiveRate, ladderPortions, type LadderTier } from '../../src/api-contract/liquidity.ts';
import { lockupDailyIncome, lockupTotalIncome } from '../../src/api-contract/lockup.ts';
import { dayEnd, dayStart } from '../../src/server/domain/earn-days.ts';
import { interestDay } from '../../src/api-contract/earn-days.ts';

/** The seeded ladder: the first 1,000 USDT at 6 % a year, up to 10,000 at 4 %, the rest at 2.5 %. */
const SEEDED: LadderTier[] = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];

/** Rates that are multiples of 1/365 %: every answer is exact, and floats land just below it. */
const EXACT: LadderTier[] = [
  { up_to: '1000.5', rate: '0.0365' },
  { up_to: '10000.25', rate: '0.0219' },
  { up_to: null, rate: '0.0073' },
];

/** Bounds and rates with many decimals. */
const FINE: LadderTier[] = [
  { up_to: '1000.12345678', rate: '0.0612345678901234' },
  { up_to: '10000.87654321', rate: '0.0412345678901234' },
  { up_to: null, rate: '0.0250000000000001' },
];

/** The same rule in integers: every figure scaled by 10^30, Σ portion × rate / 365 floored to 8 decimals. */
function exactDailyInterest(principal: string, ladder: readonly LadderTier[]): string {
  const SCALE = 30;
  const scaled = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return BigInt(whole! + fraction.padEnd(SCALE, '0'));
  };
  const total = scaled(principal);
  let from = 0n;
  let yearly = 0n;
  for (const tier of ladder) {
    const upper = tier.up_to === null ? total : scaled(tier.up_to);
    const to = total < upper ? total : upper;
    if (to > from) yearly += (to - from) * scaled(tier.rate);
    if (tier.up_to !== null && upper > from) from = upper;
  }
  const units = (yearly / (365n * 10n ** BigInt(2 * SCALE - 8))).toString().padStart(9, '0');
  return `${units.slice(0, -8)}.${units.slice(-8)}`;
}

/** What a float implementation would answer: the trap the rule avoids. */
function floatDailyInterest(principal: string, ladder: readonly LadderTier[]): string {
  let from = 0;
  let yearly = 0;
  for (const tier of ladder) {
    const to = tier.up_to === null ? Number(principal) : Math.min(Number(principal), Number(tier.up_to));
    if (to > from) yearly += (to - from) * Number(tier.rate);
    if (tier.up_to !== null) from = Number(tier.up_to);
  }
  return (Math.floor((yearly / 365) * 1e8) / 1e8).toFixed(8);
}

describe('dailyInterest: Σ tier portion × tier rate / 365, cut (never rounded) to 8 decimals', () => {
  it.each([
    // 999.99999999 × 6 % = 59.9999999994 a year → 0.164383561642… a day
    ['999.99999999', '0.16438356'],
    // 1000 × 6 % = 60 → 0.164383561643…
    ['1000', '0.16438356'],
    // 60 + 0.00000001 × 4 % = 60.0000000004 → still 0.16438356: the first satoshi above the bound earns 4 %
    ['1000.00000001', '0.16438356'],
    // 60 + 8999.99999999 × 4 % = 419.9999999996 → 1.150684931505…
    ['9999.99999999', '1.15068493'],
    // 60 + 9000 × 4 % = 420 → 1.150684931506…
    ['10000', '1.15068493'],
    ['10000.00000001', '1.15068493'],
    // 420 + 990,000 × 2.5 % = 25,170 → 68.958904109589…
    ['1000000', '68.95890410'],
    // The daily quick-redemption cap held for a day: 420 + 29,990,000 × 2.5 % = 750,170 → 2,055.260273972…
    ['30000000', '2055.26027397'],
    // 420 + 99,999,989,999.99999999 × 2.5 % = 2,500,000,169.99999999975 → 6,849,315.534246575…
    ['99999999999.99999999', '6849315.53424657'],
  ])('on the seeded ladder, %s USDT earns %s a day', (principal, interest) => {
    expect(dailyInterest(principal, SEEDED)).toBe(interest);
    expect(exactDailyInterest(principal, SEEDED)).toBe(interest);
  });

  it('earns nothing on nothing, and less than a unit of the 8th decimal is nothing', () => {
    expect(dailyInterest('0', SEEDED)).toBe('0.00000000');
    // 0.00000001 × 6 % / 365 = 0.0000000000016… a day
    expect(dailyInterest('0.00000001', SEEDED)).toBe('0.00000000');
    // one unit a day needs 365 × 0.00000001 / 6 % = 0.0000608333… USDT: 0.00006083 earns 0.0000000099994…
    expect(dailyInterest('0.00006083', SEEDED)).toBe('0.00000000');
    expect(dailyInterest('0.00006084', SEEDED)).toBe('0.00000001');
  });

  it('is exact where floats fall a unit short (rates that are multiples of 1/365)', () => {
    // 1000.5 × 3.65 % = 36.51825 a year → exactly 0.10005 a day
    expect(dailyInterest('1000.5', EXACT)).toBe('0.10005000');
    expect(floatDailyInterest('1000.5', EXACT)).toBe('0.10004999');
    // 36.51825 + 999.5 × 2.19 % = 58.4073 → exactly 0.16002
    expect(dailyInterest('2000', EXACT)).toBe('0.16002000');
    expect(floatDailyInterest('2000', EXACT)).toBe('0.16001999');
    // 36.51825 + 8999.75 × 2.19 % + 989,999.75 × 0.73 % = 7,460.61095 → exactly 20.44003
    expect(dailyInterest('1000000', EXACT)).toBe('20.44003000');
    expect(floatDailyInterest('1000000', EXACT)).toBe('20.44002999');
  });

  it.each([
    ['1', '0.00016776'],
    ['1000.12345677', '0.16778665'],
    ['1000.12345678', '0.16778665'],
    ['1000.12345679', '0.16778665'],
    ['5000', '0.61965837'],
    ['10000.87654321', '1.18461449'],
    ['10000.87654322', '1.18461449'],
    ['1000000', '68.99277363'],
    ['29999999.99999999', '2055.29414350'],
  ])('with bounds and rates of many decimals, %s USDT earns %s a day', (principal, interest) => {
    expect(dailyInterest(principal, FINE)).toBe(interest);
    expect(exactDailyInterest(principal, FINE)).toBe(interest);
  });

  it('agrees with the integer reference around every bound and on 2,000 principals over 12 orders of magnitude', () => {
    const units = (text: string) => BigInt(text.split('.')[0]! + (text.split('.')[1] ?? '').padEnd(8, '0'));
    const decimal = (value: bigint) => `${value / 100_000_000n}.${String(value % 100_000_000n).padStart(8, '0')}`;
    const principals: string[] = [];
    for (const bound of ['1000', '1000.12345678', '1000.5', '10000', '10000.25', '10000.87654321']) {
      for (let k = -50n; k <= 50n; k++) principals.push(decimal(units(bound) + k));
    }
    for (let i = 1; i <= 2000; i++) {
      const whole = (BigInt(i) * 7919n * 10n ** BigInt(i % 12)) / 1000n;
      principals.push(`${whole}.${String((i * 104_729) % 100_000_000).padStart(8, '0')}`);
    }
    for (const ladder of [SEEDED, EXACT, FINE]) {
      const wrong = principals.filter(
        (principal) => dailyInterest(principal, ladder) !== exactDailyInterest(principal, ladder),
      );
      expect(wrong).toEqual([]);
    }
  });

  it('a ladder whose last tier has a bound pays nothing above it; an empty ladder pays nothing', () => {
    const capped: LadderTier[] = [{ up_to: '1000', rate: '0.0365' }];
    // Only the first 1,000 earn: 36.5 a year → 0.1 a day, whether 1,000 or 5,000 are held.
    expect(dailyInterest('1000', capped)).toBe('0.10000000');
    expect(dailyInterest('5000', capped)).toBe('0.10000000');
    expect(dailyInterest('5000', [])).toBe('0.00000000');
  });

  it('splits the principal into the tiers it reaches', () => {
    const portions = ladderPortions('12345.6789', SEEDED).map(([portion, rate]) => [portion.toFixed(), rate.toFixed()]);
    expect(portions).toEqual([
      ['1000', '0.06'],
      ['9000', '0.04'],
      ['2345.6789', '0.025'],
    ]);
    expect(ladderPortions('999.99999999', SEEDED).map(([portion]) => portion.toFixed())).toEqual([
      '999.99999999',
      '0',
      '0',
    ]);
  });
});

describe('effectiveRate: what the whole principal earns a year on average, cut to 4 decimals', () => {
  it.each([
    // nothing held: the first tier's rate, the one a first subscription would earn
    ['0', '0.0600'],
    ['500', '0.0600'],
    ['1000', '0.0600'],
    // 60.0000000004 / 1000.00000001 = 0.0599999999…: cut, not rounded up to 0.0600
    ['1000.00000001', '0.0599'],
    // 420 / 10,000
    ['10000', '0.0420'],
    // 25,170 / 1,000,000 = 0.02517
    ['1000000', '0.0251'],
    // 750,170 / 30,000,000 = 0.0250056…
    ['30000000', '0.0250'],
  ])('on the seeded ladder, %s USDT earns %s a year on average', (principal, rate) => {
    expect(effectiveRate(principal, SEEDED)).toBe(rate);
  });

  it('a negative or zero principal shows the first rate, and an empty ladder 0', () => {
    expect(effectiveRate('-5', SEEDED)).toBe('0.0600');
    expect(effectiveRate('0', [])).toBe('0.0000');
    // 36.51825 + 999.5 × 2.19 % = 58.4073 a year on 2,000 = 0.02920365
    expect(effectiveRate('2000', EXACT)).toBe('0.0292');
  });
});

describe('lock-up income', () => {
  it('is principal × daily rate cut to 8 decimals, exact where floats are not', () => {
    expect(lockupDailyIncome('1000', '0.0008')).toBe('0.80000000');
    // 100.1 × 0.0012 = 0.12012 (floats: 0.12011999999999998)
    expect(lockupDailyIncome('100.1', '0.0012')).toBe('0.12012000');
    expect(100.1 * 0.0012).not.toBe(0.12012);
    // 1,234.56789012 × 0.0015 = 1.85185183518 → 1.85185183
    expect(lockupDailyIncome('1234.56789012', '0.0015')).toBe('1.85185183');
    // 0.00000001 × 0.0015: less than a unit of the 8th decimal
    expect(lockupDailyIncome('0.00000001', '0.0015')).toBe('0.00000000');
    // the largest single order of the 90-day product: 500,000 × 0.0015 = 750
    expect(lockupDailyIncome('500000', '0.0015')).toBe('750.00000000');
  });

  it('pays in all exactly its daily income times its days (what the job pays), not the total cut once', () => {
    expect(lockupTotalIncome('1000', '0.0008', 7)).toBe('5.60000000');
    // 1.85185183 × 90 = 166.6666647; cutting 1,234.56789012 × 0.0015 × 90 = 166.6666651662 would give 166.66666516
    expect(lockupTotalIncome('1234.56789012', '0.0015', 90)).toBe('166.66666470');
    expect(lockupTotalIncome('100.1', '0.0012', 30)).toBe('3.60360000');
  });
});

describe('addDays: calendar arithmetic on the date alone', () => {
  it.each([
    ['2026-11-23', 0, '2026-11-23'],
    ['2026-11-23', 1, '2026-11-24'],
    ['2026-11-30', 1, '2026-12-01'],
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    // A 90-day lock-up starting 23 November: 7 + 31 + 31 + 21 days later
    ['2026-11-23', 90, '2027-02-21'],
    ['2028-02-29', 365, '2029-02-28'],
    ['2027-02-28', 366, '2028-02-29'],
    ['2028-12-25', 7, '2029-01-01'],
  ] as const)('%s plus %i day(s) is %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });

  it('a lock-up of N days starting on a day ends on the day N − 1 after it', () => {
    expect(addDays('2028-02-23', 7 - 1)).toBe('2028-02-29');
    expect(addDays('2026-12-26', 7 - 1)).toBe('2027-01-01');
  });
});

describe('interest days in a timezone', () => {
  it('Asia/Bangkok (UTC+7, no daylight saving): a day runs from 17:00 UTC the day before', () => {
    const zone = 'Asia/Bangkok';
    expect(dayStart('2026-11-23', zone).toISOString()).toBe('2026-11-22T17:00:00.000Z');
    expect(dayEnd('2026-11-23', zone).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    expect(interestDay(new Date('2026-11-22T16:59:59.999Z'), zone)).toBe('2026-11-22');
    expect(interestDay(new Date('2026-11-22T17:00:00.000Z'), zone)).toBe('2026-11-23');
    // the harness's clock: 08:00 UTC is 15:00 in Bangkok
    expect(interestDay(new Date('2026-11-22T08:00:00Z'), zone)).toBe('2026-11-22');
    expect(dayStart('2027-01-01', zone).toISOString()).toBe('2026-12-31T17:00:00.000Z');
    expect(interestDay(new Date('2026-12-31T17:00:00Z'), zone)).toBe('2027-01-01');
    expect(dayStart('2028-02-29', zone).toISOString()).toBe('2028-02-28T17:00:00.000Z');
    expect(dayEnd('2028-02-29', zone).toISOString()).toBe('2028-02-29T17:00:00.000Z');
    expect(interestDay(new Date('2028-02-29T16:59:59.999Z'), zone)).toBe('2028-02-29');
  });

  it('UTC: a day is the UTC date', () => {
    expect(dayStart('2026-11-23', 'UTC').toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(dayEnd('2026-12-31', 'UTC').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(dayEnd('2028-02-28', 'UTC').toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(interestDay(new Date('2026-11-23T23:59:59.999Z'), 'UTC')).toBe('2026-11-23');
    expect(interestDay(new Date('2026-11-24T00:00:00.000Z'), 'UTC')).toBe('2026-11-24');
  });

  it('America/New_York: the day clocks spring forward has 23 hours, the day they fall back 25', () => {
    const zone = 'America/New_York';
    const hours = (day: string) => (dayEnd(day, zone).getTime() - dayStart(day, zone).getTime()) / 3_600_000;
    // 8 March 2026: 02:00 EST becomes 03:00 EDT
    expect(dayStart('2026-03-08', zone).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(dayEnd('2026-03-08', zone).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(hours('2026-03-07')).toBe(24);
    expect(hours('2026-03-08')).toBe(23);
    expect(hours('2026-03-09')).toBe(24);
    expect(interestDay(new Date('2026-03-08T06:59:59Z'), zone)).toBe('2026-03-08'); // 01:59:59 EST
    expect(interestDay(new Date('2026-03-08T07:00:00Z'), zone)).toBe('2026-03-08'); // 03:00:00 EDT
    // 1 November 2026: 02:00 EDT becomes 01:00 EST; 01:30 happens twice, both on the 1st
    expect(dayStart('2026-11-01', zone).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(dayEnd('2026-11-01', zone).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(hours('2026-11-01')).toBe(25);
    expect(hours('2026-11-02')).toBe(24);
    expect(interestDay(new Date('2026-11-01T05:30:00Z'), zone)).toBe('2026-11-01');
    expect(interestDay(new Date('2026-11-01T06:30:00Z'), zone)).toBe('2026-11-01');
    expect(interestDay(new Date('2026-11-02T04:59:59.999Z'), zone)).toBe('2026-11-01');
    expect(interestDay(new Date('2026-11-02T05:00:00Z'), zone)).toBe('2026-11-02');
  });

  /** Every day of 2026–2028 in `zone`: its start is on it, the instant before is on the day before, and it lasts 23–25
   * hours. */
  function calendarFaults(zone: string) {
    const faults: string[] = [];
    const lengths = new Map<number, number>();
    for (let day = '2026-01-01'; day < '2029-01-01'; day = addDays(day, 1)) {
      const start = dayStart(day, zone);
      const end = dayEnd(day, zone);
      if (interestDay(start, zone) !== day) faults.push(`${day} starts on ${interestDay(start, zone)}`);
      if (interestDay(new Date(start.getTime() - 1), zone) !== addDays(day, -1))
        faults.push(`${day}: the instant before its start is on ${interestDay(new Date(start.getTime() - 1), zone)}`);
      if (interestDay(new Date(end.getTime() - 1), zone) !== day)
        faults.push(`${day} ends on ${interestDay(new Date(end.getTime() - 1), zone)}`);
      const hours = (end.getTime() - start.getTime()) / 3_600_000;
      lengths.set(hours, (lengths.get(hours) ?? 0) + 1);
    }
    return { faults, lengths: Object.fromEntries([...lengths].sort(([a], [b]) => a - b)) };
  }

  it.each([
    ['Asia/Bangkok', { 24: 1096 }],
    ['UTC', { 24: 1096 }],
    ['America/New_York', { 23: 3, 24: 1090, 25: 3 }],
    ['Asia/Kolkata', { 24: 1096 }],
    ['Asia/Kathmandu', { 24: 1096 }],
    // Beirut moves its clocks at midnight: the day starts at 01:00 (spring) or at the second midnight's first instant
    ['Asia/Beirut', { 23: 3, 24: 1090, 25: 3 }],
    // half an hour of daylight saving
    ['Australia/Lord_Howe', { 23.5: 3, 24: 1090, 24.5: 3 }],
  ] as const)('every day of 2026–2028 in %s starts and ends where the calendar says', (zone, lengths) => {
    expect(calendarFaults(zone)).toEqual({ faults: [], lengths });
  });

  // BUG (reported): west of UTC, a zone whose clocks jump from 00:00 to 01:00 (Chile, Cuba) gets a day
  // starting an hour early, on the day before: dayStart('2026-09-06', 'America/Santiago') is
  // 03:00Z = 23:00 on the 5th, so the 5th "ends" at 23:00 and its day-end jobs run an hour early.
  it('America/Santiago and America/Havana (clocks jump at midnight): each day starts on itself', () => {
    expect(dayStart('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayStart('2026-03-08', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(calendarFaults('America/Santiago').faults).toEqual([]);
    expect(calendarFaults('America/Havana').faults).toEqual([]);
  });
});
