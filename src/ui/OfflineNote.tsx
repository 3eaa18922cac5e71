// "Offline — as of HH:MM" ("as of 12/04, 06:41" when stored on another day): shown when what a page shows came from
// the service worker's cache (a public list only while offline: lib/offline.ts, offlineSince). A page names the calls
// its data comes from: <OfflineNote endpoints={[coinList]} />.
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import type { Endpoint } from '../api-contract/endpoint.ts';
import { formatClock, formatDate } from '../lib/format.ts';
import { offlineData, offlineSince } from '../lib/offline.ts';

/** When the oldest cached answer of `endpoints` on screen was stored (ISO), as offlineSince says; else null. */
export function useOfflineSince(endpoints: readonly Endpoint[]): string | null {
  const state = useSnapshot(offlineData);
  return offlineSince(
    state,
    endpoints.map((endpoint) => endpoint.path),
  );
}

/** The note: the time the answers were stored, with their day when that was not today (this device's day), so what
 * was true yesterday is not read as today's. */
export function OfflineNote({ endpoints }: { endpoints: readonly Endpoint[] }) {
  const since = useOfflineSince(endpoints);
  if (!since) return null;
  const stored = new Date(since);
  const time =
    stored.toDateString() === new Date().toDateString() ? formatClock(since) : formatDate('dayClock', stored);
  return (
    <p className="offline-note" role="status">
      <Trans>Offline — as of {time}</Trans>
    </p>
  );
}
