// How option amounts, prices, yields and times read on screen. Exact: decimal strings through
// big.js and Intl, never a float.
import Big from 'big.js';
import { AMOUNT, winPayout as payoutRule } from '../../contract/markets.ts';
import { formatAmount } from '../../lib/format.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';

/** Digits after the point that carry a value: '10.50000000' → 1, '97250.1' → 1. */
export function decimalsOf(value: string): number {
  const number = new Big(value);
  // big.js keeps the digits in `c` and the exponent in `e`; trailing zeros are dropped.
  return Math.max(0, number.c.length - number.e - 1);
}

/** Digits and one point, at most 8 decimals: what an amount field accepts as it is typed. */
export function cleanAmount(typed: string): string {
  const [whole = '', ...rest] = typed.replace(/,/g, '.').replace(/[^\d.]/g, '').split('.');
  return rest.length ? `${whole}.${rest.join('').slice(0, 8)}` : whole;
}

/** USDT with at least 2 decimals and every further digit the value has (at most 8). */
export function formatUsdt(value: string): string {
  const digits = Math.min(8, Math.max(2, decimalsOf(value)));
  return formatAmount(new Big(value).toFixed(digits, Big.roundDown), digits);
}

/** A profit or loss with its sign: +8.00, -10.00, 0.00. */
export function formatSignedUsdt(value: string): string {
  const text = formatUsdt(value);
  return new Big(value).gt(0) ? `+${text}` : text;
}

/** A price with the coin's usual decimals, or more when the recorded price has them. */
export function formatPrice(value: string, decimals = 2): string {
  return formatAmount(value, Math.max(decimals, Math.min(8, decimalsOf(value))));
}

/** A yield of 0.85 reads 85%. */
export function formatYield(rate: string): string {
  const percent = new Big(rate).times(100);
  return `${formatAmount(percent.toFixed(), decimalsOf(percent.toFixed()))}%`;
}

/** What a win would pay back (the contract's rule); null while the amount is not valid. */
export function winPayout(amount: string, yieldRate: string | undefined): string | null {
  return yieldRate && AMOUNT.test(amount) ? payoutRule(amount, yieldRate) : null;
}

/** The profit part of a win: payout − stake. */
export const winProfit = (amount: string, payout: string) => new Big(payout).minus(amount).toFixed(8);

const clockFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(kind: 'time' | 'dateTime'): Intl.DateTimeFormat {
  const locale = intlLocale(currentLocale());
  const key = `${locale}:${kind}`;
  let format = clockFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      ...(kind === 'dateTime' ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      numberingSystem: 'latn',
    });
    clockFormats.set(key, format);
  }
  return format;
}

/** HH:MM:SS of a recorded time (the device's time zone). */
export const formatClock = (iso: string) => dateFormat('time').format(new Date(iso));

/** Date and HH:MM:SS. */
export const formatDateTime = (iso: string) => dateFormat('dateTime').format(new Date(iso));

/** A countdown: mm:ss, or h:mm:ss from an hour up. Partial seconds count as a whole second. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}
