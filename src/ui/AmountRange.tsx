// A range of amounts ("100.00 – 50,000.00 USDT") in the reader's language: the limits of a lock-up subscription, of a
// withdrawal.
import { Trans } from '@lingui/react/macro';
import { formatMoney } from '../lib/format.ts';
import { Ltr } from './records.tsx';

interface AmountRangeProps {
  /** The least amount, a decimal string in `asset` (formatted here with 2 to 8 decimals). */
  min: string;
  /** The most amount, a decimal string in `asset`. */
  max: string;
  /** The asset's code (USDT, BTC), shown after the range. */
  asset: string;
  /** A class of the range's own element (a screen's hook for its styles and tests). */
  className?: string;
}

/**
 * "100.00 – 50,000.00 USDT", "100.00 至 50,000.00 USDT": the range as each language words it, each amount kept left to
 * right on its own and the words around them in the page's direction, so in Arabic the range reads from its minimum on
 * the right (never one left-to-right run, which an Arabic reader reads from the maximum down).
 */
export function AmountRange({ min, max, asset, className }: AmountRangeProps) {
  const from = formatMoney(min);
  const to = formatMoney(max);
  return (
    <span className={className}>
      <Trans>
        <Ltr className="amount-range-num">{from}</Ltr> – <Ltr className="amount-range-num">{to}</Ltr> <bdi>{asset}</bdi>
      </Trans>
    </span>
  );
}
