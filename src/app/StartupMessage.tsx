// §1 on startup: the first unread message opens in a dialog, once per app start and session.
// Mounted by the shell while a token exists. The check is the shell's; the dialog's code and its
// area's texts arrive only when there is a message to show.
import { useEffect, useState, type ComponentType } from 'react';
import type { StationMessage } from '../contract/messages.ts';
import { loadAreaMessages, startAreaMessages } from '../lib/i18n.ts';
import type { Locale } from '../contract/constants.ts';
import { firstUnreadOnce, startStartupCheck, watchUnread } from '../lib/messages.ts';

type DialogProps = { message: StationMessage; onClose: () => void };
const nothing: ComponentType<DialogProps> = () => null;

/**
 * The dialog with its texts; it opens once both are in (no Suspense: a reveal through it is held
 * back a moment). Asked for once per app start.
 */
let dialogCode: Promise<ComponentType<DialogProps>> | null = null;
const loadDialog = () =>
  (dialogCode ??= Promise.all([import('../features/messages/FirstUnreadDialog.tsx'), loadAreaMessages('messages')])
    .then(([module]): ComponentType<DialogProps> => module.default)
    // Quiet, as the check itself: no dialog is better than an error at startup.
    .catch(() => nothing));

/**
 * At start, before the first render: the check is asked at once, and a message to show brings the
 * dialog's texts in `locale` and its code right away (the dialog opens once `language` is active).
 */
export function startStartupMessage(token: string, locale: Locale, language: Promise<void>): void {
  startStartupCheck(token, (first) => {
    if (!first) return;
    startAreaMessages(locale, 'messages');
    void language.then(loadDialog, () => undefined);
  });
}

export function StartupMessage({ token }: { token: string }) {
  const [shown, setShown] = useState<{ message: StationMessage; Dialog: ComponentType<DialogProps> } | null>(null);

  useEffect(() => {
    // Quiet: no dialog is better than an error at startup (offline, or an older server).
    firstUnreadOnce(token)
      .then(async (message) => message && setShown({ message, Dialog: await loadDialog() }))
      .catch(() => undefined);
  }, [token]);

  useEffect(() => watchUnread(), []);

  if (!shown) return null;
  const { message, Dialog } = shown;
  return <Dialog message={message} onClose={() => setShown(null)} />;
}
