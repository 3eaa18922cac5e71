// The recharge record (/pages/Recharge/record, filters: all, completed, unfinished), newest
// first, a page at a time; a tap opens the order.
import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { rechargeRecords, type RechargeOrder } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilteredRecords, Ltr } from '../../ui/records.tsx';
import { RechargeStatusBadge } from './FundsParts.tsx';
import { rechargeRecord } from './recharge-store.ts';

export default function RechargeRecordPage() {
  return (
    <div className="page">
      <NavBar title={<Trans>Recharge record</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[rechargeRecords]} />
        <FilteredRecords
          store={rechargeRecord}
          look="segments"
          filters={[
            { value: 'all', label: <Trans>All</Trans> },
            { value: 'completed', label: <Trans>Completed</Trans> },
            { value: 'unfinished', label: <Trans>Unfinished</Trans> },
          ]}
          empty={<Trans>No recharges yet</Trans>}
          row={(order) => <RechargeRow order={order} />}
        />
      </div>
    </div>
  );
}

function RechargeRow({ order }: { order: Readonly<RechargeOrder> }) {
  const fiat = useDisplayCurrency();
  return (
    <li>
      <Link href={`${ROUTES.rechargeDetails}?id=${order.id}`} className="record-row">
        <span className="record-row-head">
          <bdi className="record-row-title">
            {order.channel_name}
            {order.chain && <span className="muted"> · {order.chain}</span>}
          </bdi>
          <RechargeStatusBadge status={order.status} />
        </span>
        <span className="record-row-grid">
          <span>
            <span className="muted">
              <Trans>Amount</Trans>
            </span>
            <Money amount={order.amount} asset={order.currency} />
          </span>
          <span>
            <span className="muted">
              <Trans>Credit</Trans>
            </span>
            <Money
              amount={order.actual_amount}
              asset={order.asset}
              fiat={fiat}
              className={order.status === 'rejected' ? 'funds-void' : undefined}
            />
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
