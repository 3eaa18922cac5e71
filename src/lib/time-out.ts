// The customer's time-out as the server last said it, for the order forms (options, contracts, lock-up, liquidity):
// while one lasts they show the time-out panel (ui/TimeoutGate.tsx) in place of their order buttons. Asked for when
// a form opens; its end is counted on this device's clock from the seconds the answer said were left (from the moment
// the service worker stored it, for a cached answer), so a device clock that is wrong neither ends it nor keeps it. The
// limits page and the reminder, which read the same call, tell it too. Gone with the session.
import { useEffect, useState } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/vanilla/utils';
import { protection } from '../api-contract/protection-read.ts';
import { api } from './api.ts';
import { offlineData } from './offline.ts';
import { session } from './session.ts';

export const timeOut = proxy({
  /** When it ends (ISO, the server's moment); '' while none is in force. */
  until: '',
  /** When it ends on this device's clock (ms since the epoch). */
  endsAt: 0,
});

/**
 * When an answer of `path` was received, on this device's clock: when the service worker stored it, for a cached one.
 */
export function receivedAt(path: string): number {
  const storedAt = offlineData.asOf[path];
  const at = storedAt ? Date.parse(storedAt) : NaN;
  return Number.isFinite(at) ? at : Date.now();
}

/** Takes the time-out from an answer of the protection call received at `at` (this device's clock). */
export function noteTimeOut(
  answer: { limits: { timeout_until: string }; timeout_seconds_left: number },
  at = Date.now(),
): void {
  timeOut.until = answer.timeout_seconds_left > 0 ? answer.limits.timeout_until : '';
  timeOut.endsAt = at + answer.timeout_seconds_left * 1000;
}

/** Asks the server (quietly: the forms work on while it answers); an answer for an earlier session is dropped. */
export async function loadTimeOut(): Promise<void> {
  const token = session.token;
  if (!token) return;
  const answer = await api(protection, undefined, { loading: false });
  if (token === session.token) noteTimeOut(answer, receivedAt(protection.path));
}

/** A timer's longest delay: a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The end of the time-out in force (ISO), or '': asked for when a form opens, and '' from the moment it ends. */
export function useTimeOut(): string {
  const { until, endsAt } = useSnapshot(timeOut);
  const { token } = useSnapshot(session);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    loadTimeOut().catch(() => undefined);
  }, [token]);
  const lasts = Boolean(until) && endsAt > now;
  useEffect(() => {
    if (!lasts) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(endsAt - now + 50, LONGEST_TIMER_MS));
    return () => clearTimeout(timer);
  }, [lasts, endsAt, now]);
  return lasts ? until : '';
}

// Another session (logout, another user) starts without one.
subscribeKey(session, 'token', () => Object.assign(timeOut, { until: '', endsAt: 0 }));
