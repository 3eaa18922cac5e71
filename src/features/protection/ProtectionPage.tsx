// Limits and time-out (opened from Settings, and from the time-out panel of the order forms): the time-out, the most
// staked and the most lost on options in the last 24 hours, 7 days and 30 days with what each window holds and
// leaves, the most open options at once, and the reminder of time in the app. Each setting opens its own dialog; a
// tightening is in force at once, a loosening waits 24 hours with its countdown and a way to cancel it, and a
// time-out is confirmed first, since it cannot be lifted early (the rules: api-contract/protection.ts).
import { useEffect, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { protection, type AmountSetting, type ProtectionSetting } from '../../api-contract/protection.ts';
import { errorText } from '../../lib/api.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { ChevronIcon } from '../../ui/icons.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { timeOut } from '../../ui/TimeoutGate.tsx';
import { daysLeft } from '../../ui/TimeoutPanel.tsx';
import { Duration, useNow } from './ProtectionParts.tsx';
import { SettingDialog } from './SettingDialog.tsx';
import { Amount } from '../../ui/Amount.tsx';
import { cancelChange, loadProtection, protectionState } from './protection-store.ts';
import './protection.css';

type Window = 'day' | 'week' | 'month';

export default function ProtectionPage() {
  const { t } = useLingui();
  const { answer, dueAt, failure } = useSnapshot(protectionState);
  const { endsAt } = useSnapshot(timeOut);
  const [editing, setEditing] = useState<ProtectionSetting | null>(null);
  const waiting = Object.values(dueAt);
  const now = useNow(waiting.length > 0);

  const load = () =>
    loadProtection().catch((error: unknown) => {
      protectionState.failure = errorText(error);
    });
  useEffect(() => {
    void load();
  }, []);
  // A change whose 24 hours have passed is in force now: ask how things stand.
  const due = waiting.some((at) => at <= now);
  useEffect(() => {
    if (due) loadProtection().catch(() => undefined);
  }, [due]);

  const windowLabel = (window: Window) => (window === 'day' ? t`24 hours` : window === 'week' ? t`7 days` : t`30 days`);
  // One left-to-right element, so Arabic reads "1,000.00 USDT", never "USDT 1,000.00".
  const usdt = (value: string) => <Amount value={formatMoney(value)} unit="USDT" />;

  let body: ReactNode = null;
  if (!answer && failure) body = <LoadFailure onRetry={() => void load()}>{failure}</LoadFailure>;
  else if (answer) {
    const { limits, used, left } = answer;
    const amountRow = (setting: AmountSetting, window: Window) => {
      const limit = limits[setting];
      const stake = setting.startsWith('stake_');
      const taken = usdt(used[setting]);
      const rest = limit ? usdt(left[setting]) : null;
      return (
        <SettingRow
          key={setting}
          setting={setting}
          label={windowLabel(window)}
          value={limit ? usdt(limit) : t`No limit`}
          onEdit={() => setEditing(setting)}
          now={now}
        >
          {stake && limit && (
            <Trans>
              Staked {taken} · {rest} left
            </Trans>
          )}
          {stake && !limit && <Trans>Staked {taken}</Trans>}
          {!stake && limit && (
            <Trans>
              Lost {taken} · {rest} left
            </Trans>
          )}
          {!stake && !limit && <Trans>Lost {taken}</Trans>}
        </SettingRow>
      );
    };
    const timeoutUntil = limits.timeout_until;
    const openOptions = used.open_options;
    const openLeft = left.open_options;
    const openStakes = usdt(used.open_stakes);
    const minutes = limits.reminder_minutes;
    const days = timeoutUntil ? daysLeft(endsAt, now) : 0;
    body = (
      <>
        <section className="card prot-intro">
          <p className="form-note">
            <Trans>
              Limits you set for yourself. A stricter setting is in force at once; a looser one, or the end of a
              time-out, only 24 hours after you ask.
            </Trans>
          </p>
        </section>

        <section className="card prot-section" aria-label={t`Time-out`}>
          <h2 className="prot-title">
            <Trans>Time-out</Trans>
          </h2>
          <SettingRow
            setting="timeout_until"
            label={timeoutUntil ? t`Until` : t`Take a time-out`}
            value={timeoutUntil ? formatDate('dateClock', new Date(timeoutUntil)) : t`None`}
            onEdit={() => setEditing('timeout_until')}
            now={now}
          >
            {timeoutUntil ? (
              <>
                <Plural value={days} one="Ends in # day." other="Ends in # days." />{' '}
                <Trans>
                  No option, contract, lock-up or liquidity order and no blind box draw until then; withdrawals remain
                  possible.
                </Trans>
              </>
            ) : (
              <Trans>A pause from all trading for 24 hours up to 5 years. Withdrawals remain possible.</Trans>
            )}
          </SettingRow>
        </section>

        <section className="card prot-section" aria-label={t`Most staked on options`}>
          <h2 className="prot-title">
            <Trans>Most staked on options</Trans>
          </h2>
          {amountRow('stake_day', 'day')}
          {amountRow('stake_week', 'week')}
          {amountRow('stake_month', 'month')}
        </section>

        <section className="card prot-section" aria-label={t`Most lost on options`}>
          <h2 className="prot-title">
            <Trans>Most lost on options</Trans>
          </h2>
          {amountRow('loss_day', 'day')}
          {amountRow('loss_week', 'week')}
          {amountRow('loss_month', 'month')}
          <p className="prot-note muted">
            <Trans>
              What settled options took minus what they paid back. The stakes of open options count as lost until they
              settle: {openStakes} now.
            </Trans>
          </p>
        </section>

        <section className="card prot-section" aria-label={t`Open options`}>
          <h2 className="prot-title">
            <Trans>Open options</Trans>
          </h2>
          <SettingRow
            setting="max_open_options"
            label={t`Most at once`}
            value={limits.max_open_options || t`No limit`}
            onEdit={() => setEditing('max_open_options')}
            now={now}
          >
            {limits.max_open_options ? t`Open now: ${openOptions} · ${openLeft} left` : t`Open now: ${openOptions}`}
          </SettingRow>
        </section>

        <section className="card prot-section" aria-label={t`Reminder`}>
          <h2 className="prot-title">
            <Trans>Reminder</Trans>
          </h2>
          <SettingRow
            setting="reminder_minutes"
            label={t`Remind me after`}
            value={minutes ? t`${minutes} min in the app` : t`Off`}
            onEdit={() => setEditing('reminder_minutes')}
            now={now}
          >
            <Trans>A message when you have been in the app that long on this device.</Trans>
          </SettingRow>
        </section>
      </>
    );
  }

  return (
    <div className="page prot-page">
      <NavBar title={<Trans>Limits and time-out</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[protection]} />
        {body}
      </div>
      {editing && answer && <SettingDialog setting={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

interface RowProps {
  setting: ProtectionSetting;
  label: string;
  value: ReactNode;
  onEdit: () => void;
  now: number;
  children?: ReactNode;
}

/** One setting: its value (a tap changes it), what its window holds, and a change that waits, if any. */
function SettingRow({ setting, label, value, onEdit, now, children }: RowProps) {
  const { t } = useLingui();
  return (
    <div className="prot-row">
      <button type="button" className="prot-row-head" onClick={onEdit} aria-haspopup="dialog">
        <span className="prot-row-label">{label}</span>
        <span className="prot-row-value">{value}</span>
        <ChevronIcon className="cell-chevron flip-rtl" />
      </button>
      {children && <p className="prot-row-used">{children}</p>}
      <Waiting setting={setting} now={now} none={setting === 'timeout_until' ? t`no time-out` : t`no limit`} />
    </div>
  );
}

/** The loosening of `setting` waiting for its 24 hours: what it will be, the countdown, and Cancel. */
function Waiting({ setting, now, none }: { setting: ProtectionSetting; now: number; none: string }) {
  const { t } = useLingui();
  const { answer, dueAt } = useSnapshot(protectionState);
  const pending = answer?.pending.find((item) => item.setting === setting);
  const at = dueAt[setting];
  const { busy, submit } = useSubmit(async () => {
    await cancelChange(setting);
    toast(t`The change is cancelled.`);
  });
  if (!pending || at === undefined || at <= now) return null;
  const { value } = pending;
  let shown: ReactNode = none;
  if (value && setting === 'timeout_until') shown = formatDate('dateClock', new Date(value));
  else if (value && setting !== 'max_open_options') shown = <Amount value={formatMoney(value)} unit="USDT" />;
  else if (value) shown = value;
  const countdown = <Duration ms={at - now} seconds />;
  return (
    <div className="prot-waiting" role="status">
      <p>
        <Trans>
          Change to {shown} takes effect in <span className="prot-countdown">{countdown}</span>.
        </Trans>
      </p>
      <button type="button" className="btn secondary small" onClick={() => void submit()} disabled={busy}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}
