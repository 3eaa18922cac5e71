// Devices: every session signed in to the account — the device, where it signed in from
// (partly hidden by the server), when it signed in and was last seen, this device marked — and
// ending one, after a confirmation, or all the others at once; then the devices whose session ended but which are still
// remembered as having passed the second factor, each forgotten alone after a confirmation (a lost phone); and, last,
// freezing the account (AccountFreezeCard).
// With `?view=history` the route shows the sign-in history instead (LoginHistoryPage.tsx, loaded only then).
import { Suspense, lazy, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { signedInSessions, type SignedInSession } from '../../api-contract/sessions.ts';
import { formatDate } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { ConfirmDialog, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { icon } from '../../ui/tab-icons.tsx';
import { endOne, endOthers, loadSessions, sessionsState } from './sessions-store.ts';
import '../../ui/device-list.css';

const DeviceIcon = icon(<path d="M3 5h14v9H3zM1 17h10m5-6h6v10h-6zm2.5 7h1" />);

// A chunk of its own, asked for as the page opens: the start's table of what each page needs stays as it was.
const AccountFreezeCard = lazy(() => import('./AccountFreezeCard.tsx'));

const reload = () => void loadSessions().catch(() => undefined);
const when = (iso: string) => formatDate('dateClock', new Date(iso));

const LoginHistoryPage = lazy(() => import('./LoginHistoryPage.tsx'));

export default function SessionsPage() {
  const history = new URLSearchParams(useSearch()).get('view') === 'history';
  return history ? (
    <Suspense fallback={null}>
      <LoginHistoryPage />
    </Suspense>
  ) : (
    <DevicesPage />
  );
}

function DevicesPage() {
  const { t } = useLingui();
  const state = useSnapshot(sessionsState);
  const [ending, setEnding] = useState<Readonly<SignedInSession> | 'others' | null>(null);
  const others = state.lists.filter((row) => !row.current).length;

  useEffect(reload, []);

  const end = useSubmit(async () => {
    if (!ending) return;
    try {
      if (ending === 'others') {
        await endOthers();
        toast(t`All other sessions have ended.`);
      } else {
        await endOne(ending.id);
        toast(ending.ended ? t`The device has been forgotten.` : t`The session has ended.`);
      }
    } catch (error) {
      // Ended meanwhile from another device, say: the list shows what is left.
      reload();
      throw error;
    } finally {
      setEnding(null);
    }
  });

  return (
    <div className="page sessions-page">
      <NavBar title={<Trans>Devices</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[signedInSessions]} />
        {!state.loaded && state.failure && <LoadFailure onRetry={reload}>{state.failure}</LoadFailure>}
        {state.loaded && (
          <>
            <p className="muted form-note">
              <Trans>
                These devices are signed in to your account, or were and are still remembered by it. If you do not
                recognise one, end its session or forget it, and change your login password.
              </Trans>
            </p>
            <ul className="device-list">
              {state.lists.map((row) => (
                <SessionItem key={row.id} session={row} onEnd={() => setEnding(row)} />
              ))}
            </ul>
            {others > 0 && (
              <Button variant="danger" onClick={() => setEnding('others')}>
                <Trans>End all other sessions</Trans>
              </Button>
            )}
          </>
        )}
        <Suspense fallback={null}>
          <AccountFreezeCard />
        </Suspense>
      </div>
      {ending && (
        <EndDialog
          ending={ending}
          busy={end.busy}
          onCancel={() => setEnding(null)}
          onConfirm={() => void end.submit()}
        />
      )}
    </div>
  );
}

function SessionItem({ session, onEnd }: { session: Readonly<SignedInSession>; onEnd: () => void }) {
  const signedIn = when(session.signed_in_at);
  const lastSeen = when(session.last_seen_at);
  return (
    <li className="card device-item" data-current={session.current || undefined}>
      <DeviceIcon className="device-icon" />
      <div className="device-text">
        <div className="device-head">
          <bdi className="device-name">{session.device}</bdi>
          {session.current && (
            <span className="device-badge">
              <Trans>This device</Trans>
            </span>
          )}
        </div>
        {session.address && (
          <span className="device-address" dir="ltr">
            {session.address}
          </span>
        )}
        <span className="device-time muted">
          <Trans>
            Signed in <time dateTime={session.signed_in_at}>{signedIn}</time>
          </Trans>
        </span>
        {!session.current && (
          <span className="device-time muted">
            <Trans>
              Last seen <time dateTime={session.last_seen_at}>{lastSeen}</time>
            </Trans>
          </span>
        )}
        {session.ended && (
          <span className="device-time muted">
            <Trans>Session ended, device still remembered: it can log in with the password alone.</Trans>
          </span>
        )}
      </div>
      {!session.current && (
        <Button size="small" variant="secondary" onClick={onEnd}>
          {session.ended ? <Trans>Forget</Trans> : <Trans>End</Trans>}
        </Button>
      )}
    </li>
  );
}

function EndDialog({
  ending,
  busy,
  onCancel,
  onConfirm,
}: {
  ending: Readonly<SignedInSession> | 'others';
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  if (ending === 'others') {
    return (
      <ConfirmDialog
        title={<Trans>End all other sessions</Trans>}
        confirm={<Trans>End all</Trans>}
        busy={busy}
        onCancel={onCancel}
        onConfirm={onConfirm}
      >
        <p>
          <Trans>
            Every device except this one will have to log in again, and, with two-factor authentication on, enter a
            code: none stays remembered.
          </Trans>
        </p>
      </ConfirmDialog>
    );
  }
  const device = ending.device;
  if (ending.ended) {
    return (
      <ConfirmDialog
        title={<Trans>Forget this device</Trans>}
        confirm={<Trans>Forget</Trans>}
        busy={busy}
        onCancel={onCancel}
        onConfirm={onConfirm}
      >
        <p>
          <Trans>
            Forget <bdi>{device}</bdi>? Its session has already ended; at its next log-in it will have to enter a code
            from your authenticator app.
          </Trans>
        </p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      title={<Trans>End session</Trans>}
      confirm={<Trans>End</Trans>}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        <Trans>
          End the session on <bdi>{device}</bdi>? That device will have to log in again and, with two-factor
          authentication on, enter a code: it is no longer remembered.
        </Trans>
      </p>
    </ConfirmDialog>
  );
}
