// The reminder's dialog (reminder.ts): how long the customer has been in the app, the money of this session and of
// today (staked, paid out, net: the reality check, api-contract/reality-check.ts says what counts), "Keep going" or
// "Take a break" (which opens the limits page). Drawn in a root of its own over whatever page is open.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { realityCheck, type MoneyFigures, type RealityCheck } from '../../api-contract/reality-check.ts';
import { api } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { loadAreaMessages } from '../../lib/i18n.ts';
import { navigate } from '../../lib/navigation.ts';
import { Button } from '../../ui/forms.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { Duration } from './ProtectionParts.tsx';
import './protection.css';

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

/** When this app started on this device (ms since the epoch): the reminder's time counts from there too. */
const appStartedAt = () => Math.round(performance.timeOrigin);
const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The reality check, read when the dialog opens; null until it answers, and when it cannot (offline: dashes). */
function useRealityCheck(): RealityCheck | null {
  const [check, setCheck] = useState<RealityCheck | null>(null);
  useEffect(() => {
    let open = true;
    api(realityCheck, { since: String(appStartedAt()), tz: deviceTimeZone() }, { loading: false }).then(
      (answer) => open && setCheck(answer),
      () => undefined,
    );
    return () => void (open = false);
  }, []);
  return check;
}

/** A figure of the reality check, or a dash while there is none (never an invented 0.00). */
const shown = (figures: MoneyFigures | undefined, key: keyof MoneyFigures) => {
  if (!figures) return '—';
  const value = figures[key];
  // The minus sign the app's amounts use (U+2212, as Money shows them), and "+" for a net gain.
  const negative = value.startsWith('-');
  const magnitude = negative ? value.slice(1) : value;
  const sign = negative ? '−' : key === 'net' && !/^0(\.0+)?$/.test(magnitude) ? '+' : '';
  return `${sign}${formatMoney(magnitude)}`;
};

function MoneyTable({ check }: { check: RealityCheck | null }) {
  const rows = [
    { name: <Trans>This session</Trans>, figures: check?.session, key: 'session' },
    { name: <Trans>Today</Trans>, figures: check?.today, key: 'today' },
  ];
  return (
    <table className="prot-money" aria-live="polite">
      <caption>
        <Trans>Options, real money (USDT)</Trans>
      </caption>
      <thead>
        <tr>
          <td />
          <th scope="col">
            <Trans>Staked</Trans>
          </th>
          <th scope="col">
            <Trans>Payouts</Trans>
          </th>
          <th scope="col">
            <Trans>Net</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-span={row.key}>
            <th scope="row">{row.name}</th>
            <td dir="ltr">{shown(row.figures, 'stakes')}</td>
            <td dir="ltr">{shown(row.figures, 'payouts')}</td>
            <td dir="ltr" data-net={row.figures && (row.figures.net.startsWith('-') ? 'loss' : 'gain')}>
              {shown(row.figures, 'net')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ReminderDialog({ elapsed, onClose }: { elapsed: number; onClose: (takeBreak: boolean) => void }) {
  const duration = <Duration ms={elapsed} />;
  const check = useRealityCheck();
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
      <MoneyTable check={check} />
      <p className="prot-money-note">
        <Trans>
          This session counts from when you opened the app (or signed in, if later); today is your calendar day.
          Practice money is not included.
        </Trans>
      </p>
      <p>
        <Trans>You asked to be reminded. Your limits and a time-out are on the limits page.</Trans>
      </p>
    </Dialog>
  );
}
