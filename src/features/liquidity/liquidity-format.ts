// How liquidity figures read on screen: rates as percentages, interest days as dates, the tiers of
// a ladder as ranges. Exact: decimal strings through big.js and Intl, never a float.
import Big from 'big.js';
import type { InterestDay } from '../../contract/earn.ts';
import type { LadderTier } from '../../contract/liquidity.ts';
import { decimalsOf, formatAmount, formatDateWith, formatExact } from '../../lib/format.ts';

/** An annual rate of 0.0425 reads 4.25%; 2 to 4 decimals, as exchanges show them. */
export function formatRate(rate: string): string {
  const percent = new Big(rate).times(100).toFixed();
  return `${formatAmount(percent, Math.min(4, Math.max(2, decimalsOf(percent))))}%`;
}

/** One tier's range of the ladder: "0 – 1,000", "1,000 – 10,000", "10,000 +". */
export function tierRanges(ladder: readonly LadderTier[]): string[] {
  let from = '0';
  return ladder.map((tier) => {
    const start = formatExact(from);
    if (tier.up_to === null) return `${start} +`;
    from = tier.up_to;
    return `${start} – ${formatExact(tier.up_to)}`;
  });
}

// The day is a calendar date: read and written in UTC so no device time zone shifts it.
const INTEREST_DAY: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'UTC' };
/** An interest day ("2026-11-24") as a date in the app's language: "Nov 24, 2026". */
export const formatDay = (day: InterestDay): string => formatDateWith(INTEREST_DAY, new Date(`${day}T00:00:00Z`));

/** The offset of an interest day's time zone now, "GMT+7", or '' where Intl cannot say. */
export function zoneOffset(timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(new Date());
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}
