// Request limits that do not lock out a mobile carrier: thousands of customers can share one
// public address, so a logged-in caller is counted per account, and only anonymous calls and the
// authentication calls (login, register, codes) per IP. The counters live in each process's
// memory: behind N processes an address or account gets up to N times the limit (README).
// Counted as @fastify/rate-limit's local store counted them (fixed one-minute windows, the same
// x-ratelimit-* and retry-after headers, the 429 envelope from the error handler), without its
// per-request promises: a call without a token is counted synchronously.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { TOKEN_HEADER } from '../../contract/envelope.ts';
import type { Db } from '../db/connection.ts';
import { findSession, hashToken, plausibleToken, type Caller } from '../domain/sessions.ts';
import type { KeptAnswers } from './kept-answers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own per-IP limit (login, codes), requests per minute, instead of the caller's. */
    perAddressPerMinute?: number;
  }
}

export interface RequestLimits {
  /** Requests per minute of one account (any device, any address). */
  perAccount: number;
  /** Requests per minute of one IP address without a valid token. */
  perAddress: number;
}

const WINDOW_MS = 60_000;
/** Keys per counter; beyond it the oldest windows go (an address flood must not grow memory without end). */
const MAX_KEYS = 50_000;

/** What the error handler answers with the 429 envelope (app.ts). */
export type RateLimited = FastifyError & { rateLimited: true };

interface Window {
  count: number;
  startedAt: number;
}

/** Requests per key in fixed windows: a key's window starts at its first request and lasts WINDOW_MS. */
export class RequestCounter<K> {
  private windows = new Map<K, Window>();

  constructor(private readonly maxKeys = MAX_KEYS) {}

  /** Counts one request of `key` and sets the limit headers; a request over `max` gets the error to answer with. */
  take(key: K, max: number, reply: FastifyReply, now = Date.now()): RateLimited | undefined {
    let window = this.windows.get(key);
    if (!window) {
      this.makeRoom(now);
      this.windows.set(key, (window = { count: 0, startedAt: now }));
    } else if (window.startedAt + WINDOW_MS <= now) {
      // A new window: moved to the end, so the map stays ordered by start (the oldest go first).
      this.windows.delete(key);
      this.windows.set(key, window);
      window.count = 0;
      window.startedAt = now;
    }
    window.count++;
    const reset = Math.ceil((WINDOW_MS - (now - window.startedAt)) / 1000);
    reply.header('x-ratelimit-limit', max);
    if (window.count <= max) {
      reply.header('x-ratelimit-remaining', max - window.count);
      reply.header('x-ratelimit-reset', reset);
      return undefined;
    }
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', reset);
    reply.header('retry-after', reset);
    return { statusCode: 429, rateLimited: true } as RateLimited;
  }

  get size() {
    return this.windows.size;
  }

  /** Drops the oldest window if it has ended, and the oldest ones whatever their state when full. */
  private makeRoom(now: number) {
    for (const [key, window] of this.windows) {
      if (this.windows.size < this.maxKeys && window.startedAt + WINDOW_MS > now) break;
      this.windows.delete(key);
    }
  }
}

const callers = new WeakMap<FastifyRequest, Promise<Caller | null>>();

/**
 * The session behind the request's token, looked up once per request (limiter and handler share
 * it): from memory while the change channel vouches for it, else from the database.
 */
export function callerOf(db: Db, kept: KeptAnswers, request: FastifyRequest): Promise<Caller | null> {
  let caller = callers.get(request);
  if (!caller) {
    const header = request.headers[TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (plausibleToken(token)) {
      const tokenHash = hashToken(token);
      caller = kept.sessions.read(
        tokenHash,
        () => findSession(db, tokenHash),
        (found) => found?.userId ?? null,
      );
    } else caller = Promise.resolve(null);
    callers.set(request, caller);
  }
  return caller;
}

/**
 * Counts every API call (the PWA's static files are not counted): a route with its own per-IP
 * limit against that; any other call against its account when its token is valid, else its address.
 * Must be added before the routes: it adds its hook to each route as it is declared.
 */
export function limitRequests(app: FastifyInstance, db: Db, kept: KeptAnswers, limits: RequestLimits) {
  const addresses = new RequestCounter<string>();
  const accounts = new RequestCounter<number>();

  const byCaller: onRequestHookHandler = (request, reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    if (!request.headers[TOKEN_HEADER]) return done(addresses.take(request.ip, limits.perAddress, reply));
    callerOf(db, kept, request).then(
      (caller) => done(caller ? accounts.take(caller.userId, limits.perAccount, reply) : addresses.take(request.ip, limits.perAddress, reply)),
      done,
    );
  };

  const byAddress = (perMinute: number): onRequestHookHandler => {
    const own = new RequestCounter<string>();
    return (request, reply, done) => {
      if (!request.url.startsWith('/api/')) return done();
      done(own.take(request.ip, perMinute, reply));
    };
  };

  app.addHook('onRoute', (route) => {
    const perMinute = route.config?.perAddressPerMinute;
    const hook = perMinute ? byAddress(perMinute) : byCaller;
    route.onRequest = [...(Array.isArray(route.onRequest) ? route.onRequest : route.onRequest ? [route.onRequest] : []), hook];
  });
}
