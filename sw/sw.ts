/// <reference lib="webworker" />
// The service worker: precaches the app shell so every route opens
// offline, hands every navigation the cached index.html (routes live in the hash), keeps public
// data stale-while-revalidate and each user's reads (messages, money records) network-first in
// that user's own cache, each answer kept per language (the `lang` header is part of its key).
// Nothing else of a user is cached (uploaded pictures never); writes always go to the network.
// Updates wait for consent.
import { cacheNames, clientsClaim } from 'workbox-core';
import {
  PrecacheController,
  PrecacheRoute,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { createStore, get } from 'idb-keyval';
import {
  LATER_PRECACHE,
  PRECACHE_LATER_MESSAGE,
  PRECACHE_STATE_MESSAGE,
  FLUSH_OUTBOX_MESSAGE,
  FRESH_MESSAGE,
  OUTBOX_SYNC_TAG,
  NETWORK_MESSAGE,
  NETWORK_TIMEOUT_MS,
  LANG_HEADER,
  apiPathOf,
  PUBLIC_CACHE,
  SERVED_FROM_CACHE_HEADER,
  TOKEN_HEADER,
  isNeverCached,
  isPartition,
  partitionName,
  syntheticKey,
} from '../src/api-contract/offline-cache.ts';
import { isPublicCall, isUserCall } from '../src/lib/cached-calls.ts';
import { notificationTarget, openNotificationTarget, readPushNotice } from '../src/lib/notification-click.ts';
import { DEVICE_DB, DEVICE_STORE, LOCALE_KEY, isLocale, pickLocale } from '../src/lib/locale-pick.ts';
import { LOCALES, type Locale } from '../src/api-contract/constants.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * The build tags the manifest (src/build/bundle-facts.ts precacheGroups): `locale` on a language's texts, `later`
 * on what a visit does not start with. The install keeps what every start needs and the start
 * pages' texts in the active language; the rest comes once the page's first screen is idle
 * (PRECACHE_LATER_MESSAGE), so a first visit does not download every page and language before it.
 */
type Entry = PrecacheEntry & { later?: true; locale?: string };
const manifest = self.__WB_MANIFEST as Entry[];
precacheAndRoute(manifest.filter((entry) => !entry.later && !entry.locale));
cleanupOutdatedCaches();
const laterPrecache = new PrecacheController({ cacheName: LATER_PRECACHE });
const laterEntries = manifest.filter((entry) => entry.later || entry.locale);
laterPrecache.addToCacheList(laterEntries);
registerRoute(new PrecacheRoute(laterPrecache));

/** The language the app starts in on this device (as the page picks it: src/lib/locale-pick.ts). */
async function activeLocale(): Promise<Locale> {
  const stored = await get<{ locale?: unknown }>(LOCALE_KEY, createStore(DEVICE_DB, DEVICE_STORE)).catch(
    () => undefined,
  );
  return pickLocale(isLocale(stored?.locale) ? stored.locale : null, self.navigator.languages);
}

/** At most this many of those files are on their way at once. */
const LATER_PARALLEL = 4;

/** Keeps the entries not kept yet (a hashed file may come from the HTTP cache, where the page left it); false if one
 * could not be fetched. */
async function keepLater(entries: Entry[]): Promise<boolean> {
  const cache = await caches.open(LATER_PRECACHE);
  const keys = laterPrecache.getURLsToCacheKeys();
  const queue = entries.map((entry) => new URL(entry.url, self.registration.scope).href);
  let complete = true;
  const worker = async () => {
    for (let url = queue.shift(); url && complete; url = queue.shift()) {
      const key = keys.get(url)!;
      if (await cache.match(key)) continue;
      const response = await fetch(
        new Request(url, { cache: key === url ? 'default' : 'reload', credentials: 'same-origin' }),
      ).catch(() => null);
      if (!response?.ok) complete = false;
      else await cache.put(key, response);
    }
  };
  await Promise.all(Array.from({ length: LATER_PARALLEL }, worker));
  return complete;
}

const inLanguage = (locale: string) => (entry: Entry) => entry.locale === locale;

self.addEventListener('install', (event) => {
  event.waitUntil(
    activeLocale().then(async (locale) => {
      if (!(await keepLater(laterEntries.filter((entry) => !entry.later && entry.locale === locale))))
        throw new Error("The start pages' texts could not be kept");
    }),
  );
});

/** The fetch of the later files under way, if any: a second ask waits for the same one. */
let keepingLater: Promise<boolean> | null = null;

/** The other pages and languages: the active language's texts first, then the pages, then the other languages. */
function keepAllLater(locale: string): Promise<boolean> {
  const order = [
    ...laterEntries.filter(inLanguage(locale)),
    ...laterEntries.filter((entry) => !entry.locale),
    ...laterEntries.filter((entry) => entry.locale && entry.locale !== locale),
  ];
  keepingLater ??= keepLater(order).finally(() => (keepingLater = null));
  return keepingLater;
}

/**
 * Whether every file of the app is kept (both caches), without fetching anything. The cache's keys are read once: a
 * match per file (some 500) took Chromium about 0.45 s of a core each time a page asked (measured in the end-to-end
 * tests, which ask every 250 ms while they wait for the files), one read of the keys 0.04 s.
 */
async function allCached(): Promise<boolean> {
  const kept = new Set((await (await caches.open(LATER_PRECACHE)).keys()).map((request) => request.url));
  for (const key of laterPrecache.getURLsToCacheKeys().values()) if (!kept.has(key)) return false;
  return true;
}
// The first visit is controlled at once, so what it reads is already kept for offline.
clientsClaim();
// Routes live in the hash, so the app is only ever opened at its scope (or index.html); any other
// navigation (the Android download link, say) goes to the network.
const scopePath = new URL(self.registration.scope).pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    allowlist: [new RegExp(`^${scopePath}(index\\.html)?(\\?.*)?$`)],
  }),
);

// Uploaded pictures (private to their owner) go to the network and are never kept here: the first
// route that matches wins, so this one comes before every caching route. (The avatar's copy, whose
// URL never changes content, the browser's own HTTP cache keeps, under the owner's token only.)
registerRoute(
  ({ request }) => isNeverCached(request.url),
  ({ event, request }) => fromNetwork(event, request),
  'GET',
);
registerRoute(
  ({ request }) => isPublicCall(request.method, request.url),
  ({ event, request }) => staleWhileRevalidate(event, request),
  'GET',
);
for (const method of ['GET', 'POST'] as const) {
  registerRoute(
    ({ request }) => isUserCall(request.method, request.url),
    ({ event, request }) => networkFirstForUser(event, request),
    method,
  );
}

/** Partitions of users who logged out while a call was in flight: their late answers are not kept. */
const forgotten = new Set<string>();

/** Tells the open pages whether the network just answered (see NETWORK_MESSAGE). */
async function reportNetwork(online: boolean): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window' }))
    client.postMessage({ type: NETWORK_MESSAGE, online });
}

/** fetch(), with its outcome reported to the pages. */
async function fromNetwork(event: ExtendableEvent, request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    event.waitUntil(reportNetwork(true));
    return response;
  } catch (error) {
    event.waitUntil(reportNetwork(false));
    throw error;
  }
}

/**
 * Public data: the cached answer of the request's language at once (when there is one), while the network refreshes it.
 */
async function staleWhileRevalidate(event: ExtendableEvent, request: Request): Promise<Response> {
  const key = syntheticKey('GET', request.url, '', request.headers.get(LANG_HEADER) ?? '');
  const network = fromNetwork(event, request).then((response) => {
    event.waitUntil(keep(PUBLIC_CACHE, key, response.clone()));
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  const cached = await caches.match(key, { cacheName: PUBLIC_CACHE });
  return cached ?? orKeptInAnotherLanguage(network, PUBLIC_CACHE, request, '');
}

/** When an answer was kept (its SERVED_FROM_CACHE_HEADER, ms since 1970), 0 when unknown. */
const keptAt = (answer: Response) => Date.parse(answer.headers.get(SERVED_FROM_CACHE_HEADER) ?? '') || 0;

/**
 * The network's answer; when it fails and nothing is kept in the request's language (the app's language was changed
 * offline), the latest answer kept for the same call in another language: the customer's figures as they were, only
 * the server's texts in the language they were asked in, until the network answers again. Without one, the network's
 * failure.
 */
async function orKeptInAnotherLanguage(
  network: Promise<Response>,
  cacheName: string,
  request: Request,
  body: string,
): Promise<Response> {
  try {
    return await network;
  } catch (error) {
    const asked = request.headers.get(LANG_HEADER) ?? '';
    let latest: Response | undefined;
    for (const language of LOCALES) {
      if (language === asked) continue;
      const key = syntheticKey(request.method, request.url, body, language);
      const answer = await caches.match(key, { cacheName });
      if (answer && (!latest || keptAt(answer) > keptAt(latest))) latest = answer;
    }
    if (latest) return latest;
    throw error;
  }
}

/**
 * A user's reads: the network's answer, else (offline) the last one kept in that user's cache. On a
 * network that hangs (lie-fi) a cached answer is given after NETWORK_TIMEOUT_MS; the network's answer,
 * if it still comes, is kept and announced so the page can show it.
 */
async function networkFirstForUser(event: ExtendableEvent, request: Request): Promise<Response> {
  const token = request.headers.get(TOKEN_HEADER);
  if (!token) return fetch(request);
  const body = request.method === 'POST' ? await request.clone().text() : '';
  const key = syntheticKey(request.method, request.url, body, request.headers.get(LANG_HEADER) ?? '');
  const partition = await partitionName(token);
  let late = false;
  const network = fromNetwork(event, request).then(async (response) => {
    await keep(partition, key, response.clone());
    if (late) await announceFresh(request.url);
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  // `caches.match` with a cacheName never creates the cache (caches.open would).
  const cached = await caches.match(key, { cacheName: partition });
  if (!cached) return orKeptInAnotherLanguage(network, partition, request, body);
  const first = await Promise.race([
    network.then(
      (response) => ({ response }),
      () => ({ response: null }),
    ),
    new Promise<null>((resolve) => setTimeout(resolve, NETWORK_TIMEOUT_MS, null)),
  ]);
  if (first?.response) return first.response;
  // Failed, or still nothing after the timeout: the cached answer, and the page hears the network is not answering.
  if (!first) {
    late = true;
    event.waitUntil(reportNetwork(false));
  }
  return cached;
}

/** Tells the pages a late answer of this call is kept now. */
async function announceFresh(url: string): Promise<void> {
  const path = apiPathOf(url);
  for (const client of await self.clients.matchAll({ type: 'window' }))
    client.postMessage({ type: FRESH_MESSAGE, path });
}

/** Keeps a successful envelope (ret 1), stamped with the time it was stored; ret -1 drops the user's cache. */
async function keep(cacheName: string, key: string, response: Response): Promise<void> {
  if (!response.ok || forgotten.has(cacheName)) return;
  const body = await response.arrayBuffer();
  let ret: unknown;
  try {
    ret = (JSON.parse(new TextDecoder().decode(body)) as { ret?: unknown }).ret;
  } catch {
    return;
  }
  if (ret === -1 && cacheName !== PUBLIC_CACHE) {
    await caches.delete(cacheName);
    return;
  }
  if (ret !== 1) return;
  const headers = new Headers(response.headers);
  headers.set(SERVED_FROM_CACHE_HEADER, new Date().toISOString());
  try {
    const cache = await caches.open(cacheName);
    await cache.put(key, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  } catch {
    // A full quota (or storage taken away): the answer still reaches the page, it is only not kept.
    return;
  }
  // The user logged out while we were writing: leave nothing behind.
  if (forgotten.has(cacheName)) await caches.delete(cacheName);
}

const isOurs = (name: string) =>
  name === cacheNames.precache || name === LATER_PRECACHE || name === PUBLIC_CACHE || isPartition(name);

self.addEventListener('activate', (event) => {
  // The files of earlier versions that this one no longer lists go.
  laterPrecache.activate(event);
  // Caches of earlier versions of this worker (renamed public cache, old layouts) go.
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => !isOurs(name)).map((name) => caches.delete(name)))),
  );
});

// Background Sync (where the browser has it): the connection is back, so an open page sends the
// outbox (messages marked read offline); with none open, the next start does.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync' as keyof ServiceWorkerGlobalScopeEventMap, (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((clients) => {
      for (const client of clients) client.postMessage({ type: FLUSH_OUTBOX_MESSAGE });
    }),
  );
});

type WorkerMessage =
  | { type: 'SKIP_WAITING' }
  | { type: 'FORGET_USER'; partition: string; signedOut?: boolean }
  | { type: typeof PRECACHE_LATER_MESSAGE }
  | { type: typeof PRECACHE_STATE_MESSAGE };

self.addEventListener('message', (event) => {
  const message = event.data as WorkerMessage | null;
  if (message?.type === PRECACHE_LATER_MESSAGE || message?.type === PRECACHE_STATE_MESSAGE) {
    const done = message.type === PRECACHE_LATER_MESSAGE ? activeLocale().then(keepAllLater) : allCached();
    event.waitUntil(done.then((cached) => event.ports[0]?.postMessage({ cached })));
  }
  if (message?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (message?.type === 'FORGET_USER' && isPartition(message.partition)) {
    forgotten.add(message.partition);
    event.waitUntil(caches.delete(message.partition));
    // The user signed out (not the Diagnostics' "clear cached answers"): their notifications stop on
    // this device (the server drops the subscription at the push service's 410).
    if (message.signedOut === true)
      event.waitUntil(
        self.registration.pushManager.getSubscription().then((subscription) => subscription?.unsubscribe()),
      );
  }
});

// Push notifications: each push message shows one notification (the browser requires
// it); a tap brings the app forward at the page of that order or message.
self.addEventListener('push', (event) => {
  const notice = readPushNotice(event.data?.text());
  const icon = new URL('icons/icon-192.png', self.registration.scope).href;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon,
      badge: icon,
      tag: notice.tag || undefined,
      data: { url: notice.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    openNotificationTarget(
      self.clients,
      notificationTarget(event.notification.data, self.registration.scope),
      self.registration.scope,
    ),
  );
});
