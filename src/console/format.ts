// How the console writes times and amounts: the operator's language, and amounts from the server's decimal strings
// (never turned into floats), grouped, with the app's decimals rule for money (sharedMoneyDecimals).
import Big from 'big.js';
import { i18n } from '@lingui/core';
import { formatterOnce } from '../lib/formatter-once.ts';
import { sharedMoneyDecimals, significantDecimals } from '../api-contract/decimal-values.ts';
import { msg } from '@lingui/core/macro';
import { amountExample, readAmount, readOrKeep } from '../lib/typed-amount.ts';
import { ConsoleError } from './api.ts';

const dateFormat = (name: string, options: Intl.DateTimeFormatOptions) =>
  formatterOnce(`console-${name}:${i18n.locale}`, () => new Intl.DateTimeFormat(i18n.locale, options));

/**
 * A moment in the operator's language with its UTC offset written after it, so a time copied into a ticket or read by
 * an operator in another zone means one instant: "Dec 4, 2026, 8:15:07 PM GMT+7"; '—' for none. `timeZone` (an IANA
 * name) writes it in that zone (the house's day boundaries); the operator's own zone otherwise.
 */
export function formatTime(iso: string | null, timeZone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  const written = formatterOnce(
    `console-time:${i18n.locale}:${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone }),
  ).format(date);
  return `${written} ${utcOffset(date, timeZone)}`;
}

/** The UTC offset of a zone (the operator's without one) at a moment, as "GMT+7" or "GMT−5" in every language: the
 * form the console's times carry. West of UTC with the minus sign (U+2212), after which no line breaks, as it would
 * after a hyphen ("GMT-" / "5" in a narrow column). */
function utcOffset(date: Date, timeZone?: string): string {
  return (
    formatterOnce(
      `console-zone:${timeZone ?? ''}`,
      () => new Intl.DateTimeFormat('en-US', { timeZoneName: 'shortOffset', timeZone }),
    )
      .formatToParts(date)
      .find((part) => part.type === 'timeZoneName')
      ?.value.replace('-', '\u2212') ?? ''
  );
}

/** A decimal string in the operator's language's grouping with exactly `decimals` decimals (ASCII digits, as the
 * app writes them): Intl formats the string itself, so no digit goes through a float. */
function grouped(decimal: string, decimals: number): string {
  const locale = i18n.locale || 'en';
  return formatterOnce(
    `console-amount:${locale}:${decimals}`,
    () =>
      new Intl.NumberFormat(locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        numberingSystem: 'latn',
      }),
  ).format(decimal as unknown as number);
}

/**
 * A money amount as the server sent it (a decimal string), written as the app writes money: grouped in the operator's
 * language, with its asset after it, "10,600.50 USDT"; '—' for none. `decimals`: when it stands among other amounts
 * of its asset (a list, a record's amount, fee and total), sharedMoneyDecimals of them all (decimalsPerAsset), so they
 * line up: "100.000", "99.500", "0.995"; alone, as exact as it is with 2 to 8 decimals, "1000.00000000" → "1,000.00".
 * Digits past `decimals` are cut, never rounded up.
 */
export function formatAmount(amount: string | null, asset = '', decimals?: number): string {
  if (amount === null) return '—';
  const digits = decimals ?? sharedMoneyDecimals([amount]);
  const written = grouped(new Big(amount).toFixed(digits, Big.roundDown), digits);
  return asset ? `${written} ${asset}` : written;
}

/**
 * A number that is no money amount (a rate, a price, a weight, a limit as typed), grouped in the operator's language
 * with every decimal it has and none it lacks: "33.80000000" → "33.8", "1000000" → "1,000,000".
 */
export function formatNumber(value: string): string {
  const exact = new Big(value);
  return grouped(exact.toFixed(), significantDecimals(exact.toFixed()));
}

/**
 * The decimals each asset's amounts are written with where they stand together (a list, a record): `amounts` as
 * [asset, amount] pairs (none skipped: null), and for an asset the sharedMoneyDecimals of its amounts, the app's rule,
 * so one asset's amounts line up and none is cut; an asset with none, 2.
 */
export function decimalsPerAsset(amounts: Iterable<readonly [string, string | null]>): (asset: string) => number {
  const byAsset = new Map<string, string[]>();
  for (const [asset, amount] of amounts) {
    if (amount === null) continue;
    const listed = byAsset.get(asset);
    if (listed) listed.push(amount);
    else byAsset.set(asset, [amount]);
  }
  const decimals = new Map([...byAsset].map(([asset, listed]) => [asset, sharedMoneyDecimals(listed)]));
  return (asset) => decimals.get(asset) ?? sharedMoneyDecimals([]);
}

/** The calendar day of a moment in UTC, in the operator's language: "May 1, 2026" (a closure's day, said as UTC). */
export function formatUtcDay(iso: string): string {
  return formatterOnce(
    `console-utc-day:${i18n.locale}`,
    () => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(new Date(iso));
}

/** A list's time: the hour today, the date otherwise. */
export function formatShortTime(iso: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return (today ? dateFormat('clock', { timeStyle: 'short' }) : dateFormat('day', { dateStyle: 'medium' })).format(
    date,
  );
}

/** How long an item has waited: "12 min", "3 hr 5 min", "2 days 4 hr", in the operator's language. */
export function formatWait(seconds: number): string {
  const unit = (value: number, name: 'minute' | 'hour' | 'day') =>
    formatterOnce(
      `console-wait:${i18n.locale}:${name}`,
      () => new Intl.NumberFormat(i18n.locale, { style: 'unit', unit: name, unitDisplay: 'short' }),
    ).format(value);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${unit(hours, 'hour')} ${unit(minutes % 60, 'minute')}` : unit(hours, 'hour');
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${unit(days, 'day')} ${unit(hours % 24, 'hour')}` : unit(days, 'day');
}

const two = (value: number) => String(value).padStart(2, '0');

/** A time in the operator's own zone with the zone said: "2026-11-27 08:15 (GMT+7)" (the audit log). */
export function formatZonedTime(iso: string): string {
  const date = new Date(iso);
  const zone = utcOffset(date);
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return `${day} ${two(date.getHours())}:${two(date.getMinutes())} (${zone})`;
}

/** The operator's zone by name and offset now: "Asia/Bangkok, GMT+7". */
export function operatorZone(): string {
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${name}, ${formatZonedTime(new Date().toISOString()).replace(/^.*\((.*)\)$/, '$1')}`;
}

/** The start of a day of the operator's calendar ('2026-11-27', `days` later) as an instant with its offset:
 * "2026-11-27T00:00:00+07:00". */
export function localDayStart(day: string, days = 0): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const start = new Date(year, month - 1, date + days);
  const offset = -start.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const local = `${start.getFullYear()}-${two(start.getMonth() + 1)}-${two(start.getDate())}T00:00:00`;
  return `${local}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/** A number an operator typed, as the console sends it: the plain ASCII decimal it reads as in the operator's language
 * (other scripts' digits, grouping marks), or the text itself for the server to refuse. */
export const typedNumber = (typed: string) => readOrKeep(typed, i18n.locale || 'en');

/**
 * A number an operator typed, as a save sends it: as typedNumber, but a text that reads two ways ('1,5', '1.000.000,5')
 * is never sent for a guess.
 * @throws ConsoleError "This number can be read two ways…" with an example in the operator's language and digits.
 */
export function sentNumber(typed: string): string {
  const locale = i18n.locale || 'en';
  const read = readAmount(typed, locale);
  if (!read.ok && read.problem === 'ambiguous') {
    const sample = amountExample(locale, read.system, 8);
    throw new ConsoleError(i18n._(msg`This number can be read two ways. Write it as in ${sample}.`));
  }
  return read.ok ? read.value : typed;
}
