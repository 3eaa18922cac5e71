// What the page knows of the network: whether the device is online, and
// which answers on screen the service worker gave from its cache, stored when. Logout and ret -1
// delete the user's cached answers here.
import { proxy } from 'valtio/vanilla';
import {
  FRESH_MESSAGE,
  NETWORK_MESSAGE,
  SERVED_FROM_CACHE_HEADER,
  partitionName,
} from '../api-contract/offline-cache.ts';
import { PUBLIC_PATHS } from './cached-calls.ts';

export const offlineData = proxy({
  /**
   * False when the browser says offline, or when the last call sent to the network failed (the
   * service worker reports each one; calls without it report themselves): navigator.onLine alone
   * stays true under devtools' "Offline" after a reload and on a network that answers nothing.
   * A network answer or the browser's `online` event sets it back.
   */
  online: typeof navigator === 'undefined' || navigator.onLine !== false,
  /** Per endpoint path: when the cached answer last received was stored (ISO); absent when the network answered. */
  asOf: {} as Record<string, string>,
  /**
   * Bumped when the network's late answer to a read now on screen from the cache has arrived (lie-fi):
   * the shell then loads the page again, which shows it.
   */
  refreshes: 0,
});

/** A slow network answering each read just after its timeout would otherwise reload the page again and again. */
const REFRESH_AT_MOST_EVERY_MS = 30_000;
let lastRefresh = -Infinity;

/** A late answer of `path` is kept now: show it if the screen shows that call's cached answer. */
export function noteFreshAnswer(path: string, now = Date.now()): void {
  offlineData.online = true;
  if (path in offlineData.asOf) showFreshAnswers(now);
}

/** The page is loaded again (usePageGeneration), at most once in REFRESH_AT_MOST_EVERY_MS. */
function showFreshAnswers(now: number): void {
  if (now - lastRefresh < REFRESH_AT_MOST_EVERY_MS) return;
  lastRefresh = now;
  offlineData.refreshes += 1;
}

/**
 * The network answered (a call, a step or heartbeat of the price stream): the app is online, whatever a dropped
 * connection made it conclude before. After a call found the network gone, a page showing a customer's answer from the
 * cache (which stays marked, offlineSince) is loaded again, so it asks for the fresh one; a read that failed meanwhile
 * is asked again where it shows its failure (ui/lists.tsx, useRetryWhenBackOnline).
 */
export function noteNetworkBack(now = Date.now()): void {
  const was = offlineData.online;
  // An answer sent before the browser went offline may arrive after it did: the browser's word stands.
  if (was || (typeof navigator !== 'undefined' && navigator.onLine === false)) return;
  offlineData.online = true;
  if (Object.keys(offlineData.asOf).some((path) => !PUBLIC_PATHS.includes(path))) showFreshAnswers(now);
}

if (typeof window !== 'undefined') {
  addEventListener('online', () => (offlineData.online = true));
  addEventListener('offline', () => (offlineData.online = false));
  navigator.serviceWorker?.addEventListener(
    'message',
    (event: MessageEvent<{ type?: string; online?: boolean; path?: string } | null>) => {
      if (event.data?.type === NETWORK_MESSAGE && typeof event.data.online === 'boolean') {
        if (event.data.online) noteNetworkBack();
        else offlineData.online = false;
      }
      if (event.data?.type === FRESH_MESSAGE && typeof event.data.path === 'string') noteFreshAnswer(event.data.path);
    },
  );
}

/** Whether a call should go without retries and fail with the offline text: the network is known to be down. */
export const knownOffline = () =>
  (typeof navigator !== 'undefined' && navigator.onLine === false) || !offlineData.online;

/** A call sent to the network failed for want of a connection (not an HTTP error). */
export function noteNetworkFailure(): void {
  offlineData.online = false;
}

/** Records whether an answer of `path` came from the service worker's cache (api() calls this). */
export function noteAnswer(path: string, headers: Headers): void {
  const storedAt = headers.get(SERVED_FROM_CACHE_HEADER);
  if (storedAt) offlineData.asOf[path] = storedAt;
  else {
    // Fresh from the server: the network works.
    if (path in offlineData.asOf) delete offlineData.asOf[path];
    noteNetworkBack();
  }
}

/**
 * When the oldest cached answer among `paths` now on screen was stored (ISO), else null. A customer's own read is given
 * from the cache only when the network failed or hung on it, so its answer on screen stays marked until the network
 * answers that read, though other calls are answered meanwhile (its balances must not pass for current). A public read
 * is given from the cache at once while the network is asked (stale-while-revalidate): it counts only while offline.
 */
export function offlineSince(
  state: { readonly online: boolean; readonly asOf: Readonly<Record<string, string>> },
  paths: readonly string[],
): string | null {
  const shown = state.online ? paths.filter((path) => !PUBLIC_PATHS.includes(path)) : paths;
  const times = shown.map((path) => state.asOf[path]).filter((time): time is string => Boolean(time));
  return times.length ? times.sort()[0]! : null;
}

/**
 * Deletes one user's cached answers: their cache partition, also asked of the service worker so a
 * late answer is not kept. `signedOut`: the user left this device, so its push notifications stop too.
 */
export async function forgetCachedAnswers(token: string, { signedOut = false } = {}): Promise<void> {
  // Every cached answer is public or this user's: the public ones (and their "as of") stay.
  for (const path of Object.keys(offlineData.asOf)) if (!PUBLIC_PATHS.includes(path)) delete offlineData.asOf[path];
  // Without a secure context there is neither a Cache API nor a service worker: nothing was kept.
  if (typeof caches === 'undefined' || !globalThis.crypto?.subtle) return;
  const partition = await partitionName(token);
  navigator.serviceWorker?.controller?.postMessage({ type: 'FORGET_USER', partition, signedOut });
  await caches.delete(partition);
}
