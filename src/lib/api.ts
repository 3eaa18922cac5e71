// The app's one API client: ky with the retry policy,
// the 5-attempt cap, the Idempotency-Key on writes, and the envelope rules, unwrapped here only.
import ky, { HTTPError, TimeoutError, type KyInstance, type KyResponse, type Options } from 'ky';
import { i18n } from '@lingui/core';
import type { Endpoint, InputOf, ResultOf } from '../api-contract/endpoint.ts';
import {
  IDEMPOTENCY_BUSY_HEADER,
  IDEMPOTENCY_HEADER,
  LANG_HEADER,
  RET_TOKEN_INVALID,
  TOKEN_HEADER,
  type Envelope,
} from '../api-contract/envelope.ts';
import {
  MAX_ATTEMPTS,
  REQUEST_TIMEOUT_MS,
  TOKEN_REDIRECT_DELAY_MS,
  IDEMPOTENCY_KEY_RETENTION_MS,
  SENT_AT_SKEW_MS,
} from '../api-contract/constants.ts';
import { httpStatusText, texts } from '../api-contract/texts.ts';
import { loginRoute, ROUTES } from '../api-contract/routes.ts';
import { session, clearSession } from './session.ts';
import { endLoading, maskSignal, startLoading } from './loading.ts';
import { toast } from './toast.ts';
import { currentRoute, navigate } from './navigation.ts';
import { currentLocale, requestLanguage } from './i18n.ts';
import { knownOffline, noteAnswer, noteNetworkFailure } from './offline.ts';
import { logCall, noteFailedCall } from './call-log.ts';
import { callHeaders, formFields, needsIdempotencyKey, newUuid, readEnvelope } from './call-core.ts';

/** A call that failed, with the text to show the user. */
export class ApiError extends Error {
  /** The envelope's ret when the server answered; undefined for transport failures. */
  declare readonly ret?: number;
  /** The HTTP status, when there was an answer. */
  declare readonly status?: number;
  /** The request field a refusal is about (the envelope's `field`), when the server named one. */
  declare readonly field?: string;

  constructor(message: string, ret?: number, status?: number, field?: string) {
    super(message);
    this.ret = ret;
    this.status = status;
    this.field = field;
    this.name = 'ApiError';
  }
}

/**
 * Whether `error` is the server's refusal of a call (an answer with ret 0): an outcome, so sending the same again
 * cannot help. Not a call with no answer (a lost connection, "still being processed": no ret) nor an ended session
 * (ret -1), after which the same may still be sent once signed in again.
 */
export const refusedByServer = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.ret !== undefined && error.ret !== RET_TOKEN_INVALID;

export interface CallOptions {
  /** Show the loading mask (default true; background refreshes pass false). */
  loading?: boolean;
  /** On ret -1 show msg and go to login after 800 ms (default: the endpoint needs a login). */
  redirectOnInvalidToken?: boolean;
  /** The multipart body of an upload endpoint. */
  formData?: FormData;
  signal?: AbortSignal;
  /** A write's Idempotency-Key given by the caller (a write kept in the outbox keeps its own). */
  idempotencyKey?: string;
}

const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

interface ApiSetup {
  fetch?: typeof fetch;
  /** Milliseconds to wait before retry n (1-based). */
  retryDelay?: (attempt: number) => number;
  base?: string;
}

let client: KyInstance;
let setup: ApiSetup = {};

/** Tests swap fetch and the backoff; the app uses the defaults. A new client joins no read of the old one. */
export function configureApi(options: ApiSetup): void {
  setup = options;
  client = createClient();
  sharedReads.clear();
  prefetched.clear();
  unanswered.clear();
}

/** The absolute URL of an API path, for what ky does not fetch (the price stream, pictures). */
export function apiUrl(path: string): string {
  return `${apiBase()}${path.replace(/^\//, '')}`;
}

/**
 * The absolute URL of a path the API server serves outside /api/ (a `/.well-known/…` document), for a link a customer
 * opens or copies: the same server as the calls.
 */
export function serverUrl(path: string): string {
  return new URL(path, apiBase()).href;
}

function apiBase(): string {
  const base = setup.base ?? import.meta.env.VITE_API_BASE ?? '';
  // ky needs an absolute prefix (Node's Request in tests rejects relative URLs).
  return new URL(`${base.replace(/\/$/, '')}/api/`, location.href).href;
}

function createClient(): KyInstance {
  return ky.create({
    prefixUrl: apiBase(),
    timeout: REQUEST_TIMEOUT_MS,
    fetch: setup.fetch,
    throwHttpErrors: true,
    retry: {
      limit: MAX_ATTEMPTS - 1,
      methods: ['get', 'post'],
      statusCodes: RETRY_STATUSES,
      afterStatusCodes: [413, 429, 503],
      maxRetryAfter: 10_000,
      backoffLimit: 8_000,
      delay: setup.retryDelay ?? ((attempt) => 300 * 2 ** (attempt - 1)),
      // Offline, a retry cannot help: fail at once (the service worker has answered what it kept).
      shouldRetry: () => (knownOffline() ? false : undefined),
    },
  });
}

/**
 * Calls an endpoint of the API contract and resolves with its `data`.
 * A GET fails on any ret ≠ 1, a POST on ret 0 or -1; ret -1 also ends the session.
 */
export async function api<E extends Endpoint>(
  endpoint: E,
  input?: InputOf<E>,
  options: CallOptions = {},
): Promise<ResultOf<E>> {
  client ??= createClient();
  const write = needsIdempotencyKey(endpoint);
  const post = endpoint.method === 'POST';
  if (write && typeof navigator !== 'undefined' && navigator.onLine === false)
    throw new ApiError(i18n._(texts.offline));

  const sentWith = session.token;
  const headers = requestHeaders(sentWith);
  const fields = formFields(input);
  // One key for every attempt of this call, so the server applies a retried write once; and the key of the same write
  // whose answer never came, so sending it again (a second tap once back online) is applied once too.
  const same = write && !options.idempotencyKey && !options.formData ? sameWrite(endpoint, sentWith, fields) : '';
  const earlier = same ? unansweredSince(same) : undefined;
  if (write) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey ?? earlier?.key ?? newIdempotencyKey();
  // When the write was first sent under this key: the write-outcome lookup is asked with it.
  const firstSentAt = earlier?.sentAt ?? Date.now();
  const showMask = options.loading !== false;
  const kind = write ? 'write' : 'read';
  // A read under the mask stops when the user cancels it there (the mask never offers it for a write).
  const signal = showMask && !write ? anySignal(options.signal, maskSignal()) : options.signal;
  const shareKey = write || post ? null : readKey(endpoint, fields, headers);
  if (showMask) startLoading(kind);
  try {
    if (!shareKey) {
      let envelope: Envelope<ResultOf<E>>;
      // Kept on the device before it leaves, so a page closed or reloaded before its answer still asks about it.
      if (same) await writeSending(endpoint.path, headers[IDEMPOTENCY_HEADER]!, fields, firstSentAt);
      try {
        envelope = await send(endpoint, headers, fields, signal, options.formData);
      } catch (error) {
        // No answer: kept until one comes (the oldest forgotten past UNANSWERED_MAX).
        if (same) {
          unanswered.delete(same);
          if (unanswered.size >= UNANSWERED_MAX) unanswered.delete(unanswered.keys().next().value!);
          unanswered.set(same, {
            key: headers[IDEMPOTENCY_HEADER]!,
            sentAt: firstSentAt,
            sentTick: earlier?.sentTick ?? performance.now(),
          });
          lostAnswer(endpoint.path, headers[IDEMPOTENCY_HEADER]!, fields, firstSentAt);
        }
        throw error;
      }
      if (same) {
        unanswered.delete(same);
        writeAnswered(headers[IDEMPOTENCY_HEADER]!);
      }
      return settle(endpoint, envelope, options, sentWith);
    }
    // A read in flight while a write was answered may hold the state from before that write, and its caller would lay
    // it over what the write's caller has just shown (a seed rotated, then the seed read as the page opened arriving
    // after it): such a read is asked again, at most READ_ASKS times in all, so its answer is newer than the write.
    let prefetchedAnswer = takePrefetched(shareKey);
    for (let asks = 1; ; asks += 1) {
      const writesBefore = writesAnswered;
      const inFlight = prefetchedAnswer ?? sharedReads.get(shareKey);
      prefetchedAnswer = undefined;
      let envelope: Envelope<ResultOf<E>>;
      // A copy: each caller may do what it likes with its answer.
      if (inFlight) envelope = structuredClone(await untilAborted(inFlight, signal)) as Envelope<ResultOf<E>>;
      else {
        const asked = send(endpoint, headers, fields, signal);
        // Only a read that nobody can cancel is shared: another caller's cancel must not end it for all.
        if (!signal) shareRead(shareKey, asked);
        envelope = await asked;
      }
      if (writesAnswered === writesBefore || asks >= READ_ASKS) return settle(endpoint, envelope, options, sentWith);
    }
  } finally {
    if (showMask) endLoading(kind);
    // A read asked after a write joins nothing asked before it: that answer may predate the write (a list read as a
    // page opened, joined by the read after a deletion, would show the deleted row again).
    if (write || post) {
      writesAnswered += 1;
      sharedReads.clear();
      prefetched.clear();
    }
  }
}

/**
 * The Idempotency-Key of each write sent and not answered (its connection failed or timed out after sending: the
 * server may have applied it), with when it was first sent under that key (ms, UTC), by the same write: call, session
 * and fields (not the language). Forgotten once any answer comes; kept in memory for this page's life, at most
 * UNANSWERED_MAX, the oldest dropped first.
 */
const unanswered = new Map<string, UnansweredWrite>();
const UNANSWERED_MAX = 16;

/**
 * A write sent and not answered: its Idempotency-Key and when it was first sent under it (`sentAt`: ms, UTC, as the
 * write-outcome lookup is told; `sentTick`: performance.now(), which no change of the device's clock moves).
 */
export interface UnansweredWrite {
  key: string;
  sentAt: number;
  sentTick: number;
}

/** The age past which a key may be gone from the server, less the margin for the device's clock (ms). */
const KEY_REUSE_MS = IDEMPOTENCY_KEY_RETENTION_MS - SENT_AT_SKEW_MS;

/**
 * The unanswered write `same`, unless its key is so old the server may have deleted it (IDEMPOTENCY_KEY_RETENTION_MS):
 * a page left open that long sends the same write as a new one, since under the old key it could be applied a second
 * time. Old by either clock: the device's (counts while it sleeps, but can be set back) or the page's own (cannot).
 */
function unansweredSince(same: string): UnansweredWrite | undefined {
  const earlier = unanswered.get(same);
  const tooOld =
    earlier && (Date.now() - earlier.sentAt > KEY_REUSE_MS || performance.now() - earlier.sentTick > KEY_REUSE_MS);
  if (!tooOld) return earlier;
  unanswered.delete(same);
  return undefined;
}

/** What makes two writes the same one in `unanswered`: the call, the session it was sent with and its fields. */
const sameWrite = (endpoint: Endpoint, token: string | null, fields: Record<string, string>) =>
  `${endpoint.path}\n${token}\n${new URLSearchParams(fields)}`;

/**
 * The Idempotency-Key under which this session sent `endpoint` with `input` and got no answer (the connection failed
 * or timed out after sending: the server may have applied it), with when it was first sent under it, kept by api() for
 * the same write sent again; undefined once an answer came, when it was never sent, or when the key is too old to be
 * sent again (unansweredSince). What to ask the write-outcome lookup about.
 */
export function unansweredWrite<E extends Endpoint>(endpoint: E, input?: InputOf<E>): UnansweredWrite | undefined {
  return unansweredSince(sameWrite(endpoint, session.token, formFields(input)));
}

type LostAnswerListener = (path: string, key: string, fields: Record<string, string>, sentAt: number) => void;
/**
 * Told of each such write (its path, Idempotency-Key, fields and when it was first sent under that key, ms UTC) when
 * its answer is lost (set at start: main.tsx).
 */
let lostAnswer: LostAnswerListener = () => undefined;
/** Sets the one listener told of writes whose answer was lost. */
export const onLostAnswer = (listener: LostAnswerListener) => void (lostAnswer = listener);
/**
 * Told of each write before it is sent (its path, Idempotency-Key, fields and when it was first sent under that key,
 * ms UTC); what it returns is waited for before the write leaves (its record on the device). Then told of its key once
 * its answer came (a lost answer goes to the LostAnswerListener instead). Set at start (main.tsx).
 */
let writeSending: (...write: Parameters<LostAnswerListener>) => Promise<void> | undefined = () => undefined;
let writeAnswered: (key: string) => void = () => undefined;
/** Sets the listeners told of each write before it leaves and when its answer came. */
export function onWriteSending(
  sending: (...write: Parameters<LostAnswerListener>) => Promise<void> | undefined,
  answered: (key: string) => void,
): void {
  writeSending = sending;
  writeAnswered = answered;
}

/**
 * Sends the next identical write with a new key: the server said it never received `key`, or refused it (nothing was
 * done), and a key asked about that way is given up, so sending it again would be refused as reused.
 */
export function forgetUnanswered(key: string): void {
  for (const [same, kept] of unanswered) if (kept.key === key) unanswered.delete(same);
}

/** Writes (and other POSTs) answered or failed so far: a read that saw this change while in flight is asked again. */
let writesAnswered = 0;
/** The most times one read is asked because writes were answered while it was in flight (then its answer stands). */
const READ_ASKS = 3;

/** The headers of every call: JSON, the language, the session's token (or the one the call is sent with). */
const requestHeaders = (token = session.token): Record<string, string> => callHeaders(currentLocale(), token);

/** The same read: call, input, session and language. */
const readKey = (endpoint: Endpoint, fields: Record<string, string>, headers: Record<string, string>) =>
  `${endpoint.path}?${new URLSearchParams(fields)}\n${headers[TOKEN_HEADER] ?? ''}\n${headers[LANG_HEADER]}`;

/**
 * Reads on their way that the same read (same call, input, session and language) joins instead of
 * asking again: at start several screens want the coin list, the config and the unread count at once.
 */
const sharedReads = new Map<string, Promise<Envelope<unknown>>>();

/** Lets later identical reads join `asked` until it settles. */
function shareRead(key: string, asked: Promise<Envelope<unknown>>): void {
  sharedReads.set(key, asked);
  void asked.catch(() => undefined).finally(() => sharedReads.get(key) === asked && sharedReads.delete(key));
}

/** Answers asked for ahead of the page that wants them (prefetch), each kept for its first caller. */
const prefetched = new Map<string, { envelope: Promise<Envelope<unknown>>; until: number }>();
/** How long a prefetched answer waits for its page: a page that comes later asks afresh. */
const PREFETCH_KEPT_MS = 10_000;

/**
 * A read asked for this recently stands for a screen or stream that would ask it again at once: at
 * an app start, what the start has just asked for (the unread count, the coin list).
 */
export const FRESH_READ_MS = 5000;

function takePrefetched(key: string): Promise<Envelope<unknown>> | undefined {
  const kept = prefetched.get(key);
  prefetched.delete(key);
  return kept && kept.until > Date.now() ? kept.envelope : undefined;
}

/**
 * Asks for a read before the page that shows it has loaded (at start, while its code arrives): the
 * page's first identical call takes this answer, arrived or on its way, instead of asking again.
 * Nothing is shown for it: the page's call reports what it finds.
 */
export function prefetch<E extends Endpoint>(endpoint: E, input?: InputOf<E>): void {
  client ??= createClient();
  if (!endpoint.readOnly || endpoint.method !== 'GET') return;
  const headers = requestHeaders();
  const fields = formFields(input);
  const key = readKey(endpoint, fields, headers);
  const envelope = send(endpoint, headers, fields);
  prefetched.set(key, { envelope, until: Date.now() + PREFETCH_KEPT_MS });
  shareRead(key, envelope);
  // A failed one is not kept: the page asks again.
  void envelope.catch(() => prefetched.get(key)?.envelope === envelope && prefetched.delete(key));
}

/** One request to the server (with its retries), logged for the diagnostics page; the envelope as received. */
async function send<E extends Endpoint>(
  endpoint: E,
  headers: Record<string, string>,
  fields: Record<string, string>,
  signal?: AbortSignal,
  formData?: FormData,
): Promise<Envelope<ResultOf<E>>> {
  const post = endpoint.method === 'POST';
  let attempts = 0;
  // For the diagnostics page's call list: the last answer received (status, cache stamp), never a body.
  let answer: Response | undefined;
  let ret: unknown;
  let received: unknown;
  const startedAt = Date.now();
  try {
    const envelope = await request(
      endpoint.path,
      {
        method: endpoint.method,
        headers,
        searchParams: post ? undefined : fields,
        body: post ? (formData ?? new URLSearchParams(fields)) : undefined,
        signal,
        hooks: { afterResponse: [(_request, _options, response) => void (answer = response)] },
      },
      async (response) => {
        const body = await response.json<Envelope<ResultOf<E>>>();
        // "Still being processed": a copy of this write runs under its key, so this is no outcome yet. It fails as an
        // answer that never came (no ret), with the server's text: the key is kept and the write asked about.
        if (response.headers.get(IDEMPOTENCY_BUSY_HEADER) === 'true') {
          received = body;
          throw new ApiError(body.msg);
        }
        return body;
      },
      (count) => void (attempts = count),
    );
    ret = (envelope as { ret?: unknown } | null)?.ret;
    received = envelope;
    return envelope;
  } finally {
    logCall(endpoint.method, endpoint.path, startedAt, answer, ret, attempts, received);
  }
}

/**
 * One request of `path` (an API path, `/users/info` or `/api/uploads/<id>`) through the client, with its retries:
 * what api() and apiBlob share. Its answer and its failure are told to the offline state (offline.ts: an answer from
 * the network ends "You are offline", one from the service worker's cache is marked; a network gone is noted by
 * transportError), and `read` turns the answer into what the caller wants. `counted` hears each attempt's number (1 for
 * the first).
 * @throws ApiError with the text to show (transportError), or what `read` throws.
 */
function request<T>(
  path: string,
  options: Options,
  read: (response: KyResponse) => Promise<T>,
  counted: (attempts: number) => void = () => undefined,
): Promise<T> {
  client ??= createClient();
  let attempts = 0;
  const hooks = { ...options.hooks, beforeRequest: [() => counted((attempts += 1))] };
  return client(path.replace(/^\/(api\/)?/, ''), { ...options, hooks })
    .then(async (response) => {
      // The service worker marks an answer from its cache; pages show "Offline — as of HH:MM".
      noteAnswer(path, response.headers);
      return read(response);
    })
    .catch((error: unknown) => {
      throw transportError(error, attempts);
    });
}

/** What a joined read resolves with, unless this caller's signal (the mask's cancel) comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ApiError(i18n._(texts.requestCancelled)));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError(i18n._(texts.requestCancelled)));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Aborts when either signal does. */
function anySignal(first: AbortSignal | undefined, second: AbortSignal): AbortSignal {
  if (!first) return second;
  const both = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) both.abort();
    else signal.addEventListener('abort', () => both.abort(), { once: true });
  }
  return both.signal;
}

/**
 * The bytes the API serves at a path such as `/api/uploads/<id>` (a private picture), fetched
 * like every call: with the session's token and language, the retry policy, no loading mask, its answer or its network
 * failure told to the offline state (request).
 */
export async function apiBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const headers: Record<string, string> = { [LANG_HEADER]: requestLanguage(currentLocale()) };
  if (session.token) headers[TOKEN_HEADER] = session.token;
  const startedAt = Date.now();
  return request(
    path,
    {
      method: 'GET',
      headers,
      signal: options.signal,
      hooks: {
        // A picture refused (a 404 envelope, say) is a failed call support may look up.
        afterResponse: [
          (_request, _options, response) =>
            void (response.ok || noteFailedCall('GET', path, startedAt, response, undefined)),
        ],
      },
    },
    (response) => response.blob(),
  );
}

/** `sentWith`: the session token the call was sent with (null: none). */
function settle<E extends Endpoint>(
  endpoint: E,
  envelope: Envelope<ResultOf<E>>,
  options: CallOptions,
  sentWith: string | null,
): ResultOf<E> {
  const outcome = readEnvelope<ResultOf<E>>(endpoint.method, envelope);
  if (outcome.ok) return outcome.data;
  const message = outcome.msg || i18n._(texts.unknownError);
  if (outcome.sessionEnded) {
    // Only the session the call was sent with ends: a late answer for one that already ended here (logged out, or
    // another user signed in since) must not end the newer session, nor send the page the user is on now to login.
    if (sentWith === session.token) {
      void clearSession({ byServer: true });
      if (options.redirectOnInvalidToken ?? endpoint.auth) sendToLogin(message);
    }
    throw new ApiError(message, RET_TOKEN_INVALID);
  }
  throw new ApiError(message, outcome.ret, undefined, outcome.field);
}

let redirecting: ReturnType<typeof setTimeout> | undefined;
/** An invalid token (ret -1): show the message, then go to login after 0.8 s, remembering where the user was. */
function sendToLogin(message: string): void {
  toast(message);
  if (redirecting) return;
  redirecting = setTimeout(() => {
    redirecting = undefined;
    const from = currentRoute();
    if (!from.startsWith(ROUTES.login)) navigate(loginRoute(from));
  }, TOKEN_REDIRECT_DELAY_MS);
}

function transportError(error: unknown, attempts: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Error && error.name === 'AbortError') return new ApiError(i18n._(texts.requestCancelled));
  // Offline with nothing cached for this call: say so, not 'Too many requests!'. A call that finds
  // the network gone keeps the usual texts ('Too many requests!' after its retries), and tells the next calls not
  // to retry.
  const offline = knownOffline();
  if (error instanceof TypeError && !(error instanceof TimeoutError)) noteNetworkFailure();
  if (offline && !(error instanceof HTTPError)) return new ApiError(i18n._(texts.offline));
  const retryable =
    (error instanceof HTTPError && RETRY_STATUSES.includes(error.response.status)) ||
    (error instanceof TypeError && !(error instanceof TimeoutError));
  // After the fifth failed attempt (MAX_ATTEMPTS) the call gives up with 'Too many requests!'.
  if (retryable && attempts >= MAX_ATTEMPTS)
    return new ApiError(
      i18n._(texts.tooManyRequests),
      undefined,
      error instanceof HTTPError ? error.response.status : undefined,
    );
  if (error instanceof HTTPError)
    return new ApiError(i18n._(httpStatusText(error.response.status)), undefined, error.response.status);
  if (error instanceof TimeoutError) return new ApiError(i18n._(texts.noResponse));
  if (error instanceof TypeError) return new ApiError(i18n._(texts.requestError));
  if (error instanceof SyntaxError) return new ApiError(i18n._(texts.unknownError));
  return new ApiError(i18n._(texts.unknownError));
}

/** The text to show for any failure: ours as is, anything else as 'Unknown error'. */
export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : i18n._(texts.unknownError);
}

/** A new Idempotency-Key (a random UUID v4, also on a plain-http host). */
export const newIdempotencyKey = newUuid;
