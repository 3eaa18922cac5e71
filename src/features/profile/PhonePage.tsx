// Bind or change the mobile number: the new number (it must be free), the code sent to it, and the login password
// (the number resets the password, so a session alone must not move it).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { AREA_CODE } from '../../api-contract/constants.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { sendVerificationCode } from '../../lib/codes.ts';
import { CodeField } from '../../ui/CodeButton.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { LoginPasswordField } from '../../ui/LoginPasswordField.tsx';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { profileProblem, saveProfile, savedText, shownPhone, useUser } from './profile-store.ts';

export default function PhonePage() {
  const { t } = useLingui();
  const { user } = useUser();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const current = user?.phone ? shownPhone(user.phone) : '';

  const { busy, submit, refusals } = useSubmit(
    async () => {
      await saveProfile({ phone, code, password, ...otpField(needsCode, otp) });
      toast(savedText());
      goBack(ROUTES.settings);
    },
    () => profileProblem({ phone, code, password }) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );

  return (
    <div className="page">
      <NavBar title={<Trans>Mobile number</Trans>} />
      <Form onSubmit={submit} refusals={refusals}>
        {current && (
          <p className="muted form-note">
            <Trans>
              Current mobile number: <bdi dir="ltr">{current}</bdi>
            </Trans>
          </p>
        )}
        <TextField
          label={<Trans>New mobile number</Trans>}
          lead={`+${AREA_CODE}`}
          value={phone}
          onChange={setPhone}
          inputMode="tel"
          autoComplete="tel-national"
          name="phone"
          placeholder={t`Enter your mobile number`}
        />
        <CodeField value={code} onChange={setCode} onSend={() => sendVerificationCode('sms', phone, false)} />
        <LoginPasswordField value={password} onChange={setPassword} />
        {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
      </Form>
    </div>
  );
}
