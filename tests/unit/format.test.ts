// Numbers with thousands separators in groups of three, exact for decimal strings.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import {
  formatAmount,
  formatClock,
  formatDate,
  formatDateTime,
  formatDateWith,
  formatMoney,
} from '../../src/lib/format.ts';
import { sharedMoneyDecimals } from '../../src/api-contract/decimal-values.ts';
import { formatCalendarDay } from '../../src/ui/CalendarDay.tsx';
import { formatBytes, formatDuration } from '../../src/features/diagnostics/diagnostics-format.ts';
import { countMade } from './helpers.ts';

afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('amounts of one asset in one list', () => {
  it('share the decimals the most exact of them needs, 2 to 8, so none is cut and all line up', () => {
    const amounts = ['100.00000000', '99.50000000', '0.99500000', '0.30000000'];
    const decimals = sharedMoneyDecimals(amounts);
    expect(decimals).toBe(3);
    expect(amounts.map((amount) => formatMoney(amount, decimals))).toEqual(['100.000', '99.500', '0.995', '0.300']);
    expect(sharedMoneyDecimals(['100', '20'])).toBe(2);
    expect(sharedMoneyDecimals([])).toBe(2);
    expect(sharedMoneyDecimals(['0.000000001', '1'])).toBe(8);
    // Alone, an amount keeps its own 2 to 8 decimals.
    expect(formatMoney('0.995')).toBe('0.995');
    expect(formatMoney('100')).toBe('100.00');
  });
});

describe('formatAmount', () => {
  it('groups of three with the given decimals, in en', () => {
    expect(formatAmount('1234567.891', 2)).toBe('1,234,567.89');
    expect(formatAmount('1234567.891')).toBe('1,234,567.89');
    expect(formatAmount('1234567.891', 0)).toBe('1,234,568');
    expect(formatAmount('1234.5', 4)).toBe('1,234.5000');
    expect(formatAmount(1234.5, 2)).toBe('1,234.50');
    expect(formatAmount('0', 2)).toBe('0.00');
    expect(formatAmount('-9876543.21', 2)).toBe('-9,876,543.21');
  });

  it('keeps every digit of a string longer than a float holds', () => {
    expect(Number('12345678901234567.25').toString()).not.toContain('4567.25');
    expect(formatAmount('12345678901234567.25', 2)).toBe('12,345,678,901,234,567.25');
    expect(formatAmount('0.123456789012345678', 18)).toBe('0.123456789012345678');
  });

  it('uses Latin digits and groups of three in every locale', () => {
    i18n.loadAndActivate({ locale: 'th', messages: {} });
    expect(formatAmount('1234567.891', 2)).toBe('1,234,567.89');
    i18n.loadAndActivate({ locale: 'jp', messages: {} });
    expect(formatAmount('1234567.891', 2)).toBe('1,234,567.89');
    i18n.loadAndActivate({ locale: 'ar', messages: {} });
    expect(formatAmount('1234567.891', 2)).toMatch(/^1.234.567.89$/u);
  });
});

describe('dates in Arabic', () => {
  it('carry no right-to-left marks, so a date kept left to right reads day/month/year in order', () => {
    i18n.loadAndActivate({ locale: 'ar', messages: {} });
    const at = '2026-11-27T05:16:21Z';
    for (const text of [formatDateTime(at), formatDate('date', new Date(at)), formatClock(at)])
      expect(text).not.toMatch(/[\u200e\u200f\u061c]/);
    expect(formatDate('date', new Date('2026-11-27T12:00:00Z'))).toBe('27/11/2026');
  });
});

describe('date formatters', () => {
  it('are made once per language and options: a clock formatted on every tick makes none after the first', () => {
    const made = countMade('DateTimeFormat');
    try {
      const UTC_DAY: Intl.DateTimeFormatOptions = {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        timeZone: 'UTC',
      };
      const first = [formatClock('2026-11-27T05:16:21Z'), formatDateWith(UTC_DAY, new Date('2026-12-23T00:00:00Z'))];
      const madeFirst = made.mock.calls.length;
      for (let tick = 0; tick < 50; tick++) {
        expect(formatClock('2026-11-27T05:16:21Z')).toBe(first[0]);
        expect(formatDateWith(UTC_DAY, new Date('2026-12-23T00:00:00Z'))).toBe('12/23/2026');
      }
      expect(made.mock.calls.length).toBe(madeFirst);

      // Another language gets its own: the same day in Thai's Buddhist era.
      i18n.loadAndActivate({ locale: 'th', messages: {} });
      expect(formatDateWith(UTC_DAY, new Date('2026-12-23T00:00:00Z'))).toBe('23/12/2569');
    } finally {
      made.mockRestore();
    }
  });
});

describe('a calendar day (an interest day, a pay day)', () => {
  // First: a language's formatter is made once, here under a western zone.
  it('is the same day on a device west of UTC: the last day of a month stays that day', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Honolulu';
    try {
      expect(new Date('2026-12-01T00:00:00Z').getDate()).toBe(30);
      expect(formatCalendarDay('2026-11-30')).toBe('Nov 30, 2026');
      expect(formatCalendarDay('2026-12-01')).toBe('Dec 1, 2026');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('names its month in every language, in Latin digits', () => {
    const expected = {
      en: 'Nov 24, 2026',
      zh: '2026年11月24日',
      jp: '2026年11月24日',
      th: '24 พ.ย. 2569',
      hi: '24 नव॰ 2026',
      ar: '24 نوفمبر 2026',
    };
    for (const [locale, text] of Object.entries(expected)) {
      i18n.loadAndActivate({ locale, messages: {} });
      expect(formatCalendarDay('2026-11-24')).toBe(text);
    }
  });
});

describe('number formatters', () => {
  it('are made once per language: a list of 50 calls or amounts makes none after the first of each', () => {
    const made = countMade('NumberFormat');
    try {
      const first = [formatDuration(5), formatBytes(1500), formatAmount('1.5')];
      const madeFirst = made.mock.calls.length;
      for (let row = 0; row < 50; row++) {
        expect([formatDuration(5), formatBytes(1500), formatAmount('1.5')]).toEqual(first);
      }
      expect(made.mock.calls.length).toBe(madeFirst);

      // Another language gets its own.
      i18n.loadAndActivate({ locale: 'zh', messages: {} });
      expect(formatDuration(5)).toBe('5毫秒');
      expect(made.mock.calls.length).toBe(madeFirst + 1);
    } finally {
      made.mockRestore();
    }
  });
});
