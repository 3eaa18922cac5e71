// Hash routes (`#/pages/login/login?from=…`) and the navigation history: the last ten
// routes, persisted, so back works across reloads.
import { useSyncExternalStore } from 'react';
import { HISTORY_LENGTH } from '../api-contract/constants.ts';
import { ROUTES } from '../api-contract/routes.ts';
import { persistedStore } from './storage.ts';

export const navigationHistory = persistedStore('history', { entries: [] as string[] });

/**
 * The route as last read from the hash, kept until the next microtask checkpoint. Every link's and route's
 * hook reads it on every render (over a thousand reads in one render of the coin list, ~10 ms on a
 * phone-speed CPU); a synchronous render reads the hash once, and a change made here is read at once.
 */
let knownRoute: string | null = null;
const forgetRoute = () => {
  knownRoute = null;
};

/** The route in the hash, with its query: `/pages/mine/setting?tab=1`. */
export function currentRoute(): string {
  if (knownRoute === null) {
    const route = location.hash.replace(/^#\/?/, '/');
    knownRoute = route === '' ? '/' : route;
    queueMicrotask(forgetRoute);
  }
  return knownRoute;
}

export const pathOf = (route: string) => route.split('?')[0] || '/';
export const queryOf = (route: string) => route.split('?')[1] ?? '';

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  const hash = `#${to.startsWith('/') ? to : `/${to}`}`;
  if (replace) location.replace(hash);
  else location.hash = hash;
  // The caller may read the new route in this same task.
  forgetRoute();
}

const subscribe = (callback: () => void) => {
  addEventListener('hashchange', callback);
  return () => removeEventListener('hashchange', callback);
};

/** wouter's location hook: the path part of the hash route. */
export function useHashPath(): [string, (to: string, options?: { replace?: boolean }) => void] {
  return [useSyncExternalStore(subscribe, () => pathOf(currentRoute())), navigate];
}

/** wouter's search hook: the query part of the hash route. */
export function useHashQuery(): string {
  return useSyncExternalStore(subscribe, () => queryOf(currentRoute()));
}

/** Records a visited route; the same route twice in a row counts once. */
export function recordVisit(route: string): void {
  const entries = navigationHistory.entries;
  if (entries.at(-1) === route) return;
  navigationHistory.entries = [...entries, route].slice(-HISTORY_LENGTH);
}

/** Back to the previous entry of the history, or home when there is none. */
export function goBack(home: string = ROUTES.home): void {
  const entries = [...navigationHistory.entries];
  entries.pop();
  const previous = entries.pop();
  navigationHistory.entries = entries;
  navigate(previous ?? home, { replace: true });
}

/** Drops visits of pages that make no sense to go back to (the login pages once logged in). */
export function forgetVisits(prefix: string): void {
  navigationHistory.entries = navigationHistory.entries.filter((route) => !route.startsWith(prefix));
}
