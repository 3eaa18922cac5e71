// Request limits that do not lock out a mobile carrier: thousands of customers can share one
// public address, so a logged-in caller is counted per account, and only anonymous calls and the
// authentication calls (login, register, codes) per IP. The counters live in each process's
// memory: behind N processes an address or account gets up to N times the limit (README).
import type { FastifyRequest } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { TOKEN_HEADER } from '../../contract/envelope.ts';
import type { Db } from '../db/connection.ts';
import { findSession, hashToken, plausibleToken } from '../domain/sessions.ts';
import type { Caller } from './context.ts';
import type { KeptAnswers } from './kept-answers.ts';

export interface RequestLimits {
  /** Requests per minute of one account (any device, any address). */
  perAccount: number;
  /** Requests per minute of one IP address without a valid token. */
  perAddress: number;
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
      caller = kept.sessions.read(tokenHash, () => findSession(db, tokenHash), (found) => found?.userId ?? null);
    } else caller = Promise.resolve(null);
    callers.set(request, caller);
  }
  return caller;
}

/** Options of @fastify/rate-limit for every API call; the PWA's static files are not counted. */
export function apiRateLimit(db: Db, kept: KeptAnswers, limits: RequestLimits): RateLimitPluginOptions {
  return {
    timeWindow: 60_000,
    allowList: (request) => !request.url.startsWith('/api/'),
    keyGenerator: async (request) => {
      const caller = request.headers[TOKEN_HEADER] ? await callerOf(db, kept, request) : null;
      return caller ? `account:${caller.userId}` : `ip:${request.ip}`;
    },
    max: (_request, key) => (key.startsWith('account:') ? limits.perAccount : limits.perAddress),
  };
}

/** A route's own per-IP limit (login, codes), whoever calls it. */
export const perAddress = (perMinute: number) => ({ max: perMinute, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => `auth:${request.ip}` });
