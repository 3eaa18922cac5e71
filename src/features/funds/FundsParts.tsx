// Pieces only the money screens share: the details-page loader and the recharge and withdrawal
// status badges (the generic record pieces live in ui/records.tsx).
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { RechargeStatus, WithdrawStatus } from '../../api-contract/funds.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { StatusBadge, type Tone } from '../../ui/records.tsx';
import { idFromQuery } from './funds-format.ts';
import './funds.css';

/**
 * The order a details page names by `?id=`, loaded (again) with `load` whenever the id changes;
 * `failure` is what to show when it cannot be (no id, not the user's, offline without a copy).
 */
export function useOrderFromQuery(load: (id: number) => Promise<void>): { id: number | null; failure: string | null } {
  const id = idFromQuery(useSearch());
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    setFailure(null);
    if (id === null) return setFailure(i18n._(texts.orderNotFound));
    load(id).catch((error) => setFailure(errorText(error)));
  }, [id, load]);
  return { id, failure };
}

const RECHARGE_TONE: Record<RechargeStatus, Tone> = { pending: 'wait', success: 'good', rejected: 'bad' };
export function RechargeStatusBadge({ status }: { status: RechargeStatus }) {
  return (
    <StatusBadge tone={RECHARGE_TONE[status]}>
      {status === 'pending' ? (
        <Trans>Pending review</Trans>
      ) : status === 'success' ? (
        <Trans>Credited</Trans>
      ) : (
        <Trans>Rejected</Trans>
      )}
    </StatusBadge>
  );
}

const WITHDRAW_TONE: Record<WithdrawStatus, Tone> = { review: 'wait', success: 'good', fail: 'bad' };
export function WithdrawStatusBadge({ status }: { status: WithdrawStatus }) {
  return (
    <StatusBadge tone={WITHDRAW_TONE[status]}>
      {status === 'review' ? (
        <Trans>In review</Trans>
      ) : status === 'success' ? (
        <Trans>Paid out</Trans>
      ) : (
        <Trans>Failed</Trans>
      )}
    </StatusBadge>
  );
}
