// How long the app has been in the foreground on this device since it was opened: the time its page was visible,
// on a monotonic clock (a change of the device's clock does not move it). The reminder of time spent in the app
// (features/protection/reminder.ts) reads it; the start imports this module, so it counts from the first moment.

export interface ForegroundClock {
  /** Milliseconds the page has been visible since the clock started. */
  elapsed(): number;
}

/** A clock of the time `doc` is visible, read with `now` (milliseconds). */
export function foregroundClock(now: () => number, doc: Document): ForegroundClock {
  let total = 0;
  let shownSince: number | null = null;
  const note = () => {
    const visible = doc.visibilityState === 'visible';
    if (visible && shownSince === null) shownSince = now();
    else if (!visible && shownSince !== null) {
      total += now() - shownSince;
      shownSince = null;
    }
  };
  note();
  doc.addEventListener('visibilitychange', note);
  return { elapsed: () => total + (shownSince === null ? 0 : now() - shownSince) };
}

/** This page's clock, from the moment the app started. */
export const inForeground: ForegroundClock =
  typeof document === 'undefined' ? { elapsed: () => 0 } : foregroundClock(() => performance.now(), document);
