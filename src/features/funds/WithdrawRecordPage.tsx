// The withdrawal record: filters all, processing (in review), completed (succeeded or failed), and each status
// alone; newest first, a page at a time; a tap opens the order.
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { withdrawRecords, type WithdrawOrder } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
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
          row={(order) => <WithdrawRow order={order} />}
        />
      </div>
    </div>
  );
}

function WithdrawRow({ order }: { order: Readonly<WithdrawOrder> }) {
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
            <Money amount={order.amount} asset={order.asset} fiat={fiat} />
          </span>
          <span>
            <span className="muted">
              <Trans>Fee</Trans>
            </span>
            <Money amount={order.fee} asset={order.asset} />
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
