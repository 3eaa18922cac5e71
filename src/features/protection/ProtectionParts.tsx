// Small parts of the limits page and the reminder: a duration in hours and minutes, and a clock that redraws a
// countdown every second.
import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';

/** Hours, minutes and seconds of a duration (ms, rounded down to the second; never below 0). */
export function durationParts(ms: number): { hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

/**
 * A duration: "23 h 59 min", under an hour "59 min 58 s" (`seconds`) or "59 min". Rounded down, so a countdown
 * reaches 0 when its time has come.
 */
export function Duration({ ms, seconds = false }: { ms: number; seconds?: boolean }) {
  const parts = durationParts(ms);
  const { hours, minutes } = parts;
  if (hours > 0)
    return (
      <Trans>
        {hours} h {minutes} min
      </Trans>
    );
  if (!seconds) return <Trans>{minutes} min</Trans>;
  const rest = parts.seconds;
  return (
    <Trans>
      {minutes} min {rest} s
    </Trans>
  );
}

/** This device's clock, redrawn every second while `ticking`. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
