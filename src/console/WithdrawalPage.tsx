// A withdrawal under review, with what it is weighed against beside it: the customer's deposits,
// withdrawals and recent sign-ins. Four eyes: above the configured amount it needs the approvals of
// two different reviewers; the first approval is recorded and the withdrawal keeps waiting.
import { useState } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleApproveWithdrawal, consoleRejectWithdrawal, consoleWithdrawal } from '../contract/console.ts';
import { consoleApi } from './api.ts';
import { formatAmount, formatTime } from './format.ts';
import { ErrorLine, Facts, RowsTable, Status, useLoad } from './parts.tsx';
import { BackToQueues, Decision } from './review-parts.tsx';

export function WithdrawalPage({ id }: { id: string }) {
  const { t } = useLingui();
  const [detail, error, reload] = useLoad(() => consoleApi(consoleWithdrawal, { id }), id);
  const [hash, setHash] = useState('');
  if (!detail) return <ErrorLine error={error} />;
  const { withdrawal, deposits, withdrawals, sign_ins } = detail;
  return (
    <section>
      <BackToQueues />
      <ErrorLine error={error} />
      <div className="console-page-head">
        <h1>
          <Trans>Withdrawal {withdrawal.order_no}</Trans>
        </h1>
        <Status value={withdrawal.status} />
      </div>
      <div className="console-columns">
        <div>
          <Facts
            rows={[
              [
                t`Customer`,
                <Link key="customer" href={`/customer/${withdrawal.user_id}`}>
                  {withdrawal.username} (#{withdrawal.user_id})
                </Link>,
              ],
              [t`Amount`, formatAmount(withdrawal.amount, withdrawal.asset)],
              [t`Fee`, formatAmount(withdrawal.fee, withdrawal.asset)],
              [t`Frozen in total`, formatAmount(withdrawal.total, withdrawal.asset)],
              [
                t`Paid out`,
                withdrawal.fiat_amount
                  ? formatAmount(withdrawal.fiat_amount, withdrawal.fiat_currency)
                  : formatAmount(withdrawal.actual_amount, withdrawal.asset),
              ],
              [
                t`Payee`,
                [withdrawal.target, withdrawal.payee_name, withdrawal.payee_account, withdrawal.payee_network]
                  .filter(Boolean)
                  .join(' · '),
              ],
              [t`Submitted`, formatTime(withdrawal.created_at)],
              [t`Reviewed`, formatTime(withdrawal.reviewed_at)],
              [t`Reason`, withdrawal.reason],
              [t`Payout hash`, withdrawal.hash],
            ]}
          />
          <FourEyes approvals={withdrawal.approvals} needed={withdrawal.approvals_needed} />
          <Decision
            open={withdrawal.status === 'review'}
            approveLabel={
              withdrawal.approvals_needed > 1 && withdrawal.approvals.length === 0 ? (
                <Trans>Approve (first of two)</Trans>
              ) : (
                <Trans>Approve and pay out</Trans>
              )
            }
            onApprove={async () => {
              await consoleApi(consoleApproveWithdrawal, { id, hash });
              await reload();
            }}
            onReject={async (reason) => {
              await consoleApi(consoleRejectWithdrawal, { id, reason });
              await reload();
            }}
          >
            <label>
              <Trans>Payout transaction hash (optional)</Trans>
              <input value={hash} onChange={(event) => setHash(event.target.value)} maxLength={200} />
            </label>
          </Decision>
        </div>
        <aside className="console-beside">
          <h2>
            <Trans>Deposits</Trans>
          </h2>
          <RowsTable
            className="console-table console-mini"
            rows={deposits.map((row) => [
              formatTime(row.created_at),
              formatAmount(row.amount, row.currency),
              <Status key="status" value={row.status} />,
            ])}
            empty={<Trans>No deposits.</Trans>}
          />
          <h2>
            <Trans>Withdrawals</Trans>
          </h2>
          <RowsTable
            className="console-table console-mini"
            rows={withdrawals.map((row) => [
              formatTime(row.created_at),
              formatAmount(row.amount, row.asset),
              <Status key="status" value={row.status} />,
            ])}
            empty={<Trans>No other withdrawals.</Trans>}
          />
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

function FourEyes({ approvals, needed }: { approvals: readonly string[]; needed: number }) {
  if (needed < 2) return null;
  const names = approvals.join(', ');
  return (
    <p className="console-four-eyes" data-testid="four-eyes">
      {approvals.length === 0 ? (
        <Trans>Four eyes: this amount needs the approvals of two different reviewers. None yet.</Trans>
      ) : (
        <Trans>
          Four eyes: approved by {names} ({approvals.length} of {needed}).
        </Trans>
      )}
    </p>
  );
}
