// The review queues: what waits now in each queue (counts refreshed every 10 seconds), and the
// records of the chosen queue, oldest first as the server lists them; a row opens the record.
import { useState } from 'react';
import { Link } from 'wouter';
import { Plural, Trans } from '@lingui/react/macro';
import { consoleCertifications, consoleQueues, consoleRecharges, consoleWithdrawals } from '../contract/console.ts';
import type { ResultOf } from '../contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatAmount, formatTime } from './format.ts';
import { inboxCount } from './inbox-count.ts';
import { ErrorLine, QUEUES_POLL_MS, Status, usePolling } from './parts.tsx';

type Queue = 'recharges' | 'withdrawals' | 'certifications';
type Rows =
  | { queue: 'recharges'; rows: ResultOf<typeof consoleRecharges> }
  | { queue: 'withdrawals'; rows: ResultOf<typeof consoleWithdrawals> }
  | { queue: 'certifications'; rows: ResultOf<typeof consoleCertifications> };
const QUEUE_KEY = 'coinvest.console.queue';

async function rowsOf(queue: Queue, waiting: boolean): Promise<Rows> {
  if (queue === 'recharges')
    return { queue, rows: await consoleApi(consoleRecharges, { status: waiting ? 'pending' : 'all' }) };
  if (queue === 'withdrawals')
    return { queue, rows: await consoleApi(consoleWithdrawals, { status: waiting ? 'review' : 'all' }) };
  return { queue, rows: await consoleApi(consoleCertifications, { status: waiting ? 'review' : 'all' }) };
}

export function QueuesPage() {
  const [queue, setQueue] = useState<Queue>(() => (sessionStorage.getItem(QUEUE_KEY) as Queue | null) ?? 'recharges');
  const [waiting, setWaiting] = useState(true);
  const [counts, setCounts] = useState<ResultOf<typeof consoleQueues> | null>(null);
  const [list, setList] = useState<Rows | null>(null);
  const [error, setError] = useState('');
  usePolling(async () => {
    try {
      const [queues, rows] = await Promise.all([consoleApi(consoleQueues), rowsOf(queue, waiting)]);
      setCounts(queues);
      inboxCount.waiting = queues.service;
      setList(rows);
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, QUEUES_POLL_MS);
  const choose = (next: Queue, nextWaiting = waiting) => {
    sessionStorage.setItem(QUEUE_KEY, next);
    setQueue(next);
    setWaiting(nextWaiting);
    setList(null);
    rowsOf(next, nextWaiting).then(setList, (failure: unknown) => setError(messageOf(failure)));
  };
  const tab = (name: Queue, label: React.ReactNode) => (
    <button
      type="button"
      role="tab"
      aria-selected={queue === name}
      className={queue === name ? 'active' : ''}
      onClick={() => choose(name)}
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
          <input type="checkbox" checked={!waiting} onChange={(event) => choose(queue, !event.target.checked)} />
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
      <ErrorLine error={error} />
      {list && list.queue === queue && <QueueTable list={list} />}
    </section>
  );
}

function QueueTable({ list }: { list: Rows }) {
  if (list.rows.length === 0)
    return (
      <p className="console-empty">
        <Trans>Nothing waits here.</Trans>
      </p>
    );
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <thead>
          <tr>
            <th>
              <Trans>Time</Trans>
            </th>
            <th>
              <Trans>Customer</Trans>
            </th>
            <th>{list.queue === 'certifications' ? <Trans>Level</Trans> : <Trans context="console">Order</Trans>}</th>
            <th className="number">{list.queue === 'certifications' ? <Trans>Name</Trans> : <Trans>Amount</Trans>}</th>
            <th>
              <Trans>Status</Trans>
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.queue === 'recharges' &&
            list.rows.map((row) => (
              <tr key={row.id}>
                <td>{formatTime(row.created_at)}</td>
                <td>{row.username}</td>
                <td>
                  {row.order_no} · {row.channel || row.kind}
                </td>
                <td className="number">{formatAmount(row.amount, row.currency)}</td>
                <td>
                  <Status value={row.status} />
                </td>
                <td>
                  <Link href={`/recharge/${row.id}`}>
                    <Trans context="console">Open</Trans>
                  </Link>
                </td>
              </tr>
            ))}
          {list.queue === 'withdrawals' &&
            list.rows.map((row) => (
              <tr key={row.id}>
                <td>{formatTime(row.created_at)}</td>
                <td>{row.username}</td>
                <td>
                  {row.order_no}
                  {row.approvals_needed > 1 && (
                    <span className="console-tag">
                      <Trans>
                        Four eyes {row.approvals.length}/{row.approvals_needed}
                      </Trans>
                    </span>
                  )}
                </td>
                <td className="number">{formatAmount(row.amount, row.asset)}</td>
                <td>
                  <Status value={row.status} />
                </td>
                <td>
                  <Link href={`/withdrawal/${row.id}`}>
                    <Trans context="console">Open</Trans>
                  </Link>
                </td>
              </tr>
            ))}
          {list.queue === 'certifications' &&
            list.rows.map((row) => (
              <tr key={row.id}>
                <td>{formatTime(row.created_at)}</td>
                <td>{row.username}</td>
                <td>{row.level}</td>
                <td className="number">{row.name}</td>
                <td>
                  <Status value={row.status} />
                </td>
                <td>
                  <Link href={`/certification/${row.id}`}>
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
