// Freeze my account, the last card of the Devices page (Settings → Freeze my account opens the page at it, with
// `?freeze=1`; no route of its own, so the start's route table does not grow): what a freeze does, freezing with one
// tap and the secret (the authenticator code when two-factor is on, the payment password otherwise), and, once frozen,
// since when, asking to unfreeze (which takes 24 hours) with when it takes effect and the time left, and keeping it
// frozen.
import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSnapshot } from 'valtio';
import { ACCOUNT_UNFREEZE_DELAY_HOURS } from '../../api-contract/account-freeze.ts';
import { ROUTES, loginRoute } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { secondFactorErrorText } from '../../lib/two-factor.ts';
import { Button, Form } from '../../ui/forms.tsx';
import { useStepUpSecret } from '../../ui/StepUpSecret.tsx';
import { Dialog, LoadFailure } from '../../ui/lists.tsx';
import {
  accountFreezeState,
  askUnfreeze,
  freezeMyAccount,
  keepFrozen,
  loadAccountFreeze,
} from './account-freeze-store.ts';
import './account-freeze.css';

const MINUTE = 60_000;
/** Where Settings → Freeze my account and the login after a freeze lead: the Devices page, at this card. */
export const FREEZE_ROUTE = `${ROUTES.devices}?freeze=1`;
const reload = () => void loadAccountFreeze().catch(() => undefined);

/** Redrawn each 30 s while `end` is ahead, and once at the end. */
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

/** The card: loads the freeze itself, and scrolls into view when the page was opened for it. */
export default function AccountFreezeCard() {
  const { freeze, failure, unfreezeBy } = useSnapshot(accountFreezeState);
  const opened = new URLSearchParams(useSearch()).has('freeze');
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (opened && freeze) card.current?.scrollIntoView({ block: 'start' });
  }, [opened, freeze]);
  const [asking, setAsking] = useState<'freeze' | 'unfreeze' | null>(null);
  const now = useNowUntil(unfreezeBy);
  useEffect(reload, []);
  // The unfreezing took effect while the page was open: ask the server how it stands now.
  useEffect(() => {
    if (unfreezeBy && now >= unfreezeBy) reload();
  }, [unfreezeBy, now]);
  const keep = useSubmit(async () => {
    await keepFrozen();
    toast(i18n._(texts.saved));
  });
  const delay = ACCOUNT_UNFREEZE_DELAY_HOURS;
  const waiting = !!freeze?.frozen && unfreezeBy > now;
  return (
    <section className="account-freeze-section" ref={card} aria-labelledby="account-freeze-title">
      <h2 id="account-freeze-title" className="account-freeze-title">
        <Trans>Freeze my account</Trans>
      </h2>
      <div>
        {!freeze && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {freeze && !freeze.frozen && (
          <section className="card account-freeze" data-testid="account-freeze">
            <p className="account-freeze-lead">
              <Trans>Lost your phone, or think someone else is in your account? Freeze it at once.</Trans>
            </p>
            <ul className="account-freeze-points">
              <li>
                <Trans>Every device is signed out, this one too.</Trans>
              </li>
              <li>
                <Trans>No withdrawal, order or change of bank cards and wallets is accepted.</Trans>
              </li>
              <li>
                <Trans>Withdrawals still in review are held: they are not paid out while the account is frozen.</Trans>
              </li>
              <li>
                <Trans>You can still sign in to see your balances and to unfreeze.</Trans>
              </li>
              <li>
                <Trans>Unfreezing takes effect {delay} hours after you confirm it.</Trans>
              </li>
            </ul>
            <Button variant="danger" onClick={() => setAsking('freeze')}>
              <Trans>Freeze my account</Trans>
            </Button>
          </section>
        )}
        {freeze?.frozen && (
          <section className="card account-freeze frozen" data-testid="account-freeze" role="status">
            <p className="account-freeze-state">
              <Trans>Your account is frozen since {formatDateTime(freeze.frozen_since!)}.</Trans>
            </p>
            <p className="account-freeze-note">
              <Trans>
                No withdrawal, order or change of bank cards and wallets is accepted, and withdrawals in review are
                held. Your balances stay as they are.
              </Trans>
            </p>
            {waiting ? (
              <div className="account-freeze-waiting">
                <Countdown until={unfreezeBy} now={now} />
                <Button variant="secondary" disabled={keep.busy} onClick={() => void keep.submit()}>
                  <Trans>Keep it frozen</Trans>
                </Button>
              </div>
            ) : (
              <Button onClick={() => setAsking('unfreeze')}>
                <Trans>Unfreeze</Trans>
              </Button>
            )}
          </section>
        )}
      </div>
      {asking && <SecretDialog kind={asking} onClose={() => setAsking(null)} />}
    </section>
  );
}

function Countdown({ until, now }: { until: number; now: number }) {
  const minutes = Math.ceil((until - now) / MINUTE);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const at = formatDate('dayClock', new Date(until));
  return (
    <p className="account-freeze-countdown">
      <Trans>
        Unfreezes at {at} (in {hours} h {rest} min).
      </Trans>
    </p>
  );
}

/** Asks for the second factor (or the payment password) before freezing or asking to unfreeze. */
function SecretDialog({ kind, onClose }: { kind: 'freeze' | 'unfreeze'; onClose: () => void }) {
  const { t } = useLingui();
  const stepUp = useStepUpSecret();
  const delay = ACCOUNT_UNFREEZE_DELAY_HOURS;
  const { busy, submit, refusals } = useSubmit(
    async () => {
      const secret = stepUp.secret();
      if (kind === 'freeze') {
        await freezeMyAccount(secret);
        toast(t`Your account is frozen and every device signed out. Sign in to see it or to unfreeze it.`);
        navigate(loginRoute(FREEZE_ROUTE), { replace: true });
        return;
      }
      await askUnfreeze(secret);
      onClose();
    },
    stepUp.problem,
    secondFactorErrorText,
  );
  return (
    <Dialog
      title={kind === 'freeze' ? <Trans>Freeze your account now?</Trans> : <Trans>Unfreeze your account?</Trans>}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant={kind === 'freeze' ? 'danger' : undefined} onClick={() => void submit()} disabled={busy}>
            {kind === 'freeze' ? <Trans>Freeze now</Trans> : <Trans>Unfreeze in {delay} h</Trans>}
          </Button>
        </>
      }
    >
      <Form className="account-freeze-form" onSubmit={() => submit()} refusals={refusals}>
        <p>
          {kind === 'freeze' ? (
            <Trans>Every device is signed out at once, this one too.</Trans>
          ) : (
            <Trans>
              For your safety it unfreezes {delay} hours after you confirm; until then it stays frozen, and you can keep
              it frozen.
            </Trans>
          )}
        </p>
        {stepUp.field}
      </Form>
    </Dialog>
  );
}
