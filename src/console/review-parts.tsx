// What the three review pages share: the decision bar (approve, or reject with a reason in a
// dialog) shown while the record waits, and the line that says what was decided; the claim on the
// record ("being reviewed by …") held while the page is open, and the next item after a decision.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CLAIM_RENEW_SECONDS,
  consoleClaimItem,
  consoleClaimNext,
  consoleReleaseItem,
  type ReviewClaim,
  type ReviewKind,
} from '../api-contract/console-queues.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatTime } from './format.ts';
import { ErrorLine, RejectDialog, usePolling } from './parts.tsx';

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
  /** Shown instead of the approve button when this operator cannot approve (four eyes: approved already). */
  approveBlocked?: ReactNode;
  /** Fields the approval takes (a payout hash, a remark). */
  children?: ReactNode;
  onApprove: () => Promise<void>;
  onReject: (reason: string) => Promise<void>;
  /** Reads the record again after a refused decision: another reviewer may have decided it meanwhile. */
  onRefused: () => Promise<void>;
}

/**
 * The decision bar while the record waits. A refused decision reads the record again (`onRefused`): decided by
 * someone else meanwhile, the page shows its decided state, the bar goes, and the refusal stays in its place.
 */
export function Decision({
  open,
  approveLabel,
  approveBlocked,
  children,
  onApprove,
  onReject,
  onRefused,
}: DecisionProps) {
  const { t } = useLingui();
  const [rejecting, setRejecting] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  if (!open) return error ? <ErrorLine error={error} /> : null;
  const approve = async () => {
    // Set in the click's own task: a second click before the re-render (busy) approves nothing twice.
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await onApprove();
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
      await onRefused();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <div className="console-decision">
      {!approveBlocked && children}
      <ErrorLine error={error} />
      <div className="console-actions">
        <button type="button" className="danger" onClick={() => setRejecting(true)} disabled={busy}>
          <Trans>Reject…</Trans>
        </button>
        {approveBlocked ? (
          <p className="console-approve-blocked" data-testid="approve-blocked">
            {approveBlocked}
          </p>
        ) : (
          <button type="button" className="primary" onClick={() => void approve()} disabled={busy}>
            {approveLabel ?? <Trans>Approve</Trans>}
          </button>
        )}
      </div>
      {rejecting && (
        <RejectDialog
          title={t`Reject with a reason`}
          onClose={() => setRejecting(false)}
          onReject={async (reason) => {
            try {
              await onReject(reason);
            } catch (failure) {
              // The dialog says it while the record still waits; the bar says it once the record shows decided.
              setError(messageOf(failure));
              await onRefused();
              throw failure;
            }
            setError('');
            setRejecting(false);
          }}
        />
      )}
    </div>
  );
}

/** What a decision said, shown once on the page the reviewer lands on next. */
let decidedNotice = '';

interface ReviewFlow {
  /** The claim warning or note and what was just decided: placed once, under the page's head. */
  banner: ReactNode;
  /**
   * After a decision (`done`: what to say about it): goes to the next oldest item of the queue nobody else holds
   * (claimed for this operator), or stays with `reload` and says the queue is done.
   */
  decided: (done: string) => Promise<void>;
}

/**
 * The record's claim while its page is open: taken when it waits, renewed every CLAIM_RENEW_SECONDS while the reviewer
 * is at the console (the polling rule), given up when the page is left without a decision. Another operator's claim
 * is shown, never taken silently: "Take over" asks the server to (audited).
 */
export function useReviewFlow(kind: ReviewKind, id: string, waiting: boolean, reload: () => Promise<void>): ReviewFlow {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [claim, setClaim] = useState<ReviewClaim | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState(() => {
    const shown = decidedNotice;
    decidedNotice = '';
    return shown;
  });
  const held = useRef(false);
  const ask = async (takeOver = false) => {
    try {
      const answer = await consoleApi(consoleClaimItem, { kind, id, take_over: takeOver ? '1' : '' });
      held.current = answer.mine;
      setClaim(answer);
      setError('');
    } catch (failure) {
      // Decided by someone else meanwhile (the server says so): the record as it is now.
      setError(messageOf(failure));
      await reload();
    }
  };
  const latest = useRef({ waiting, ask });
  latest.current = { waiting, ask };
  useEffect(() => {
    if (waiting) void latest.current.ask();
    else setClaim(null);
  }, [waiting]);
  usePolling(async () => {
    if (latest.current.waiting) await latest.current.ask();
  }, CLAIM_RENEW_SECONDS * 1000);
  useEffect(
    () => () => {
      if (held.current) void consoleApi(consoleReleaseItem, { kind, id }).catch(() => undefined);
    },
    [kind, id],
  );
  const decided = async (done: string) => {
    held.current = false;
    const next = await consoleApi(consoleClaimNext, { kind }).catch(() => null);
    if (next) {
      decidedNotice = done;
      navigate(`/${kind}/${next.id}`);
      return;
    }
    setNotice(`${done} ${t`Nothing else in this queue is free to review.`}`);
    await reload();
  };
  const other = claim && claim.holder && !claim.mine ? claim : null;
  const banner = (
    <>
      {notice && (
        <p className="console-notice console-decided" role="status">
          {notice}
        </p>
      )}
      <ErrorLine error={error} />
      {other && (
        <div className="console-claim-warning" role="alert" data-testid="claim-warning">
          <span>
            <span aria-hidden="true">⚠ </span>
            <Trans>
              Being reviewed by {other.holder} since {formatTime(other.claimed_at)}. Two reviewers on one item double
              the work: take it over only when {other.holder} has left it.
            </Trans>{' '}
          </span>
          <button type="button" onClick={() => void ask(true)}>
            <Trans>Take over from {other.holder}</Trans>
          </button>
        </div>
      )}
      {/* While the claim is asked, its line keeps its place unseen: the line arriving would move the decision's buttons
      down under a reviewer's pointer. */}
      {(claim?.mine || (waiting && !claim)) && (
        <p
          className={claim ? 'console-muted console-claim-mine' : 'console-muted console-claim-mine console-unseen'}
          data-testid={claim ? 'claim-mine' : undefined}
          aria-hidden={claim ? undefined : true}
        >
          <Trans>You are reviewing this item: other reviewers see it as yours while this page is open.</Trans>
        </p>
      )}
    </>
  );
  return { banner, decided };
}

/**
 * Four eyes on a withdrawal or recharge that needs two approvals: how many it has, and who gave each and when (on a
 * withdrawal, a hold by the customer's freeze leaves them standing, so they show beside it). Nothing for one that
 * needs one approval.
 */
export function FourEyes({
  approved,
  needed,
}: {
  approved: readonly { operator: string; at: string }[];
  needed: number;
}) {
  if (needed < 2) return null;
  const [first, second] = approved;
  const count = approved.length;
  // Operator names are lower-case Latin letters, digits and . _ - (OPERATOR_NAME): no text a message reads as a tag.
  const firstBy = first?.operator;
  const firstAt = first ? formatTime(first.at) : '';
  const secondBy = second?.operator;
  const secondAt = second ? formatTime(second.at) : '';
  return (
    <p className="console-four-eyes" data-testid="four-eyes">
      {!first ? (
        <Trans>Four eyes: this amount needs the approvals of two different reviewers. None yet.</Trans>
      ) : !second ? (
        <Trans>
          Four eyes ({count} of {needed}): approved by {firstBy} on {firstAt}.
        </Trans>
      ) : (
        <Trans>
          Four eyes ({count} of {needed}): approved by {firstBy} on {firstAt} and by {secondBy} on {secondAt}.
        </Trans>
      )}
    </p>
  );
}
