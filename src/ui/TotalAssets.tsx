// "Total assets": everything the signed-in user holds, estimated in USDT at the latest recorded
// prices and in the display currency, or a dash while it is not known (never an invented 0.00).
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../lib/live-snapshot.ts';
import { Trans } from '@lingui/react/macro';
import { formatBalance, totalAssetsUsdt, USDT, userBalances } from '../lib/balances.ts';
import { toFiat, useDisplayCurrency } from '../lib/fiat.ts';
import { formatAmount } from '../lib/format.ts';
import { loadCoinList, prices } from '../lib/prices.ts';
import { storeHydrated } from '../lib/storage.ts';

export function TotalAssets({ className }: { className?: string }) {
  const balances = useSnapshot(userBalances);
  const { quotes } = useLiveSnapshot(prices);
  const fiat = useDisplayCurrency();
  // Coins are valued at the prices on the device; a first visit asks for them.
  useEffect(() => {
    void storeHydrated(prices).then(() => {
      if (prices.codes.length === 0) loadCoinList({ loading: false }).catch(() => undefined);
    });
  }, []);
  const total = balances.updatedAt ? totalAssetsUsdt(balances, quotes) : null;
  return (
    <div className={`total-assets${className ? ` ${className}` : ''}`}>
      <span className="total-assets-label">
        <Trans>Total assets (est. USDT)</Trans>
      </span>
      <strong className="total-assets-amount" dir="ltr">
        {total === null ? '—' : formatBalance(total, USDT)}
      </strong>
      {/* Its line is there while the total is not known yet too: the cards below do not move when it arrives. */}
      <span className="total-assets-fiat" dir="ltr">
        ≈ {total !== null && fiat ? `${fiat.symbol}${formatAmount(toFiat(total, fiat), 2)}` : '—'}
      </span>
    </div>
  );
}
