// Reset the payment password with a code sent to the account's own phone, else its e-mail.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { maskContact } from '../../api-contract/masking.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { sendVerificationCode } from '../../lib/codes.ts';
import { CodeField } from '../../ui/CodeButton.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { Button, Form, PAY_PASSWORD_FIELD, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import {
  changePaymentPassword,
  payPasswordProblem,
  resetTarget,
  savedText,
  shownPhone,
  useUser,
} from './profile-store.ts';

export default function PayPasswordResetPage() {
  const { t } = useLingui();
  const { user } = useUser();
  const target = resetTarget(user);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const where = target
    ? target.channel === 'sms'
      ? maskContact(shownPhone(target.address))
      : maskContact(target.address)
    : '';

  const form = { code, password, repassword, ...otpField(needsCode, otp) };
  const { busy, submit } = useSubmit(
    async () => {
      await changePaymentPassword(form);
      toast(savedText());
      goBack(ROUTES.settings);
    },
    () => payPasswordProblem(form, false) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );

  return (
    <div className="page">
      <NavBar title={<Trans>Reset payment password</Trans>} />
      <Form onSubmit={submit}>
        <p className="muted form-note">
          {target?.channel === 'sms' ? (
            <Trans>
              The verification code will be sent to your mobile number <bdi dir="ltr">{where}</bdi>.
            </Trans>
          ) : target ? (
            <Trans>
              The verification code will be sent to your e-mail <bdi>{where}</bdi>.
            </Trans>
          ) : (
            <Trans>Your account has no mobile number or e-mail to send a code to.</Trans>
          )}
        </p>
        <CodeField
          value={code}
          onChange={setCode}
          onSend={target && (() => sendVerificationCode(target.channel, target.address, true))}
        />
        <TextField
          label={<Trans>New payment password</Trans>}
          value={password}
          onChange={setPassword}
          name="password"
          placeholder={t`6 digits`}
          {...PAY_PASSWORD_FIELD}
        />
        <TextField
          label={<Trans>Repeat new payment password</Trans>}
          value={repassword}
          onChange={setRepassword}
          name="repassword"
          placeholder={t`Enter the new password again`}
          {...PAY_PASSWORD_FIELD}
        />
        {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
        <Button type="submit" disabled={busy || !target}>
          <Trans>Save</Trans>
        </Button>
      </Form>
    </div>
  );
}
