// The secret a protective change of the account asks for before it is sent (freezing it, turning the withdrawal
// address lock off): the authenticator's code when two-factor sign-in is on, else the transaction password.
import { useState, type ReactElement } from 'react';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { texts } from '../api-contract/texts.ts';
import { otpField, secondFactorProblem, useSecondFactor } from '../lib/two-factor.ts';
import { AuthenticatorCodeField } from './AuthenticatorCodeField.tsx';
import { PAY_PASSWORD_FIELD, TextField } from './forms.tsx';

/** The secret as a call sends it: `{ otp }` (the code cleaned of spaces, any script's digits read) or `{ paypass }`. */
export type StepUpSecret = { otp?: string; paypass?: string };

/**
 * The secret's field and what it holds: `field` to render in the form, `secret()` what the call sends, and `problem()`
 * the form's check before sending — the translated text of an empty code or password, or null.
 */
export function useStepUpSecret(): { field: ReactElement; secret: () => StepUpSecret; problem: () => string | null } {
  const { t } = useLingui();
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const [paypass, setPaypass] = useState('');
  const field = needsCode ? (
    <AuthenticatorCodeField value={otp} onChange={setOtp} />
  ) : (
    <TextField
      label={<Trans>Transaction password</Trans>}
      value={paypass}
      onChange={setPaypass}
      name="paypass"
      placeholder={t`6 digits`}
      {...PAY_PASSWORD_FIELD}
    />
  );
  return {
    field,
    secret: () => (needsCode ? otpField(true, otp) : { paypass }),
    problem: () => (needsCode ? secondFactorProblem(true, otp) : paypass ? null : i18n._(texts.enterPayPassword)),
  };
}
