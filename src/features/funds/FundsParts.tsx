// Pieces the money screens share: status badges, the copy button, detail rows, the chip filter,
// a paged list with its empty, failed and "Load more" states.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { RechargeStatus, WithdrawStatus } from '../../contract/funds.ts';
import { texts } from '../../contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { useSubmit } from '../../lib/form.ts';
import { copyText } from '../../lib/clipboard.ts';
import { CopyIcon, RecordIcon } from '../../ui/icons.tsx';
export { RecordIcon } from '../../ui/icons.tsx';
import { Button } from '../../ui/forms.tsx';
import { Empty } from '../../ui/lists.tsx';
import { hasMore } from '../../lib/paged-list.ts';
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

type Tone = 'wait' | 'good' | 'bad';

export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`funds-status ${tone}`}>{children}</span>;
}

const RECHARGE_TONE: Record<RechargeStatus, Tone> = { pending: 'wait', success: 'good', rejected: 'bad' };
export function RechargeStatusBadge({ status }: { status: RechargeStatus }) {
  return (
    <StatusBadge tone={RECHARGE_TONE[status]}>
      {status === 'pending' ? <Trans>Pending review</Trans> : status === 'success' ? <Trans>Credited</Trans> : <Trans>Rejected</Trans>}
    </StatusBadge>
  );
}

const WITHDRAW_TONE: Record<WithdrawStatus, Tone> = { review: 'wait', success: 'good', fail: 'bad' };
export function WithdrawStatusBadge({ status }: { status: WithdrawStatus }) {
  return (
    <StatusBadge tone={WITHDRAW_TONE[status]}>
      {status === 'review' ? <Trans>In review</Trans> : status === 'success' ? <Trans>Paid out</Trans> : <Trans>Failed</Trans>}
    </StatusBadge>
  );
}

export function CopyButton({ text, label }: { text: string; label?: ReactNode }) {
  const { t } = useLingui();
  return (
    <button type="button" className="funds-copy" onClick={() => void copyText(text)} aria-label={label ? undefined : t`Copy`}>
      <CopyIcon />
      {label ?? <Trans>Copy</Trans>}
    </button>
  );
}

/** The nav bar's corner link to a record page. */
export function RecordLink({ to, label }: { to: string; label: string }) {
  return (
    <Link href={to} className="icon-button" aria-label={label} title={label}>
      <RecordIcon />
    </Link>
  );
}

/** A label and its value on one line of a details card; nothing when the value is empty. */
export function Row({ label, children, copy }: { label: ReactNode; children: ReactNode; copy?: string }) {
  if (children === null || children === undefined || children === '' || children === false) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {children}
        {copy && <CopyButton text={copy} />}
      </dd>
    </div>
  );
}

/** A number, a code or an address kept left to right inside any text direction. */
export const Ltr = ({ children, className }: { children: ReactNode; className?: string }) => (
  <span dir="ltr" className={className}>
    {children}
  </span>
);

interface ChipsProps<T extends string> {
  value: T;
  options: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
  label: string;
}

/** Filters in a row that scrolls sideways when they do not fit. */
export function FilterChips<T extends string>({ value, options, onChange, label }: ChipsProps<T>) {
  return (
    <div className="funds-chips" role="group" aria-label={label}>
      {options.map((option) => (
        <button key={option.value} type="button" aria-pressed={option.value === value} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}

interface ListViewProps {
  list: { readonly lists: readonly unknown[]; readonly total: number; readonly loaded: boolean; readonly failure: string | null };
  empty: ReactNode;
  retry: () => void;
  more: () => Promise<void>;
  children: ReactNode;
}

/** A paged list: nothing while the first page loads, the failure with a retry, empty, or the rows and "Load more". */
export function ListView({ list, empty, retry, more, children }: ListViewProps) {
  const loadMore = useSubmit(more);
  const retryButton = (
    <Button size="small" variant="secondary" onClick={retry}>
      <Trans>Try again</Trans>
    </Button>
  );
  if (!list.loaded) return list.failure ? <Empty action={retryButton}>{list.failure}</Empty> : null;
  if (list.lists.length === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      {list.failure && (
        <p className="funds-failure" role="status">
          <span>{list.failure}</span>
          <button type="button" className="link-button" onClick={retry}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      <ul className="card flush funds-list">{children}</ul>
      {hasMore(list) && (
        <div className="funds-more">
          <Button variant="secondary" size="small" onClick={() => void loadMore.submit()} disabled={loadMore.busy}>
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
    </>
  );
}
