// The pieces of the two-factor page: the setup card, the recovery codes shown once, and the two
// forms of "on" (new recovery codes, turn off).
import { useMemo, useState } from 'react';
import { renderSVG } from 'uqr';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TwoFactorSetup } from '../../api-contract/two-factor.ts';
import { useSubmit } from '../../lib/form.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { CopyButton } from '../../ui/records.tsx';
import {
  appCodeProblem,
  cancelSetup,
  confirmProblem,
  confirmSetup,
  forgetRecoveryCodes,
  groupedSecret,
  renewCodes,
  turnOff,
  turnOffProblem,
} from './two-factor-store.ts';
import { LoginPasswordField } from '../../ui/LoginPasswordField.tsx';

/** A 6-digit code from the app: number keyboard, the phone's one-time-code autofill. */
function AppCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useLingui();
  return (
    <TextField
      label={<Trans>Code from the app</Trans>}
      value={value}
      onChange={onChange}
      name="code"
      dir="ltr"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      placeholder={t`6 digits`}
    />
  );
}

export function SetupCard({ setup }: { setup: Readonly<TwoFactorSetup> }) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const qr = useMemo(
    () => `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(setup.uri, { border: 2 }))}`,
    [setup.uri],
  );
  const { busy, submit, refusals } = useSubmit(
    () => confirmSetup(code, password),
    () => confirmProblem(code, password),
  );

  return (
    <Form className="card two-factor-setup" onSubmit={submit} refusals={refusals}>
      <h2 className="two-factor-step">
        <Trans>1. Add your account to an authenticator app</Trans>
      </h2>
      <p className="form-note">
        <Trans>Scan this QR code with the app, or, on this phone, copy the key and add it in the app by hand.</Trans>
      </p>
      <img className="two-factor-qr" src={qr} width="200" height="200" alt={t`QR code for your authenticator app`} />
      <p className="two-factor-secret" dir="ltr" data-testid="two-factor-secret">
        {groupedSecret(setup.secret)}
      </p>
      <CopyButton text={setup.secret} label={<Trans>Copy key</Trans>} />
      <h2 className="two-factor-step">
        <Trans>2. Enter the code the app shows</Trans>
      </h2>
      <AppCodeField value={code} onChange={setCode} />
      <LoginPasswordField value={password} onChange={setPassword} />
      <Button type="submit" disabled={busy}>
        <Trans>Confirm</Trans>
      </Button>
      <button type="button" className="link-button form-link" onClick={cancelSetup}>
        <Trans>Cancel</Trans>
      </button>
    </Form>
  );
}

export function RecoveryCodesCard({ codes }: { codes: readonly string[] }) {
  return (
    <section className="card two-factor-codes">
      <h2 className="two-factor-step">
        <Trans>Save your recovery codes</Trans>
      </h2>
      <p className="form-note">
        <Trans>
          If you lose your phone, each of these codes works once in place of a code from the app. Keep them somewhere
          safe, away from your phone. They are shown only now.
        </Trans>
      </p>
      <ol className="two-factor-code-list" dir="ltr">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <CopyButton text={codes.join('\n')} label={<Trans>Copy</Trans>} />
      <Button onClick={forgetRecoveryCodes}>
        <Trans>I have saved them</Trans>
      </Button>
    </section>
  );
}

export function RenewCodesForm({ onCancel }: { onCancel: () => void }) {
  const [code, setCode] = useState('');
  const { busy, submit } = useSubmit(
    () => renewCodes(code),
    () => appCodeProblem(code),
  );
  return (
    <Form className="card two-factor-form" onSubmit={submit}>
      <p className="form-note">
        <Trans>Ten new recovery codes replace the old ones, which stop working.</Trans>
      </p>
      <AppCodeField value={code} onChange={setCode} />
      <Button type="submit" disabled={busy}>
        <Trans>New recovery codes</Trans>
      </Button>
      <button type="button" className="link-button form-link" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </Form>
  );
}

export function TurnOffForm({ onCancel }: { onCancel: () => void }) {
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const { busy, submit, refusals } = useSubmit(
    () => turnOff(otp, password),
    () => turnOffProblem(otp, password),
  );
  return (
    <Form className="card two-factor-form" onSubmit={submit} refusals={refusals}>
      <p className="form-note">
        <Trans>
          Without two-factor authentication, your password alone lets anyone who knows it withdraw your money.
        </Trans>
      </p>
      <AuthenticatorCodeField value={otp} onChange={setOtp} />
      <LoginPasswordField value={password} onChange={setPassword} />
      <Button type="submit" variant="danger" disabled={busy}>
        <Trans>Turn off</Trans>
      </Button>
      <button type="button" className="link-button form-link" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </Form>
  );
}
