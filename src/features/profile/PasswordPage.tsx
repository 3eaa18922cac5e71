// Change the login password: old, new (6-12 letters or numbers) and the repeat.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { changeLoginPassword, passwordProblem, savedText } from './profile-store.ts';

export default function PasswordPage() {
  const { t } = useLingui();
  const [oldpass, setOldpass] = useState('');
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');

  const form = { oldpass, password, repassword };
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await changeLoginPassword(form);
      toast(savedText());
      goBack(ROUTES.settings);
    },
    () => passwordProblem(form),
  );

  return (
    <div className="page">
      <NavBar title={<Trans>Login password</Trans>} />
      <Form onSubmit={submit} refusals={refusals}>
        <TextField
          label={<Trans>Old password</Trans>}
          value={oldpass}
          onChange={setOldpass}
          type="password"
          autoComplete="current-password"
          name="oldpass"
          placeholder={t`Enter the old password`}
        />
        <TextField
          label={<Trans>New password</Trans>}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
          name="password"
          maxLength={12}
          placeholder={t`6-12 letters or numbers`}
        />
        <TextField
          label={<Trans>Repeat new password</Trans>}
          value={repassword}
          onChange={setRepassword}
          type="password"
          autoComplete="new-password"
          name="repassword"
          maxLength={12}
          placeholder={t`Enter the new password again`}
        />
        <p className="muted form-note">
          <Trans>After the change, other devices are logged out.</Trans>
        </p>
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
      </Form>
    </div>
  );
}
