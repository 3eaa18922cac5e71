// One station message open on screen: its title, full date and text, with the caller's buttons. A security
// notice's first line, the customer's anti-phishing code, stands apart above the text.
import type { ReactNode } from 'react';
import type { StationMessage } from '../../api-contract/messages.ts';
import { splitAntiPhishingLine } from '../../api-contract/anti-phishing-line.ts';
import { AntiPhishingBadge } from '../../ui/AntiPhishingBadge.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { formatMessageDate } from './messages-store.ts';

export function MessageDialog({ message, actions }: { message: Readonly<StationMessage>; actions: ReactNode }) {
  const guarded = splitAntiPhishingLine(message.content);
  return (
    <Dialog title={<bdi>{message.title}</bdi>} actions={actions}>
      <time className="msg-reader-date" dateTime={message.created_at}>
        {formatMessageDate(message.created_at, { full: true })}
      </time>
      {guarded && <AntiPhishingBadge label={`${guarded.label}:`} code={guarded.code} />}
      <div className="msg-reader-content" dir="auto">
        {guarded ? guarded.rest : message.content}
      </div>
    </Dialog>
  );
}
