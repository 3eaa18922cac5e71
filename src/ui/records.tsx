// Pieces every record and details screen shares (money, contracts, earn): status badges, the copy
// button, the record link of a nav bar, detail rows, filter chips, and a paged list with its empty,
// failed and "Load more" states.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSubmit } from '../lib/form.ts';
import { copyText } from '../lib/clipboard.ts';
import { hasMore } from '../lib/paged-list.ts';
import { CopyIcon, RecordIcon } from './icons.tsx';
import { Button } from './forms.tsx';
import { Empty } from './lists.tsx';
import './records.css';

export type Tone = 'wait' | 'good' | 'bad';

export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`status-badge ${tone}`}>{children}</span>;
}

export function CopyButton({ text, label }: { text: string; label?: ReactNode }) {
  const { t } = useLingui();
  return (
    <button type="button" className="copy-button" onClick={() => void copyText(text)} aria-label={label ? undefined : t`Copy`}>
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
    <div className="filter-chips" role="group" aria-label={label}>
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
        <p className="record-failure" role="status">
          <span>{list.failure}</span>
          <button type="button" className="link-button" onClick={retry}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      <ul className="card flush record-list">{children}</ul>
      {hasMore(list) && (
        <div className="record-more">
          <Button variant="secondary" size="small" onClick={() => void loadMore.submit()} disabled={loadMore.busy}>
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
    </>
  );
}
