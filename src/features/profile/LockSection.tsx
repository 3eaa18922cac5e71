// Settings' lock section: the app lock on this device (AppLockRows.tsx), and how long a session may go unused
// before the server ends it (the customer's own idle limit, kept on the server for every device of the account).
// Loaded with Settings, lazily.
import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  SESSION_IDLE_CHOICES,
  type SessionIdleMinutes,
  sessionIdleLimit,
  setSessionIdleLimit,
} from '../../api-contract/sessions.ts';
import { api, errorText } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { Cell, Sheet } from '../../ui/lists.tsx';
import { AppLockRows } from './AppLockRows.tsx';

export default function LockSection() {
  const { t } = useLingui();
  const [minutes, setMinutes] = useState<SessionIdleMinutes | null>(null);
  const [choosing, setChoosing] = useState(false);
  useEffect(() => {
    let current = true;
    // The row says nothing of a failure: it shows no value until the server answers.
    api(sessionIdleLimit, undefined, { loading: false }).then(
      (answer) => current && setMinutes(answer.minutes),
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);

  const idleLabels: Record<SessionIdleMinutes, string> = {
    15: t`15 minutes`,
    60: t`1 hour`,
    1440: t`1 day`,
    10080: t`7 days`,
    43200: t`30 days`,
  };
  const choose = async (choice: SessionIdleMinutes) => {
    setChoosing(false);
    if (choice === minutes) return;
    try {
      const answer = await api(setSessionIdleLimit, { minutes: `${choice}` });
      setMinutes(answer.minutes);
    } catch (error) {
      toast(errorText(error));
    }
  };

  return (
    <section className="card flush cells" aria-label={t`Sign-out and app lock`}>
      <AppLockRows />
      <Cell
        label={<Trans>Sign out when unused for</Trans>}
        value={minutes === null ? undefined : idleLabels[minutes]}
        onClick={() => setChoosing(true)}
      />
      {choosing && (
        <Sheet
          title={t`Sign out when unused for`}
          options={SESSION_IDLE_CHOICES.map((choice) => ({ value: String(choice), label: idleLabels[choice] }))}
          value={minutes === null ? '' : String(minutes)}
          onChoose={(choice) => void choose(Number(choice) as SessionIdleMinutes)}
          onClose={() => setChoosing(false)}
        />
      )}
    </section>
  );
}
