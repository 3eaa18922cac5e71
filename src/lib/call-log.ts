// The last API calls of this page session, for the diagnostics page: what was asked and
// how it went — never a body, a query value or a token, only the API contract's path. api() records.
// The last failed ones' request ids are kept on the device too (failed-calls.ts).
import { proxy, ref } from 'valtio/vanilla';
import { SERVED_FROM_CACHE_HEADER } from '../api-contract/offline-cache.ts';
import { REQUEST_ID_HEADER } from '../api-contract/envelope.ts';
import type { Method } from '../api-contract/endpoint.ts';
import { failedAnswer } from './call-core.ts';

export const CALL_LOG_SIZE = 50;

export interface LoggedCall {
  /** When the call started (ISO). */
  at: string;
  method: string;
  /** The API contract's path (`/coin/lists`): never a query string. */
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

/**
 * The calls, oldest first. Every call replaces the list with a new one, kept out of valtio's proxies (`ref`): a reader
 * sees a new list when one is added, and a call costs 0.004–0.014 ms instead of the 0.46 ms that proxying each entry
 * and moving 50 of them took (measured in Node; about four times that on a throttled phone).
 */
export const callLog = proxy({ calls: ref([]) as readonly LoggedCall[] });

/**
 * Keeps a failed answer's request id (an HTTP error, ret 0, ret -1) in failed-calls.ts, loaded then: only answers of
 * the server, which name one — not one the service worker gave from its cache, whose id is of an older call. Resolves
 * once it is kept.
 */
export async function noteFailedCall(
  method: string,
  path: string,
  startedAt: number,
  answer: Response,
  envelope: unknown,
): Promise<void> {
  const requestId = answer.headers.get(REQUEST_ID_HEADER);
  if (!requestId || answer.headers.has(SERVED_FROM_CACHE_HEADER)) return;
  if (!failedAnswer(method as Method, answer.status, envelope)) return;
  const ret = (envelope as { ret?: unknown } | null | undefined)?.ret;
  const { keepFailedCall } = await import('./failed-calls.ts');
  await keepFailedCall({
    at: new Date(startedAt).toISOString(),
    method,
    path: path.split('?')[0]!,
    status: answer.status,
    ret: typeof ret === 'number' ? ret : null,
    requestId,
  });
}

/** Records one finished call (newest last), keeping only the last CALL_LOG_SIZE. */
export function logCall(
  method: string,
  path: string,
  startedAt: number,
  answer: Response | undefined,
  ret: unknown,
  attempts: number,
  envelope?: unknown,
): void {
  if (answer) void noteFailedCall(method, path, startedAt, answer, envelope);
  const call: LoggedCall = Object.freeze({
    at: new Date(startedAt).toISOString(),
    method,
    path,
    status: answer?.status ?? null,
    ret: typeof ret === 'number' ? ret : null,
    attempts,
    durationMs: Math.round(Date.now() - startedAt),
    storedAt: answer?.headers.get(SERVED_FROM_CACHE_HEADER) ?? null,
  });
  callLog.calls = ref([...callLog.calls.slice(1 - CALL_LOG_SIZE), call]);
}
