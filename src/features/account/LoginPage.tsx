// Login: username and password (both required), the agreement (must be ticked), and back to `from` afterwards.
import { Suspense, lazy, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { LoginForm } from '../../api-contract/account.ts';
import { AUTH_ROUTE_PREFIX, ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { firstError } from '../../lib/validate.ts';
import { Button, Checkbox, Form, TextField } from '../../ui/forms.tsx';
import { AccountHeader } from './AccountHeader.tsx';
import { asksForSecondFactor, signIn } from './account-store.ts';
import { errorText } from '../../lib/api.ts';
import { cleanSecondFactor } from '../../api-contract/fields.ts';
import { passkeysSupported } from '../../lib/passkeys.ts';
import { i18n } from '@lingui/core';
import { texts } from '../../api-contract/texts.ts';

/** Signing in with a passkey: its code and the browser's WebAuthn library come on the tap. */
const signInWithPasskey = () => import('./passkey-sign-in.ts').then((module) => module.signInWithPasskey());

/** Only for accounts with two-factor on, signing in on a new device: not in the login page's first load. */
const AuthenticatorCodeField = lazy(() =>
  import('../../ui/AuthenticatorCodeField.tsx').then((module) => ({ default: module.AuthenticatorCodeField })),
);

/** Only our own routes are followed after login (no open redirect). */
export function returnRoute(search: string): string {
  const from = new URLSearchParams(search).get('from');
  return from && from.startsWith('/pages/') && !from.startsWith(AUTH_ROUTE_PREFIX) ? from : ROUTES.home;
}

export default function LoginPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [agree, setAgree] = useState(false);
  /** Shown once the server asked for the second factor. */
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const form = { username, password, agree, ...(needsCode ? { otp: cleanSecondFactor(code) } : {}) };
  const passkey = useSubmit(
    async () => {
      if (await signInWithPasskey()) navigate(returnRoute(search), { replace: true });
    },
    () => (agree ? null : i18n._(texts.readAgreement)),
  );
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await signIn(form);
      navigate(returnRoute(search), { replace: true });
    },
    () => firstError(LoginForm, form),
    (error) => {
      const text = errorText(error);
      if (asksForSecondFactor(text)) setNeedsCode(true);
      return text;
    },
  );

  return (
    <div className="page auth-page">
      <AccountHeader
        title={<Trans>Welcome back</Trans>}
        subtitle={<Trans>Log in to trade and manage your assets</Trans>}
      />
      <Form onSubmit={submit} refusals={refusals}>
        <TextField
          label={<Trans>Username, mobile number or e-mail</Trans>}
          value={username}
          onChange={setUsername}
          autoComplete="username"
          name="username"
          placeholder={t`Enter your username`}
        />
        <TextField
          label={<Trans>Password</Trans>}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="current-password"
          name="password"
          placeholder={t`Enter your password`}
        />
        {needsCode && (
          <Suspense>
            <AuthenticatorCodeField value={code} onChange={setCode} />
          </Suspense>
        )}
        <Checkbox checked={agree} onChange={setAgree}>
          <Trans>I have read and agree to the User Agreement and the Privacy Policy</Trans>
        </Checkbox>
        <Button type="submit" disabled={busy}>
          <Trans>Log in</Trans>
        </Button>
        {passkeysSupported() && (
          <Button variant="secondary" disabled={passkey.busy} onClick={() => void passkey.submit()}>
            <Trans>Sign in with a passkey</Trans>
          </Button>
        )}
        <div className="auth-links">
          <Link href={ROUTES.forgotPassword}>
            <Trans>Forgot password?</Trans>
          </Link>
          <Link href={ROUTES.register}>
            <Trans>Create an account</Trans>
          </Link>
        </div>
      </Form>
    </div>
  );
}
