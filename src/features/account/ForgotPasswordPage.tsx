// Reset the login password with a code sent to the account's mobile number or e-mail; with
// two-factor on, also the authenticator or a recovery code, asked for once the server says so.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ForgotPasswordInput } from '../../api-contract/account.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { sendVerificationCode } from '../../lib/codes.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { firstError } from '../../lib/validate.ts';
import { CodeField } from '../../ui/CodeButton.tsx';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { errorText } from '../../lib/api.ts';
import { cleanSecondFactor } from '../../api-contract/fields.ts';
import { AccountHeader } from './AccountHeader.tsx';
import { ContactInput } from './ContactInput.tsx';
import { asksForSecondFactor, resetPassword, type ContactMode } from './account-store.ts';

export default function ForgotPasswordPage() {
  const { t } = useLingui();
  const [mode, setMode] = useState<ContactMode>('phone');
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');
  /** Shown once the server asked for the second factor. */
  const [needsCode, setNeedsCode] = useState(false);
  const [otp, setOtp] = useState('');

  const sendCode = () => sendVerificationCode(mode === 'phone' ? 'sms' : 'email', address, true);

  const common = { code, password, repassword, ...(needsCode ? { otp: cleanSecondFactor(otp) } : {}) };
  const input = mode === 'phone' ? { mode, phone: address, ...common } : { mode, email: address, ...common };
  const { busy, submit } = useSubmit(
    async () => {
      await resetPassword(input);
      toast(t`Your password has been reset. Please log in.`);
      navigate(ROUTES.login, { replace: true });
    },
    () => firstError(ForgotPasswordInput, input),
    (error) => {
      const text = errorText(error);
      if (asksForSecondFactor(text)) setNeedsCode(true);
      return text;
    },
  );

  return (
    <div className="page auth-page">
      <AccountHeader
        back
        title={<Trans>Reset password</Trans>}
        subtitle={<Trans>We will send a code to confirm it is you</Trans>}
      />
      <Form onSubmit={submit}>
        <ContactInput mode={mode} address={address} onModeChange={setMode} onAddressChange={setAddress} />
        <CodeField value={code} onChange={setCode} onSend={sendCode} />
        <TextField
          label={<Trans>New password</Trans>}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
          name="password"
          placeholder={t`6-12 letters or numbers`}
          maxLength={12}
        />
        <TextField
          label={<Trans>Repeat the new password</Trans>}
          value={repassword}
          onChange={setRepassword}
          type="password"
          autoComplete="new-password"
          name="repassword"
          maxLength={12}
        />
        {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
        <Button type="submit" disabled={busy}>
          <Trans>Reset password</Trans>
        </Button>
      </Form>
    </div>
  );
}
