// The admin's operators: the list, a new operator (its first password and the authenticator's
// enrolment shown this once, as a QR code and as the otpauth:// text), and disabling one.
import { useState, type FormEvent } from 'react';
import { renderSVG } from 'uqr';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleAddOperator,
  consoleDisableOperator,
  consoleOperators,
  OPERATOR_ROLES,
  type OperatorRole,
} from '../api-contract/console.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatTime } from './format.ts';
import { ErrorLine, RoleName, useLoad, useRoleNames } from './parts.tsx';

export function OperatorsPage() {
  const { t } = useLingui();
  const roleNames = useRoleNames();
  const [operators, loadError, reload] = useLoad(() => consoleApi(consoleOperators), 'operators');
  const [form, setForm] = useState({ name: '', role: 'reviewer' as OperatorRole });
  const [added, setAdded] = useState<ResultOf<typeof consoleAddOperator> | null>(null);
  const [error, setError] = useState('');
  const add = async (event: FormEvent) => {
    event.preventDefault();
    try {
      setAdded(await consoleApi(consoleAddOperator, { name: form.name.trim(), role: form.role }));
      setForm({ ...form, name: '' });
      setError('');
      await reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  const disable = async (name: string) => {
    if (!confirm(t`Disable ${name}? Their sessions end at once.`)) return;
    try {
      await consoleApi(consoleDisableOperator, { name });
      setError('');
      await reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <section>
      <h1>
        <Trans>Operators</Trans>
      </h1>
      <ErrorLine error={loadError || error} />
      <form className="console-search" onSubmit={(event) => void add(event)}>
        <input
          aria-label={t`New operator's name`}
          placeholder={t`New operator's name`}
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
        />
        <select
          aria-label={t`Role`}
          value={form.role}
          onChange={(event) => setForm({ ...form, role: event.target.value as OperatorRole })}
        >
          {OPERATOR_ROLES.map((role) => (
            <option key={role} value={role}>
              {roleNames[role]}
            </option>
          ))}
        </select>
        <button type="submit" className="primary">
          <Trans>Add operator</Trans>
        </button>
      </form>
      {added && (
        <div className="console-enrolment" role="status">
          <h2>
            <Trans>{added.name} is added</Trans>
          </h2>
          <p>
            <Trans>
              Give these to {added.name} in person; they are shown only now. First password (to be changed at the first
              sign-in): <code>{added.password}</code>
            </Trans>
          </p>
          <p>
            <Trans>Scan the code with an authenticator app:</Trans>
          </p>
          <div
            className="console-qr"
            role="img"
            aria-label={t`QR code of the authenticator enrolment`}
            dangerouslySetInnerHTML={{ __html: renderSVG(added.otpauth_uri) }}
          />
          <code className="console-uri">{added.otpauth_uri}</code>
          <div className="console-actions">
            <button type="button" onClick={() => setAdded(null)}>
              <Trans context="console">Done</Trans>
            </button>
          </div>
        </div>
      )}
      {operators && (
        <div className="console-table-wrap">
          <table className="console-table">
            <thead>
              <tr>
                <th>
                  <Trans>Name</Trans>
                </th>
                <th>
                  <Trans>Role</Trans>
                </th>
                <th>
                  <Trans>Added</Trans>
                </th>
                <th>
                  <Trans>Status</Trans>
                </th>
                <th />
              </tr>
            </thead>
            <tbody>
              {operators.map((operator) => (
                <tr key={operator.name}>
                  <td>{operator.name}</td>
                  <td>
                    <RoleName role={operator.role} />
                  </td>
                  <td>{formatTime(operator.created_at)}</td>
                  <td>
                    {operator.disabled_at ? (
                      <Trans>Disabled {formatTime(operator.disabled_at)}</Trans>
                    ) : operator.must_change_password ? (
                      <Trans>First password not changed yet</Trans>
                    ) : (
                      <Trans context="console">Active</Trans>
                    )}
                  </td>
                  <td>
                    {!operator.disabled_at && (
                      <button type="button" className="danger small" onClick={() => void disable(operator.name)}>
                        <Trans>Disable</Trans>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
