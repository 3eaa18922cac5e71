// Sign-in history (Settings → Sign-in history, the Devices route with `?view=history`): every sign-in to the account
// and every failed attempt against it in the last 90 days, newest first — when, the device (browser and system), where
// from (the address partly hidden, the country where the server knows it) and how (password, passkey, code) — a page
// at a time.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { loginHistory, type LoginMethod, type LoginRecord } from '../../api-contract/login-history.ts';
import { formatDate } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { hasMore } from '../../lib/paged-list.ts';
import { Button } from '../../ui/forms.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { icon } from '../../ui/tab-icons.tsx';
import { countryName, loadLoginHistory, loginHistoryState } from './login-history-store.ts';
import '../../ui/device-list.css';
import './login-history.css';

const SignedInIcon = icon(<path d="M9 12l2 2 4-4M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6z" />);
const FailedIcon = icon(<path d="M12 8v5m0 3.5v.5M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6z" />);

const reload = () => void loadLoginHistory().catch(() => undefined);

export default function LoginHistoryPage() {
  const state = useSnapshot(loginHistoryState);
  const more = useSubmit(() => loadLoginHistory({ more: true }));
  useEffect(reload, []);

  return (
    <div className="page login-history-page">
      <NavBar title={<Trans>Sign-in history</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[loginHistory]} />
        {!state.loaded && state.failure && <LoadFailure onRetry={reload}>{state.failure}</LoadFailure>}
        {state.loaded && (
          <>
            <p className="muted form-note">
              <Trans>
                Every sign-in to your account and every failed attempt in the last 90 days. If you do not recognise one,
                change your login password and turn on two-factor authentication.
              </Trans>
            </p>
            {state.lists.length === 0 ? (
              <p className="muted">
                <Trans>No sign-ins in the last 90 days.</Trans>
              </p>
            ) : (
              <ul className="device-list">
                {state.lists.map((row) => (
                  <LoginItem key={row.id} record={row} />
                ))}
              </ul>
            )}
            {hasMore(state) && (
              <div className="login-history-more">
                <Button variant="secondary" size="small" onClick={() => void more.submit()} disabled={more.busy}>
                  <Trans>Load more</Trans>
                </Button>
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function LoginItem({ record }: { record: Readonly<LoginRecord> }) {
  const { t } = useLingui();
  const methods: Record<LoginMethod, string> = { password: t`Password`, passkey: t`Passkey`, code: t`Code` };
  const Icon = record.succeeded ? SignedInIcon : FailedIcon;
  return (
    <li className="card device-item login-item" data-failed={record.succeeded ? undefined : true}>
      <Icon className="device-icon" />
      <div className="device-text">
        <div className="device-head">
          <span className="device-name">
            {record.succeeded ? <Trans>Signed in</Trans> : <Trans>Failed attempt</Trans>}
          </span>
          <span className="device-badge">{methods[record.method]}</span>
        </div>
        <span className="login-device">
          <bdi>{record.device || t`Unknown device`}</bdi>
        </span>
        <span className="login-place">
          {record.country ? countryName(record.country) : t`Unknown place`}
          {record.address && (
            <>
              {' · '}
              <bdi className="login-address" dir="ltr">
                {record.address}
              </bdi>
            </>
          )}
        </span>
        <span className="device-time muted">
          <time dateTime={record.at}>{formatDate('dateClock', new Date(record.at))}</time>
        </span>
      </div>
    </li>
  );
}
