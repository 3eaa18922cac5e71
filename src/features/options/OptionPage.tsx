// Options (tab; an order settles at expiry): pick a coin, watch its live price and chart, buy up or short with an
// expiry and an amount; below, the pending orders with their countdowns and the purchase record.
import { useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { refreshBalancesOrSay } from '../../lib/balances.ts';
import { navigate } from '../../lib/navigation.ts';
import { loadCoinList, prices, subscribePrices } from '../../lib/prices.ts';
import { toast } from '../../lib/toast.ts';
import { CoinQuote, LiveChart } from '../../ui/LiveQuote.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { ReadPrice } from '../../ui/ReadPrice.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { AccountSwitch, PracticeTitle } from '../../ui/AccountSwitch.tsx';
import { useAccount } from '../../lib/practice.ts';
import { practiceAccount } from '../../api-contract/practice.ts';
import { balances, coinList } from '../../api-contract/markets.ts';
import { optionProducts } from '../../api-contract/options.ts';
import { DEFAULT_COIN, loadOrders, loadProducts, loadTotals, optionsState, watchSettlements } from './options-store.ts';
import { OrderTabs } from './OrderLists.tsx';
import { RuleIcon } from './OptionParts.tsx';
import { syncClockFromTicks } from './server-clock.ts';
import { TradePanel } from './TradePanel.tsx';

const showError = (error: unknown) => toast(errorText(error));

export default function OptionPage() {
  const { t } = useLingui();
  const search = useSearch();
  const { coin, holding } = useSnapshot(optionsState);
  const account = useAccount();
  const { codes } = useLiveSnapshot(prices);
  // An unknown ?code= falls back to the default coin once the list is known.
  const code = codes.length === 0 || codes.includes(coin) ? coin : DEFAULT_COIN;

  useEffect(() => {
    const wanted = new URLSearchParams(search).get('code')?.toUpperCase();
    if (wanted) optionsState.coin = wanted;
  }, [search]);

  useEffect(() => {
    if (prices.codes.length === 0) loadCoinList({ loading: false }).catch(showError);
    // Said only while the balance is blank: a figure on screen (offline: kept, marked "as of") stays without a toast.
    refreshBalancesOrSay(showError);
    const stopWatching = watchSettlements();
    const releaseClock = subscribePrices(syncClockFromTicks);
    return () => {
      stopWatching();
      releaseClock();
    };
  }, []);

  // The orders and totals of the account traded with, read again after a switch. A failure is said by the list in its
  // place (OrderLists), not by a toast over the page: offline, the page's cached figures are marked already.
  useEffect(() => {
    loadOrders(optionsState.tab).catch(() => undefined);
    if (optionsState.tab !== 'holding') loadOrders('holding').catch(() => undefined);
    loadTotals().catch(() => undefined);
  }, [account]);

  useEffect(() => {
    loadProducts(code).catch(showError);
  }, [code]);

  const choose = (next: string) => {
    optionsState.coin = next;
    navigate(`${ROUTES.option}?code=${next}`, { replace: true });
  };

  // The newest pending option of this coin that has its start price: marked on the chart.
  const started = holding.lists.find((order) => order.code === code && order.start_price && order.start_price_at);
  const marker = started
    ? { time: Math.floor(Date.parse(started.start_price_at!) / 1000), price: started.start_price! }
    : null;

  // At once on a device that asks for reduced motion (read here, not from lib/motion.ts: the tab pages' first load).
  const showOrders = () =>
    document.getElementById('option-orders')?.scrollIntoView({
      behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
      block: 'start',
    });

  return (
    <div className="page opt-page">
      <NavBar
        title={
          <PracticeTitle>
            <Trans>Options</Trans>
          </PracticeTitle>
        }
        back={false}
        right={
          <Link href={ROUTES.optionRule} className="icon-button" aria-label={t`Option rules`}>
            <RuleIcon />
          </Link>
        }
      />
      <div className="page-body">
        <AccountSwitch />
        <div className="opt-coins" role="radiogroup" aria-label={t`Coin`}>
          {(codes.length ? codes : [code]).map((item) => (
            <button
              key={item}
              type="button"
              role="radio"
              aria-checked={item === code}
              className="opt-coin"
              onClick={() => choose(item)}
            >
              {item}
            </button>
          ))}
        </div>
        {/* The real account's available balance may be the service worker's last kept one: said since when. */}
        <OfflineNote
          endpoints={
            account === 'practice' ? [coinList, optionProducts, practiceAccount] : [coinList, optionProducts, balances]
          }
        />
        <CoinQuote code={code}>
          <ReadPrice code={code} />
        </CoinQuote>
        <LiveChart code={code} tools marker={marker} />
        <TradePanel code={code} onPlaced={showOrders} />
        <OrderTabs />
      </div>
    </div>
  );
}
