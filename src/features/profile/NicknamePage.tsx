// Change the nickname (1-20 characters).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { goBack } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { profileProblem, saveProfile, savedText } from './profile-store.ts';

export default function NicknamePage() {
  const { t } = useLingui();
  const [nickname, setNickname] = useState(() => session.user?.nickname ?? '');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const problem = profileProblem({ nickname });
    if (problem) return toast(problem);
    setBusy(true);
    try {
      await saveProfile({ nickname });
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
      <NavBar title={<Trans>Nickname</Trans>} />
      <form
        className="page-body"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField label={<Trans>Nickname</Trans>} value={nickname} onChange={setNickname} name="nickname" maxLength={20} autoComplete="nickname" placeholder={t`1-20 characters`} />
        <Button type="submit" disabled={busy}>
          <Trans>Save</Trans>
        </Button>
      </form>
    </div>
  );
}
