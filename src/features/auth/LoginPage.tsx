// §5 login: username and password, the agreement, and back to `from` afterwards.
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { LoginForm } from '../../contract/account.ts';
import { AUTH_ROUTE_PREFIX, ROUTES } from '../../contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { firstError } from '../../lib/validate.ts';
import { Button, Checkbox, Form, TextField } from '../../ui/forms.tsx';
import { AuthHeader } from './AuthHeader.tsx';
import { signIn } from './auth-store.ts';

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
  const form = { username, password, agree };
  const { busy, submit } = useSubmit(
    async () => {
      await signIn(form);
      navigate(returnRoute(search), { replace: true });
    },
    () => firstError(LoginForm, form),
  );

  return (
    <div className="page auth-page">
      <AuthHeader title={<Trans>Welcome back</Trans>} subtitle={<Trans>Log in to trade and manage your assets</Trans>} />
      <Form onSubmit={submit}>
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
        <Checkbox checked={agree} onChange={setAgree}>
          <Trans>I have read and agree to the User Agreement and the Privacy Policy</Trans>
        </Checkbox>
        <Button type="submit" disabled={busy}>
          <Trans>Log in</Trans>
        </Button>
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
