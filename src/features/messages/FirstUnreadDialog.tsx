// On startup, the first unread message in a dialog. "Read later" leaves it unread; "OK" marks it
// read. The shell (app/StartupMessage.tsx) decides when, and loads this with the area's texts.
import { Trans } from '@lingui/react/macro';
import type { StationMessage } from '../../api-contract/messages.ts';
import { errorText } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { markRead } from './messages-store.ts';

export default function FirstUnreadDialog({ message, onClose }: { message: StationMessage; onClose: () => void }) {
  const readNow = () => {
    onClose();
    markRead([message.id]).catch((error) => toast(errorText(error)));
  };
  return (
    <MessageDialog
      message={message}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} dismiss>
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
