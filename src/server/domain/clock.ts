// The time every rule reads: passed in, never taken from the machine inside a rule, so tests set
// it and several processes started with the same origin and speed tell the same market time.
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock running `speed` times faster than real time from `origin` (epoch ms; default now) on —
 * test servers only. Processes given the same origin and speed tell the same time.
 */
export function acceleratedClock(speed: number, origin = Date.now()): Clock {
  return { now: () => new Date(origin + (Date.now() - origin) * speed) };
}
