// Registration by mobile number or e-mail: code with 60 s resend, login password 6-12 letters
// or digits, payment password of 6 digits, currency, optional invitation code, agreement.
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import * as v from 'valibot';
import { RegisterInput, type RegisterInputType } from '../../api-contract/account.ts';
import { CURRENCIES, DEFAULT_CURRENCY, type Currency } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { sendVerificationCode } from '../../lib/codes.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { firstError } from '../../lib/validate.ts';
import { i18n } from '@lingui/core';
import { CodeField } from '../../ui/CodeButton.tsx';
import { Button, Checkbox, Form, TextField } from '../../ui/forms.tsx';
import { AccountHeader } from './AccountHeader.tsx';
import { ContactInput } from './ContactInput.tsx';
import { registerAccount, type ContactMode } from './account-store.ts';

export default function RegisterPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [mode, setMode] = useState<ContactMode>('phone');
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [paypass, setPaypass] = useState('');
  const [currency, setCurrency] = useState<Currency>(DEFAULT_CURRENCY);
  const [invite, setInvite] = useState(() => new URLSearchParams(search).get('invite') ?? '');
  const [agree, setAgree] = useState(false);

  const common = { code, password, paypass, currency, invite };
  const input: RegisterInputType =
    mode === 'phone' ? { mode, phone: address, ...common } : { mode, email: address, ...common };
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await registerAccount(v.parse(RegisterInput, input));
      navigate(ROUTES.home, { replace: true });
    },
    () => firstError(RegisterInput, input) ?? (agree ? null : i18n._(texts.readAgreement)),
  );
  const sendCode = () => sendVerificationCode(mode === 'phone' ? 'sms' : 'email', address, false, undefined, refusals);

  return (
    <div className="page auth-page">
      <AccountHeader
        back
        title={<Trans>Create an account</Trans>}
        subtitle={<Trans>Register with your mobile number or e-mail</Trans>}
      />
      <Form onSubmit={submit} refusals={refusals}>
        <ContactInput mode={mode} address={address} onModeChange={setMode} onAddressChange={setAddress} autofill />
        <CodeField value={code} onChange={setCode} onSend={sendCode} />
        <TextField
          label={<Trans>Login password</Trans>}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
          name="password"
          placeholder={t`6-12 letters or numbers`}
          maxLength={12}
        />
        <TextField
          label={<Trans>Payment password</Trans>}
          value={paypass}
          onChange={setPaypass}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          name="paypass"
          placeholder={t`6 digits`}
          maxLength={6}
        />
        <div className="field">
          <label htmlFor="register-currency">
            <Trans>Currency</Trans>
          </label>
          <div className="field-box">
            <select
              id="register-currency"
              name="currency"
              value={currency}
              onChange={(event) => setCurrency(event.target.value as Currency)}
            >
              {CURRENCIES.map((item) => (
                <option key={item} value={item}>
                  {item}
                </option>
              ))}
            </select>
          </div>
        </div>
        <TextField
          label={<Trans>Invitation code (optional)</Trans>}
          value={invite}
          onChange={setInvite}
          name="invite"
          autoCapitalize="characters"
          placeholder={t`Enter the invitation code if you have one`}
        />
        <Checkbox checked={agree} onChange={setAgree}>
          <Trans>I have read and agree to the User Agreement and the Privacy Policy</Trans>
        </Checkbox>
        <Button type="submit" disabled={busy}>
          <Trans>Register</Trans>
        </Button>
        <div className="auth-links">
          <span className="muted">
            <Trans>Already have an account?</Trans>
          </span>
          <Link href={ROUTES.login}>
            <Trans>Log in</Trans>
          </Link>
        </div>
      </Form>
    </div>
  );
}
