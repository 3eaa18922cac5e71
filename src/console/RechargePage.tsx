// A recharge under review: the order, the transfer's receipt picture (a bank or QR recharge) or its
// hash (crypto), and the decision: approve credits it (a crypto one with the block height the customer then reads,
// typed in any script's digits), reject returns the reason to the customer. Four eyes, as on a withdrawal: above the
// configured amount it needs the approvals of two different reviewers; the first is recorded and the recharge keeps
// waiting. Below, the customer's history as the withdrawal page shows it (customer-history.tsx).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleApproveRecharge,
  consoleCustomerHistory,
  consoleRecharge,
  consoleRejectRecharge,
  REMARK_MAX,
} from '../api-contract/console.ts';
import { consoleApi } from './api.ts';
import { decimalsPerAsset, formatAmount, formatTime } from './format.ts';
import { ErrorLine, Facts, PrivatePicture, Status, useLoad, usePaymentKindName } from './parts.tsx';
import { BackToQueues, Decision, FourEyes, useReviewFlow } from './review-parts.tsx';
import { CustomerHistoryPanel, CustomerLink } from './customer-history.tsx';

export function RechargePage({ id }: { id: string }) {
  const { t } = useLingui();
  const paymentKindName = usePaymentKindName();
  const [recharge, error, reload] = useLoad(() => consoleApi(consoleRecharge, { id }), id);
  const [remark, setRemark] = useState('');
  const [blockHeight, setBlockHeight] = useState('');
  // Four eyes: once this reviewer approved, the record waits for another one (no claim, no approve button).
  const flow = useReviewFlow('recharge', id, recharge?.status === 'pending' && !recharge.approved_by_you, reload);
  // The first of two approvals credits nothing, so it takes no block height or remark (the server refuses them).
  const firstOfTwo = recharge ? recharge.approvals_needed > 1 && recharge.approvals.length === 0 : false;
  // The customer's history, asked again once the decision changed this recharge's line in it.
  const [history] = useLoad(
    async () => (recharge ? consoleApi(consoleCustomerHistory, { id: String(recharge.user_id) }) : null),
    recharge ? `${recharge.user_id}:${recharge.status}` : '',
  );
  // What was sent and what it credited: in one asset (a crypto recharge), one number of decimals.
  const decimals = decimalsPerAsset(
    recharge
      ? [
          [recharge.currency, recharge.amount],
          [recharge.asset, recharge.actual_amount],
        ]
      : [],
  );
  return (
    <section>
      <BackToQueues />
      <ErrorLine error={error} />
      {flow.banner}
      {recharge && (
        <>
          <div className="console-page-head">
            <h1>
              <Trans>Recharge {recharge.order_no}</Trans>
            </h1>
            <Status value={recharge.status} />
          </div>
          <div className="console-columns">
            <Facts
              rows={[
                [t`Customer`, <CustomerLink key="customer" of={recharge} />],
                [t`Amount`, formatAmount(recharge.amount, recharge.currency, decimals(recharge.currency))],
                [t`Credited as`, formatAmount(recharge.actual_amount, recharge.asset, decimals(recharge.asset))],
                [t`Channel`, `${paymentKindName(recharge.kind)} · ${recharge.channel}`],
                // The transfer must have gone here: on a channel with a key, the customer's own address.
                [
                  recharge.kind === 'crypto' ? t`Paid to (deposit address)` : t`Paid to (account number)`,
                  <bdi key="address" dir="ltr">
                    {recharge.address}
                  </bdi>,
                ],
                [t`Transaction hash`, recharge.hash ?? ''],
                [t`Block height`, recharge.block_height],
                [t`Submitted`, formatTime(recharge.created_at)],
                [t`Reviewed`, formatTime(recharge.reviewed_at)],
                [t`Reason`, recharge.reason],
                [t`Remark`, recharge.remark],
              ]}
            />
            <figure className="console-figure">
              <figcaption>
                <Trans>Receipt</Trans>
              </figcaption>
              {recharge.receipt ? (
                <PrivatePicture id={recharge.receipt} alt={t`Receipt of ${recharge.order_no}`} />
              ) : (
                <p className="console-empty">
                  <Trans>A crypto recharge has no receipt: check the hash.</Trans>
                </p>
              )}
            </figure>
          </div>
          <FourEyes approved={recharge.approved} needed={recharge.approvals_needed} />
          <Decision
            onRefused={reload}
            open={recharge.status === 'pending'}
            approveLabel={firstOfTwo ? <Trans>Approve (first of two)</Trans> : <Trans>Approve and credit</Trans>}
            approveBlocked={
              recharge.approved_by_you && (
                <Trans>
                  Approved by you ({recharge.approvals.length} of {recharge.approvals_needed}) — waiting for a second
                  operator
                </Trans>
              )
            }
            onApprove={async () => {
              // The height as typed, in the digits of any script: the API contract's approval rule reads it.
              const block_height = recharge.kind === 'crypto' && !firstOfTwo ? blockHeight : '';
              const answer = await consoleApi(consoleApproveRecharge, {
                id,
                block_height,
                remark: firstOfTwo ? '' : remark,
              });
              await flow.decided(
                answer.status === 'pending'
                  ? t`Recharge ${recharge.order_no}: your approval is recorded, a second operator must approve.`
                  : t`Recharge ${recharge.order_no} approved.`,
              );
            }}
            onReject={async (reason) => {
              await consoleApi(consoleRejectRecharge, { id, reason });
              await flow.decided(t`Recharge ${recharge.order_no} rejected.`);
            }}
          >
            {recharge.kind === 'crypto' && !firstOfTwo && (
              <label>
                <Trans>Block height (optional)</Trans>
                <input
                  value={blockHeight}
                  onChange={(event) => setBlockHeight(event.target.value)}
                  inputMode="numeric"
                  autoComplete="off"
                />
              </label>
            )}
            {!firstOfTwo && (
              <label>
                <Trans>Remark (optional)</Trans>
                <input value={remark} onChange={(event) => setRemark(event.target.value)} maxLength={REMARK_MAX} />
              </label>
            )}
          </Decision>
          {history && (
            <section className="console-below" aria-label={t`The customer's history`}>
              <CustomerHistoryPanel history={history} />
            </section>
          )}
        </>
      )}
    </section>
  );
}
