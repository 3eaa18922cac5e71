// The withdrawal address lock's switch, on the bank card and wallet pages: its state in words, turning it on at
// once, asking to turn it off (with the authenticator code when two-factor is on, the payment password otherwise) and,
// while the turning-off waits its 24 hours, when it takes effect with the time left, and the way to keep it on.
import { useEffect, useId, useState } from 'react';
import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { useSnapshot } from 'valtio';
import { ADDRESS_LOCK_COOLING_HOURS, ADDRESS_LOCK_DELAY_HOURS } from '../../api-contract/address-lock.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatDate } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { secondFactorErrorText } from '../../lib/two-factor.ts';
import { Button, Form } from '../../ui/forms.tsx';
import { useStepUpSecret } from '../../ui/StepUpSecret.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { Dialog } from '../../ui/lists.tsx';
import {
  addressLockState,
  askAddressLockOff,
  keepTheAddressLock,
  loadAddressLock,
  turnOnAddressLock,
} from './address-lock-store.ts';

const MINUTE = 60_000;

/** Redrawn each 30 s while `end` is ahead, and once at the end; read afresh when `end` moves (a new answer). */
function useNowUntil(end: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => setNow(Date.now()), [end]);
  useEffect(() => {
    const left = end - now;
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(30_000, left + 50));
    return () => clearTimeout(timer);
  }, [end, now]);
  return now;
}

export function AddressLockCard() {
  const titleId = useId();
  const { lock, offBy } = useSnapshot(addressLockState);
  const [asking, setAsking] = useState(false);
  const now = useNowUntil(offBy);

  useEffect(() => {
    loadAddressLock().catch(() => undefined);
  }, []);
  // The turning-off took effect while the page was open: ask the server how it stands now.
  useEffect(() => {
    if (offBy && now >= offBy) loadAddressLock().catch(() => undefined);
  }, [offBy, now]);

  const turnOn = useSubmit(async () => {
    await turnOnAddressLock();
    toast(i18n._(texts.saved));
  });
  const keep = useSubmit(async () => {
    await keepTheAddressLock();
    toast(i18n._(texts.saved));
  });

  if (!lock) return null;
  const on = lock.on;
  const waiting = on && offBy > now;
  const hours = ADDRESS_LOCK_COOLING_HOURS;
  return (
    <section className="card address-lock" aria-labelledby={titleId} data-testid="address-lock">
      <button
        type="button"
        className="address-lock-switch"
        role="switch"
        aria-checked={on}
        aria-labelledby={titleId}
        disabled={turnOn.busy || waiting}
        onClick={() => (on ? setAsking(true) : void turnOn.submit())}
      >
        <ShieldIcon className="address-lock-icon" />
        <span id={titleId} className="address-lock-title">
          <Trans>Withdrawal address lock</Trans>
        </span>
        <span className="address-lock-toggle" aria-hidden="true" />
      </button>
      <p className="address-lock-note">
        {on ? (
          <Trans>
            On: withdrawals go only to your saved bank cards and wallets, {hours} hours after each was added.
          </Trans>
        ) : (
          <Trans>Off. Turn it on so that withdrawals go only to payees you saved at least {hours} hours earlier.</Trans>
        )}
      </p>
      {waiting && (
        <div className="address-lock-waiting" role="status">
          <Countdown offBy={offBy} now={now} />
          <Button variant="secondary" disabled={keep.busy} onClick={() => void keep.submit()}>
            <Trans>Keep it on</Trans>
          </Button>
        </div>
      )}
      {asking && <TurnOffDialog onClose={() => setAsking(false)} />}
    </section>
  );
}

function Countdown({ offBy, now }: { offBy: number; now: number }) {
  const minutes = Math.ceil((offBy - now) / MINUTE);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const at = formatDate('dayClock', new Date(offBy));
  return (
    <p className="address-lock-countdown">
      <Trans>
        Turns off at {at} (in {hours} h {rest} min).
      </Trans>
    </p>
  );
}

/** Asks for the second factor (or the payment password) before asking the server to turn the lock off. */
function TurnOffDialog({ onClose }: { onClose: () => void }) {
  const stepUp = useStepUpSecret();
  const delay = ADDRESS_LOCK_DELAY_HOURS;
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await askAddressLockOff(stepUp.secret());
      onClose();
    },
    stepUp.problem,
    secondFactorErrorText,
  );
  return (
    <Dialog
      title={<Trans>Turn off the address lock?</Trans>}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void submit()} disabled={busy}>
            <Trans>Turn off in {delay} h</Trans>
          </Button>
        </>
      }
    >
      <Form className="address-lock-form" onSubmit={() => submit()} refusals={refusals}>
        <p>
          <Trans>
            For your safety it turns off {delay} hours after you confirm; until then withdrawals still go only to saved
            payees, and you can keep it on.
          </Trans>
        </p>
        {stepUp.field}
      </Form>
    </Dialog>
  );
}
