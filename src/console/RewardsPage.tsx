// The content role's rewards: the daily check-in ladder, the welfare tasks, the referral reward (ReferralPanel.tsx)
// and the blind box (BlindBoxPanel.tsx). Values are sent as the operator writes them; the server's rule (the same
// as `npm run ops -- check-in-ladder|welfare|prizes`) accepts or refuses them, and its answer is shown.
// Everything applies to check-ins, claims and draws to come: what was paid stays paid.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  WELFARE_ASSETS,
  WELFARE_TASK_TERMS,
  consoleChangeWelfareTask,
  consoleSetCheckInLadder,
  consoleCheckInLadder,
  consoleWelfareTasks,
  type ConsoleWelfareTask,
  type WelfareTaskTerm,
} from '../api-contract/console-rewards.ts';
import { consoleApi } from './api.ts';
import { ErrorLine, useLoad } from './parts.tsx';
import { sentNumber } from './format.ts';
import { BlindBoxPanel } from './BlindBoxPanel.tsx';
import { ReferralPanel } from './ReferralPanel.tsx';
import { OutcomeLine, plain, useSave } from './reward-parts.tsx';

type Tab = 'ladder' | 'welfare' | 'referral' | 'blindbox';

export function RewardsPage() {
  const { t } = useLingui();
  const [tab, setTab] = useState<Tab>('ladder');
  const tabs: Record<Tab, string> = {
    ladder: t`Check-in ladder`,
    welfare: t`Welfare tasks`,
    referral: t`Referral reward`,
    blindbox: t`Blind box`,
  };
  return (
    <section className="console-rewards">
      <h1>
        <Trans>Rewards</Trans>
      </h1>
      <div className="console-tabs" role="tablist">
        {(Object.keys(tabs) as Tab[]).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'active' : ''}
            onClick={() => setTab(name)}
          >
            {tabs[name]}
          </button>
        ))}
      </div>
      {tab === 'ladder' && <LadderPanel />}
      {tab === 'welfare' && <WelfarePanel />}
      {tab === 'referral' && <ReferralPanel />}
      {tab === 'blindbox' && <BlindBoxPanel />}
    </section>
  );
}

// ---- The check-in ladder ----------------------------------------------------------------------

function LadderPanel() {
  const [loaded, error] = useLoad(() => consoleApi(consoleCheckInLadder), 'ladder');
  if (!loaded) return <ErrorLine error={error} />;
  return <LadderForm first={loaded.ladder} />;
}

function LadderForm({ first }: { first: string[] }) {
  const { t } = useLingui();
  const [saved, setSaved] = useState(first);
  const [steps, setSteps] = useState(first);
  const { busy, outcome, run, clear } = useSave();
  const edit = (next: string[]) => {
    setSteps(next);
    clear();
  };
  const save = () =>
    run(async () => {
      const now = await consoleApi(consoleSetCheckInLadder, { ladder: steps.map(sentNumber).join(',') });
      setSaved(now.ladder);
      setSteps(now.ladder);
    });
  return (
    <div className="console-panel">
      <p className="console-muted">
        <Trans>
          Points paid for each consecutive day of check-in. The last step pays every later day of a run; a missed day
          starts again at day 1. A change pays from the next check-in on.
        </Trans>
      </p>
      <ol className="console-ladder" aria-label={t`Check-in ladder`}>
        {steps.map((step, index) => (
          <li key={index}>
            <label>
              {index === steps.length - 1 ? t`Day ${index + 1} and on` : t`Day ${index + 1}`}
              <input
                inputMode="numeric"
                value={step}
                className={step !== saved[index] ? 'console-changed' : ''}
                onChange={(event) => edit(steps.map((value, at) => (at === index ? event.target.value : value)))}
              />
            </label>
            {steps.length > 1 && (
              <button
                type="button"
                className="small"
                aria-label={t`Remove day ${index + 1}`}
                onClick={() => edit(steps.filter((_value, at) => at !== index))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ol>
      <div className="console-panel-actions">
        <button type="button" onClick={() => edit([...steps, steps.at(-1) ?? ''])}>
          <Trans>Add a day</Trans>
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || steps.join(',') === saved.join(',')}
          onClick={() => void save()}
        >
          <Trans>Save the ladder</Trans>
        </button>
      </div>
      <OutcomeLine outcome={outcome} done={<Trans>Saved. It pays from the next check-in on.</Trans>} />
    </div>
  );
}

// ---- The welfare tasks -----------------------------------------------------------------------

const welfareTerms = (task: ConsoleWelfareTask): Record<WelfareTaskTerm, string> => ({
  reward: plain(task.reward),
  asset: task.asset,
  active: String(task.active),
});

function WelfarePanel() {
  const { t } = useLingui();
  const [tasks, error] = useLoad(() => consoleApi(consoleWelfareTasks), 'welfare');
  const names: Record<string, string> = {
    primary_certification: t`Primary certification verified`,
    first_recharge: t`First recharge credited`,
    first_option: t`First option placed`,
    friend_certified: t`An invited friend certified`,
  };
  return (
    <div className="console-panel">
      <p className="console-muted">
        <Trans>
          Each task pays its reward once, when the customer claims it with the condition met. A change applies to claims
          to come; a claim already paid keeps what it paid.
        </Trans>
      </p>
      <ErrorLine error={error} />
      {tasks && (
        <div className="console-table-wrap">
          <table className="console-table console-terms">
            <thead>
              <tr>
                <th>{t`Task`}</th>
                <th>{t`Reward`}</th>
                <th>{t`Paid in`}</th>
                <th>{t`Offered`}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <WelfareRow key={task.code} task={task} name={names[task.code] ?? task.code} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function WelfareRow({ task, name }: { task: ConsoleWelfareTask; name: string }) {
  const { t } = useLingui();
  const [saved, setSaved] = useState(welfareTerms(task));
  const [values, setValues] = useState(saved);
  const { busy, outcome, run, clear } = useSave();
  const changed = WELFARE_TASK_TERMS.filter((term) => values[term] !== saved[term]);
  const set = (term: WelfareTaskTerm, value: string) => {
    setValues({ ...values, [term]: value });
    clear();
  };
  const save = () =>
    run(async () => {
      const now = welfareTerms(
        await consoleApi(consoleChangeWelfareTask, {
          code: task.code,
          ...Object.fromEntries(
            changed.map((term) => [term, term === 'reward' ? sentNumber(values[term]) : values[term]]),
          ),
        }),
      );
      setSaved(now);
      setValues(now);
    });
  return (
    <>
      <tr aria-label={name} className={outcome ? 'console-terms-noted' : ''}>
        <td>
          {name}
          <div className="console-muted console-code">{task.code}</div>
        </td>
        <td>
          <input
            aria-label={t`Reward`}
            inputMode="decimal"
            value={values.reward}
            className={values.reward !== saved.reward ? 'console-changed' : ''}
            onChange={(event) => set('reward', event.target.value)}
          />
        </td>
        <td>
          <select aria-label={t`Paid in`} value={values.asset} onChange={(event) => set('asset', event.target.value)}>
            {WELFARE_ASSETS.map((asset) => (
              <option key={asset} value={asset}>
                {asset}
              </option>
            ))}
          </select>
        </td>
        <td>
          <input
            type="checkbox"
            aria-label={t`Offered`}
            checked={values.active === 'true'}
            onChange={(event) => set('active', String(event.target.checked))}
          />
        </td>
        <td>
          <button
            type="button"
            className="primary small"
            disabled={busy || changed.length === 0}
            onClick={() => void save()}
            aria-label={t`Save ${name}`}
          >
            <Trans>Save</Trans>
          </button>
        </td>
      </tr>
      {outcome && (
        <tr className="console-terms-note">
          <td colSpan={5}>
            <OutcomeLine outcome={outcome} done={<Trans>Saved. Claims already paid keep what they paid.</Trans>} />
          </td>
        </tr>
      )}
    </>
  );
}
