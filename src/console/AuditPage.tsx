// The audit log (admin, read only): every operator action and ops command, newest first, filtered by
// operator, action, target and UTC days; before and after as the server recorded them.
import { useEffect, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { AUDIT_PAGE_SIZE, consoleAuditLog } from '../contract/console.ts';
import type { ResultOf } from '../contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatTime } from './format.ts';
import { ErrorLine } from './parts.tsx';

const EMPTY = { operator: '', action: '', target: '', from: '', to: '' };

export function AuditPage() {
  const { t } = useLingui();
  const [filter, setFilter] = useState(EMPTY);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<ResultOf<typeof consoleAuditLog> | null>(null);
  const [error, setError] = useState('');
  const load = async (wanted = filter, at = page) => {
    try {
      setResult(await consoleApi(consoleAuditLog, { ...wanted, page: String(at) }));
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  // The newest entries at the start; Search and the page buttons ask again.
  useEffect(() => {
    consoleApi(consoleAuditLog, { ...EMPTY, page: '1' }).then(setResult, (failure: unknown) =>
      setError(messageOf(failure)),
    );
  }, []);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    void load(filter, 1);
  };
  const field = (key: keyof typeof EMPTY, label: string, placeholder = label) => (
    <label>
      {label}
      <input
        value={filter[key]}
        placeholder={placeholder}
        onChange={(event) => setFilter({ ...filter, [key]: event.target.value })}
      />
    </label>
  );
  const pages = result ? Math.max(1, Math.ceil(result.total / AUDIT_PAGE_SIZE)) : 1;
  const go = (next: number) => {
    setPage(next);
    void load(filter, next);
  };
  return (
    <section>
      <h1>
        <Trans>Audit log</Trans>
      </h1>
      <form className="console-filters" onSubmit={search}>
        {field('operator', t`Operator`)}
        {field('action', t`Action`)}
        {field('target', t`Target`)}
        {field('from', t`From (UTC day)`, 'YYYY-MM-DD')}
        {field('to', t`To (UTC day)`, 'YYYY-MM-DD')}
        <button type="submit" className="primary">
          <Trans>Search</Trans>
        </button>
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
                    <Trans>Before</Trans>
                  </th>
                  <th>
                    <Trans>After</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {result.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>{formatTime(entry.at)}</td>
                    <td>{entry.operator}</td>
                    <td>{entry.address}</td>
                    <td>{entry.action}</td>
                    <td>{entry.target}</td>
                    <td>
                      <Json value={entry.before} />
                    </td>
                    <td>
                      <Json value={entry.after} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="console-actions">
            <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
              <Trans>Newer</Trans>
            </button>
            <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>
              <Trans>Older</Trans>
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="console-muted">—</span>;
  return <pre className="console-json">{JSON.stringify(value, null, 1)}</pre>;
}
