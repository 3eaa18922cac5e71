// The lock screen, drawn instead of the pages while the app is locked (lib/app-lock.ts): the app PIN opens it, or the
// device's passkey when one was set up; five wrong PINs sign out. Shows nothing of the account. Loaded lazily.
import { useLayoutEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../api-contract/routes.ts';
import { appLock, lockRecord, uncover } from '../lib/app-lock.ts';
import { PIN_LENGTH, clearPinFailures, tryPin } from '../lib/app-lock-pin.ts';
import { signOut } from '../lib/account.ts';
import { navigate } from '../lib/navigation.ts';
import { session } from '../lib/session.ts';
import { toast } from '../lib/toast.ts';
import { Button, Form, TextField } from '../ui/forms.tsx';
import './lock-screen.css';

export default function LockScreen() {
  const { t } = useLingui();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const userId = session.user?.id;
  const record = lockRecord();
  // Drawn: the cover put on when the page was hidden can go.
  useLayoutEffect(() => uncover(), []);

  const open = () => {
    appLock.locked = false;
  };
  const endSession = async () => {
    appLock.locked = false;
    navigate(ROUTES.login, { replace: true });
    await signOut();
    toast(t`Too many wrong PINs: you have been signed out.`);
  };

  const submit = async () => {
    if (busy || userId === undefined) return;
    setBusy(true);
    try {
      const outcome = await tryPin(userId, pin);
      setPin('');
      if (outcome.kind === 'open') open();
      else if (outcome.kind === 'signOut') await endSession();
      else {
        const left = outcome.left;
        setProblem(t`Wrong PIN. Tries left: ${left}`);
      }
    } finally {
      setBusy(false);
    }
  };

  const withPasskey = async () => {
    if (!record?.passkey || userId === undefined) return;
    const { unlockWithPasskey } = await import('../lib/app-lock-passkey.ts');
    if (await unlockWithPasskey(record.passkey)) {
      clearPinFailures(userId);
      open();
    } else toast(t`The passkey did not open the app.`);
  };

  return (
    <main className="lock-screen" aria-labelledby="lock-title">
      <div className="lock-badge" aria-hidden="true">
        🔒
      </div>
      <h1 id="lock-title">
        <Trans>The app is locked</Trans>
      </h1>
      {record?.pin && (
        <Form onSubmit={submit} className="lock-form">
          <TextField
            label={<Trans>App PIN</Trans>}
            value={pin}
            onChange={(value) => {
              setPin(value.replace(/\D/g, '').slice(0, PIN_LENGTH));
              setProblem('');
            }}
            inputMode="numeric"
            type="password"
            autoComplete="off"
            autoFocus
            maxLength={PIN_LENGTH}
            dir="ltr"
            problem={problem || undefined}
          />
          <Button type="submit" disabled={busy || pin.length !== PIN_LENGTH}>
            <Trans>Unlock</Trans>
          </Button>
        </Form>
      )}
      {record?.passkey && (
        <Button variant="secondary" onClick={() => void withPasskey()}>
          <Trans>Unlock with passkey</Trans>
        </Button>
      )}
    </main>
  );
}
