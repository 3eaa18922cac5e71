// The last API calls of this page session, for the diagnostics page: what was asked and
// how it went — never a body, a query value or a token, only the contract's path. api() records.
import { proxy } from 'valtio/vanilla';
import { SERVED_FROM_CACHE_HEADER } from '../contract/offline-cache.ts';

export const CALL_LOG_SIZE = 50;

export interface LoggedCall {
  /** When the call started (ISO). */
  at: string;
  method: string;
  /** The contract's path (`/coin/lists`): never a query string. */
  path: string;
  /** The last HTTP status received; null when no answer came (network failure, timeout). */
  status: number | null;
  /** The envelope's ret; null when there was no readable envelope. */
  ret: number | null;
  attempts: number;
  durationMs: number;
  /** When the service worker stored the answer it gave from its cache (ISO); null for a network answer. */
  storedAt: string | null;
}

export const callLog = proxy({ calls: [] as LoggedCall[] });

/** Records one finished call (newest last), keeping only the last CALL_LOG_SIZE. */
export function logCall(
  method: string,
  path: string,
  startedAt: number,
  answer: Response | undefined,
  ret: unknown,
  attempts: number,
): void {
  const calls = callLog.calls;
  calls.push({
    at: new Date(startedAt).toISOString(),
    method,
    path,
    status: answer?.status ?? null,
    ret: typeof ret === 'number' ? ret : null,
    attempts,
    durationMs: Math.round(Date.now() - startedAt),
    storedAt: answer?.headers.get(SERVED_FROM_CACHE_HEADER) ?? null,
  });
  if (calls.length > CALL_LOG_SIZE) calls.splice(0, calls.length - CALL_LOG_SIZE);
}
