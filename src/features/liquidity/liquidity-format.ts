// How liquidity figures read on screen: rates as percentages, the tiers of a ladder as
// ranges (interest days: formatCalendarDay). Exact: decimal strings through big.js and Intl, never a float.
import Big from 'big.js';
import type { LadderTier } from '../../api-contract/liquidity.ts';
import { decimalsOf, formatAmount, formatExact } from '../../lib/format.ts';

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

/** The offset of an interest day's time zone now, "GMT+7", or '' where Intl cannot say. */
export function zoneOffset(timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(new Date());
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}
