// Pieces of the activity pages: the period and status of an activity, and the recent wins.
import { Trans, useLingui } from '@lingui/react/macro';
import type { ActivitySummary, WinLine } from '../../api-contract/activities.ts';
import { formatExact } from '../../lib/format.ts';
import { BellIcon } from '../../ui/icons.tsx';
import { StatusBadge } from '../../ui/records.tsx';
import { ScrollingLines } from '../../ui/ScrollingLines.tsx';
import { formatDay } from './activities-store.ts';

export function Period({ activity }: { activity: Readonly<ActivitySummary> }) {
  const from = formatDay(activity.starts_at);
  const to = activity.ends_at ? formatDay(activity.ends_at) : null;
  return (
    <span className="activity-period">
      {to ? (
        <Trans>
          <bdi>{from}</bdi> – <bdi>{to}</bdi>
        </Trans>
      ) : (
        <Trans>
          From <bdi>{from}</bdi>
        </Trans>
      )}
    </span>
  );
}

export function Status({ status }: { status: ActivitySummary['status'] }) {
  if (status === 'running')
    return (
      <StatusBadge tone="good">
        <Trans>In progress</Trans>
      </StatusBadge>
    );
  if (status === 'upcoming')
    return (
      <StatusBadge tone="wait">
        <Trans>Coming soon</Trans>
      </StatusBadge>
    );
  return (
    <StatusBadge tone="bad">
      <Trans>Ended</Trans>
    </StatusBadge>
  );
}

/** The real recent wins of the blind box, one line at a time. */
export function WinNotice({ wins }: { wins: readonly WinLine[] }) {
  const { t } = useLingui();
  const lines = wins.map((win) => {
    const name = win.username;
    const value = formatExact(win.amount);
    const prize = win.asset === 'POINT' ? t`${value} points` : `${value} ${win.asset}`;
    return {
      key: win.id,
      content: (
        <Trans>
          <bdi dir="ltr">{name}</bdi> won <bdi dir="ltr">{prize}</bdi> in the blind box
        </Trans>
      ),
    };
  });
  return <ScrollingLines lines={lines} label={t`Recent wins`} lead={<BellIcon />} />;
}
