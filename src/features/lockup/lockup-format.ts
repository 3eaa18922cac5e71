// How the lock-up screens write rates: exact decimals through big.js and Intl. (Their days: formatCalendarDay.)
import Big from 'big.js';
import { decimalsOf, formatAmount } from '../../lib/format.ts';

const percentOf = (rate: Big) => {
  const percent = rate.times(100).toFixed();
  return `${formatAmount(percent, Math.min(8, decimalsOf(percent)))}%`;
};

/** A daily rate as it is: 0.0008 reads 0.08%. */
export const formatDailyRate = (dailyRate: string) => percentOf(new Big(dailyRate));

/** The simple annual equivalent, daily × 365, to 2 decimals at most: 0.0008 reads 29.2%. */
export const formatAnnualRate = (dailyRate: string) =>
  percentOf(new Big(dailyRate).times(365).round(4, Big.roundHalfUp));

/** The id in a page's `?id=` as a number, or null when it is not one. */
export function idFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('id') ?? '';
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}
