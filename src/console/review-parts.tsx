// What the three review pages share: the decision bar (approve, or reject with a reason in a
// dialog) shown while the record waits, and the line that says what was decided.
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { messageOf } from './api.ts';
import { ErrorLine, RejectDialog } from './parts.tsx';

export function BackToQueues() {
  return (
    <Link href="/queues" className="console-back">
      ← <Trans>Review queues</Trans>
    </Link>
  );
}

interface DecisionProps {
  /** The record still waits for a decision. */
  open: boolean;
  approveLabel?: ReactNode;
  /** Fields the approval takes (a payout hash, a remark). */
  children?: ReactNode;
  onApprove: () => Promise<void>;
  onReject: (reason: string) => Promise<void>;
}

export function Decision({ open, approveLabel, children, onApprove, onReject }: DecisionProps) {
  const { t } = useLingui();
  const [rejecting, setRejecting] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (!open) return null;
  const approve = async () => {
    setBusy(true);
    try {
      await onApprove();
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="console-decision">
      {children}
      <ErrorLine error={error} />
      <div className="console-actions">
        <button type="button" className="danger" onClick={() => setRejecting(true)} disabled={busy}>
          <Trans>Reject…</Trans>
        </button>
        <button type="button" className="primary" onClick={() => void approve()} disabled={busy}>
          {approveLabel ?? <Trans>Approve</Trans>}
        </button>
      </div>
      {rejecting && (
        <RejectDialog
          title={t`Reject with a reason`}
          onClose={() => setRejecting(false)}
          onReject={async (reason) => {
            await onReject(reason);
            setRejecting(false);
          }}
        />
      )}
    </div>
  );
}
