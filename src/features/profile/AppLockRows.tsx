// Settings' app lock rows: after how long in the background the app locks (Off, 1, 5, 15 or 60 minutes), set with a
// 6-digit app PIN typed twice, and the device's passkey as a second way to open it. Kept on this device for the
// signed-in account only (lib/app-lock.ts); nothing of it is sent.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { APP_LOCK_CHOICES, type AppLockMinutes, rawLockRecord, saveLockRecord } from '../../lib/app-lock.ts';
import { PIN_LENGTH, hashPin, pinOf } from '../../lib/app-lock-pin.ts';
import { useUser } from './profile-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { Cell, Dialog, Sheet } from '../../ui/lists.tsx';

export function AppLockRows() {
  const { t } = useLingui();
  const { user } = useUser();
  const userId = user?.id;
  // Read from storage on each render (a small JSON string): the user may arrive after the section is drawn.
  const [, setSaved] = useState(0);
  const record = userId === undefined ? null : rawLockRecord(userId);
  const [choosing, setChoosing] = useState(false);
  const [settingPin, setSettingPin] = useState<AppLockMinutes | null>(null);
  // The App lock row keeps its place while the user's record is on its way (only a session stored without it).
  if (userId === undefined || !record) return <Cell label={<Trans>App lock</Trans>} />;

  const labels: Record<AppLockMinutes, string> = {
    0: t`Off`,
    1: t`After 1 minute`,
    5: t`After 5 minutes`,
    15: t`After 15 minutes`,
    60: t`After 1 hour`,
  };
  const save = (next: typeof record) => {
    saveLockRecord(userId, next.minutes ? next : null);
    setSaved((count) => count + 1);
  };
  const choose = (minutes: AppLockMinutes) => {
    setChoosing(false);
    // Off forgets the PIN and the passkey.
    if (minutes === 0) return save({ minutes: 0, pin: null, passkey: null, failures: 0 });
    if (!record.pin) return setSettingPin(minutes);
    save({ ...record, minutes });
  };
  const togglePasskey = async () => {
    if (record.passkey) return save({ ...record, passkey: null });
    try {
      const { createLockPasskey } = await import('../../lib/app-lock-passkey.ts');
      save({ ...record, passkey: await createLockPasskey({ id: userId, name: user?.username ?? '' }) });
    } catch {
      toast(t`No passkey was made on this device.`);
    }
  };

  return (
    <>
      <Cell label={<Trans>App lock</Trans>} value={labels[record.minutes]} onClick={() => setChoosing(true)} />
      {record.minutes > 0 && (
        <Cell
          label={<Trans>Unlock with passkey</Trans>}
          value={record.passkey ? t`On` : t`Off`}
          onClick={() => void togglePasskey()}
        />
      )}
      {choosing && (
        <Sheet
          title={t`App lock`}
          options={APP_LOCK_CHOICES.map((choice) => ({ value: String(choice), label: labels[choice] }))}
          value={String(record.minutes)}
          onChoose={(choice) => choose(Number(choice) as AppLockMinutes)}
          onClose={() => setChoosing(false)}
        />
      )}
      {settingPin !== null && (
        <PinDialog
          onCancel={() => setSettingPin(null)}
          onDone={(pin) => {
            save({ minutes: settingPin, pin, passkey: null, failures: 0 });
            setSettingPin(null);
          }}
        />
      )}
    </>
  );
}

/** Asks for the new PIN twice and hashes it (a moment: 600,000 PBKDF2 rounds). */
function PinDialog({
  onCancel,
  onDone,
}: {
  onCancel: () => void;
  onDone: (pin: Awaited<ReturnType<typeof hashPin>>) => void;
}) {
  const { t } = useLingui();
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const pin = pinOf(first);
    if (!pin) return setProblem(t`Enter 6 digits.`);
    if (pinOf(second) !== pin) return setProblem(t`The two PINs are not the same.`);
    setBusy(true);
    try {
      onDone(await hashPin(pin));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={<Trans>Set an app PIN</Trans>} actions={null}>
      <Form onSubmit={submit} className="lock-pin-form">
        <TextField
          label={<Trans>New app PIN (6 digits)</Trans>}
          value={first}
          onChange={(value) => setFirst(value.slice(0, PIN_LENGTH))}
          inputMode="numeric"
          type="password"
          autoComplete="off"
          maxLength={PIN_LENGTH}
          dir="ltr"
          autoFocus
        />
        <TextField
          label={<Trans>The same PIN again</Trans>}
          value={second}
          onChange={(value) => setSecond(value.slice(0, PIN_LENGTH))}
          inputMode="numeric"
          type="password"
          autoComplete="off"
          maxLength={PIN_LENGTH}
          dir="ltr"
          problem={problem || undefined}
        />
        <div className="dialog-actions">
          <Button variant="secondary" onClick={onCancel} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={busy}>
            <Trans>Save</Trans>
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
