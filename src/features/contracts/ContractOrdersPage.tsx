// Contract orders (/pages/contracts/orderList): open orders (oldest first, each revocable) or
// the history (dealt and cancelled, newest first), of every pair or one (`?code=BTC`); a tap opens
// an order's details. Offline, the last lists kept show with "Offline — as of". The lists are of the account traded
// with (Real or Practice, switched here too); `?account=practice` switches to the practice one.
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { contractOrders, type ContractList } from '../../api-contract/contracts.ts';
import { Segmented } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilterChips, ListView } from '../../ui/records.tsx';
import { AccountSwitch, PracticeTitle } from '../../ui/AccountSwitch.tsx';
import { chooseAccount, currentAccount, useAccount } from '../../lib/practice.ts';
import { session } from '../../lib/session.ts';
import { contractOrderList, contractsState, loadPairs, orderListFilter } from './contracts-store.ts';
import { OrderRow } from './ContractParts.tsx';
import './contracts.css';

// A failed load shows in the list itself (with a retry), so the promise is not reported again.
const reload = (list: ContractList) => void contractOrderList.load(list).catch(() => undefined);

export default function ContractOrdersPage() {
  const { t } = useLingui();
  const search = useSearch();
  const { filter, lists } = useSnapshot(contractOrderList.state);
  const { code } = useSnapshot(orderListFilter);
  const { pairs } = useSnapshot(contractsState);
  const list = lists[filter];
  const account = useAccount();
  const switchedFor = useRef('');

  useEffect(() => {
    if (!contractsState.pairsLoaded) loadPairs().catch(() => undefined);
  }, []);

  useEffect(() => {
    // A notification of a practice fill opens the practice orders (`account=practice` in its link): switched once
    // per address, the lists are read when the switch has re-rendered the page; a later switch here stays.
    const named = new URLSearchParams(search).get('account');
    if ((named === 'practice' || named === 'real') && switchedFor.current !== search) {
      switchedFor.current = search;
      if (named !== currentAccount() && session.user) return chooseAccount(named);
    }
    const wanted = new URLSearchParams(search).get('code')?.toUpperCase() ?? '';
    if (wanted !== orderListFilter.code) {
      orderListFilter.code = wanted;
      contractOrderList.reset();
    }
    reload(contractOrderList.state.filter);
  }, [search, account]);

  const choosePair = (next: string) => {
    orderListFilter.code = next;
    contractOrderList.reset();
    reload(contractOrderList.state.filter);
  };

  return (
    <div className="page ct-page">
      <NavBar
        title={
          <PracticeTitle>
            <Trans>Contract orders</Trans>
          </PracticeTitle>
        }
        right={
          <Link href={ROUTES.trades} className="link-button">
            <Trans>Trade history</Trans>
          </Link>
        }
      />
      <div className="page-body">
        <AccountSwitch />
        <OfflineNote endpoints={[contractOrders]} />
        <Segmented
          value={filter}
          onChange={(next) => void contractOrderList.choose(next).catch(() => undefined)}
          options={[
            { value: 'open', label: <Trans>Open orders</Trans> },
            { value: 'history', label: <Trans>History</Trans> },
          ]}
        />
        <FilterChips
          label={t`Pair`}
          value={code}
          onChange={choosePair}
          options={[
            { value: '', label: <Trans>All pairs</Trans> },
            ...pairs.map((pair) => ({ value: pair.code, label: <span dir="ltr">{pair.code}/USDT</span> })),
          ]}
        />
        <ListView
          list={list}
          empty={filter === 'open' ? <Trans>No open orders</Trans> : <Trans>No orders yet</Trans>}
          retry={() => reload(filter)}
          more={() => contractOrderList.load(filter, { more: true })}
        >
          {list.lists.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </ListView>
      </div>
    </div>
  );
}
