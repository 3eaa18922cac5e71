// A money amount as every money screen shows it: exact, with thousands separators, the asset's
// code, and (for USDT) what it makes in the user's display currency.
import { formatAmount, formatMoney } from '../lib/format.ts';
import { toFiat } from '../lib/fiat.ts';
import type { FiatRate } from '../api-contract/markets.ts';

interface MoneyProps {
  amount: string;
  asset: string;
  /** How the asset reads, when not its code: the ledger's own assets have names ("Liquidity mining"). */
  assetName?: string;
  /** The display currency's rate per USDT; shown as "≈ ฿1,234.56" under a USDT amount. */
  fiat?: FiatRate | null;
  /** "+" for a credit, "-" for a debit; the amount's own sign otherwise. */
  signed?: boolean;
  className?: string;
  /** The decimals to show, when the amount stands among others of its asset (sharedMoneyDecimals); as exact as it is
   * otherwise (formatMoney). */
  decimals?: number;
}

export function Money({ amount, asset, assetName, fiat, signed, className, decimals }: MoneyProps) {
  const negative = amount.startsWith('-');
  const magnitude = negative ? amount.slice(1) : amount;
  const sign = signed ? (negative ? '−' : '+') : negative ? '−' : '';
  return (
    <span className={`money${className ? ` ${className}` : ''}`}>
      <span className="money-amount" dir="ltr">
        {sign}
        {formatMoney(magnitude, decimals)} <bdi className="money-asset">{assetName ?? asset}</bdi>
      </span>
      {fiat && asset === 'USDT' && (
        <span className="money-fiat" dir="ltr">
          ≈ {sign}
          {fiat.symbol}
          {formatAmount(toFiat(magnitude, fiat), 2)}
        </span>
      )}
    </span>
  );
}
