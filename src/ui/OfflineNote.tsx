// "Offline — as of HH:MM": shown while offline when what a page shows came from the service
// worker's cache. A page names the calls its data comes from: <OfflineNote endpoints={[coinList]} />.
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import type { Endpoint } from '../api-contract/endpoint.ts';
import { formatClock } from '../lib/format.ts';
import { offlineData, offlineSince } from '../lib/offline.ts';

/** When the oldest cached answer of `endpoints` on screen was stored (ISO), while offline; else null. */
export function useOfflineSince(endpoints: readonly Endpoint[]): string | null {
  const state = useSnapshot(offlineData);
  return offlineSince(
    state,
    endpoints.map((endpoint) => endpoint.path),
  );
}

export function OfflineNote({ endpoints }: { endpoints: readonly Endpoint[] }) {
  const since = useOfflineSince(endpoints);
  if (!since) return null;
  const time = formatClock(since);
  return (
    <p className="offline-note" role="status">
      <Trans>Offline — as of {time}</Trans>
    </p>
  );
}
