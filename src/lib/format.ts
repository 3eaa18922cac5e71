// Numbers for people: thousands separators in groups of three, in the app's language.
import Big from 'big.js';
import type { MessageDescriptor } from '@lingui/core';
import { sharedMoneyDecimals, significantDecimals, withDecimalsWritten } from '../api-contract/decimal-values.ts';
import { formatterOnce } from './formatter-once.ts';
import { intlLocale, currentLocale } from './i18n.ts';

/** Formats a decimal string (or number) exactly, without going through a float. */
export function formatAmount(value: string | number, fractionDigits = 2): string {
  const locale = intlLocale(currentLocale());
  const formatter = formatterOnce(
    `amount:${locale}:${fractionDigits}`,
    () =>
      new Intl.NumberFormat(locale, {
        minimumFractionDigits: fractionDigits,
        maximumFractionDigits: fractionDigits,
        numberingSystem: 'latn',
      }),
  );
  // Intl formats numeric strings at full precision (no float rounding on the way).
  return formatter.format(value as unknown as number);
}

/** Digits after the point that carry a value: '10.50000000' → 1, '97250.1' → 1. */
export const decimalsOf = significantDecimals;

/**
 * `text` (a text of the API contract with values) with each value given as a big.js decimal (an amount's limit, what
 * remains of a quota) written as the app writes numbers in its language: grouped by thousands, the decimals it has and
 * no trailing zero ("50,000", "0.5"). The server writes the same values of its answers the same way.
 */
export function writtenAmounts(text: MessageDescriptor): MessageDescriptor {
  if (!text.values) return text;
  return { ...text, values: withDecimalsWritten(text.values, (decimal) => formatAmount(decimal, decimalsOf(decimal))) };
}

/**
 * A money amount as exact as it is, with 2 to 8 decimals: "1,234.50", "0.00012345"; with `decimals` (a list's
 * sharedMoneyDecimals, so the amounts of one asset line up), exactly that many.
 */
export function formatMoney(value: string, decimals?: number): string {
  const digits = decimals ?? sharedMoneyDecimals([value]);
  return formatAmount(new Big(value).toFixed(digits, Big.roundDown), digits);
}

/** A price with the coin's usual decimals, or more when the recorded price has them. */
export function formatPrice(value: string, decimals = 2): string {
  return formatAmount(value, Math.max(decimals, Math.min(8, decimalsOf(value))));
}

/** A rate or number with every digit it has and none it lacks: '35.12000000' → 35.12. */
export const formatExact = (value: string) => formatAmount(new Big(value).toFixed(), Math.min(8, decimalsOf(value)));

/**
 * A coin quantity (of a contract order, a fill, a receipt) as every screen shows it: every digit it has and none it
 * lacks, '0.00120000' → 0.0012, '1500' → 1,500. A quantity is a multiple of its pair's step, so it never has more
 * digits than the step, and its own are all it needs; padding it to the pair's step decimals would make it depend on
 * the pair's rules being known (a shared receipt is read without them), and on rules that can change after the order.
 */
export const formatQuantity = formatExact;

/** The parts each kind of date shows; every clock counts hours from 0 to 23. */
const DATE_PARTS = {
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  dateTime: {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
  clock: { hour: '2-digit', minute: '2-digit' },
  day: { month: '2-digit', day: '2-digit' },
  dayClock: { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' },
  date: { year: 'numeric', month: '2-digit', day: '2-digit' },
  dateClock: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateKind = keyof typeof DATE_PARTS;

/**
 * Arabic formats put right-to-left marks between a date's parts ('27\u200f/11\u200f/2026'): inside a number kept left
 * to right they pull the parts out of order ('2712:17:40 ،2026/11/'). Without them the digits and slashes stay one run,
 * in order in either direction.
 */
const withoutBidiMarks = (text: string) => text.replace(/[\u200e\u200f\u061c]/g, '');

/** The formatters made so far: per set of options (a constant of its caller), per language. */
const dateFormatters = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/**
 * Formats `date` in the app's language with `options` and Latin digits, without the bidi marks. A formatter costs far
 * more to make than to use (a price's clock is formatted on every tick): one is made per language and options object,
 * so callers pass a constant.
 */
export function formatDateWith(options: Intl.DateTimeFormatOptions, date: Date): string {
  const locale = intlLocale(currentLocale());
  let byLocale = dateFormatters.get(options);
  if (!byLocale) dateFormatters.set(options, (byLocale = new Map()));
  let intl = byLocale.get(locale);
  if (!intl) byLocale.set(locale, (intl = new Intl.DateTimeFormat(locale, { ...options, numberingSystem: 'latn' })));
  return withoutBidiMarks(intl.format(date));
}

/** Each kind's options, with the 0–23 clock where it shows hours. */
const KIND_OPTIONS = Object.fromEntries(
  Object.entries(DATE_PARTS).map(([kind, parts]) => [kind, 'hour' in parts ? { ...parts, hourCycle: 'h23' } : parts]),
) as Record<DateKind, Intl.DateTimeFormatOptions>;

/** A time in the app's language with the parts of `kind` (Latin digits, a 0–23 clock): one formatter per language and
 * kind. */
export const formatDate = (kind: DateKind, date: Date) => formatDateWith(KIND_OPTIONS[kind], date);

/** HH:MM:SS of a recorded time (the device's time zone). */
export const formatTime = (iso: string) => formatDate('time', new Date(iso));

/** Date and HH:MM:SS. */
export const formatDateTime = (iso: string) => formatDate('dateTime', new Date(iso));

/** A candle's time (seconds) on the chart's time scale: HH:MM, the day (MM-DD in the language's order), or both. */
export const formatCandleTime = (seconds: number, kind: 'clock' | 'day' | 'dayClock') =>
  formatDate(kind, new Date(seconds * 1000));

const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
/** HH:MM of an ISO time, in the app's language ("Offline — as of 14:05"). */
export const formatClock = (iso: string) => formatDateWith(CLOCK, new Date(iso));

/** A long address or hash with its middle left out, so both ends can be checked: "TQrZ8kB6…uA7LgKt". */
export function middleEllipsis(text: string, head = 8, tail = 8): string {
  return text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`;
}
