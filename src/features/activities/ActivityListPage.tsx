// Activities (/pages/activeList/index, /content/sale): the recent blind-box wins scrolling,
// then each activity with its cover, title, period and status; a tap opens its details.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { activityList } from '../../api-contract/activities.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Period, Status, WinNotice } from './ActivityParts.tsx';
import { activitiesState, loadActivities, loadWins } from './activities-store.ts';
import './activities.css';

const reload = () => void loadActivities().catch(() => undefined);

export default function ActivityListPage() {
  const { list, loaded, failure, wins } = useSnapshot(activitiesState);
  useEffect(() => {
    reload();
    void loadWins().catch(() => undefined);
  }, []);

  return (
    <div className="page activities-page">
      <NavBar title={<Trans>Activities</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[activityList]} />
        <WinNotice wins={wins} />
        {!loaded && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {loaded && list.length === 0 && (
          <Empty>
            <Trans>No activities at the moment.</Trans>
          </Empty>
        )}
        {list.map((activity) => (
          <Link
            key={activity.id}
            href={`${ROUTES.activityDetails}?id=${activity.id}`}
            className={`card flush activity-card ${activity.status}`}
          >
            {activity.cover && <img className="activity-cover" src={activity.cover} alt="" loading="lazy" />}
            <span className="activity-card-body">
              <strong className="activity-title">{activity.title}</strong>
              <span className="activity-meta">
                <Period activity={activity} />
                <Status status={activity.status} />
              </span>
            </span>
          </Link>
        ))}
      </div>
    </div>
  );
}
