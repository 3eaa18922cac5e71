// Change the nickname (1-20 characters).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { goBack } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { profileProblem, saveProfile, savedText } from './profile-store.ts';
import { NICKNAME_MAX, unitsFor } from '../../api-contract/constants.ts';

export default function NicknamePage() {
  const { t } = useLingui();
  const [nickname, setNickname] = useState(() => session.user?.nickname ?? '');

  const { busy, submit } = useSubmit(
    async () => {
      await saveProfile({ nickname });
      toast(savedText());
      goBack(ROUTES.settings);
    },
    () => profileProblem({ nickname }),
  );

  return (
    <div className="page">
      <NavBar title={<Trans>Nickname</Trans>} />
      <Form onSubmit={submit}>
        <TextField
          label={<Trans>Nickname</Trans>}
          value={nickname}
          onChange={setNickname}
          name="nickname"
          maxLength={unitsFor(NICKNAME_MAX)}
          autoComplete="nickname"
          placeholder={t`1-20 characters`}
        />
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
      </Form>
    </div>
  );
}
