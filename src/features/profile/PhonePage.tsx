// Bind or change the mobile number: the new number (it must be free) and the code sent to it.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { AREA_CODE, CODE_LENGTH } from '../../contract/constants.ts';
import { ROUTES } from '../../contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { CodeButton } from '../../ui/CodeButton.tsx';
import { Button, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { profileProblem, saveProfile, savedText, sendCode, useUser } from './profile-store.ts';

export default function PhonePage() {
  const { t } = useLingui();
  const { user } = useUser();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const current = user?.phone ? `+${AREA_CODE} ${user.phone}` : '';

  const submit = async () => {
    const problem = profileProblem({ phone, code });
    if (problem) return toast(problem);
    setBusy(true);
    try {
      await saveProfile({ phone, code });
      toast(savedText());
      goBack(ROUTES.settings);
    } catch (error) {
      toast(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={<Trans>Mobile number</Trans>} />
      <form
        className="page-body"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {current && (
          <p className="muted form-note">
            <Trans>Current mobile number: <bdi>{current}</bdi></Trans>
          </p>
        )}
        <TextField label={<Trans>New mobile number</Trans>} lead={`+${AREA_CODE}`} value={phone} onChange={setPhone} inputMode="tel" autoComplete="tel-national" name="phone" placeholder={t`Enter your mobile number`} />
        <TextField
          label={<Trans>Verification code</Trans>}
          value={code}
          onChange={setCode}
          inputMode="numeric"
          maxLength={CODE_LENGTH}
          autoComplete="one-time-code"
          name="code"
          placeholder={t`6-digit code`}
          trailing={<CodeButton onSend={() => sendCode('sms', phone, '0')} />}
        />
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
      </form>
    </div>
  );
}
