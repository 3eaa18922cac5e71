// The reminder's dialog (reminder.ts): how long the customer has been in the app, "Keep going" or "Take a break"
// (which opens the limits page). Drawn in a root of its own over whatever page is open.
import { createRoot } from 'react-dom/client';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { loadAreaMessages } from '../../lib/i18n.ts';
import { navigate } from '../../lib/navigation.ts';
import { Button } from '../../ui/forms.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { Duration } from './ProtectionParts.tsx';

/** Shows the dialog for `elapsed` ms in the app, with this area's texts; `onAnswer` once the customer has chosen. */
export async function showReminderDialog(elapsed: number, onAnswer: () => void): Promise<void> {
  await loadAreaMessages('protection').catch(() => undefined);
  renderReminderDialog(elapsed, onAnswer);
}

/** Draws the dialog over the page now (its texts loaded). */
export function renderReminderDialog(elapsed: number, onAnswer: () => void): void {
  const host = document.body.appendChild(document.createElement('div'));
  const root = createRoot(host);
  const close = (takeBreak: boolean) => {
    root.unmount();
    host.remove();
    if (takeBreak) navigate(ROUTES.protection);
    onAnswer();
  };
  root.render(
    <I18nProvider i18n={i18n}>
      <ReminderDialog elapsed={elapsed} onClose={close} />
    </I18nProvider>,
  );
}

export function ReminderDialog({ elapsed, onClose }: { elapsed: number; onClose: (takeBreak: boolean) => void }) {
  const duration = <Duration ms={elapsed} />;
  return (
    <Dialog
      title={<Trans>Time for a break?</Trans>}
      actions={
        <>
          <Button variant="secondary" onClick={() => onClose(false)}>
            <Trans>Keep going</Trans>
          </Button>
          <Button onClick={() => onClose(true)}>
            <Trans>Take a break</Trans>
          </Button>
        </>
      }
    >
      <p>
        <Trans>You have been in the app for {duration}.</Trans>
      </p>
      <p>
        <Trans>You asked to be reminded. Your limits and a time-out are on the limits page.</Trans>
      </p>
    </Dialog>
  );
}
