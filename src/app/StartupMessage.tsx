// On startup the first unread message opens in a dialog, once per app start and session; when its check answers after
// the customer opened another dialog (a confirmation), it waits for that one to close.
// Mounted by the shell while a token exists. The check is the shell's; the dialog's code and its
// area's texts arrive only when there is a message to show.
import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { StationMessage } from '../api-contract/messages.ts';
import { loadAreaMessages, startAreaMessages } from '../lib/i18n.ts';
import type { Locale } from '../api-contract/constants.ts';
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

type Shown = { message: StationMessage; Dialog: ComponentType<DialogProps> };

/** Whether a modal dialog or sheet is open (an order's or a withdrawal's confirmation, the update dialog…). */
const modalOpen = () => document.querySelector('[aria-modal="true"]') !== null;

/**
 * Resolves once no modal dialog is open: a message whose check answered late (a slow network) never opens over a
 * question the customer is answering, such as the confirmation of an order; it opens once that one has closed.
 */
function noModalOpen(): Promise<void> {
  if (!modalOpen()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (modalOpen()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributeFilter: ['aria-modal'] });
  });
}
/** The dialog made ready at start (startStartupMessage), which the first render then shows at once. */
let prepared: (Shown & { token: string }) | null = null;
/** Once the dialog's place has rendered, a dialog ready later comes through its effect instead. */
let placeRendered = false;
/** Set once the check has answered with a message: resolves when its dialog is ready (or failed to load). */
let preparing: Promise<void> | null = null;

/**
 * At start, before the first render: the check is asked at once, and a message to show brings the
 * dialog's texts in `locale` and its code right away (the dialog opens once `language` is active).
 */
export function startStartupMessage(token: string, locale: Locale, language: Promise<void>): void {
  startStartupCheck(token, (message) => {
    if (!message) return;
    startAreaMessages(locale, 'messages');
    preparing = language
      .then(loadDialog)
      .then((Dialog) => void (placeRendered || (prepared = { token, message, Dialog })))
      .catch(() => undefined);
  });
}

/**
 * Once the check has answered with a message, the promise of its dialog (resolved when it is
 * ready); before that null: the first render need not wait for a check still unanswered.
 */
export const startupDialogOnItsWay = (): Promise<void> | null => preparing;

export function StartupMessage({ token }: { token: string }) {
  // Shown in the same render as the first page when it was ready in time: no page first and a
  // dialog over it a moment later.
  // (Read, not taken: a first render that React restarts reads it again.)
  const [shown, setShown] = useState<Shown | null>(() => (prepared?.token === token ? prepared : null));
  // The message whose dialog was closed: the check's answer, which may wait for that very dialog to close (noModalOpen
  // counts it as any other), never opens it a second time.
  const closed = useRef<number | null>(null);

  useEffect(() => {
    // Shown once: closed, it does not come back with a later mount.
    placeRendered = true;
    prepared = null;
  }, []);

  useEffect(() => {
    // Quiet: no dialog is better than an error at startup (offline, or an older server).
    firstUnreadOnce(token)
      .then(async (message) => {
        if (!message) return;
        const Dialog = await loadDialog();
        await noModalOpen();
        if (closed.current === message.id) return;
        setShown((current) => (current?.message.id === message.id ? current : { message, Dialog }));
      })
      .catch(() => undefined);
  }, [token]);

  useEffect(() => watchUnread(), []);

  if (!shown) return null;
  const { message, Dialog } = shown;
  const close = () => {
    closed.current = message.id;
    setShown(null);
  };
  return <Dialog message={message} onClose={close} />;
}
