// The lock-up record (/pages/Lock-up/record/record): all, processing, ended; newest first, a page
// at a time. Each order: product, amount, status, period, daily income, earned so far, and the first
// and last income days (the principal comes back at the end of the last).
import { useEffect } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { lockupOrders, type LockupOrder } from '../../api-contract/lockup.ts';
import { NavBar } from '../../ui/NavBar.tsx';
import { Money } from '../../ui/Money.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilteredRecords, Ltr, StatusBadge } from '../../ui/records.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { Days } from './LockupParts.tsx';
import { formatDailyRate } from './lockup-format.ts';
import { lockupRecord, loadSummary } from './lockup-store.ts';

export default function LockupRecordPage() {
  const { t } = useLingui();

  useEffect(() => {
    // Income is paid each day: the Mining tab's summary follows when the user goes back.
    loadSummary().catch(() => undefined);
  }, []);

  return (
    <div className="page lockup-page">
      <NavBar title={<Trans>Lock-up record</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[lockupOrders]} />
        <FilteredRecords
          store={lockupRecord}
          look={{ chips: t`Status` }}
          filters={[
            { value: 'all', label: <Trans>All</Trans> },
            { value: 'processing', label: <Trans>Processing</Trans> },
            { value: 'end', label: <Trans>Ended</Trans> },
          ]}
          empty={<Trans>No lock-up orders yet</Trans>}
          row={(order) => <OrderRow order={order} />}
        />
      </div>
    </div>
  );
}

function OrderRow({ order }: { order: Readonly<LockupOrder> }) {
  const processing = order.status === 'processing';
  return (
    <li className="record-row lockup-order">
      <span className="record-row-head">
        <bdi className="record-row-title">{order.name}</bdi>
        <StatusBadge tone={processing ? 'wait' : 'good'}>
          {processing ? <Trans>Processing</Trans> : <Trans>Ended</Trans>}
        </StatusBadge>
      </span>
      <span className="record-row-grid">
        <span>
          <span className="muted">
            <Trans>Amount</Trans>
          </span>
          <Money className="lockup-amount" amount={order.amount} asset="USDT" />
        </span>
        <span>
          <span className="muted">
            <Trans>Earned so far</Trans>
          </span>
          <Money className="lockup-earned" amount={order.earned} asset="USDT" />
        </span>
        <span>
          <span className="muted">
            <Trans>Daily income</Trans>
          </span>
          <Money className="lockup-daily" amount={order.daily_income} asset="USDT" />
        </span>
        <span>
          <span className="muted">
            <Trans>Period</Trans>
          </span>
          <span>
            <Days days={order.days} /> · <Ltr className="lockup-num">{formatDailyRate(order.daily_rate)}</Ltr>
          </span>
        </span>
      </span>
      <span className="record-row-foot muted lockup-order-days">
        <span>
          <Trans>
            From <CalendarDay day={order.start_day} /> to <CalendarDay day={order.end_day} />
          </Trans>
        </span>
        {!processing && (
          <span>
            <Trans>Principal returned</Trans>
          </span>
        )}
      </span>
    </li>
  );
}
