// One station message open on screen: its title, full date and text, with the caller's buttons.
import type { ReactNode } from 'react';
import type { StationMessage } from '../../contract/messages.ts';
import { Dialog } from '../../ui/lists.tsx';
import { formatMessageDate } from './messages-store.ts';

export function MessageDialog({ message, actions }: { message: Readonly<StationMessage>; actions: ReactNode }) {
  return (
    <Dialog title={<bdi>{message.title}</bdi>} actions={actions}>
      <time className="msg-reader-date" dateTime={message.created_at}>
        {formatMessageDate(message.created_at, { full: true })}
      </time>
      <div className="msg-reader-content" dir="auto">
        {message.content}
      </div>
    </Dialog>
  );
}
