// §1 on startup: the first unread message opens in a dialog, once per app start and session.
// Mounted by the shell while a token exists. The check is the shell's; the dialog's code and its
// area's texts arrive only when there is a message to show.
import { Suspense, lazy, useEffect, useState, type ComponentType } from 'react';
import type { StationMessage } from '../contract/messages.ts';
import { loadAreaMessages } from '../lib/i18n.ts';
import { firstUnreadOnce, startStartupCheck, watchUnread } from '../lib/messages.ts';

type DialogProps = { message: StationMessage; onClose: () => void };
const nothing: ComponentType<DialogProps> = () => null;

let dialogCode: Promise<{ default: ComponentType<DialogProps> }> | null = null;
const loadDialog = () =>
  (dialogCode ??= Promise.all([import('../features/messages/FirstUnreadDialog.tsx'), loadAreaMessages('messages')])
    .then(([module]): { default: ComponentType<DialogProps> } => module)
    // Quiet, as the check itself: no dialog is better than an error at startup.
    .catch(() => ({ default: nothing })));
const FirstUnreadDialog = lazy(loadDialog);

/**
 * At start, before the first render: the check is asked at once, and a message to show brings the
 * dialog's code right away (once `language` is active: its texts come with it).
 */
export function startStartupMessage(token: string, language: Promise<void>): void {
  startStartupCheck(token, (first) => first && void language.then(loadDialog, () => undefined));
}

export function StartupMessage({ token }: { token: string }) {
  const [message, setMessage] = useState<StationMessage | null>(null);

  useEffect(() => {
    // Quiet: no dialog is better than an error at startup (offline, or an older server).
    firstUnreadOnce(token)
      .then((first) => first && setMessage(first))
      .catch(() => undefined);
  }, [token]);

  useEffect(() => watchUnread(), []);

  if (!message) return null;
  return (
    <Suspense fallback={null}>
      <FirstUnreadDialog message={message} onClose={() => setMessage(null)} />
    </Suspense>
  );
}
