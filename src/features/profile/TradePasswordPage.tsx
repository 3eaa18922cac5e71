// Set or change the payment password (exactly 6 digits): the old one is asked for once one is set.
import { useState } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, PAY_PASSWORD_FIELD, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { changePaymentPassword, payPasswordProblem, savedText, useUser } from './profile-store.ts';

export default function TradePasswordPage() {
  const { t } = useLingui();
  const { user } = useUser();
  const hasPaypass = user?.has_paypass ?? false;
  const [oldpaypass, setOldpaypass] = useState('');
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');

  const form = { oldpaypass: hasPaypass ? oldpaypass : undefined, password, repassword, ...otpField(needsCode, otp) };
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await changePaymentPassword(form);
      toast(savedText());
      goBack(ROUTES.settings);
    },
    () => payPasswordProblem(form, hasPaypass) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );

  return (
    <div className="page">
      <NavBar title={<Trans>Payment password</Trans>} />
      <Form onSubmit={submit} refusals={refusals}>
        <p className="muted form-note">
          {hasPaypass ? (
            <Trans>Change the 6-digit password that confirms withdrawals.</Trans>
          ) : (
            <Trans>Set a 6-digit password to confirm withdrawals.</Trans>
          )}
        </p>
        {hasPaypass && (
          <TextField
            label={<Trans>Old payment password</Trans>}
            value={oldpaypass}
            onChange={setOldpaypass}
            name="oldpaypass"
            placeholder={t`6 digits`}
            {...PAY_PASSWORD_FIELD}
          />
        )}
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
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
        <Link href={ROUTES.payPassword} className="form-link">
          <Trans>Forgot payment password?</Trans>
        </Link>
      </Form>
    </div>
  );
}
