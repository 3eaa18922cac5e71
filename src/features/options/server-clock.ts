// The server's clock as this device estimates it. Order end times are server times, so a countdown
// must reach zero when the server's clock does, whatever this device's clock says (and also when a
// test server runs its clock faster than real time).
import { useSyncExternalStore } from 'react';
import type { TickEvent } from '../../api-contract/markets.ts';
import type { OptionOrder } from '../../api-contract/options.ts';

/** Server time minus device time, in ms. */
let offsetMs = 0;
/** Device time of the last reading that was kept. */
let lastKept = Number.NEGATIVE_INFINITY;
/** A lower reading replaces the estimate only once the kept one is this old. */
const READING_TTL_MS = 10_000;

export const serverNow = () => Date.now() + offsetMs;

/**
 * Every reading is a lower bound of the server's time when it arrives (the server's time when it
 * was sent, minus the trip), so the highest recent reading is the best estimate.
 */
function reading(serverTime: number, receivedAt: number): void {
  if (!Number.isFinite(serverTime)) return;
  const candidate = serverTime - receivedAt;
  if (candidate >= offsetMs || receivedAt - lastKept > READING_TTL_MS) {
    offsetMs = candidate;
    lastKept = receivedAt;
  }
}

/** Every streamed tick carries the server time it was recorded at. */
export function syncClockFromTicks(ticks: readonly TickEvent[]): void {
  let latest = Number.NEGATIVE_INFINITY;
  for (const tick of ticks) latest = Math.max(latest, Date.parse(tick.at));
  reading(latest, Date.now());
}

/** A holding order tells how many seconds its end is away on the server's clock. */
export function syncClockFromOrder(
  order: Pick<OptionOrder, 'end_at' | 'remaining_seconds' | 'status'>,
  receivedAt = Date.now(),
): void {
  if (order.status !== 'holding' || order.end_at === null || order.remaining_seconds <= 0) return;
  // remaining_seconds is rounded up, so this too is a lower bound.
  reading(Date.parse(order.end_at) - order.remaining_seconds * 1000, receivedAt);
}

/** A just placed order started at the server's time of placing it. */
export function syncClockFromPlacement(order: Pick<OptionOrder, 'start_at'>, receivedAt = Date.now()): void {
  reading(Date.parse(order.start_at), receivedAt);
}

/** Milliseconds left until `endAt` (ISO) on the server's clock; 0 once due. */
export const remainingMs = (endAt: string, now = serverNow()) => Math.max(0, Date.parse(endAt) - now);

// One shared ticker for every countdown on screen, running only while one is shown.
const TICK_MS = 250;
const listeners = new Set<() => void>();
let current = serverNow();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    current = serverNow();
    timer = setInterval(() => {
      current = serverNow();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/** The server's time, re-read four times a second while the component is mounted. */
export function useServerNow(): number {
  return useSyncExternalStore(subscribe, () => current);
}
