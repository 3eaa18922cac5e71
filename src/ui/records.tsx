// Pieces every record and details screen shares (money, contracts, earn): status badges, the copy
// button, the record link of a nav bar, detail rows, filter chips, a paged list with its empty,
// failed and "Load more" states, and a record filtered by one choice.
import { Fragment, useCallback, useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSubmit } from '../lib/form.ts';
import { useRefreshOnReturn } from '../lib/on-return.ts';
import { copyText } from '../lib/clipboard.ts';
import { hasMore, type CursorList, type PagedList } from '../lib/paged-list.ts';
import { CopyIcon, RecordIcon } from './icons.tsx';
import { Button, Segmented } from './forms.tsx';
import { Empty, useRetryWhenBackOnline } from './lists.tsx';
import './records.css';

export type Tone = 'wait' | 'good' | 'bad';

export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`status-badge ${tone}`}>{children}</span>;
}

export function CopyButton({ text, label }: { text: string; label?: ReactNode }) {
  const { t } = useLingui();
  return (
    <button
      type="button"
      className="copy-button"
      onClick={() => void copyText(text)}
      aria-label={label ? undefined : t`Copy`}
    >
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
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

interface ListViewProps {
  list: Parameters<typeof hasMore>[0] & {
    readonly loaded: boolean;
    readonly failure: string | null;
  };
  empty: ReactNode;
  retry: () => void;
  more: () => Promise<void>;
  children: ReactNode;
}

/** A paged list: nothing while the first page loads, the failure with a retry, empty, or the rows and "Load more". */
export function ListView({ list, empty, retry, more, children }: ListViewProps) {
  const loadMore = useSubmit(more);
  useRetryWhenBackOnline(retry, list.failure !== null);
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

/** A store of lists by filter: lib/paged-list.ts cursorLists (or account details' own, features/funds). */
interface RecordLists<T, F extends string> {
  readonly state: { readonly filter: F; readonly lists: Readonly<Record<F, CursorList<T> | PagedList<T>>> };
  load: (filter: F, options?: { more?: boolean }) => Promise<void>;
  choose: (filter: F) => Promise<void>;
}

interface FilteredRecordsProps<T extends { id: number }, F extends string> {
  store: RecordLists<T, F>;
  filters: readonly { value: F; label: ReactNode }[];
  /** Chips scroll sideways (many or long filters); segments share the width (a few short ones). */
  look: { chips: string } | 'segments';
  empty: ReactNode;
  /** One item's row; `shown` is every item the list shows (a row lines its amounts up with theirs). */
  row: (item: Readonly<T>, shown: readonly Readonly<T>[]) => ReactNode;
}

/**
 * A record page's list: the filter, then the chosen filter's pages. The head loads on opening and on coming back to the
 * app; a failed load shows in the list itself with a retry, so it is not reported again.
 */
export function FilteredRecords<T extends { id: number }, F extends string>({
  store,
  filters,
  look,
  empty,
  row,
}: FilteredRecordsProps<T, F>) {
  const { filter, lists } = useSnapshot(store.state);
  const list = (lists as Readonly<Record<F, Readonly<CursorList<T> | PagedList<T>>>>)[filter as F];
  const reload = (chosen: F) => void store.load(chosen).catch(() => undefined);
  const choose = (next: F) => void store.choose(next).catch(() => undefined);

  // The first page of the chosen filter, once per store (a filter chosen later loads through choose).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reload is made anew each render
  useEffect(() => reload(store.state.filter), [store]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reload is made anew each render
  useRefreshOnReturn(useCallback(() => reload(store.state.filter), [store]));

  return (
    <>
      {look === 'segments' ? (
        <Segmented value={filter as F} onChange={choose} options={filters} />
      ) : (
        <FilterChips label={look.chips} value={filter as F} onChange={choose} options={filters} />
      )}
      <ListView
        list={list}
        empty={empty}
        retry={() => reload(filter as F)}
        more={() => store.load(filter as F, { more: true })}
      >
        {list.lists.map((item) => (
          <Fragment key={item.id}>{row(item, list.lists)}</Fragment>
        ))}
      </ListView>
    </>
  );
}
