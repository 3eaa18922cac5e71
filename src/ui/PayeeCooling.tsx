// A new bank card or wallet waits out the cooling-off period before withdrawals may go to it (the
// server refuses them until then): said on the payee, with when and how long, until it is usable.
// The wait counts down on this device's clock from the seconds the server said were left.
import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { formatDate } from '../lib/format.ts';

const MINUTE = 60_000;

/** Redrawn each 30 s (minutes are enough for a wait counted in hours), and at the end, when the note goes. */
function useNowUntil(end: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const left = end - now;
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(30_000, left + 50));
    return () => clearTimeout(timer);
  }, [end, now]);
  return now;
}

/** `usableBy`: device ms from which withdrawals may go to the payee. */
export function PayeeCooling({ usableBy }: { usableBy: number }) {
  const now = useNowUntil(usableBy);
  const left = usableBy - now;
  if (left <= 0) return null;
  const minutes = Math.ceil(left / MINUTE);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const from = formatDate('dayClock', new Date(usableBy));
  return (
    <p className="payee-cooling" role="status">
      <Trans>
        For your safety, withdrawals to it are possible from {from} (in {hours} h {rest} min).
      </Trans>
    </p>
  );
}
