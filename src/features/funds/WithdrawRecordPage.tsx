// The withdrawal record: filters all, processing (in review), completed (succeeded or failed), and each status
// alone; newest first, a page at a time; a tap opens the order. Every amount and fee of one asset in the list shows the
// same decimals, so they line up.
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { withdrawRecords, type WithdrawOrder } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { sharedMoneyDecimals } from '../../api-contract/decimal-values.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilteredRecords, Ltr } from '../../ui/records.tsx';
import { WithdrawStatusBadge } from './FundsParts.tsx';
import { withdrawRecord } from './withdraw-store.ts';

export default function WithdrawRecordPage() {
  const { t } = useLingui();
  return (
    <div className="page">
      <NavBar title={<Trans>Withdrawal record</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[withdrawRecords]} />
        <FilteredRecords
          store={withdrawRecord}
          look={{ chips: t`Show` }}
          filters={[
            { value: 'all', label: <Trans>All</Trans> },
            { value: 'processing', label: <Trans>Processing</Trans> },
            { value: 'completed', label: <Trans>Completed</Trans> },
            { value: 'review', label: <Trans>In review</Trans> },
            { value: 'success', label: <Trans>Succeeded</Trans> },
            { value: 'fail', label: <Trans>Failed</Trans> },
          ]}
          empty={<Trans>No withdrawals yet</Trans>}
          row={(order, shown) => <WithdrawRow order={order} decimals={assetDecimals(shown, order.asset)} />}
        />
      </div>
    </div>
  );
}

/** The decimals per asset of the orders shown, worked out once per list (the list is a new array when it changes). */
const decimalsOfLists = new WeakMap<readonly Readonly<WithdrawOrder>[], Map<string, number>>();

/** The decimals every amount and fee of `asset` in the list is shown with, so they line up (sharedMoneyDecimals). */
function assetDecimals(shown: readonly Readonly<WithdrawOrder>[], asset: string): number {
  let byAsset = decimalsOfLists.get(shown);
  if (!byAsset) {
    const amounts = new Map<string, string[]>();
    for (const order of shown) amounts.set(order.asset, [...(amounts.get(order.asset) ?? []), order.amount, order.fee]);
    byAsset = new Map([...amounts].map(([each, values]) => [each, sharedMoneyDecimals(values)]));
    decimalsOfLists.set(shown, byAsset);
  }
  return byAsset.get(asset) ?? sharedMoneyDecimals([]);
}

function WithdrawRow({ order, decimals }: { order: Readonly<WithdrawOrder>; decimals: number }) {
  const fiat = useDisplayCurrency();
  return (
    <li>
      <Link href={`${ROUTES.withdrawDetails}?id=${order.id}`} className="record-row">
        <span className="record-row-head">
          <bdi className="record-row-title">
            {order.target === 'bank' ? <Trans>Bank card</Trans> : <Trans>Wallet</Trans>}
            <span className="muted"> · {order.payee_network}</span>
          </bdi>
          <WithdrawStatusBadge status={order.status} />
        </span>
        <span className="record-row-grid">
          <span>
            <span className="muted">
              <Trans>Amount</Trans>
            </span>
            <Money amount={order.amount} asset={order.asset} fiat={fiat} decimals={decimals} />
          </span>
          <span>
            <span className="muted">
              <Trans>Fee</Trans>
            </span>
            <Money amount={order.fee} asset={order.asset} decimals={decimals} />
          </span>
        </span>
        <span className="record-row-foot muted">
          <Ltr>{order.order_no}</Ltr>
          <time dateTime={order.created_at}>{formatDateTime(order.created_at)}</time>
        </span>
      </Link>
    </li>
  );
}
