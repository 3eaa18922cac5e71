// One welfare task (/pages/index/welfareDetails?code=…): what to do, the reward, where the
// user stands, and its action (Claim, Go, or claimed with the date).
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { WELFARE_CODES, welfareTask, type WelfareCode, type WelfareTask } from '../../api-contract/welfare.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useHashQuery } from '../../lib/navigation.ts';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { HeldText, RewardText, TaskAction, TaskIcon } from './WelfareParts.tsx';
import { copyOf, loadWelfareTask, welfareState } from './welfare-store.ts';
import './welfare.css';

const codeIn = (query: string): WelfareCode | null => {
  const code = new URLSearchParams(query).get('code') ?? '';
  return (WELFARE_CODES as readonly string[]).includes(code) ? (code as WelfareCode) : null;
};

export default function WelfareDetailsPage() {
  const code = codeIn(useHashQuery());
  const { details, detailsFailure } = useSnapshot(welfareState);
  const reload = () => void (code && loadWelfareTask(code).catch(() => undefined));
  useEffect(reload, [code]);
  const task = details && details.code === code ? details : null;

  return (
    <div className="page welfare-page">
      <NavBar title={<Trans>Reward details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[welfareTask]} />
        {!code && (
          <Empty>
            <Trans>This reward does not exist.</Trans>
          </Empty>
        )}
        {code && !task && detailsFailure && <LoadFailure onRetry={reload}>{detailsFailure}</LoadFailure>}
        {task && <Details task={task} />}
      </div>
    </div>
  );
}

function StateText({ task }: { task: Readonly<WelfareTask> }) {
  if (task.state === 'claimed') return <Trans>Claimed</Trans>;
  if (task.state === 'claimable') return <Trans>Ready to claim</Trans>;
  if (task.held) return <HeldText task={task} />;
  return <Trans>Not completed yet</Trans>;
}

function Details({ task }: { task: Readonly<WelfareTask> }) {
  const { i18n } = useLingui();
  const copy = copyOf(task.code)!;
  return (
    <section className="card welfare-details" data-state={task.state}>
      <div className="welfare-task">
        <TaskIcon code={task.code} />
        <h2>{i18n._(copy.title)}</h2>
      </div>
      <p>{i18n._(copy.how)}</p>
      <dl>
        <dt>
          <Trans>Reward</Trans>
        </dt>
        <dd>
          <RewardText task={task} />
        </dd>
        <dt>
          <Trans>Status</Trans>
        </dt>
        <dd>
          <StateText task={task} />
        </dd>
        <dt>
          <Trans>Progress</Trans>
        </dt>
        <dd dir="ltr">
          {task.progress}/{task.target}
        </dd>
        {task.claimed_at && (
          <>
            <dt>
              <Trans>Claimed at</Trans>
            </dt>
            <dd dir="ltr">{formatDateTime(task.claimed_at)}</dd>
          </>
        )}
      </dl>
      <p className="muted">
        <Trans>Each reward is paid once per account. Conditions are checked when you claim.</Trans>
      </p>
      <div className="welfare-details-action">
        <TaskAction task={task} />
      </div>
    </section>
  );
}
