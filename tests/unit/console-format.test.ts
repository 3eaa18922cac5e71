// @vitest-environment jsdom
// The console's times, waits and amounts in the operator's language: a queue of many rows, polled, makes its
// formatters once; money is written by the app's decimals rule.
import { i18n } from '@lingui/core';
import { afterEach, expect, it } from 'vitest';
import {
  decimalsPerAsset,
  formatAmount,
  formatNumber,
  formatShortTime,
  formatTime,
  formatWait,
  sentNumber,
} from '../../src/console/format.ts';
import { ConsoleError } from '../../src/console/api.ts';
import { countMade } from './helpers.ts';

const startedIn = i18n.locale;
afterEach(() => i18n.loadAndActivate({ locale: startedIn, messages: {} }));

it('says how long an item waited in minutes, hours and days', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  expect(formatWait(12 * 60)).toBe('12 min');
  expect(formatWait(3 * 3600 + 5 * 60)).toBe('3 hr 5 min');
  expect(formatWait(2 * 86_400 + 4 * 3600)).toBe('2 days 4 hr');
  expect(formatWait(86_400)).toBe('1 day');
});

it('writes every time with its UTC offset, in the zone a page names when it names one', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  const at = '2026-11-27T17:16:21Z';
  // The house's days (Asia/Bangkok) whatever the operator's own zone: the page says which midnight it means.
  expect(formatTime(at, 'Asia/Bangkok')).toBe('Nov 28, 2026, 12:16:21 AM GMT+7');
  // West of UTC with the minus sign, which a narrow column does not break after as it would after a hyphen.
  expect(formatTime(at, 'America/New_York')).toBe('Nov 27, 2026, 12:16:21 PM GMT\u22125');
  // ICU writes no offset as "GMT" or "GMT+0" by its version.
  expect(formatTime(at, 'UTC')).toMatch(/^Nov 27, 2026, 5:16:21 PM GMT(\+0)?$/);
  // Without a zone, the operator's own: the offset written is the one the clock time was written in.
  const offset = -new Date(at).getTimezoneOffset();
  const sign = offset < 0 ? '\u2212' : '+';
  const hours = Math.floor(Math.abs(offset) / 60);
  const minutes = Math.abs(offset) % 60;
  const expected =
    offset === 0 ? 'GMT(\\+0)?' : `GMT\\${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
  expect(formatTime(at)).toMatch(new RegExp(` ${expected}$`));
  expect(formatTime(null)).toBe('—');
});

it('makes no formatter after the first for each kind, however many rows a queue shows and polls', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  const row = (index: number) => [
    formatWait(index * 3700),
    formatShortTime(new Date(Date.now() - index * 86_400_000).toISOString()),
    formatTime('2026-11-27T05:16:21Z'),
  ];
  row(1); // the first row of each kind makes its formatters
  row(2);
  const dates = countMade('DateTimeFormat');
  const numbers = countMade('NumberFormat');
  try {
    for (let index = 1; index <= 50; index++) row(index);
    expect(dates).not.toHaveBeenCalled();
    expect(numbers).not.toHaveBeenCalled();
    // Another language gets its own.
    i18n.loadAndActivate({ locale: 'zh', messages: {} });
    expect(formatWait(12 * 60)).toBe('12分钟');
    expect(numbers).toHaveBeenCalledTimes(1);
  } finally {
    dates.mockRestore();
    numbers.mockRestore();
  }
});

it('sends a typed number as the plain decimal it reads as, and refuses one that reads two ways with an example', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  expect(sentNumber('1,000.50')).toBe('1000.50');
  expect(sentNumber('๑๒.๕')).toBe('12.5');
  expect(() => sentNumber('1,5')).toThrow(
    new ConsoleError('This number can be read two ways. Write it as in 1,234.50.'),
  );
  expect(() => sentNumber('1.000.000,5')).toThrow(ConsoleError);
  // What is no number at all goes as typed: the server refuses it with the field's own message.
  expect(sentNumber('abc')).toBe('abc');
  i18n.loadAndActivate({ locale: 'th', messages: {} });
  expect(() => sentNumber('๑,๕')).toThrow('This number can be read two ways. Write it as in ๑,๒๓๔.๕๐.');
});

it('writes a money amount as the app does: grouped, as exact as it is with 2 to 8 decimals, never through a float', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  // The server's strings as they come: the ledger's 8 places, a whole number, a fee of three decimals.
  expect(formatAmount('1000.00000000', 'USDT')).toBe('1,000.00 USDT');
  expect(formatAmount('99.5')).toBe('99.50');
  expect(formatAmount('0.99500000', 'USDT')).toBe('0.995 USDT');
  expect(formatAmount('-60.60000000')).toBe('-60.60');
  expect(formatAmount('123456789012.12345678', 'USDT')).toBe('123,456,789,012.12345678 USDT');
  expect(formatAmount(null, 'USDT')).toBe('—');
  // Among others of its asset: their shared decimals, cut, never rounded up.
  expect(formatAmount('1000.00000000', 'USDT', 3)).toBe('1,000.000 USDT');
  // The operator's language's grouping, in ASCII digits.
  i18n.loadAndActivate({ locale: 'th', messages: {} });
  expect(formatAmount('1234567.5', 'THB')).toBe('1,234,567.50 THB');
  i18n.loadAndActivate({ locale: 'hi', messages: {} });
  expect(formatAmount('1234567.5')).toBe('12,34,567.50');
});

it('gives each asset of a list the decimals its most exact amount needs, so one asset’s amounts line up', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  const ledger = [
    ['USDT', '1000.00000000'],
    ['USDT', '-0.99500000'],
    ['BTC', '0.00012345'],
    ['THB', '3380'],
    ['USDT', null],
  ] as const;
  const decimals = decimalsPerAsset(ledger);
  expect(ledger.map(([asset, amount]) => formatAmount(amount, asset, decimals(asset)))).toEqual([
    '1,000.000 USDT',
    '-0.995 USDT',
    '0.00012345 BTC',
    '3,380.00 THB',
    '—',
  ]);
  expect(decimals('ETH')).toBe(2);
});

it('writes a number that is no money amount (a rate, a price, a weight) with every decimal it has and none it lacks', () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  expect(formatNumber('33.80000000')).toBe('33.8');
  expect(formatNumber('1000000')).toBe('1,000,000');
  expect(formatNumber('97250.12345678')).toBe('97,250.12345678');
});
