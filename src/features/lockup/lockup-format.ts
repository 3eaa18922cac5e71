// How the lock-up screens write rates and interest days: exact decimals through big.js and Intl.
import Big from 'big.js';
import type { InterestDay } from '../../contract/earn.ts';
import { decimalsOf, formatAmount, formatDateWith } from '../../lib/format.ts';

const percentOf = (rate: Big) => {
  const percent = rate.times(100).toFixed();
  return `${formatAmount(percent, Math.min(8, decimalsOf(percent)))}%`;
};

/** A daily rate as it is: 0.0008 reads 0.08%. */
export const formatDailyRate = (dailyRate: string) => percentOf(new Big(dailyRate));

/** The simple annual equivalent, daily × 365, to 2 decimals at most: 0.0008 reads 29.2%. */
export const formatAnnualRate = (dailyRate: string) =>
  percentOf(new Big(dailyRate).times(365).round(4, Big.roundHalfUp));

const INTEREST_DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
/** An interest day ("2026-11-30") as a date in the app's language: "Nov 30, 2026". */
export const formatDay = (day: InterestDay): string => formatDateWith(INTEREST_DAY, new Date(`${day}T00:00:00Z`));

/** The id in a page's `?id=` as a number, or null when it is not one. */
export function idFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('id') ?? '';
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}
