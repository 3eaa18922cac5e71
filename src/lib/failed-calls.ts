// The last failed calls' request ids, kept on the device across reloads (Diagnostics: "Last failed calls"): the id the
// server logged each under, which support looks up in the log. Loaded only once a call has failed (call-log.ts), so a
// first screen whose calls succeed carries none of it.
import { persistedStore, storeHydrated } from './storage.ts';

export const FAILED_CALLS_KEPT = 10;

/** A failed call as support looks it up: when, which call, and the id its log lines carry. */
export interface FailedCall {
  /** When the call started (ISO). */
  at: string;
  method: string;
  /** The API contract's path (`/users/info`) or the picture's (`/api/uploads/…`): never a query string. */
  path: string;
  status: number;
  ret: number | null;
  /** The answer's x-request-id. */
  requestId: string;
}

/** The last FAILED_CALLS_KEPT failed calls that the server answered (newest last). */
export const failedCalls = persistedStore('failed-calls', { calls: [] as FailedCall[] });

/** Adds `call` once the kept ones are read (a store registered after start is read then: adding before would save
 * over them). */
export async function keepFailedCall(call: FailedCall): Promise<void> {
  await storeHydrated(failedCalls);
  const calls = failedCalls.calls;
  calls.push(call);
  if (calls.length > FAILED_CALLS_KEPT) calls.splice(0, calls.length - FAILED_CALLS_KEPT);
}
