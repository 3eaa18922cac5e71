// How option amounts, prices, yields and times read on screen. Exact: decimal strings through
// big.js and Intl, never a float.
import Big from 'big.js';
import { AMOUNT } from '../../api-contract/markets.ts';
import { winPayout as payoutRule } from '../../api-contract/options.ts';
import { formatAmount } from '../../lib/format.ts';

/** Amounts typed and shown the way every money screen does (one home: lib/format). */
export { decimalsOf, formatMoney as formatUsdt, formatPrice } from '../../lib/format.ts';
import { decimalsOf, formatMoney as formatUsdt } from '../../lib/format.ts';

/** A profit or loss with its sign: +8.00, -10.00, 0.00. */
export function formatSignedUsdt(value: string): string {
  const text = formatUsdt(value);
  return new Big(value).gt(0) ? `+${text}` : text;
}

/** A yield of 0.85 reads 85%. */
export function formatYield(rate: string): string {
  const percent = new Big(rate).times(100);
  return `${formatAmount(percent.toFixed(), decimalsOf(percent.toFixed()))}%`;
}

/** What a win would pay back (the API contract's rule); null while the amount is not valid. */
export function winPayout(amount: string, yieldRate: string | undefined): string | null {
  return yieldRate && AMOUNT.test(amount) ? payoutRule(amount, yieldRate) : null;
}

/** The profit part of a win: payout − stake. */
export const winProfit = (amount: string, payout: string) => new Big(payout).minus(amount).toFixed(8);

/**
 * A recorded price with exactly `places` decimals, rounded half up as the server rounds a pair's live price to its
 * price decimals, so an option's start price reads like the live price beside it: 97250.1234 at 2 reads 97,250.12.
 */
export function formatPriceTo(value: string, places: number): string {
  return formatAmount(new Big(value).toFixed(places, Big.roundHalfUp), places);
}

/**
 * The decimals an option's start price is shown with beside `other` (its end price, or the pair's live price while it
 * is pending): the pair's price decimals (`decimals`), unless both would then read the same while they differ — the
 * settlement compares the recorded prices to every digit (a start of 97250.1234 and an end of 97250.1211 is a loss for
 * "up"), so then every digit either has, that the result can be read from the prices. Without the pair's decimals (its
 * quote not known yet) every recorded digit, at least 2. `other` null: the pair's decimals.
 */
export function startPricePlaces(start: string, other: string | null, decimals: number | undefined): number {
  const every = Math.max(2, decimals ?? 0, decimalsOf(start), other === null ? 0 : decimalsOf(other));
  if (decimals === undefined) return every;
  if (other === null) return decimals;
  const readSame =
    new Big(start).toFixed(decimals, Big.roundHalfUp) === new Big(other).toFixed(decimals, Big.roundHalfUp);
  return readSame && !new Big(start).eq(other) ? every : decimals;
}

/** HH:MM:SS and date + HH:MM:SS of a recorded time: one home in lib/format. */
export { formatTime as formatClock, formatDateTime } from '../../lib/format.ts';

/** A countdown: mm:ss, or h:mm:ss from an hour up. Partial seconds count as a whole second. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}
