// The review queues: what waits now in each queue (counts refreshed every 10 seconds), and a page of
// the chosen queue, oldest first, each item with how long it has waited (late past its kind's target:
// a tinted row and the word, not the colour alone), who is reviewing it, searched by order number or
// customer on the server; a row opens the record (which claims it).
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { consoleQueues } from '../api-contract/console.ts';
import {
  consoleQueue,
  QUEUE_PAGE_SIZE,
  QUEUE_TARGET_MINUTES,
  type QueueItem,
  type ReviewKind,
} from '../api-contract/console-queues.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatAmount, formatTime, formatWait } from './format.ts';
import { inboxCount } from './inbox-count.ts';
import { cursorOf, FIRST_PAGE, onePageBack, onePageOn, pageFigures, type CursorTrail } from './cursor-trail.ts';
import { ErrorLine, QUEUES_POLL_MS, Status, usePolling } from './parts.tsx';
import { ClosedTag } from './closed-account-parts.tsx';

type Queue = 'recharges' | 'withdrawals' | 'certifications';
const KIND: Record<Queue, ReviewKind> = {
  recharges: 'recharge',
  withdrawals: 'withdrawal',
  certifications: 'certification',
};
type Page = ResultOf<typeof consoleQueue> & { queue: Queue };
const QUEUE_KEY = 'coinvest.console.queue';

interface Asked {
  queue: Queue;
  waiting: boolean;
  query: string;
  trail: CursorTrail;
}
async function pageOf({ queue, waiting, query, trail }: Asked): Promise<Page> {
  const status = waiting ? 'waiting' : 'all';
  return { queue, ...(await consoleApi(consoleQueue, { kind: KIND[queue], status, query, cursor: cursorOf(trail) })) };
}

export function QueuesPage() {
  const { t } = useLingui();
  const [asked, setAsked] = useState<Asked>(() => ({
    queue: (sessionStorage.getItem(QUEUE_KEY) as Queue | null) ?? 'recharges',
    waiting: true,
    query: '',
    trail: FIRST_PAGE,
  }));
  const [typed, setTyped] = useState('');
  const [counts, setCounts] = useState<ResultOf<typeof consoleQueues> | null>(null);
  const [list, setList] = useState<Page | null>(null);
  const [error, setError] = useState('');
  const { queue, waiting } = asked;
  usePolling(async () => {
    try {
      const [queues, rows] = await Promise.all([consoleApi(consoleQueues), pageOf(asked)]);
      setCounts(queues);
      inboxCount.waiting = queues.service;
      setList(rows);
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, QUEUES_POLL_MS);
  const ask = (next: Partial<Asked>) => {
    const wanted = { ...asked, trail: FIRST_PAGE, ...next };
    sessionStorage.setItem(QUEUE_KEY, wanted.queue);
    setAsked(wanted);
    if (wanted.queue !== asked.queue) setList(null);
    pageOf(wanted).then(
      (rows) => {
        setList(rows);
        setError('');
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    ask({ query: typed.trim() });
  };
  const tab = (name: Queue, label: React.ReactNode) => (
    <button
      type="button"
      role="tab"
      aria-selected={queue === name}
      className={queue === name ? 'active' : ''}
      onClick={() => ask({ queue: name })}
    >
      {label} <span className="console-count">{counts ? counts[name] : '…'}</span>
    </button>
  );
  return (
    <section>
      <div className="console-page-head">
        <h1>
          <Trans>Review queues</Trans>
        </h1>
        <label className="console-inline">
          <input type="checkbox" checked={!waiting} onChange={(event) => ask({ waiting: !event.target.checked })} />
          <Trans>Show reviewed too</Trans>
        </label>
      </div>
      {counts && counts.service > 0 && (
        <p className="console-notice console-service-waiting">
          <Plural
            value={counts.service}
            one="# customer conversation waits for an answer."
            other="# customer conversations wait for an answer."
          />{' '}
          <Link href="/inbox">
            <Trans>Open the inbox →</Trans>
          </Link>
        </p>
      )}
      <div className="console-tabs" role="tablist">
        {tab('recharges', <Trans>Recharges</Trans>)}
        {tab('withdrawals', <Trans>Withdrawals</Trans>)}
        {tab('certifications', <Trans>Certifications</Trans>)}
      </div>
      <form className="console-search console-queue-search" role="search" onSubmit={search}>
        <input
          type="search"
          aria-label={t`Order number, username, mobile number or e-mail`}
          placeholder={t`Order number, username, mobile number or e-mail`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          maxLength={254}
        />
        <button type="submit" className="primary">
          <Trans>Search</Trans>
        </button>
        {asked.query && (
          <button
            type="button"
            onClick={() => {
              setTyped('');
              ask({ query: '' });
            }}
          >
            <Trans>Show all</Trans>
          </button>
        )}
      </form>
      <QueueLegend />
      <ErrorLine error={error} />
      {list && list.queue === queue && (
        <>
          <QueueTable list={list} />
          <QueuePager list={list} trail={asked.trail} go={(trail) => ask({ trail })} />
        </>
      )}
    </section>
  );
}

/** Where the operator is in the queue, and the buttons to walk it: shown once the queue fills more than a page. */
function QueuePager({ list, trail, go }: { list: Page; trail: CursorTrail; go: (trail: CursorTrail) => void }) {
  const { next } = list;
  const { page, pages } = pageFigures(trail, list.total, QUEUE_PAGE_SIZE, next !== null);
  if (pages <= 1) return null;
  return (
    <div className="console-actions console-pager">
      <span className="console-muted">
        <Trans>
          Items: {list.total} · page {page} of {pages}
        </Trans>
      </span>
      <button type="button" disabled={page <= 1} onClick={() => go(onePageBack(trail))}>
        <Trans>Previous page</Trans>
      </button>
      <button type="button" disabled={next === null} onClick={() => next !== null && go(onePageOn(trail, next))}>
        <Trans>Next page</Trans>
      </button>
    </div>
  );
}

/** What the marks mean, in words: colour is never the only sign. */
function QueueLegend() {
  const minutes = (kind: ReviewKind) => formatWait(QUEUE_TARGET_MINUTES[kind] * 60);
  const [recharge, withdrawal, certification] = [minutes('recharge'), minutes('withdrawal'), minutes('certification')];
  return (
    <p className="console-legend console-muted" data-testid="queue-legend">
      <span className="console-late-tag">
        <span aria-hidden="true">⚠ </span>
        <Trans>Late</Trans>
      </span>{' '}
      <Trans>
        waited longer than the target (recharges {recharge}, withdrawals {withdrawal}, certifications {certification})
      </Trans>
      <span aria-hidden="true"> · </span>
      <span className="console-claim-tag">
        <PersonMark />
        <Trans>Being reviewed by …</Trans>
      </span>{' '}
      <Trans>another operator has it open</Trans>
    </p>
  );
}

/** A person's outline: the claim mark (drawn, so it shows without an emoji font). */
function PersonMark() {
  return (
    <svg className="console-person-mark" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <circle cx="8" cy="5" r="3" fill="currentColor" />
      <path d="M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5z" fill="currentColor" />
    </svg>
  );
}

function Waited({ item }: { item: Page['lists'][number] }) {
  if (item.waiting_seconds === null) return <>{formatTime(item.created_at)}</>;
  return (
    <>
      <span title={formatTime(item.created_at)}>{formatWait(item.waiting_seconds)}</span>
      {item.late && (
        <span className="console-late-tag">
          <span aria-hidden="true">⚠ </span>
          <Trans>Late</Trans>
        </span>
      )}
    </>
  );
}

/** The decimals every amount of `unit` on the page is written with, so they line up (the app's sharedMoneyDecimals). */
function unitDecimals(items: Page['lists'], unit: string): number {
  return sharedMoneyDecimals(
    items.flatMap((item) => (item.unit === unit && item.amount !== null ? [item.amount] : [])),
  );
}

function QueueTable({ list }: { list: Page }) {
  if (list.lists.length === 0)
    return (
      <p className="console-empty">
        <Trans>Nothing waits here.</Trans>
      </p>
    );
  const kind = KIND[list.queue];
  return (
    <div className="console-table-wrap">
      <table className="console-table console-queue">
        <thead>
          <tr>
            <th>
              <Trans>Waiting</Trans>
            </th>
            <th>
              <Trans>Customer</Trans>
            </th>
            <th>{kind === 'certification' ? <Trans>Level</Trans> : <Trans context="console">Order</Trans>}</th>
            <th className="number">{kind === 'certification' ? null : <Trans>Amount</Trans>}</th>
            <th>
              <Trans>Status</Trans>
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.lists.map((item) => (
            <tr
              key={item.id}
              className={[item.late ? 'console-row-late' : '', item.claimed_by ? 'console-row-claimed' : ''].join(' ')}
              data-testid={`queue-item-${item.id}`}
            >
              <td>
                <Waited item={item} />
              </td>
              <td>
                <bdi>{item.username}</bdi>
                {item.closed && <ClosedTag />}
              </td>
              <td>
                {[item.order_no, item.detail].filter(Boolean).join(' · ')}
                {item.approvals_needed > 1 && <FourEyesTag item={item} />}
              </td>
              <td className="number">
                {item.amount === null ? '' : formatAmount(item.amount, item.unit, unitDecimals(list.lists, item.unit))}
              </td>
              <td>
                {item.claimed_by ? (
                  <span className="console-claim-tag">
                    <PersonMark />
                    <Trans>Being reviewed by {item.claimed_by}</Trans>
                  </span>
                ) : (
                  <Status value={item.status} />
                )}
              </td>
              <td>
                <Link href={`/${kind}/${item.id}`}>
                  <Trans context="console">Open</Trans>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Four eyes on a queue row that needs two approvals: how many it has, and who gave them (operator names are
 * lower-case Latin letters, digits and . _ -: nothing a message reads as a tag). */
function FourEyesTag({ item }: { item: Pick<QueueItem, 'approvals' | 'approvals_needed'> }) {
  const count = item.approvals.length;
  const needed = item.approvals_needed;
  const names = item.approvals.join(', ');
  return (
    <span className="console-tag">
      {count === 0 ? (
        <Trans>
          Four eyes {count}/{needed}
        </Trans>
      ) : (
        <Trans>
          Four eyes {count}/{needed}, approved by {names}
        </Trans>
      )}
    </span>
  );
}
