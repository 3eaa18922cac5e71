// One recharge (/pages/Recharge/orderDetails?id=): every field that has a value;
// a rejection shows its reason first.
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import type { RechargeOrder } from '../../api-contract/funds.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Empty } from '../../ui/lists.tsx';
import { PrivatePicture } from '../../ui/PrivatePicture.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr, Row } from '../../ui/records.tsx';
import { RechargeStatusBadge, useOrderFromQuery } from './FundsParts.tsx';
import { formatExact } from './funds-format.ts';
import { loadRechargeOrder, rechargeState } from './recharge-store.ts';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { rechargeOrder } from '../../api-contract/funds.ts';

export default function RechargeDetailsPage() {
  const { id, failure } = useOrderFromQuery(loadRechargeOrder);
  const order = useSnapshot(rechargeState).details[id ?? -1];

  return (
    <div className="page">
      <NavBar title={<Trans>Recharge details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[rechargeOrder]} />
        {order ? <Details order={order} /> : failure && <Empty>{failure}</Empty>}
      </div>
    </div>
  );
}

function Details({ order }: { order: Readonly<RechargeOrder> }) {
  const { t } = useLingui();
  const fiat = useDisplayCurrency();
  const crypto = order.kind === 'crypto';
  const rate = formatExact(order.rate);
  return (
    <>
      <section className="card funds-summary">
        <RechargeStatusBadge status={order.status} />
        <Money
          className={order.status === 'rejected' ? 'funds-summary-amount funds-void' : 'funds-summary-amount'}
          amount={order.actual_amount}
          asset={order.asset}
          fiat={fiat}
        />
        <span className="muted">
          {order.status === 'success' ? (
            <Trans>Credited to your balance</Trans>
          ) : order.status === 'pending' ? (
            <Trans>Credited once the payment has been reviewed</Trans>
          ) : (
            <Trans>Not credited</Trans>
          )}
        </span>
        {order.status === 'rejected' && order.reason && (
          <p className="funds-reason" role="note">
            <strong>
              <Trans>Reason</Trans>
            </strong>
            <bdi>{order.reason}</bdi>
          </p>
        )}
      </section>

      <section className="card">
        <dl className="detail-rows">
          <Row label={<Trans>Order number</Trans>} copy={order.order_no}>
            <Ltr>{order.order_no}</Ltr>
          </Row>
          <Row label={<Trans>Method</Trans>}>
            {crypto ? <Trans>Crypto deposit</Trans> : <Trans>Bank transfer</Trans>}
          </Row>
          <Row label={<Trans>Channel</Trans>}>{order.channel_name && <bdi>{order.channel_name}</bdi>}</Row>
          <Row label={<Trans>Chain</Trans>}>{order.chain && <Ltr>{order.chain}</Ltr>}</Row>
          <Row
            label={crypto ? <Trans>Deposit address</Trans> : <Trans>Account number</Trans>}
            copy={order.address || undefined}
          >
            {order.address && <Ltr className="funds-mono">{order.address}</Ltr>}
          </Row>
          <Row label={<Trans>Amount</Trans>}>
            <Money amount={order.amount} asset={order.currency} />
          </Row>
          {order.currency !== order.asset && (
            <Row label={<Trans>Rate</Trans>}>
              <Ltr>
                1 {order.asset} = {rate} {order.currency}
              </Ltr>
            </Row>
          )}
          <Row label={<Trans>Actual amount</Trans>}>
            <Money amount={order.actual_amount} asset={order.asset} fiat={fiat} />
          </Row>
          <Row label={<Trans>Transaction hash</Trans>} copy={order.hash || undefined}>
            {order.hash && <Ltr className="funds-mono">{order.hash}</Ltr>}
          </Row>
          <Row label={<Trans>Block height</Trans>}>{order.block_height && <Ltr>{order.block_height}</Ltr>}</Row>
          <Row label={<Trans>Remark</Trans>}>{order.remark && <bdi>{order.remark}</bdi>}</Row>
          <Row label={<Trans>Status</Trans>}>
            <RechargeStatusBadge status={order.status} />
          </Row>
          <Row label={<Trans>Submitted</Trans>}>
            <Ltr>{formatDateTime(order.created_at)}</Ltr>
          </Row>
          <Row label={<Trans>Reviewed</Trans>}>
            {order.reviewed_at && <Ltr>{formatDateTime(order.reviewed_at)}</Ltr>}
          </Row>
        </dl>
      </section>

      {order.proof && (
        <section className="card funds-proof">
          <h2 className="funds-card-title">
            <Trans>Transfer receipt</Trans>
          </h2>
          <PrivatePicture url={order.proof} alt={t`Transfer receipt`} zoomable />
        </section>
      )}
    </>
  );
}
