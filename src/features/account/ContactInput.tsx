// Registration and password reset name the account by mobile number or e-mail: the switch and
// the matching field (the one of the chosen mode is required).
import { Trans, useLingui } from '@lingui/react/macro';
import { AREA_CODE } from '../../api-contract/constants.ts';
import { Segmented, TextField } from '../../ui/forms.tsx';
import type { ContactMode } from './account-store.ts';

interface ContactInputProps {
  mode: ContactMode;
  address: string;
  onModeChange: (mode: ContactMode) => void;
  onAddressChange: (address: string) => void;
  /** Offer the browser's saved phone/e-mail (registration); a reset names an existing one. */
  autofill?: boolean;
}

export function ContactInput({ mode, address, onModeChange, onAddressChange, autofill = false }: ContactInputProps) {
  const { t } = useLingui();
  return (
    <>
      <Segmented
        value={mode}
        onChange={(next) => {
          onModeChange(next);
          onAddressChange('');
        }}
        options={[
          { value: 'phone', label: <Trans>Mobile number</Trans> },
          { value: 'email', label: <Trans>E-mail</Trans> },
        ]}
      />
      {mode === 'phone' ? (
        <TextField
          label={<Trans>Mobile number</Trans>}
          lead={`+${AREA_CODE}`}
          value={address}
          onChange={onAddressChange}
          inputMode="tel"
          autoComplete={autofill ? 'tel-national' : undefined}
          name="phone"
          placeholder={t`Enter your mobile number`}
        />
      ) : (
        <TextField
          label={<Trans>E-mail</Trans>}
          value={address}
          onChange={onAddressChange}
          type="email"
          autoComplete={autofill ? 'email' : undefined}
          name="email"
          placeholder={t`Enter your e-mail address`}
        />
      )}
    </>
  );
}
