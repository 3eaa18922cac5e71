// An index price as an order shows it: the exchanges' prices it is the median of, and the trade
// behind each (its time and the exchange's trade id, to look it up in that exchange's trade history).
import { Trans } from '@lingui/react/macro';
import type { Constituent } from '../api-contract/markets.ts';
import { exchangeLabel } from '../api-contract/markets.ts';
import { decimalsOf, formatPrice, formatTime } from '../lib/format.ts';

/**
 * What an index price was made of: "Median of Binance 97,190.10 · OKX 97,190.83 · Kraken 97,192.00",
 * each price with the coin's decimals, or every digit the exchange gave where it gave more; then a
 * line per exchange, "Binance 12:00:00 · Trade ID 4181928374" (prices recorded before trade ids
 * were kept have none).
 */
export function MadeOf({ constituents, decimals }: { constituents: readonly Constituent[] | null; decimals: number }) {
  if (!constituents?.length) return null;
  const parts = constituents.map(({ exchange, price, at }) => (
    <span key={exchange} className="made-of-part" title={formatTime(at)}>
      {exchangeLabel(exchange)}{' '}
      <span className="opt-num">{formatPrice(price, Math.max(decimals, decimalsOf(price)))}</span>
    </span>
  ));
  const list = parts.flatMap((part, i) => (i ? [' · ', part] : [part]));
  return (
    <>
      <small className="made-of">
        <Trans>Median of {list}</Trans>
      </small>
      {constituents.map(({ exchange, at, trade_id }) =>
        !trade_id ? null : (
          <small key={exchange} className="opt-note made-of-trade">
            {exchangeLabel(exchange)} <span className="opt-num">{formatTime(at)}</span> · <Trans>Trade ID</Trans>{' '}
            <span className="opt-num">{trade_id}</span>
          </small>
        ),
      )}
    </>
  );
}
