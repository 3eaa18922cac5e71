// An index price as an order shows it: the exchanges' prices it is the median of.
import { Trans } from '@lingui/react/macro';
import type { Constituent } from '../contract/markets.ts';
import { exchangeLabel } from '../contract/markets.ts';
import { decimalsOf, formatPrice, formatTime } from '../lib/format.ts';

/**
 * What an index price was made of: "Median of Binance 97,190.10 · OKX 97,190.83 · Kraken 97,192.00",
 * each price with the coin's decimals, or every digit the exchange gave where it gave more.
 */
export function MadeOf({ constituents, decimals }: { constituents: readonly Constituent[] | null; decimals: number }) {
  if (!constituents?.length) return null;
  const parts = constituents.map(({ exchange, price, at }) => (
    <span key={exchange} className="made-of-part" title={formatTime(at)}>
      {exchangeLabel(exchange)} <span className="opt-num">{formatPrice(price, Math.max(decimals, decimalsOf(price)))}</span>
    </span>
  ));
  const list = parts.flatMap((part, i) => (i ? [' · ', part] : [part]));
  return (
    <small className="made-of">
      <Trans>Median of {list}</Trans>
    </small>
  );
}
