// Welfare (/pages/index/welfare): the reward tasks with the user's progress and reward —
// Claim once the server says the condition holds, Go to where it is met, claimed ones marked. A
// tap on a task opens its details.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { welfareTasks, type WelfareTask } from '../../api-contract/welfare.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { HeldText, RewardText, TaskAction, TaskIcon, TaskProgress } from './WelfareParts.tsx';
import { copyOf, loadWelfare, welfareState } from './welfare-store.ts';
import './welfare.css';

const reload = () => void loadWelfare().catch(() => undefined);

export default function WelfarePage() {
  const { tasks, loaded, failure } = useSnapshot(welfareState);
  useEffect(reload, []);
  const known = tasks.filter((task) => copyOf(task.code));

  return (
    <div className="page welfare-page">
      <NavBar title={<Trans>Welfare</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[welfareTasks]} />
        <section className="card welfare-hero">
          <h2>
            <Trans>Rewards for getting started</Trans>
          </h2>
          <p>
            <Trans>Complete a task, then claim its reward here. Each reward is paid once, into your balance.</Trans>
          </p>
        </section>
        {!loaded && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {loaded && known.length === 0 && (
          <Empty>
            <Trans>No rewards are offered right now.</Trans>
          </Empty>
        )}
        <ul className="welfare-list">
          {known.map((task) => (
            <TaskRow key={task.code} task={task} />
          ))}
        </ul>
      </div>
    </div>
  );
}

function TaskRow({ task }: { task: Readonly<WelfareTask> }) {
  const { i18n } = useLingui();
  const copy = copyOf(task.code)!;
  const percent = task.target > 0 ? Math.min(100, (task.progress / task.target) * 100) : 0;
  return (
    <li className="card welfare-task" data-code={task.code} data-state={task.state}>
      <TaskIcon code={task.code} />
      <Link href={`${ROUTES.welfareDetails}?code=${task.code}`} className="welfare-text">
        <span className="welfare-title">{i18n._(copy.title)}</span>
        <span className="welfare-meta">
          <RewardText task={task} />
          <TaskProgress task={task} />
        </span>
        <HeldText task={task} />
        <span className="welfare-progress" aria-hidden="true">
          <span style={{ inlineSize: `${percent}%` }} />
        </span>
      </Link>
      <span className="welfare-action">
        <TaskAction task={task} />
      </span>
    </li>
  );
}
