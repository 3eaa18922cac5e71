// The offer of push notifications at a moment that explains them: after an order went
// through (an option, a contract order), once per device, never at start. A small dialog says what
// they are for; "Turn on" asks the browser's permission from that tap. Loaded only when an order
// succeeds (import() from the order forms), so no start chunk carries it.
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n } from '@lingui/core';
import { useSubmit } from '../lib/form.ts';
import { PUSH_TEXT, loadPushTexts, pushState, turnOnPush } from '../lib/push.ts';
import { Button } from './forms.tsx';
import { Dialog } from './lists.tsx';

const OFFERED_KEY = 'push-offered';

/** An offer on its way to the screen in this session (its texts loading): a second order meanwhile makes none. */
let offering = false;

/**
 * Offers notifications once on this device, when the browser can show them and the customer has not decided yet. The
 * device remembers the offer (in `storage`) only once the dialog is on screen: when its texts fail to load (offline),
 * nothing is shown and a later order offers it again. Never rejects: an offer is not worth an error after an order
 * that went through.
 */
export async function offerNotifications(storage: Storage = localStorage): Promise<void> {
  if (offering || storage.getItem(OFFERED_KEY)) return;
  offering = true;
  let rendered = false;
  try {
    // A browser whose service worker or push state cannot be read is one that cannot take notifications now.
    if ((await pushState().catch(() => 'unsupported')) !== 'off' || Notification.permission !== 'default') return;
    // The push screens' texts are an area of their own: the order pages' start texts do not grow. Not loaded
    // (offline): no offer now.
    if (
      !(await loadPushTexts().then(
        () => true,
        () => false,
      ))
    )
      return;
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const close = () => {
      root.unmount();
      host.remove();
    };
    const shown = () => {
      storage.setItem(OFFERED_KEY, new Date().toISOString());
      offering = false;
    };
    root.render(<PushOffer onShown={shown} onClose={close} />);
    rendered = true;
  } finally {
    if (!rendered) offering = false;
  }
}

function PushOffer({ onShown, onClose }: { onShown: () => void; onClose: () => void }) {
  // Remembered once committed to the page, not before: an offer that never showed is made again.
  useEffect(onShown, [onShown]);
  // A failure is toasted by useSubmit; the offer closes either way (Settings can turn it on later).
  const { busy, submit: turnOn } = useSubmit(async () => {
    try {
      await turnOnPush();
    } finally {
      onClose();
    }
  });
  return (
    <Dialog
      title={i18n._(PUSH_TEXT.offerTitle)}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            {i18n._(PUSH_TEXT.notNow)}
          </Button>
          <Button onClick={() => void turnOn()} disabled={busy}>
            {i18n._(PUSH_TEXT.turnOn)}
          </Button>
        </>
      }
    >
      <p>{i18n._(PUSH_TEXT.explain)}</p>
    </Dialog>
  );
}
