// §1 on startup: the first unread message opens in a dialog, once per app start and session.
// "Read later" leaves it unread; "OK" marks it read. Mounted by the shell while a token exists.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import type { StationMessage } from '../../contract/messages.ts';
import { errorText } from '../../lib/api.ts';
import { loadAreaMessages } from '../../lib/i18n.ts';
import { watchUnread } from '../../lib/messages.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { firstUnreadOnce, markRead } from './messages-store.ts';

export default function FirstUnreadDialog() {
  const { token } = useSnapshot(session);
  const [message, setMessage] = useState<StationMessage | null>(null);

  useEffect(() => {
    if (!token) return;
    // Quiet: no dialog is better than an error at startup (offline, or an older server). The
    // texts of this area come with the answer: the shell mounts the dialog before any page of it.
    Promise.all([firstUnreadOnce(token), loadAreaMessages('messages')])
      .then(([first]) => first && setMessage(first))
      .catch(() => undefined);
  }, [token]);

  useEffect(() => watchUnread(), []);

  if (!message) return null;
  const readNow = () => {
    setMessage(null);
    markRead([message.id]).catch((error) => toast(errorText(error)));
  };
  return (
    <MessageDialog
      message={message}
      actions={
        <>
          <Button variant="secondary" onClick={() => setMessage(null)}>
            <Trans>Read later</Trans>
          </Button>
          <Button onClick={readNow}>
            <Trans>OK</Trans>
          </Button>
        </>
      }
    />
  );
}

