// Contracts (/pages/contracts/contracts): spot trading of a coin against USDT. The pair picker
// with search, the live (simulated) quote and chart, the order form (Buy/Sell, Market/Limit, price
// in tick steps, quantity or a share of what is available, total and fee before submit, then a
// confirmation), and the pair's open orders with Revoke; below them, while the real account holds amounts no order
// can sell, "Convert small balances to USDT" (SmallBalances.tsx). Reached from Home and from each coin.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { contractAmounts, contractOrders, contractPairs } from '../../api-contract/contracts.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { navigate } from '../../lib/navigation.ts';
import { loadCoinList, prices, subscribePrices } from '../../lib/prices.ts';
import { toast } from '../../lib/toast.ts';
import { ChevronIcon } from '../../ui/icons.tsx';
import { CoinQuote, LiveChart } from '../../ui/LiveQuote.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { balances as balancesCall } from '../../api-contract/markets.ts';
import { RecordLink } from '../../ui/records.tsx';
import { AccountSwitch, PracticeTitle } from '../../ui/AccountSwitch.tsx';
import { useAccount } from '../../lib/practice.ts';
import { contractsState, DEFAULT_PAIR, loadAmounts, loadOpenOrders, loadPairs } from './contracts-store.ts';
import { OpenOrders } from './OpenOrders.tsx';
import { OrderPanel } from './OrderPanel.tsx';
import { PairSheet } from './PairSheet.tsx';
import { SmallBalances } from './SmallBalances.tsx';
import './contracts.css';

/** Open orders and amounts are asked for again this often while the page is shown. */
const REFRESH_MS = 3000;

export default function ContractsPage() {
  const { t } = useLingui();
  const search = useSearch();
  const { code, pairs, pairsLoaded, chartShown } = useSnapshot(contractsState);
  const [picking, setPicking] = useState(false);
  const account = useAccount();
  // An unknown ?code= falls back to the default pair once the pairs are known.
  const pair = pairs.find((item) => item.code === code);
  const shown = pairsLoaded && !pair ? DEFAULT_PAIR : code;

  useEffect(() => {
    const wanted = new URLSearchParams(search).get('code')?.toUpperCase();
    if (wanted) contractsState.code = wanted;
  }, [search]);

  useEffect(() => {
    if (prices.codes.length === 0) loadCoinList({ loading: false }).catch(() => undefined);
    loadPairs().catch((error) => toast(errorText(error)));
    return subscribePrices();
  }, []);

  useEffect(() => {
    const refresh = () => {
      loadAmounts(shown).catch(() => undefined);
      loadOpenOrders(shown).catch(() => undefined);
    };
    refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [shown, account]);

  const choose = (next: string) => {
    setPicking(false);
    contractsState.code = next;
    navigate(`${ROUTES.contracts}?code=${next}`, { replace: true });
  };

  return (
    <div className="page ct-page">
      <NavBar
        title={
          <PracticeTitle>
            <Trans>Contracts</Trans>
          </PracticeTitle>
        }
        right={<RecordLink to={ROUTES.contractOrders} label={t`Contract orders`} />}
      />
      <div className="page-body">
        <AccountSwitch />
        <OfflineNote endpoints={[contractPairs, contractAmounts, contractOrders, balancesCall]} />
        <CoinQuote
          code={shown}
          title={
            <button
              type="button"
              className="ct-pair-button"
              onClick={() => setPicking(true)}
              aria-haspopup="dialog"
              aria-label={t`Change pair, now ${shown}/USDT`}
            >
              <strong dir="ltr">{shown}/USDT</strong>
              <ChevronIcon className="ct-pair-chevron" />
            </button>
          }
        >
          <button
            type="button"
            className="link-button ct-chart-toggle"
            aria-expanded={chartShown}
            onClick={() => (contractsState.chartShown = !chartShown)}
          >
            {chartShown ? <Trans>Hide chart</Trans> : <Trans>Show chart</Trans>}
          </button>
        </CoinQuote>
        {chartShown && <LiveChart code={shown} />}
        <OrderPanel key={shown} code={shown} />
        <OpenOrders code={shown} />
        <SmallBalances />
      </div>
      {picking && <PairSheet current={shown} onChoose={choose} onClose={() => setPicking(false)} />}
    </div>
  );
}
