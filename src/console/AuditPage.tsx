// The audit log (admin, read only): every operator action and ops command, newest first, filtered by
// operator, action prefix, target and days of the operator's own calendar (sent as instants with the
// browser's offset); times in the operator's zone, the zone said; each change as the fields it changed.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { AUDIT_PAGE_SIZE, consoleAuditLog, type AuditChange } from '../api-contract/console.ts';
import { isCalendarDay } from '../api-contract/calendar.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatZonedTime, localDayStart, operatorZone } from './format.ts';
import { cursorOf, FIRST_PAGE, onePageBack, onePageOn, pageFigures, type CursorTrail } from './cursor-trail.ts';
import { ErrorLine } from './parts.tsx';
import './console-pages.css';

const EMPTY = { operator: '', action: '', target: '', from: '', to: '' };

/** The filter as the server takes it: the chosen days as the instants of their local midnights, `to` the day after's
 * (excluded). */
const asSent = (filter: typeof EMPTY) => ({
  ...filter,
  // A day not on the calendar is sent as typed, for the server's translated refusal: never rolled over to another day.
  from: filter.from && (isCalendarDay(filter.from) ? localDayStart(filter.from) : filter.from),
  to: filter.to && (isCalendarDay(filter.to) ? localDayStart(filter.to, 1) : filter.to),
});

export function AuditPage() {
  const { t } = useLingui();
  const [filter, setFilter] = useState(EMPTY);
  const [trail, setTrail] = useState<CursorTrail>(FIRST_PAGE);
  const [result, setResult] = useState<ResultOf<typeof consoleAuditLog> | null>(null);
  const [error, setError] = useState('');
  // Only the latest ask's answer is shown: the start's list answered after a search must not replace its result.
  const asked = useRef(0);
  const load = async (wanted = filter, at = trail) => {
    const ask = ++asked.current;
    try {
      const answer = await consoleApi(consoleAuditLog, { ...asSent(wanted), cursor: cursorOf(at) });
      if (ask !== asked.current) return;
      setResult(answer);
      setError('');
    } catch (failure) {
      if (ask === asked.current) setError(messageOf(failure));
    }
  };
  // The newest entries at the start; Search and the page buttons ask again.
  useEffect(() => {
    void load(EMPTY, FIRST_PAGE);
    // Once, at the start: later asks come from Search and the page buttons.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setTrail(FIRST_PAGE);
    void load(filter, FIRST_PAGE);
  };
  const field = (key: keyof typeof EMPTY, label: string, type = 'text') => (
    <label>
      {label}
      <input
        type={type}
        value={filter[key]}
        placeholder={label}
        onChange={(event) => setFilter({ ...filter, [key]: event.target.value })}
      />
    </label>
  );
  const zone = operatorZone();
  const { page, pages } = pageFigures(trail, result?.total ?? 0, AUDIT_PAGE_SIZE, Boolean(result?.next));
  const go = (next: CursorTrail) => {
    setTrail(next);
    void load(filter, next);
  };
  return (
    <section>
      <h1>
        <Trans>Audit log</Trans>
      </h1>
      <form className="console-filters" onSubmit={search}>
        {field('operator', t`Operator`)}
        {field('action', t`Action (or its start)`)}
        {field('target', t`Target`)}
        {field('from', t`First day`, 'date')}
        {field('to', t`Last day`, 'date')}
        <button type="submit" className="primary">
          <Trans>Search</Trans>
        </button>
        <p className="console-zone-note" data-testid="audit-zone">
          <Trans>Days and times in your zone: {zone}</Trans>
        </p>
      </form>
      <ErrorLine error={error} />
      {result && (
        <>
          <p className="console-muted">
            <Trans>
              Entries: {result.total} · page {page} of {pages}
            </Trans>
          </p>
          <div className="console-table-wrap">
            <table className="console-table console-audit">
              <thead>
                <tr>
                  <th>
                    <Trans>Time</Trans>
                  </th>
                  <th>
                    <Trans>Operator</Trans>
                  </th>
                  <th>
                    <Trans context="console">From</Trans>
                  </th>
                  <th>
                    <Trans>Action</Trans>
                  </th>
                  <th>
                    <Trans>Target</Trans>
                  </th>
                  <th>
                    <Trans context="audit">Change</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {result.lists.map((entry) => (
                  <tr key={entry.id}>
                    <td className="console-audit-time">{formatZonedTime(entry.at)}</td>
                    <td>{entry.operator}</td>
                    <td>{entry.address}</td>
                    <td>{entry.action}</td>
                    <td>{entry.target}</td>
                    <td>
                      <Changes changes={entry.changes} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="console-actions">
            <button type="button" disabled={page <= 1} onClick={() => go(onePageBack(trail))}>
              <Trans>Newer</Trans>
            </button>
            <button
              type="button"
              disabled={!result.next}
              onClick={() => result.next && go(onePageOn(trail, result.next))}
            >
              <Trans>Older</Trans>
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** Field by field: "status "review" → "fail"", a field added or removed said so. */
function Changes({ changes }: { changes: AuditChange[] }) {
  if (changes.length === 0)
    return (
      <span className="console-empty">
        <Trans>No field changed.</Trans>
      </span>
    );
  return (
    <ul className="console-diff">
      {changes.map((change) => (
        <li key={change.path}>
          <code className="console-diff-path">{change.path || '—'}</code>{' '}
          {change.before === null ? (
            <>
              <ins>{change.after}</ins>{' '}
              <span className="console-diff-note">
                <Trans>(added)</Trans>
              </span>
            </>
          ) : change.after === null ? (
            <>
              <del>{change.before}</del>{' '}
              <span className="console-diff-note">
                <Trans>(removed)</Trans>
              </span>
            </>
          ) : (
            <>
              <del>{change.before}</del> → <ins>{change.after}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
