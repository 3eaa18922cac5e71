// The "Login password" field of the forms that ask for it again before a security change (turning
// two-factor on or off, adding a passkey, a new mobile number).
import { Trans, useLingui } from '@lingui/react/macro';
import { TextField } from './forms.tsx';

export function LoginPasswordField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useLingui();
  return (
    <TextField
      label={<Trans>Login password</Trans>}
      value={value}
      onChange={onChange}
      name="password"
      type="password"
      autoComplete="current-password"
      placeholder={t`Enter your login password`}
    />
  );
}
