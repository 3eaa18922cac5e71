// An amount beside its unit ("10,000.48 USDT") as one left-to-right run, in any text direction.
import type { ReactNode } from 'react';

/**
 * An amount already written for people (formatMoney, formatPrice, formatQuantity, formatBalance; '—' while unknown)
 * followed by the unit it counts (an asset's code: "USDT", "BTC"), kept together left to right and on one line. In
 * right-to-left text (Arabic) an amount and a unit side by side would otherwise swap places and read "USDT 10,000.48";
 * the app keeps both in one left-to-right element wherever it shows them (Money does so for amounts it formats itself).
 * An empty `unit` (not known yet) leaves the amount alone. Digits are tabular (opt-num), as the trading screens' are.
 */
export function Amount({ value, unit, className }: { value: ReactNode; unit?: string | null; className?: string }) {
  return (
    <span dir="ltr" className={className ? `opt-num ${className}` : 'opt-num'}>
      {value}
      {unit ? ` ${unit}` : null}
    </span>
  );
}
