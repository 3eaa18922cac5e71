// An activity (/pages/activeList/activeDetails?id=N, /content/sale/info): cover, title,
// period, status and the body — rich text sanitised by the server and, the same way, again here
// before it is put on the page.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { activityInfo } from '../../api-contract/activities.ts';
import { sanitizeRichText } from '../../api-contract/rich-text.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Period, Status } from './ActivityParts.tsx';
import { activitiesState, idFromQuery, loadActivity } from './activities-store.ts';
import './activities.css';

export default function ActivityDetailsPage() {
  const id = idFromQuery(useSearch());
  const { details } = useSnapshot(activitiesState);
  const [failure, setFailure] = useState<string | null>(null);
  const activity = id === null ? undefined : details[id];

  useEffect(() => {
    if (id === null) return setFailure(i18n._(texts.activityNotFound));
    setFailure(null);
    loadActivity(id).catch((error) => setFailure(errorText(error)));
  }, [id]);

  return (
    <div className="page activities-page">
      <NavBar title={<Trans>Activity details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[activityInfo]} />
        {!activity && failure && <Empty>{failure}</Empty>}
        {activity && (
          <article className="card flush activity-article">
            {activity.cover && <img className="activity-cover" src={activity.cover} alt="" />}
            <div className="activity-card-body">
              <h2 className="activity-title">{activity.title}</h2>
              <span className="activity-meta">
                <Period activity={activity} />
                <Status status={activity.status} />
              </span>
              {/* Only the allowlist of rich-text.ts survives: no script, handler, style or non-https link. */}
              <div className="activity-body" dangerouslySetInnerHTML={{ __html: sanitizeRichText(activity.body) }} />
            </div>
          </article>
        )}
      </div>
    </div>
  );
}
