// Signing in (name, password and the authenticator's 6-digit code, every time) and changing the
// password: forced after the first sign-in (the printed first password), else from the navigation.
import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleChangePassword, consoleSignIn, OPERATOR_PASSWORD_MIN } from '../api-contract/console.ts';
import { consoleApi, messageOf } from './api.ts';
import { typedDigits } from '../api-contract/typed-digits.ts';
import { consoleSession, endSession, startSession } from './session.ts';
import { ErrorLine, LanguageSwitch, ServerLine, useSingleRun } from './parts.tsx';

export function SignInPage() {
  const { t } = useLingui();
  const { notice } = useSnapshot(consoleSession);
  const [form, setForm] = useState({ name: '', password: '', code: '' });
  const [error, setError] = useState('');
  const { busy, once } = useSingleRun();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    return once(async () => {
      try {
        const { token, operator } = await consoleApi(consoleSignIn, {
          ...form,
          name: form.name.trim().toLowerCase(),
          code: typedDigits(form.code),
        });
        startSession(token, operator);
      } catch (failure) {
        setError(messageOf(failure));
      }
    });
  };
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });
  return (
    <div className="console-sign-in">
      <form className="console-card" onSubmit={(event) => void submit(event)}>
        <div className="console-card-head">
          <h1>
            <Trans>Coinvest console</Trans>
          </h1>
          <LanguageSwitch />
        </div>
        <ServerLine text={notice} className="console-notice" role="status" />
        <label>
          <Trans>Operator name</Trans>
          <input autoComplete="username" autoCapitalize="none" {...field('name')} />
        </label>
        <label>
          <Trans>Password</Trans>
          <input type="password" autoComplete="current-password" {...field('password')} />
        </label>
        <label>
          <Trans>Authenticator code</Trans>
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t`6 digits`}
            {...field('code')}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={busy}>
          <Trans context="console">Sign in</Trans>
        </button>
      </form>
    </div>
  );
}

export function ChangePasswordPage({ first = false }: { first?: boolean }) {
  const { t } = useLingui();
  const [form, setForm] = useState({ password: '', new_password: '', repeat: '' });
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const { busy, once } = useSingleRun();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    if (form.new_password !== form.repeat) return setError(t`The two new passwords differ.`);
    return once(async () => {
      try {
        consoleSession.operator = await consoleApi(consoleChangePassword, {
          password: form.password,
          new_password: form.new_password,
        });
        setForm({ password: '', new_password: '', repeat: '' });
        setError('');
        setDone(true);
      } catch (failure) {
        setError(messageOf(failure));
      }
    });
  };
  const field = (key: keyof typeof form) => ({
    type: 'password',
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });
  const body = (
    <form className="console-card" onSubmit={(event) => void submit(event)}>
      <h1>{first ? <Trans>Choose your own password</Trans> : <Trans>Change password</Trans>}</h1>
      {first && (
        <p className="console-notice">
          <Trans>The first password was given to you once. Choose your own before anything else.</Trans>
        </p>
      )}
      <label>
        <Trans>Current password</Trans>
        <input autoComplete="current-password" {...field('password')} />
      </label>
      <label>
        <Trans>New password (at least {OPERATOR_PASSWORD_MIN} characters)</Trans>
        <input autoComplete="new-password" {...field('new_password')} />
      </label>
      <label>
        <Trans>New password again</Trans>
        <input autoComplete="new-password" {...field('repeat')} />
      </label>
      <ErrorLine error={error} />
      {done && (
        <p className="console-notice" role="status">
          <Trans>Your password is changed.</Trans>
        </p>
      )}
      <div className="console-actions">
        {first && (
          <button type="button" onClick={() => endSession()}>
            <Trans>Sign out</Trans>
          </button>
        )}
        <button type="submit" className="primary" disabled={busy}>
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
  return first ? <div className="console-sign-in">{body}</div> : body;
}
