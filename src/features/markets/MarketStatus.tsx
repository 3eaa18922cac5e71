// The freshness of the prices on screen: "Offline — as of HH:MM" when offline the list came from
// the service worker's cache or a refresh failed, "Reconnecting…" while the live stream is down.
// Nothing while prices are live.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans } from '@lingui/react/macro';
import { coinList } from '../../api-contract/markets.ts';
import { priceStream, prices } from '../../lib/prices.ts';
import { OfflineNote, useOfflineSince } from '../../ui/OfflineNote.tsx';
import { coinListState, formatChange, formatClock, isListStale } from './markets-store.ts';

/** The first connection gets this long before it counts as "reconnecting" (no flash on open). */
const FIRST_CONNECT_GRACE_MS = 2000;

export function MarketStatus() {
  const { status } = useSnapshot(priceStream);
  const { updatedAt } = useLiveSnapshot(prices);
  const { failure } = useSnapshot(coinListState);
  const [grace, setGrace] = useState(true);
  const cachedSince = useOfflineSince([coinList]);

  useEffect(() => {
    const timer = setTimeout(() => setGrace(false), FIRST_CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);

  if (cachedSince) return <OfflineNote endpoints={[coinList]} />;
  if (isListStale(failure, updatedAt) && updatedAt) {
    const time = formatClock(updatedAt);
    return (
      <p className="market-status offline" role="status">
        <Trans>Offline — as of {time}</Trans>
      </p>
    );
  }
  if (status === 'reconnecting' || (status === 'connecting' && !grace)) {
    return (
      <p className="market-status" role="status">
        <Trans>Reconnecting…</Trans>
      </p>
    );
  }
  return null;
}

/** A signed 24 h change on a green or red pill. */
export function ChangePill({ change }: { change: string }) {
  const { up, text } = formatChange(change);
  return (
    <span className={up ? 'change-pill up' : 'change-pill down'} dir="ltr">
      {text}
    </span>
  );
}
