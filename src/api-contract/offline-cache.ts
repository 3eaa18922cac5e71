// The pure pieces of the offline cache, in a neutral place the service
// worker, the page (logout deletes a partition), the build and the tests all import. No I/O here
// but hashing. Which calls are cached is said by each endpoint (`cache`); the lists the worker routes
// by are built from them (cachedCallsOf, src/lib/cached-calls.ts).
import type { Endpoint, Method } from './endpoint.ts';

/**
 * Public data, the same for everyone who reads in one language: stale-while-revalidate, one shared
 * cache (v2: its answers are cached per language, see syntheticKey; the worker deletes v1's).
 */
export const PUBLIC_CACHE = 'api-public-v2';
/** One cache per signed-in user for that user's reads: `user-<first 16 hex of sha256(token)>`. */
export const PARTITION_PREFIX = 'user-';
/** Set on every answer the service worker gives from its cache: the ISO time it was stored. */
export const SERVED_FROM_CACHE_HEADER = 'x-served-from-cache';
/**
 * The message the service worker posts to its pages after each call it sent to the network:
 * `{ type: NETWORK_MESSAGE, online }`. The browser's navigator.onLine is not enough: after a reload
 * under devtools' "Offline" Chromium reports online, and on lie-fi it is true while nothing answers.
 */
export const NETWORK_MESSAGE = 'NETWORK_STATE';
/**
 * Lie-fi: a user's read whose answer is cached waits this long for the network, then the cached answer
 * is shown (marked "as of") and the network's, when it comes, is cached and announced (FRESH_MESSAGE).
 */
export const NETWORK_TIMEOUT_MS = 3_500;
/** Posted to the pages when a late network answer replaced a cached one: `{ type: FRESH_MESSAGE, path }`. */
export const FRESH_MESSAGE = 'FRESH_ANSWER';
/**
 * The page, once its first screen is idle, asks the worker for the app files it did not install
 * (the other pages and languages, the active one's first); the worker answers on the message's port when
 * every one is cached. PRECACHE_STATE asks, without starting anything, whether that has happened.
 */
export const PRECACHE_LATER_MESSAGE = 'PRECACHE_LATER';
export const PRECACHE_STATE_MESSAGE = 'PRECACHE_STATE';
/** The cache of those files (named like the install's, so the pages count both as app files). */
export const LATER_PRECACHE = 'workbox-precache-later';
/** Background Sync's tag for the outbox of harmless writes (messages marked read offline). */
export const OUTBOX_SYNC_TAG = 'outbox';
/** Posted by the service worker when that sync fires: the pages send what waits. */
export const FLUSH_OUTBOX_MESSAGE = 'FLUSH_OUTBOX';
/** The session header every call carries (api-contract/envelope.ts TOKEN_HEADER; a unit test keeps them equal). */
export const TOKEN_HEADER = 'token';
/** The request's language header (api-contract/envelope.ts LANG_HEADER; a unit test keeps them equal). */
export const LANG_HEADER = 'lang';

/** A call the service worker keeps: its method and API path (after the `/api` base). */
export interface CachedCall {
  readonly method: Method;
  readonly path: string;
}

export interface CachedCalls {
  /** The public GETs, cached stale-while-revalidate in the shared cache. */
  readonly publicPaths: string[];
  /** A user's reads (a POST that only reads among them), cached network first in that user's partition. */
  readonly userCalls: CachedCall[];
}

/**
 * The cached calls among `endpoints`, in their order, from each one's `cache`. The build runs it over
 * the whole API contract and hands the worker and the page the two lists (`virtual:cached-calls`,
 * src/lib/cached-calls.ts), so neither carries the API contract's schemas. An endpoint that writes cannot
 * be cached, and a public answer is a GET anyone may read: a declaration that says otherwise stops the build.
 */
export function cachedCallsOf(endpoints: readonly Endpoint[]): CachedCalls {
  const cached: CachedCalls = { publicPaths: [], userCalls: [] };
  for (const { method, path, auth, readOnly, cache } of endpoints) {
    if (cache === 'never') continue;
    if (!readOnly) throw new Error(`${method} ${path} writes, so its answers cannot be cached (cache: '${cache}')`);
    if (cache === 'user') cached.userCalls.push({ method, path });
    else if (method !== 'GET' || auth)
      throw new Error(`${method} ${path} goes to the public cache, so it must be a GET that needs no session`);
    else cached.publicPaths.push(path);
  }
  return cached;
}

/** The API path of a URL (`/coin/lists`), wherever the API is hosted (`…/api/coin/lists`); null for anything else. */
export function apiPathOf(url: string): string | null {
  const { pathname } = new URL(url);
  const at = pathname.indexOf('/api/');
  return at < 0 ? null : pathname.slice(at + 4);
}

/**
 * API paths the service worker never keeps, whatever else may match them: uploaded pictures, which
 * are private to their owner (identity documents, receipts) and answered `private, no-store`.
 */
export const NEVER_CACHED_PREFIXES = ['/uploads/'];

export const isNeverCached = (url: string) => {
  const path = apiPathOf(url);
  return path !== null && NEVER_CACHED_PREFIXES.some((prefix) => path.startsWith(prefix));
};

/**
 * The key a call's answer is cached under: a GET URL built from the request's language, its method,
 * path, query and form body, fields sorted so that the same question always finds the same answer.
 * The language is part of it because the answer is (operators' content, every `msg`): switching the
 * app's language never shows the other language's cached answer while the network answers; offline, with
 * none kept in the new language, the service worker gives the latest kept in another rather than none.
 * (The Cache API keeps no POST, hence a synthetic GET URL.)
 */
export function syntheticKey(method: string, url: string, body = '', lang = ''): string {
  const { origin, pathname, searchParams } = new URL(url);
  const fields = new URLSearchParams([...searchParams, ...new URLSearchParams(body)]);
  fields.sort();
  const query = fields.toString();
  const language = /^[a-z]{2,3}(-[a-z0-9]{1,8})?$/i.test(lang) ? `${lang.toLowerCase()}/` : '';
  return `${origin}/__offline__/${language}${method.toUpperCase()}${pathname}${query ? `?${query}` : ''}`;
}

/** The cache of one user's answers, named by a hash of the token (the token itself is never stored). */
export async function partitionName(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${PARTITION_PREFIX}${hex.slice(0, 16)}`;
}

export const isPartition = (cacheName: string) => /^user-[0-9a-f]{16}$/.test(cacheName);
