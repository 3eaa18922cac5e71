// How the money screens read typed amounts, rates and uploaded pictures. Exact: decimal strings
// through big.js and Intl, never a float.
import Big from 'big.js';
import { AMOUNT } from '../../api-contract/markets.ts';
import { decimalsOf, formatAmount } from '../../lib/format.ts';
export { formatExact } from '../../lib/format.ts';

/** A typed amount that the API contract accepts and that is above zero. */
export const isAmount = (value: string) => AMOUNT.test(value) && new Big(value).gt(0);

/** A rate of 0.015 reads 1.5%. */
export function formatPercent(rate: string): string {
  const percent = new Big(rate).times(100).toFixed();
  return `${formatAmount(percent, Math.min(8, decimalsOf(percent)))}%`;
}

/** The id in a page's `?id=` as a number, or null when it is not one. */
export function idFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('id') ?? '';
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}
