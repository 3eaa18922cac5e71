// Which calls the service worker keeps, as the worker and the page route by them: the two lists
// the build read from each endpoint's `cache` in src/api-contract (`virtual:cached-calls`, made by
// src/build/cached-calls.ts with api-contract/offline-cache.ts cachedCallsOf). Neither carries the API contract.
import { PUBLIC_PATHS, USER_CALLS } from 'virtual:cached-calls';
import { apiPathOf, isNeverCached } from '../api-contract/offline-cache.ts';

export { PUBLIC_PATHS, USER_CALLS };

/** A public read kept in the shared cache (never an uploaded picture). */
export const isPublicCall = (method: string, url: string) =>
  method === 'GET' && !isNeverCached(url) && PUBLIC_PATHS.includes(apiPathOf(url) ?? '');

/** A user's read kept in that user's partition (never an uploaded picture). */
export const isUserCall = (method: string, url: string) => {
  if (isNeverCached(url)) return false;
  const path = apiPathOf(url);
  return USER_CALLS.some((call) => call.method === method && call.path === path);
};
