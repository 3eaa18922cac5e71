// The dialog that changes one setting of the limits page: a limit or the reminder (a value, or none), or the
// time-out (an end chosen on the device's clock, with shortcuts of 1, 7, 30 and 90 days). A new or later time-out
// asks for a clear confirmation first: it cannot be lifted early. The server decides whether a change is in force at
// once or after its 24 hours, and the page shows which.
import { useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { useSnapshot } from 'valtio';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { AMOUNT_SETTINGS, settingValueText, type ProtectionSetting } from '../../api-contract/protection.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { Amount } from '../../ui/Amount.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { ConfirmDialog, Dialog } from '../../ui/lists.tsx';
import {
  changeSetting,
  cleanLimit,
  daysAhead,
  earliestEnd,
  localInput,
  localMoment,
  protectionState,
  settingProblem,
  timeoutProblem,
  type Outcome,
} from './protection-store.ts';

type ValueSetting = Exclude<ProtectionSetting, 'timeout_until'>;

export function SettingDialog({ setting, onClose }: { setting: ProtectionSetting; onClose: () => void }) {
  if (setting === 'timeout_until') return <TimeoutDialog onClose={onClose} />;
  return <ValueDialog setting={setting} onClose={onClose} />;
}

const isAmount = (setting: ProtectionSetting) => (AMOUNT_SETTINGS as readonly string[]).includes(setting);

/** Says when a saved change takes effect. */
function useOutcomeToast() {
  const { t } = useLingui();
  return (outcome: Outcome) => toast(outcome === 'now' ? t`Saved: in force now.` : t`Saved: in force in 24 hours.`);
}

function ValueDialog({ setting, onClose }: { setting: ValueSetting; onClose: () => void }) {
  const { t } = useLingui();
  const { answer } = useSnapshot(protectionState);
  const current = answer?.limits[setting] ?? '';
  const [typed, setTyped] = useState('');
  const told = useOutcomeToast();
  const amount = isAmount(setting);
  const reminder = setting === 'reminder_minutes';
  const { busy, submit } = useSubmit(
    async (value: string) => {
      told(await changeSetting(setting, value));
      onClose();
    },
    (value) => settingProblem(setting, value),
  );
  const save = () => {
    const value = amount ? cleanLimit(typed) : typed.trim();
    // An empty field is no removal: that has its own button.
    if (!value) return toast(i18n._(settingValueText(setting)));
    void submit(value);
  };

  const titles: Record<ValueSetting, string> = {
    stake_day: t`Most staked in 24 hours`,
    stake_week: t`Most staked in 7 days`,
    stake_month: t`Most staked in 30 days`,
    loss_day: t`Most lost in 24 hours`,
    loss_week: t`Most lost in 7 days`,
    loss_month: t`Most lost in 30 days`,
    max_open_options: t`Most open options at once`,
    reminder_minutes: t`Reminder`,
  };
  let now: ReactNode = t`No limit`;
  if (reminder) now = current ? t`After ${current} min in the app` : t`Off`;
  // An amount and its unit in one left-to-right element: Arabic reads "1,000.00 USDT", never "USDT 1,000.00".
  else if (current) now = amount ? <Amount value={formatMoney(current)} unit="USDT" /> : current;
  const field = amount ? (
    <AmountField label={<Trans>Limit (USDT)</Trans>} value={typed} onChange={setTyped} name="limit" />
  ) : (
    <TextField
      label={reminder ? <Trans>Minutes in the app</Trans> : <Trans>Options at once</Trans>}
      value={typed}
      onChange={(value) => setTyped(value.replace(/\D/g, ''))}
      inputMode="numeric"
      autoComplete="off"
      maxLength={4}
      name={setting}
      dir="ltr"
      placeholder={reminder ? '5 – 1440' : '1 – 1000'}
    />
  );
  return (
    <Dialog
      title={titles[setting]}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={save} disabled={busy}>
            <Trans>Save</Trans>
          </Button>
        </>
      }
    >
      <Form className="prot-dialog-form" onSubmit={() => save()}>
        <p className="prot-dialog-now">
          <Trans>Now: {now}</Trans>
        </p>
        {field}
        <p className="prot-dialog-note">
          {reminder ? (
            <Trans>A change of the reminder is in force at once.</Trans>
          ) : (
            <Trans>A lower limit is in force at once. A higher one, or none, only 24 hours after you ask.</Trans>
          )}
        </p>
        {current && (
          <button type="button" className="link-button prot-remove" onClick={() => void submit('')} disabled={busy}>
            {reminder ? <Trans>Turn off the reminder</Trans> : <Trans>Remove the limit</Trans>}
          </button>
        )}
      </Form>
    </Dialog>
  );
}

const SHORTCUT_DAYS = [1, 7, 30, 90];

function TimeoutDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const { answer } = useSnapshot(protectionState);
  const current = answer?.limits.timeout_until ?? '';
  const [typed, setTyped] = useState(() => localInput(daysAhead(7)));
  const [confirming, setConfirming] = useState('');
  const told = useOutcomeToast();
  const { busy, submit } = useSubmit(async (until: string) => {
    told(await changeSetting('timeout_until', until));
    onClose();
  });
  const next = () => {
    const until = localMoment(typed);
    const problem = timeoutProblem(until, Date.now(), typed);
    if (problem) return toast(problem);
    // A shorter time-out only asks (it waits 24 hours and can be cancelled); a new or longer one is confirmed first.
    if (current && Date.parse(until) <= Date.parse(current)) void submit(until);
    else setConfirming(until);
  };

  if (confirming) {
    const date = formatDate('dateClock', new Date(confirming));
    return (
      <ConfirmDialog
        title={<Trans>Take a time-out until {date}?</Trans>}
        confirm={<Trans>Start the time-out</Trans>}
        busy={busy}
        onCancel={() => setConfirming('')}
        onConfirm={() => void submit(confirming)}
      >
        <p>
          <Trans>
            Until then no option, contract, lock-up or liquidity order and no blind box draw is accepted. Withdrawals
            remain possible.
          </Trans>
        </p>
        <p className="prot-warning">
          <Trans>
            It cannot be undone early: ending or shortening a time-out takes effect only 24 hours after you ask.
          </Trans>
        </p>
      </ConfirmDialog>
    );
  }

  const shown = current ? formatDate('dateClock', new Date(current)) : '';
  return (
    <Dialog
      title={current ? t`Change the time-out` : t`Take a time-out`}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={next} disabled={busy}>
            <Trans>Continue</Trans>
          </Button>
        </>
      }
    >
      <Form className="prot-dialog-form" onSubmit={() => next()}>
        {current && (
          <p className="prot-dialog-now">
            <Trans>Now: until {shown}</Trans>
          </p>
        )}
        <div className="prot-shortcuts" role="group" aria-label={t`Length`}>
          {SHORTCUT_DAYS.map((days) => (
            <button key={days} type="button" onClick={() => setTyped(localInput(daysAhead(days)))}>
              <Plural value={days} one="# day" other="# days" />
            </button>
          ))}
        </div>
        <TextField
          label={<Trans>Until</Trans>}
          type="datetime-local"
          value={typed}
          onChange={setTyped}
          min={localInput(earliestEnd())}
          name="until"
        />
        <p className="prot-dialog-note">
          <Trans>A later end is in force at once. An earlier one, or ending it, only 24 hours after you ask.</Trans>
        </p>
        {current && (
          <button type="button" className="link-button prot-remove" onClick={() => void submit('')} disabled={busy}>
            <Trans>End the time-out</Trans>
          </button>
        )}
      </Form>
    </Dialog>
  );
}
