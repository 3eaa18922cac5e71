// The "Authenticator code" field of the forms two-factor authentication protects: the 6 digits of
// the app (number keyboard, one-time-code autofill), or, after "Use a recovery code", one of the
// ten recovery codes (letters and digits).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { TextField } from './forms.tsx';

export function AuthenticatorCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useLingui();
  const [recovery, setRecovery] = useState(false);
  return (
    <>
      <TextField
        label={recovery ? <Trans>Recovery code</Trans> : <Trans>Authenticator code</Trans>}
        value={value}
        onChange={onChange}
        name="otp"
        dir="ltr"
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize={recovery ? 'characters' : 'off'}
        spellCheck={false}
        maxLength={recovery ? 11 : 7}
        placeholder={recovery ? 'XXXXX-XXXXX' : t`6 digits`}
      />
      <button
        type="button"
        className="link-button form-link"
        onClick={() => {
          setRecovery(!recovery);
          onChange('');
        }}
      >
        {recovery ? <Trans>Use the code from the app</Trans> : <Trans>Use a recovery code</Trans>}
      </button>
    </>
  );
}
