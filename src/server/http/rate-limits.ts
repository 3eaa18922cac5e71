// Request limits that do not lock out a mobile carrier: thousands of customers can share one
// public address, so a logged-in caller is counted per account, and only anonymous calls and the
// authentication calls (login, register, codes) per IP. Fixed one-minute windows, the
// x-ratelimit-* and retry-after headers of @fastify/rate-limit, the 429 envelope from the error
// handler. Where they are counted:
// - on PostgreSQL (DATABASE_URL), the general budgets (an account's calls, an address's anonymous calls) in this
//   process's memory, merged into the table every process shares (request_counters) every MERGE_MS, one statement for
//   all the counters that moved: a call costs no statement. Each process refuses once its own view (the table's total
//   at its last merge plus what it counted since) is over the limit, so with N processes a window admits at most the
//   limit plus what the other processes admit for the same account or address before their counts meet in the table
//   (about a second of its calls each), and never more than N times the limit. The authentication routes' own per-IP
//   limits stay exact: one upsert per request, every process counting against the same row;
// - on the embedded PGlite (one process), in memory, without per-request promises: a call without
//   a token is counted synchronously.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { TOKEN_HEADER } from '../../api-contract/envelope.ts';
import { sharedByProcesses, type Db } from '../db/connection.ts';
import { requestCounters } from '../db/schema.ts';
import { countPrepared, mergeCounts } from '../domain/attempts.ts';
import {
  findSession,
  hashToken,
  lastSeenStepOf,
  noteSeen,
  plausibleToken,
  revokeSession,
  type Caller,
} from '../domain/sessions.ts';
import { sessionState } from '../domain/session-idle.ts';
import type { Services } from './context.ts';
import type { CachedAnswers } from './cached-answers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own per-IP limit (login, codes), requests per minute, instead of the caller's. */
    perAddressPerMinute?: number;
  }
  interface FastifyInstance {
    /** Merges what this app counted of the general request budgets into the table every process shares, now
     * (PostgreSQL; it happens every MERGE_MS anyway, and on close). Nothing to do on the embedded database. */
    mergeRequestCounts: () => Promise<void>;
  }
  interface FastifyRequest {
    /** The session behind the request's token, once callerOf has looked it up (the limiter and the handler share it);
     * null before. Declared on every request (limitRequests) so each has the same shape. */
    sessionCaller: Promise<Caller | null> | null;
    /** That session when it was found in memory without waiting (callerOf's first branch), for the limiter to count at
     * once; null otherwise. */
    sessionKnown: Caller | null;
  }
}

export interface RequestLimits {
  /** Requests per minute of one account (any device, any address). */
  perAccount: number;
  /** Requests per minute of one IP address without a valid token. */
  perAddress: number;
  /** How often the general budgets are merged into the shared table on PostgreSQL (ms); null: only when asked (and on
   * close). MERGE_MS when not given. */
  mergeEveryMs?: number | null;
}

const WINDOW_MS = 60_000;
/** How often a process adds what it counted of the general budgets to the shared table (PostgreSQL). */
export const MERGE_MS = 1_000;
/** Keys per counter; beyond it the oldest windows go (an address flood must not grow memory without end). */
const MAX_KEYS = 50_000;

/** What the error handler answers with the 429 envelope (app.ts): `retryAfterMs`, the time left until the window ends
 * and the budget lets calls through again (ms), said in the envelope's text. */
export type RateLimited = FastifyError & { rateLimited: true; retryAfterMs: number };

interface Window {
  count: number;
  startedAt: number;
}

/** Sets the limit headers of a request counted `count`-th in a window started at `startedAt`; over `max` it gets the
 * error to answer with. */
function answer({ count, startedAt }: Window, max: number, reply: FastifyReply, now: number): RateLimited | undefined {
  const leftMs = WINDOW_MS - (now - startedAt);
  const reset = Math.ceil(leftMs / 1000);
  reply.header('x-ratelimit-limit', max);
  if (count <= max) {
    reply.header('x-ratelimit-remaining', max - count);
    reply.header('x-ratelimit-reset', reset);
    return undefined;
  }
  reply.header('x-ratelimit-remaining', 0);
  reply.header('x-ratelimit-reset', reset);
  reply.header('retry-after', reset);
  return { statusCode: 429, rateLimited: true, retryAfterMs: leftMs } as RateLimited;
}

/**
 * Makes room in a map of windows kept in the order they started (oldest first) before a new key is added: drops the
 * oldest while it has ended and `busy` (work still owed on it) says no, and the oldest whatever their state while the
 * map holds `maxKeys` or more, so memory never grows with what callers send.
 */
function makeRoom<K, W extends { startedAt: number }>(
  windows: Map<K, W>,
  maxKeys: number,
  now: number,
  busy: (window: W) => boolean = () => false,
): void {
  for (const [key, window] of windows) {
    if (windows.size < maxKeys && (window.startedAt + WINDOW_MS > now || busy(window))) break;
    windows.delete(key);
  }
}

/** Requests per key in fixed windows, in this process's memory: a key's window starts at its first request and lasts
 * WINDOW_MS. */
export class RequestCounter<K> {
  private windows = new Map<K, Window>();

  private readonly maxKeys: number;

  constructor(maxKeys = MAX_KEYS) {
    this.maxKeys = maxKeys;
  }

  /** Counts one request of `key` and sets the limit headers; a request over `max` gets the error to answer with. */
  take(key: K, max: number, reply: FastifyReply, now = Date.now()): RateLimited | undefined {
    let window = this.windows.get(key);
    if (!window) {
      makeRoom(this.windows, this.maxKeys, now);
      this.windows.set(key, (window = { count: 0, startedAt: now }));
    } else if (window.startedAt + WINDOW_MS <= now) {
      // A new window: moved to the end, so the map stays ordered by start (the oldest go first).
      this.windows.delete(key);
      this.windows.set(key, window);
      window.count = 0;
      window.startedAt = now;
    }
    window.count++;
    return answer(window, max, reply, now);
  }

  get size() {
    return this.windows.size;
  }
}

/** One counter of a budget counted here and merged into the shared table. */
interface MergedWindow {
  /** When its window started (ms since epoch): the table's, once merged. */
  startedAt: number;
  /** The table's total at the last merge (every process's calls). */
  merged: number;
  /** Calls counted here since then, not yet sent to the table. */
  pending: number;
  /** Calls sent to the table by the merge under way: still counted until its total, which has them, comes back. */
  sending: number;
}

/**
 * Requests per counter name (`account:12`, `address:203.0.113.5`) counted in this process and merged into
 * request_counters by merge() (every MERGE_MS, see limitRequests): what is refused here is refused on the table's total
 * as of the last merge plus this process's calls since. Counts of a window's last second may be merged into the
 * next window (counted twice, never lost); a merge that fails keeps its counts for the next one.
 */
export class MergedCounter {
  private windows = new Map<string, MergedWindow>();
  private merging: Promise<void> | null = null;
  private readonly db: Db;
  private readonly maxKeys: number;

  constructor(db: Db, maxKeys = MAX_KEYS) {
    this.db = db;
    this.maxKeys = maxKeys;
  }

  /** Counts one request of `name` and sets the limit headers; a request over `max` gets the error to answer with. */
  take(name: string, max: number, reply: FastifyReply, now = Date.now()): RateLimited | undefined {
    let window = this.windows.get(name);
    if (!window) {
      // One with calls not yet merged is kept while there is room: dropped, they would never reach the table.
      makeRoom(this.windows, this.maxKeys, now, (held) => held.pending > 0 || held.sending > 0);
      this.windows.set(name, (window = { startedAt: now, merged: 0, pending: 0, sending: 0 }));
    } else if (window.startedAt + WINDOW_MS <= now) {
      this.windows.delete(name);
      this.windows.set(name, window);
      window.startedAt = now;
      window.merged = 0;
    }
    window.pending++;
    const count = window.merged + window.sending + window.pending;
    return answer({ count, startedAt: window.startedAt }, max, reply, now);
  }

  get size() {
    return this.windows.size;
  }

  /** Adds what was counted here since the last merge to the table, and reads back each counter's total and window.
   * One merge at a time: a call while one runs waits for it and then merges again. */
  async merge(): Promise<void> {
    while (this.merging) await this.merging.catch(() => undefined);
    this.merging = this.mergeNow().finally(() => (this.merging = null));
    return this.merging;
  }

  private async mergeNow() {
    const counts = new Map<string, number>();
    const sent: MergedWindow[] = [];
    for (const [name, window] of this.windows) {
      if (!window.pending) continue;
      counts.set(name, window.pending);
      // Still counted while the table adds them (a call meanwhile sees them), until the total that has them is back.
      window.sending = window.pending;
      window.pending = 0;
      sent.push(window);
    }
    if (!counts.size) return;
    try {
      for (const merged of await mergeCounts(this.db, counts, WINDOW_MS, new Date())) {
        const window = this.windows.get(merged.name);
        if (!window) continue;
        window.merged = merged.count;
        window.startedAt = merged.windowStart;
      }
    } catch (error) {
      // Not lost: counted again with the next merge.
      for (const window of sent) window.pending += window.sending;
      throw error;
    } finally {
      for (const window of sent) window.sending = 0;
    }
  }
}

/** What finding a request's session needs: the database, the clock and how long sessions last. */
export type SessionServices = Pick<Services, 'db' | 'clock' | 'sessionLimits'>;

/**
 * The session behind the request's token, looked up once per request (limiter and handler share
 * it): from memory while the change channel vouches for it, else from the database. One unused for
 * too long or begun too long ago is none (one past the customer's own idle limit is also ended); its use is noted
 * every few minutes, not on every call.
 */
export function callerOf(
  { db, clock, sessionLimits }: SessionServices,
  cache: CachedAnswers,
  request: FastifyRequest,
): Promise<Caller | null> {
  // Fields of the request rather than maps keyed by it: a WeakMap's set was a tenth of a logged-in read's own CPU.
  let caller = request.sessionCaller;
  if (!caller) {
    const header = request.headers[TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (plausibleToken(token)) {
      const tokenHash = hashToken(token);
      const known = liveInMemory(cache, tokenHash, clock.now().getTime(), sessionLimits);
      caller = known
        ? Promise.resolve(known)
        : cache.sessions
            .read(
              tokenHash,
              () => findSession(db, tokenHash),
              (found) => found?.userId ?? null,
            )
            .then(async (found) => {
              const now = clock.now();
              if (!found) return null;
              const state = sessionState(found, now.getTime(), sessionLimits);
              if (state === 'idle') {
                // Past the customer's own limit: ended as a log-out ends it, on every process (its row's notice).
                await revokeSession(db, found.sessionId, now);
                cache.sessions.hold(found.userId);
              }
              if (state !== 'live') return null;
              await noteSeen(db, found, now);
              return found;
            });
      if (known) request.sessionKnown = known;
    } else caller = Promise.resolve(null);
    request.sessionCaller = caller;
  }
  return caller;
}

/**
 * The session of `tokenHash` as kept in memory, when it can be answered at once: cached and usable, live at `now`, and
 * its use not due to be noted (noteSeen would write nothing). Else undefined: callerOf asks the long way.
 */
function liveInMemory(
  cache: CachedAnswers,
  tokenHash: string,
  now: number,
  limits: SessionServices['sessionLimits'],
): Caller | undefined {
  const kept = cache.sessions.peek(tokenHash);
  if (!kept || sessionState(kept, now, limits) !== 'live') return undefined;
  return now - kept.lastSeenAt < lastSeenStepOf(kept) ? kept : undefined;
}

/** Counts one request against a budget (`scope`: the addresses, the accounts or one route's addresses); answers the
 * 429's error when over it. */
type Take = (
  scope: string,
  key: string | number,
  max: number,
  reply: FastifyReply,
) => RateLimited | undefined | Promise<RateLimited | undefined>;

/** In this process's memory: one counter per scope. */
function inMemory(): Take {
  const scopes = new Map<string, RequestCounter<string | number>>();
  return (scope, key, max, reply) => {
    let counter = scopes.get(scope);
    if (!counter) scopes.set(scope, (counter = new RequestCounter()));
    return counter.take(key, max, reply);
  };
}

/** In the database, seen by every server process: one upsert per request, a statement prepared once (its rows are
 * removed by the counter cleanup job). For the authentication routes' exact limits. */
function inDatabase(db: Db): Take {
  return async (scope, key, max, reply) => {
    const now = new Date();
    const counted = await countPrepared(db, `${scope}:${key}`, WINDOW_MS, now, requestCounters);
    return answer({ count: counted.count, startedAt: counted.windowStart.getTime() }, max, reply, now.getTime());
  };
}

/** In this process's memory, merged into the database by `counter.merge()`: the general budgets on PostgreSQL. */
function merged(counter: MergedCounter): Take {
  return (scope, key, max, reply) => counter.take(`${scope}:${key}`, max, reply);
}

/** Hands a budget's answer to Fastify, at once when it was counted in memory. */
function finish(result: ReturnType<Take>, done: (error?: FastifyError) => void) {
  if (result instanceof Promise) result.then(done, done);
  else done(result);
}

/**
 * Counts every API call (the PWA's static files are not counted): a route with its own per-IP
 * limit against that; any other call against its account when its token is valid, else its address.
 * Must be added before the routes: it adds its hook to each route as it is declared. On PostgreSQL the general
 * budgets are merged into the shared table every MERGE_MS and when the app closes; `merge()` merges at once (the
 * tests' way to wait for it).
 */
export function limitRequests(
  app: FastifyInstance,
  services: SessionServices,
  cache: CachedAnswers,
  limits: RequestLimits,
): { merge: () => Promise<void> } {
  app.decorateRequest('sessionCaller', null);
  app.decorateRequest('sessionKnown', null);
  const shared = sharedByProcesses(services.db);
  const exact = shared ? inDatabase(services.db) : inMemory();
  const counter = shared ? new MergedCounter(services.db) : null;
  const take = counter ? merged(counter) : exact;
  if (counter) {
    const every = limits.mergeEveryMs === undefined ? MERGE_MS : limits.mergeEveryMs;
    const timer =
      every === null
        ? undefined
        : setInterval(() => {
            counter.merge().catch((error: unknown) => app.log.warn({ err: error }, 'request counts not merged'));
          }, every);
    timer?.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await counter.merge().catch((error: unknown) => app.log.warn({ err: error }, 'request counts not merged'));
    });
  }

  const byCaller: onRequestHookHandler = (request, reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    if (!request.headers[TOKEN_HEADER]) return finish(take('address', request.ip, limits.perAddress, reply), done);
    const pending = callerOf(services, cache, request);
    // A session known in memory is counted at once, without waiting for the promise's turn.
    const known = request.sessionKnown;
    if (known) return finish(take('account', known.userId, limits.perAccount, reply), done);
    pending.then(
      (caller) =>
        finish(
          caller
            ? take('account', caller.userId, limits.perAccount, reply)
            : take('address', request.ip, limits.perAddress, reply),
          done,
        ),
      done,
    );
  };

  const byAddress =
    (scope: string, perMinute: number): onRequestHookHandler =>
    (request, reply, done) => {
      if (!request.url.startsWith('/api/')) return done();
      finish(exact(scope, request.ip, perMinute, reply), done);
    };

  app.addHook('onRoute', (route) => {
    const perMinute = route.config?.perAddressPerMinute;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const hook = perMinute ? byAddress(`route ${methods} ${route.url}`, perMinute) : byCaller;
    route.onRequest = [
      ...(Array.isArray(route.onRequest) ? route.onRequest : route.onRequest ? [route.onRequest] : []),
      hook,
    ];
  });
  return { merge: () => counter?.merge() ?? Promise.resolve() };
}
