// One withdrawal (/pages/Withdraw/orderDetails?id=): the payee, amount, fee, total
// and what arrives (in baht for a bank payout), the payout hash, times; a failure shows its reason
// first and says the funds came back; one held by the customer's own account freeze says so.
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import type { WithdrawOrder } from '../../api-contract/funds.ts';
import { sharedMoneyDecimals } from '../../api-contract/decimal-values.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { Empty } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr, Row } from '../../ui/records.tsx';
import { WithdrawStatusBadge, useOrderFromQuery } from './FundsParts.tsx';
import { formatExact, formatPercent } from './funds-format.ts';
import { loadWithdrawOrder, withdrawState } from './withdraw-store.ts';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { withdrawOrder } from '../../api-contract/funds.ts';
import { Amount } from '../../ui/Amount.tsx';

export default function WithdrawDetailsPage() {
  const { id, failure } = useOrderFromQuery(loadWithdrawOrder);
  const order = useSnapshot(withdrawState).details[id ?? -1];

  return (
    <div className="page">
      <NavBar title={<Trans>Withdrawal details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[withdrawOrder]} />
        {order ? <Details order={order} /> : failure && <Empty>{failure}</Empty>}
      </div>
    </div>
  );
}

/** The customer's own freeze holds the withdrawal: it is not paid out until the account is unfrozen. */
function HeldByFreeze({ since, unfreezeAt }: { since: string; unfreezeAt: string | null }) {
  const frozenAt = formatDateTime(since);
  const unfreezesAt = unfreezeAt ? formatDateTime(unfreezeAt) : '';
  return (
    <div className="funds-reason" role="note" data-testid="withdraw-held">
      <strong>
        <Trans>On hold: your account is frozen</Trans>
      </strong>
      <span>
        <Trans>
          Frozen since <Ltr>{frozenAt}</Ltr>. This withdrawal waits and is paid out only after you unfreeze your account
          in Settings; the total stays held from your balance meanwhile.
        </Trans>
      </span>
      {unfreezeAt && (
        <span>
          <Trans>
            Your account unfreezes at <Ltr>{unfreezesAt}</Ltr>.
          </Trans>
        </span>
      )}
    </div>
  );
}

function Details({ order }: { order: Readonly<WithdrawOrder> }) {
  const fiat = useDisplayCurrency();
  const bank = order.target === 'bank';
  const paidInFiat = Boolean(order.fiat_currency && order.fiat_amount);
  const fiatAmount = paidInFiat ? formatMoney(order.fiat_amount) : '';
  const fiatRate = order.fiat_rate ? formatExact(order.fiat_rate) : '';
  const fiatCurrency = order.fiat_currency;
  // Amount, fee, total and what the payee gets are one asset: shown with the same decimals, so they add up to the eye.
  const decimals = sharedMoneyDecimals([order.amount, order.fee, order.total, order.actual_amount]);
  return (
    <>
      <section className="card funds-summary">
        <WithdrawStatusBadge status={order.status} />
        <Money
          className="funds-summary-amount"
          amount={order.actual_amount}
          asset={order.asset}
          fiat={fiat}
          decimals={decimals}
        />
        {paidInFiat && order.status !== 'fail' && (
          <span className="muted">
            {order.status === 'success' ? (
              <Trans>
                Paid out as <Amount value={fiatAmount} unit={fiatCurrency} />
              </Trans>
            ) : (
              <Trans>
                To be paid out as <Amount value={fiatAmount} unit={fiatCurrency} />
              </Trans>
            )}
          </span>
        )}
        {order.status === 'fail' && (
          <div className="funds-reason" role="note">
            <strong>
              <Trans>The withdrawal failed</Trans>
            </strong>
            {order.reason && <bdi>{order.reason}</bdi>}
            <span>
              <Trans>The funds have been returned to your balance.</Trans>
            </span>
          </div>
        )}
        {order.status === 'review' &&
          (order.held ? (
            <HeldByFreeze since={order.held.frozen_since} unfreezeAt={order.held.unfreeze_at} />
          ) : (
            <span className="muted">
              <Trans>The total is held from your balance until the review.</Trans>
            </span>
          ))}
      </section>

      <section className="card">
        <dl className="detail-rows">
          <Row label={<Trans>Order number</Trans>} copy={order.order_no}>
            <Ltr>{order.order_no}</Ltr>
          </Row>
          <Row label={<Trans>Status</Trans>}>
            <WithdrawStatusBadge status={order.status} />
          </Row>
          <Row label={<Trans>Withdraw to</Trans>}>{bank ? <Trans>Bank card</Trans> : <Trans>Wallet</Trans>}</Row>
          <Row label={<Trans>Payee</Trans>}>{order.payee_name && <bdi>{order.payee_name}</bdi>}</Row>
          <Row
            label={bank ? <Trans>Account number</Trans> : <Trans>Address</Trans>}
            copy={bank ? undefined : order.payee_account || undefined}
          >
            {order.payee_account && <Ltr className="funds-mono">{order.payee_account}</Ltr>}
          </Row>
          <Row label={bank ? <Trans>Bank</Trans> : <Trans>Chain</Trans>}>
            {order.payee_network && <bdi>{order.payee_network}</bdi>}
          </Row>
          <Row label={<Trans>Amount</Trans>}>
            <Money amount={order.amount} asset={order.asset} fiat={fiat} decimals={decimals} />
          </Row>
          <Row label={<Trans>Fee rate</Trans>}>
            <Ltr>{formatPercent(order.fee_rate)}</Ltr>
          </Row>
          <Row label={<Trans>Fee</Trans>}>
            <Money amount={order.fee} asset={order.asset} fiat={fiat} decimals={decimals} />
          </Row>
          <Row label={<Trans>Total deducted</Trans>}>
            <Money amount={order.total} asset={order.asset} fiat={fiat} decimals={decimals} />
          </Row>
          <Row label={<Trans>Actual amount</Trans>}>
            <Money amount={order.actual_amount} asset={order.asset} fiat={fiat} decimals={decimals} />
          </Row>
          {paidInFiat && (
            <Row label={<Trans>Payout ({fiatCurrency})</Trans>}>
              <Money amount={order.fiat_amount} asset={order.fiat_currency} />
              {fiatRate && (
                <Ltr className="muted funds-small">
                  1 {order.asset} = {fiatRate} {order.fiat_currency}
                </Ltr>
              )}
            </Row>
          )}
          <Row label={<Trans>Reason</Trans>}>
            {order.status !== 'fail' && order.reason && <bdi>{order.reason}</bdi>}
          </Row>
          <Row label={<Trans>Payout hash</Trans>} copy={order.hash || undefined}>
            {order.hash && <Ltr className="funds-mono">{order.hash}</Ltr>}
          </Row>
          <Row label={<Trans>Submitted</Trans>}>
            <Ltr>{formatDateTime(order.created_at)}</Ltr>
          </Row>
          <Row label={<Trans>Reviewed</Trans>}>
            {order.reviewed_at && <Ltr>{formatDateTime(order.reviewed_at)}</Ltr>}
          </Row>
        </dl>
      </section>
    </>
  );
}
