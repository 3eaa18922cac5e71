// A withdrawal under review, with what it is weighed against beside it: the payee's age, the customer's
// deposits and withdrawals with their USDT totals and balance history (customer-history.tsx), and recent sign-ins. Four
// eyes: above the configured amount it needs the approvals of two different reviewers; the first approval is recorded
// and the withdrawal keeps waiting.
import { Fragment, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleApproveWithdrawal,
  consoleRejectWithdrawal,
  consoleWithdrawal,
  type PayeeAge,
} from '../api-contract/console.ts';
import type { AddressLock } from '../api-contract/address-lock.ts';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import type { PayoutHold } from '../api-contract/account-freeze.ts';
import { consoleApi } from './api.ts';
import { formatAmount, formatTime, formatWait } from './format.ts';
import { ErrorLine, Facts, RowsTable, Status, useLoad, usePaymentKindName } from './parts.tsx';
import { CustomerHistoryPanel, CustomerLink } from './customer-history.tsx';
import { BackToQueues, Decision, FourEyes, useReviewFlow } from './review-parts.tsx';

export function WithdrawalPage({ id }: { id: string }) {
  const { t } = useLingui();
  const paymentKindName = usePaymentKindName();
  const [detail, error, reload] = useLoad(() => consoleApi(consoleWithdrawal, { id }), id);
  const [hash, setHash] = useState('');
  // Four eyes: once this reviewer approved, the record waits for another one (no claim, no approve button).
  const waiting = detail?.withdrawal.status === 'review' && !detail.approved_by_you;
  const flow = useReviewFlow('withdrawal', id, waiting, reload);
  if (!detail) return <ErrorLine error={error} />;
  const { withdrawal, sign_ins } = detail;
  // The first of two approvals pays nothing out, so it takes no payout hash (the server refuses one).
  const firstOfTwo = withdrawal.approvals_needed > 1 && withdrawal.approvals.length === 0;
  // Amount, fee, total and what the payee gets in the asset: the same decimals, as the customer's details show them.
  const decimals = sharedMoneyDecimals([withdrawal.amount, withdrawal.fee, withdrawal.total, withdrawal.actual_amount]);
  return (
    <section>
      <BackToQueues />
      <ErrorLine error={error} />
      {flow.banner}
      <div className="console-page-head">
        <h1>
          <Trans>Withdrawal {withdrawal.order_no}</Trans>
        </h1>
        <Status value={withdrawal.status} />
      </div>
      <div className="console-columns">
        <div>
          {detail.held && <HeldByFreeze hold={detail.held} />}
          <Facts
            rows={[
              [t`Customer`, <CustomerLink key="customer" of={withdrawal} />],
              [t`Amount`, formatAmount(withdrawal.amount, withdrawal.asset, decimals)],
              [t`Fee`, formatAmount(withdrawal.fee, withdrawal.asset, decimals)],
              [t`Frozen in total`, formatAmount(withdrawal.total, withdrawal.asset, decimals)],
              [
                t`Payee receives`,
                withdrawal.fiat_amount
                  ? formatAmount(withdrawal.fiat_amount, withdrawal.fiat_currency)
                  : formatAmount(withdrawal.actual_amount, withdrawal.asset, decimals),
              ],
              [
                t`Payee`,
                // Each part isolated: a name written right to left cannot reorder the account after it.
                [
                  paymentKindName(withdrawal.target),
                  withdrawal.payee_name,
                  withdrawal.payee_account,
                  withdrawal.payee_network,
                ]
                  .filter(Boolean)
                  .map((part, index) => (
                    <Fragment key={index}>
                      {index > 0 && ' · '}
                      <bdi>{part}</bdi>
                    </Fragment>
                  )),
              ],
              [t`Payee saved`, <PayeeSaved key="payee" payee={detail.payee} />],
              [t`Address lock`, <AddressLockState key="lock" lock={detail.address_lock} />],
              [t`Submitted`, formatTime(withdrawal.created_at)],
              [t`Reviewed`, formatTime(withdrawal.reviewed_at)],
              [t`Reason`, withdrawal.reason],
              [t`Payout hash`, withdrawal.hash],
            ]}
          />
          <FourEyes approved={detail.approved} needed={withdrawal.approvals_needed} />
          <Decision
            onRefused={reload}
            open={withdrawal.status === 'review'}
            approveLabel={firstOfTwo ? <Trans>Approve (first of two)</Trans> : <Trans>Approve and pay out</Trans>}
            approveBlocked={
              // The server refuses to pay a withdrawal of a frozen account: no button that would only be refused. A
              // hold does not undo this reviewer's own first approval: both are said.
              (detail.held || detail.approved_by_you) && (
                <>
                  {detail.held && <Trans>Payout waits until the customer unfreezes the account</Trans>}
                  {detail.held && detail.approved_by_you && ' · '}
                  {detail.approved_by_you && (
                    <Trans>
                      Approved by you ({withdrawal.approvals.length} of {withdrawal.approvals_needed}) — waiting for a
                      second operator
                    </Trans>
                  )}
                </>
              )
            }
            onApprove={async () => {
              const answer = await consoleApi(consoleApproveWithdrawal, { id, hash });
              await flow.decided(
                answer.status === 'review'
                  ? t`Withdrawal ${withdrawal.order_no}: your approval is recorded, a second operator must approve.`
                  : t`Withdrawal ${withdrawal.order_no} approved and paid out.`,
              );
            }}
            onReject={async (reason) => {
              await consoleApi(consoleRejectWithdrawal, { id, reason });
              await flow.decided(t`Withdrawal ${withdrawal.order_no} rejected.`);
            }}
          >
            {!firstOfTwo && (
              <label>
                <Trans>Payout transaction hash (optional)</Trans>
                <input value={hash} onChange={(event) => setHash(event.target.value)} maxLength={200} />
              </label>
            )}
          </Decision>
        </div>
        <aside className="console-beside">
          <CustomerHistoryPanel history={detail} />
          <h2>
            <Trans>Recent sign-ins</Trans>
          </h2>
          <RowsTable
            className="console-table console-mini"
            rows={sign_ins.map((row) => [formatTime(row.at), row.ip, row.device])}
            empty={<Trans>No sign-ins.</Trans>}
          />
        </aside>
      </div>
    </section>
  );
}

/** The customer froze the account: the withdrawal is held (not paid) until it is unfrozen; rejecting stays possible. */
function HeldByFreeze({ hold }: { hold: PayoutHold }) {
  const since = formatTime(hold.frozen_since);
  const unfreezeAt = formatTime(hold.unfreeze_at);
  return (
    <p className="console-claim-warning" role="note" data-testid="payout-hold">
      <span>
        <span aria-hidden="true">⚠ </span>
        <Trans>
          Held: the customer froze the account on {since}. It cannot be paid out until the account is unfrozen; it can
          be rejected, which returns the funds to the customer’s balance.
        </Trans>{' '}
        {hold.unfreeze_at ? (
          <Trans>The customer asked to unfreeze it: it unfreezes at {unfreezeAt}.</Trans>
        ) : (
          <Trans>The customer has not asked to unfreeze it.</Trans>
        )}
      </span>
    </p>
  );
}

/** When the payee was saved, how long before this withdrawal, and whether its cooling-off is over. */
function PayeeSaved({ payee }: { payee: PayeeAge | null }) {
  if (!payee) return <Trans>Deleted by the customer since.</Trans>;
  const before = formatWait(payee.saved_before_seconds);
  // Saved less than a day before the withdrawal: the pattern of a taken-over account.
  const recent = payee.saved_before_seconds < 86_400;
  return (
    <span data-testid="payee-age" className={recent ? 'console-payee-new' : undefined}>
      <Trans>
        {formatTime(payee.saved_at)}, {before} before this withdrawal
      </Trans>
      {' · '}
      {payee.cooled ? (
        <Trans>past its cooling-off</Trans>
      ) : (
        <Trans>cooling off until {formatTime(payee.usable_at)}</Trans>
      )}
    </span>
  );
}

/** The customer's withdrawal address lock, as the customer set it (the console cannot change it). */
function AddressLockState({ lock }: { lock: AddressLock }) {
  if (!lock.on) return <Trans>Off: withdrawals may go to any saved payee past its cooling-off</Trans>;
  const since = formatTime(lock.on_since);
  const offAt = formatTime(lock.off_at);
  return (
    <span data-testid="address-lock">
      <Trans>On since {since}: only saved payees past 24 hours</Trans>
      {lock.off_at && (
        <>
          {' · '}
          <Trans>turning off at {offAt}</Trans>
        </>
      )}
    </span>
  );
}
