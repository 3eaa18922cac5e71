// The pure pieces of the offline cache (ARCHITECTURE "Offline"), in a neutral place the service
// worker, the page (logout deletes a partition) and the tests all import. No I/O here but hashing.

/** Public data, the same for everyone: stale-while-revalidate, one shared cache. */
export const PUBLIC_CACHE = 'api-public-v1';
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
 * Lie-fi: a user's read whose answer is kept waits this long for the network, then the kept answer
 * is shown (marked "as of") and the network's, when it comes, is kept and announced (FRESH_MESSAGE).
 */
export const NETWORK_TIMEOUT_MS = 3_500;
/** Posted to the pages when a late network answer replaced a kept one: `{ type: FRESH_MESSAGE, path }`. */
export const FRESH_MESSAGE = 'FRESH_ANSWER';
/** Background Sync's tag for the outbox of harmless writes (messages marked read offline). */
export const OUTBOX_SYNC_TAG = 'outbox';
/** Posted by the service worker when that sync fires: the pages send what waits. */
export const FLUSH_OUTBOX_MESSAGE = 'FLUSH_OUTBOX';
/** The session header of §7 (contract/envelope.ts TOKEN_HEADER; a unit test keeps them equal). */
export const TOKEN_HEADER = 'token';

/** API paths (after the `/api` base) whose answers are public: coin list, option products, config, slides, content. */
export const PUBLIC_PATHS = [
  '/coin/lists',
  '/coin/option/products',
  '/other/config',
  '/content/slide',
  '/content/page',
  '/content/sale',
  '/content/sale/info',
  '/content/winnotice',
];
/**
 * A user's reads, cached per user, network first, so their pages open offline with "as of": the
 * messages (a POST that only reads, and a GET) and the money records, payout accounts,
 * certification, VIP level and points, contract orders and the earn balances and records (shown
 * offline only with their "as of" time). The balances of /users/balances are not among them.
 */
export const USER_CALLS = [
  { method: 'POST', path: '/users/message' },
  { method: 'GET', path: '/users/message/unread' },
  { method: 'GET', path: '/pay/lists' },
  { method: 'GET', path: '/pay/record' },
  { method: 'GET', path: '/pay/info' },
  { method: 'GET', path: '/users/extract/record' },
  { method: 'GET', path: '/users/extract/info' },
  { method: 'GET', path: '/users/account/lists' },
  { method: 'GET', path: '/users/bank' },
  { method: 'GET', path: '/users/wallet/lists' },
  { method: 'GET', path: '/users/levelauth/info' },
  { method: 'GET', path: '/users/ranks' },
  { method: 'GET', path: '/task/level' },
  { method: 'GET', path: '/users/point/lists' },
  // Daily sign-in (the month, streak and ladder) and the welfare tasks.
  { method: 'GET', path: '/task/signin' },
  { method: 'GET', path: '/task/welfare' },
  { method: 'GET', path: '/task/welfare/info' },
  // Contracts: the pairs' rules, the order lists (a POST that only reads) and one pair's amounts.
  { method: 'GET', path: '/coin/trans/pairs' },
  { method: 'POST', path: '/coin/trans/lists' },
  { method: 'POST', path: '/coin/user/amount' },
  // Earn: products, rates, balances and records of liquidity and lock-up mining.
  { method: 'GET', path: '/yuebao/product' },
  { method: 'GET', path: '/yuebao/rule' },
  { method: 'GET', path: '/yuebao/balance' },
  { method: 'GET', path: '/yuebao/transfer/in' },
  { method: 'GET', path: '/yuebao/transfer/out' },
  { method: 'GET', path: '/yuebao/order' },
  { method: 'GET', path: '/lockup/products' },
  { method: 'GET', path: '/lockup/product' },
  { method: 'GET', path: '/lockup/orders' },
  // The invitation: code, permission and counts (the share page offline, with its "as of").
  { method: 'GET', path: '/users/invite' },
  // The blind box: its table and seed, and the draws (verifiable offline once their seed is revealed).
  { method: 'GET', path: '/blindbox/info' },
  { method: 'GET', path: '/blindbox/draws' },
];

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

export const isPublicCall = (method: string, url: string) => method === 'GET' && !isNeverCached(url) && PUBLIC_PATHS.includes(apiPathOf(url) ?? '');

export const isUserCall = (method: string, url: string) => {
  if (isNeverCached(url)) return false;
  const path = apiPathOf(url);
  return USER_CALLS.some((call) => call.method === method && call.path === path);
};

/**
 * The Cache API keeps no POST: a call is stored under a GET URL built from its method, path, query
 * and form body, fields sorted so that the same question always finds the same answer.
 */
export function syntheticKey(method: string, url: string, body = ''): string {
  const { origin, pathname, searchParams } = new URL(url);
  const fields = new URLSearchParams([...searchParams, ...new URLSearchParams(body)]);
  fields.sort();
  const query = fields.toString();
  return `${origin}/__offline__/${method.toUpperCase()}${pathname}${query ? `?${query}` : ''}`;
}

/** The cache of one user's answers, named by a hash of the token (the token itself is never stored). */
export async function partitionName(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${PARTITION_PREFIX}${hex.slice(0, 16)}`;
}

export const isPartition = (cacheName: string) => /^user-[0-9a-f]{16}$/.test(cacheName);
