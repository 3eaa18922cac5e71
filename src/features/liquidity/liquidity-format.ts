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

/**
 * One tier's range of the ladder, its bounds written as amounts: { from: '0', to: '1,000' }, { from: '1,000', to:
 * '10,000' }, and the last tier, which has no upper bound, { from: '10,000', to: null } (shown "10,000 and above").
 * The words between them are the page's, translated, so each language reads the range in its own direction.
 */
export interface TierRange {
  from: string;
  /** The upper bound written as an amount; null for the open-ended top tier. */
  to: string | null;
}

/** The ranges of a ladder's tiers, in its order: each starts where the one before ends, the first at 0. */
export function tierRanges(ladder: readonly LadderTier[]): TierRange[] {
  let from = '0';
  return ladder.map((tier) => {
    const start = formatExact(from);
    if (tier.up_to === null) return { from: start, to: null };
    from = tier.up_to;
    return { from: start, to: formatExact(tier.up_to) };
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
