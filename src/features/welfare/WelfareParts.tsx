// What the welfare list and the details page share: a task's icon, its reward, its progress and
// its action — Claim when the server says it is claimable, Go to where the condition is met while
// it is locked, a mark once claimed.
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { WelfareCode, WelfareTask } from '../../api-contract/welfare.ts';
import { formatMoney } from '../../lib/format.ts';
import { formatPoints } from '../../lib/points.ts';
import { toast } from '../../lib/toast.ts';
import { useSubmit } from '../../lib/form.ts';
import { Button } from '../../ui/forms.tsx';
import { MineIcon, OptionsIcon, RechargeIcon, ShieldIcon } from '../../ui/icons.tsx';
import { claimReward, copyOf } from './welfare-store.ts';

const ICONS: Record<WelfareCode, typeof ShieldIcon> = {
  primary_certification: ShieldIcon,
  first_recharge: RechargeIcon,
  first_option: OptionsIcon,
  friend_certified: MineIcon,
};

export function TaskIcon({ code }: { code: WelfareCode }) {
  const Icon = ICONS[code];
  return (
    <span className="welfare-icon" aria-hidden="true">
      <Icon />
    </span>
  );
}

/** "+50 points" or "+5 USDT". */
export function RewardText({ task }: { task: Readonly<WelfareTask> }) {
  const amount = task.asset === 'POINT' ? formatPoints(task.reward) : formatMoney(task.reward);
  return (
    <span className="welfare-reward" dir="ltr">
      {task.asset === 'POINT' ? <Trans>+{amount} points</Trans> : `+${amount} ${task.asset}`}
    </span>
  );
}

export function TaskProgress({ task }: { task: Readonly<WelfareTask> }) {
  const done = task.progress;
  const target = task.target;
  return (
    <span className="welfare-progress-text">
      <Trans>
        Progress{' '}
        <bdi dir="ltr">
          {done}/{target}
        </bdi>
      </Trans>
    </span>
  );
}

/**
 * Why a task whose condition the customer met cannot be claimed (the answer's `held`), or nothing: a reward for a new
 * person is paid once per person, so an identity document verified for another account first holds it back.
 */
export function HeldText({ task }: { task: Readonly<WelfareTask> }) {
  if (task.held !== 'document_rewarded') return null;
  return (
    <span className="welfare-held">
      <Trans>Paid once per person: your identity document was verified for another account first.</Trans>
    </span>
  );
}

export function TaskAction({ task }: { task: Readonly<WelfareTask> }) {
  const { t, i18n } = useLingui();
  const copy = copyOf(task.code);
  const { busy, submit } = useSubmit(async () => {
    const answer = await claimReward(task.code);
    const points = formatPoints(answer.reward);
    if (answer.asset === 'POINT') {
      const amount = t`+${points} points`;
      toast(t`Claimed: ${amount}`);
    } else {
      // An asset's code beside its amount, kept left to right in any language.
      const amount = `+${formatMoney(answer.reward)}`;
      toast({ message: msg`Claimed: ${amount}`, parts: { amount: { amount, unit: answer.asset } } });
    }
  });
  if (task.state === 'claimed') {
    return (
      <span className="welfare-claimed">
        <Trans>Claimed</Trans>
      </span>
    );
  }
  if (task.state === 'claimable') {
    return (
      <Button size="small" onClick={() => void submit()} disabled={busy}>
        {busy ? <Trans>Claiming…</Trans> : <Trans>Claim</Trans>}
      </Button>
    );
  }
  // Held back (HeldText says why): nothing to do that would change it.
  if (task.held) return null;
  return copy ? (
    <Link href={copy.go} className="btn secondary small">
      {i18n._(copy.goLabel)}
    </Link>
  ) : null;
}
