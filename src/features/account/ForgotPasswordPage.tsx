// Reset the login password with a code sent to the account's mobile number or e-mail (§5).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ForgotPasswordInput } from '../../contract/account.ts';
import { ROUTES } from '../../contract/routes.ts';
import { sendVerificationCode } from '../../lib/codes.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { firstError } from '../../lib/validate.ts';
import { CodeField } from '../../ui/CodeButton.tsx';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { AccountHeader } from './AccountHeader.tsx';
import { ContactInput } from './ContactInput.tsx';
import { resetPassword, type ContactMode } from './account-store.ts';

export default function ForgotPasswordPage() {
  const { t } = useLingui();
  const [mode, setMode] = useState<ContactMode>('phone');
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');

  const sendCode = () => sendVerificationCode(mode === 'phone' ? 'sms' : 'email', address, true);

  const common = { code, password, repassword };
  const input = mode === 'phone' ? { mode, phone: address, ...common } : { mode, email: address, ...common };
  const { busy, submit } = useSubmit(
    async () => {
      await resetPassword(input);
      toast(t`Your password has been reset. Please log in.`);
      navigate(ROUTES.login, { replace: true });
    },
    () => firstError(ForgotPasswordInput, input),
  );

  return (
    <div className="page auth-page">
      <AccountHeader back title={<Trans>Reset password</Trans>} subtitle={<Trans>We will send a code to confirm it is you</Trans>} />
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
        <Button type="submit" disabled={busy}>
          <Trans>Reset password</Trans>
        </Button>
      </Form>
    </div>
  );
}
