// Passkeys (opened from Settings): what a passkey is, the account's passkeys (the device
// each was made on, when it was added and last used, whether it syncs), adding one after the login
// password (and the authenticator code when two-factor is on), and removing one after a confirmation.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { listPasskeys, type Passkey } from '../../api-contract/passkeys.ts';
import { cleanSecondFactor } from '../../api-contract/fields.ts';
import { texts } from '../../api-contract/texts.ts';
import { formatDate } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { secondFactorErrorText, secondFactorProblem, useSecondFactorStatus } from '../../lib/two-factor.ts';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { Button, Form } from '../../ui/forms.tsx';
import { ConfirmDialog, LoadFailure } from '../../ui/lists.tsx';
import { LoginPasswordField } from '../../ui/LoginPasswordField.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { icon } from '../../ui/tab-icons.tsx';
import { passkeysSupported } from '../../lib/passkeys.ts';
import { PasskeyCancelled, passkeyErrorText } from '../../lib/passkey-ceremony.ts';
import { createPasskey, deletePasskey, loadPasskeys, passkeysState } from './passkeys-store.ts';
import '../../ui/device-list.css';

const KeyIcon = icon(<path d="M14 10a4 4 0 1 0-3.87 3H11v2h2v2h2v2h3v-3l-4.13-4.13A4 4 0 0 0 14 10zm-5-1.5h.01" />);

const reload = () => void loadPasskeys().catch(() => undefined);
const when = (iso: string) => formatDate('dateClock', new Date(iso));

export default function PasskeysPage() {
  const { t } = useLingui();
  const state = useSnapshot(passkeysState);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Readonly<Passkey> | null>(null);
  const supported = passkeysSupported();

  useEffect(reload, []);

  const remove = useSubmit(async () => {
    if (!removing) return;
    try {
      await deletePasskey(removing.id);
      toast(t`The passkey has been removed.`);
    } catch (error) {
      reload();
      throw error;
    } finally {
      setRemoving(null);
    }
  });

  return (
    <div className="page passkeys-page">
      <NavBar title={<Trans>Passkeys</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[listPasskeys]} />
        <p className="muted form-note">
          <Trans>
            A passkey signs you in with your fingerprint, face or screen lock instead of your password. It stays on your
            device (or in your password manager) and cannot be phished.
          </Trans>
        </p>
        {!state.loaded && state.failure && <LoadFailure onRetry={reload}>{state.failure}</LoadFailure>}
        {state.loaded && state.lists.length > 0 && (
          <ul className="device-list">
            {state.lists.map((row) => (
              <PasskeyItem key={row.id} passkey={row} onRemove={() => setRemoving(row)} />
            ))}
          </ul>
        )}
        {state.loaded && state.lists.length === 0 && (
          <p className="card form-note">
            <Trans>No passkey yet.</Trans>
          </p>
        )}
        {!supported ? (
          <p className="card form-note">{i18n._(texts.passkeyUnavailable)}</p>
        ) : adding ? (
          <AddForm onDone={() => setAdding(false)} />
        ) : (
          <Button onClick={() => setAdding(true)}>
            <Trans>Add a passkey</Trans>
          </Button>
        )}
      </div>
      {removing && (
        <ConfirmDialog
          title={<Trans>Remove passkey</Trans>}
          confirm={<Trans>Remove</Trans>}
          busy={remove.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={() => void remove.submit()}
        >
          <p>
            <Trans>
              Remove the passkey made on <bdi>{removing.name}</bdi>? It will no longer sign in to this account. Also
              delete it from the device or password manager that holds it.
            </Trans>
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function PasskeyItem({ passkey, onRemove }: { passkey: Readonly<Passkey>; onRemove: () => void }) {
  const added = when(passkey.created_at);
  const used = passkey.last_used_at ? when(passkey.last_used_at) : null;
  return (
    <li className="card device-item">
      <KeyIcon className="device-icon" />
      <div className="device-text">
        <div className="device-head">
          <bdi className="device-name">{passkey.name}</bdi>
          {passkey.synced && (
            <span className="device-badge">
              <Trans>Synced</Trans>
            </span>
          )}
        </div>
        <span className="device-time muted">
          <Trans>
            Added <time dateTime={passkey.created_at}>{added}</time>
          </Trans>
        </span>
        <span className="device-time muted">
          {used ? (
            <Trans>
              Last used <time dateTime={passkey.last_used_at!}>{used}</time>
            </Trans>
          ) : (
            <Trans>Not used yet</Trans>
          )}
        </span>
      </div>
      <Button size="small" variant="secondary" onClick={onRemove}>
        <Trans>Remove</Trans>
      </Button>
    </li>
  );
}

/** The login password (and the code, two-factor on), then the browser's own prompt. */
function AddForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const needsCode = useSecondFactorStatus() === true;
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const { busy, submit, refusals } = useSubmit(
    async () => {
      try {
        await createPasskey(password, cleanSecondFactor(otp));
      } catch (error) {
        // Closing the browser's prompt is a choice, not a failure: a quiet note, the form stays.
        if (!(error instanceof PasskeyCancelled)) throw error;
        toast(error.message);
        return;
      }
      toast(t`Passkey added. You can now sign in with it.`);
      onDone();
    },
    () => (password.trim() ? null : i18n._(texts.enterLoginPassword)) ?? secondFactorProblem(needsCode, otp),
    (error) => passkeyErrorText(error, secondFactorErrorText),
  );
  return (
    <Form className="card" onSubmit={submit} refusals={refusals}>
      <p className="form-note">
        <Trans>Confirm it is you, then follow your device's prompt.</Trans>
      </p>
      <LoginPasswordField value={password} onChange={setPassword} />
      {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
      <Button type="submit" disabled={busy}>
        <Trans>Continue</Trans>
      </Button>
      <button type="button" className="link-button form-link" onClick={onDone}>
        <Trans>Cancel</Trans>
      </button>
    </Form>
  );
}
