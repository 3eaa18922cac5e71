// The liquidity record (/pages/Liquidity/record: subscriptions, redemptions and interest),
// newest first, a page at a time. Amounts are signed as they move the liquidity balance: a
// subscription and interest add to it, a redemption takes from it.
import { Trans, useLingui } from '@lingui/react/macro';
import { liquidityRecords, type LiquidityRecord } from '../../api-contract/liquidity.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilteredRecords } from '../../ui/records.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { LiquidityStatusBadge } from './LiquidityParts.tsx';
import { liquidityRecord } from './liquidity-store.ts';

export default function LiquidityRecordPage() {
  const { t } = useLingui();

  return (
    <div className="page">
      <NavBar title={<Trans>Liquidity record</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[liquidityRecords]} />
        <FilteredRecords
          store={liquidityRecord}
          look={{ chips: t`Show` }}
          filters={[
            { value: 'all', label: <Trans>All</Trans> },
            { value: 'subscribe', label: <Trans>Subscribe</Trans> },
            { value: 'redeem', label: <Trans>Redeem</Trans> },
            { value: 'interest', label: <Trans>Interest</Trans> },
          ]}
          empty={<Trans>No records yet</Trans>}
          row={(record) => <RecordRow record={record} />}
        />
      </div>
    </div>
  );
}

function RecordRow({ record }: { record: Readonly<LiquidityRecord> }) {
  const out = record.kind === 'redeem';
  const standard = out && record.mode === 'standard';
  return (
    <li className={`liq-record ${record.kind}`}>
      <div className="record-row">
        <span className="record-row-head">
          <span className="record-row-title">
            <KindName record={record} />
          </span>
          <LiquidityStatusBadge status={record.status} />
        </span>
        <span className="record-row-grid">
          <span>
            <span className="muted">
              <Trans>Amount</Trans>
            </span>
            <Money
              amount={out ? `-${record.amount}` : record.amount}
              asset="USDT"
              signed
              className={out ? 'liq-out' : 'liq-in'}
            />
          </span>
          <span>
            <span className="muted">
              <Trans>Interest day</Trans>
            </span>
            <CalendarDay day={record.day} />
          </span>
        </span>
        {standard && record.pay_day && (
          <span className="liq-record-pay">
            {record.status === 'confirmed' ? (
              <Trans>
                Paid at the end of <CalendarDay day={record.pay_day} />
              </Trans>
            ) : (
              <Trans>
                To be paid at the end of <CalendarDay day={record.pay_day} />
              </Trans>
            )}
          </span>
        )}
        <span className="record-row-foot muted">
          <span>
            {out ? (
              <Trans>To available balance</Trans>
            ) : record.kind === 'subscribe' ? (
              <Trans>From available balance</Trans>
            ) : (
              <Trans>Added to liquidity balance</Trans>
            )}
          </span>
          <time dateTime={record.created_at}>{formatDateTime(record.created_at)}</time>
        </span>
      </div>
    </li>
  );
}

function KindName({ record }: { record: Readonly<LiquidityRecord> }) {
  if (record.kind === 'subscribe') return <Trans>Subscription</Trans>;
  if (record.kind === 'interest') return <Trans>Interest</Trans>;
  return (
    <>
      <Trans>Redemption</Trans>
      {record.mode && (
        <span className="muted">
          {' · '}
          {record.mode === 'quick' ? <Trans>Quick</Trans> : <Trans>Standard</Trans>}
        </span>
      )}
    </>
  );
}
