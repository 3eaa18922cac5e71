// The diagnostics page's state and actions: reads what the browser keeps for the app —
// the service worker, Cache Storage, the storage estimate, the IndexedDB records — and offers the
// QA actions: look for an update, forget this user's cached answers, unregister the worker.
import { proxy } from 'valtio/vanilla';
import { createStore, entries } from 'idb-keyval';
import {
  PUBLIC_CACHE,
  SERVED_FROM_CACHE_HEADER,
  isPartition,
  partitionName,
} from '../../api-contract/offline-cache.ts';
import { APP_VERSION } from '../../api-contract/constants.ts';
import { callLog } from '../../lib/call-log.ts';
import { failedCalls } from '../../lib/failed-calls.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { forgetCachedAnswers, offlineData } from '../../lib/offline.ts';
import { outbox } from '../../lib/outbox.ts';
import { priceStream } from '../../lib/prices.ts';
import { session } from '../../lib/session.ts';
import { appUpdate } from '../../lib/update-state.ts';
import { version as packageVersion } from '../../../package.json';
import {
  cacheKeyPath,
  cacheKind,
  describeRecord,
  diagnosticsReport,
  type AppFacts,
  type CacheFacts,
  type DeviceRecord,
  type OutboxItem,
  type RuntimeCache,
  type ServiceWorkerFacts,
  type StorageFacts,
} from './diagnostics-report.ts';

/** Workbox names its precache `workbox-precache-v2-<scope>`. */
const PRECACHE_PREFIX = 'workbox-precache';

export const diagnostics = proxy({
  serviceWorker: null as ServiceWorkerFacts | null,
  caches: null as CacheFacts | null,
  storage: null as StorageFacts | null,
  deviceRecords: null as DeviceRecord[] | null,
  /** When the facts above were last read (ISO). */
  readAt: null as string | null,
});

export const appFacts = (): AppFacts => ({
  version: APP_VERSION,
  packageVersion,
  build: __BUILD_ID__,
  userAgent: navigator.userAgent,
  locale: currentLocale(),
});

/** Reads everything again; each part that fails (a browser without it) says so on its own. */
export async function readDiagnostics(): Promise<void> {
  const [serviceWorker, caches, storage, deviceRecords] = await Promise.all([
    readServiceWorker(),
    readCaches(),
    readStorage(),
    readDeviceRecords(),
  ]);
  Object.assign(diagnostics, { serviceWorker, caches, storage, deviceRecords, readAt: new Date().toISOString() });
}

async function readServiceWorker(): Promise<ServiceWorkerFacts> {
  const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  if (!container)
    return { supported: false, scope: null, installing: null, waiting: null, active: null, controlling: false };
  const registration = await container.getRegistration().catch(() => undefined);
  return {
    supported: true,
    scope: registration?.scope ?? null,
    installing: registration?.installing?.state ?? null,
    waiting: registration?.waiting?.state ?? null,
    active: registration?.active?.state ?? null,
    controlling: container.controller !== null,
  };
}

/**
 * Calls `changed` whenever the worker's state moves (a new one found, installed, activated, taking
 * control), so the page shows it as it happens; returns the stop.
 */
export function watchServiceWorker(changed: () => void): () => void {
  const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  if (!container) {
    changed();
    return () => undefined;
  }
  const watched = new Set<ServiceWorker>();
  let registration: ServiceWorkerRegistration | undefined;
  let stopped = false;
  const follow = () => {
    for (const worker of [registration?.installing, registration?.waiting, registration?.active]) {
      if (!worker || watched.has(worker)) continue;
      watched.add(worker);
      worker.addEventListener('statechange', changed);
    }
    changed();
  };
  // The app registers its worker once the browser is idle after load: a page opened before that
  // finds none at first, and follows the registration when it comes (ready, or taking control).
  const findRegistration = () =>
    void container.getRegistration().then((found) => {
      if (stopped) return;
      if (found && found !== registration) {
        registration?.removeEventListener('updatefound', follow);
        registration = found;
        registration.addEventListener('updatefound', follow);
      }
      follow();
    });
  container.addEventListener('controllerchange', findRegistration);
  void container.ready.then(findRegistration);
  findRegistration();
  return () => {
    stopped = true;
    container.removeEventListener('controllerchange', findRegistration);
    registration?.removeEventListener('updatefound', follow);
    for (const worker of watched) worker.removeEventListener('statechange', changed);
  };
}

async function readCaches(): Promise<CacheFacts> {
  if (typeof caches === 'undefined') return { supported: false, precache: null, runtime: [] };
  const names = await caches.keys();
  const mine = session.token && globalThis.crypto?.subtle ? await partitionName(session.token) : null;
  let precache = null as CacheFacts['precache'];
  const runtime: RuntimeCache[] = [];
  for (const name of names) {
    // open() would make again, empty, a cache deleted since keys() (a logout under way): reading makes none.
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    const requests = await cache.keys();
    // The files the worker installed and those it fetched once a first screen was idle: app files both.
    if (name.startsWith(PRECACHE_PREFIX)) {
      precache = { name: precache?.name ?? name, entries: (precache?.entries ?? 0) + requests.length };
      continue;
    }
    const entries = await Promise.all(
      requests.map(async (request) => {
        const answer = await cache.match(request);
        return { key: cacheKeyPath(request.url), storedAt: answer?.headers.get(SERVED_FROM_CACHE_HEADER) ?? null };
      }),
    );
    runtime.push({
      name,
      kind: cacheKind(name, PUBLIC_CACHE, isPartition),
      mine: name === mine,
      entries: entries.sort((a, b) => a.key.localeCompare(b.key)),
    });
  }
  // Public data first, then this user's answers, then the rest.
  const rank = (cache: RuntimeCache) => (cache.kind === 'public' ? 0 : cache.mine ? 1 : 2);
  return {
    supported: true,
    precache,
    runtime: runtime.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name)),
  };
}

async function readStorage(): Promise<StorageFacts> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  const estimate = await storage?.estimate?.().catch(() => undefined);
  const persisted = await storage?.persisted?.().catch(() => undefined);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted: persisted ?? null };
}

/** The records of lib/storage.ts (database `coinvest`, store `state`): names and sizes only. */
async function readDeviceRecords(): Promise<DeviceRecord[]> {
  if (typeof indexedDB === 'undefined') return [];
  const stored = await entries(createStore('coinvest', 'state')).catch(() => []);
  return stored.map(([key, value]) => describeRecord(String(key), value)).sort((a, b) => a.key.localeCompare(b.key));
}

/** What waits in the outbox: kind, how many messages, since when (not the messages' ids, not its key). */
export const outboxItems = (): OutboxItem[] =>
  outbox.pending.map((entry) => ({
    kind: entry.kind,
    messages: entry.kind !== 'messages-read' ? 1 : entry.ids === 'all' ? 'all' : entry.ids.length,
    queuedAt: entry.queuedAt,
  }));

/** The report the copy button puts on the clipboard. */
export function currentReport(now = new Date()) {
  return diagnosticsReport(
    appFacts(),
    {
      serviceWorker: diagnostics.serviceWorker ?? {
        supported: false,
        scope: null,
        installing: null,
        waiting: null,
        active: null,
        controlling: false,
      },
      caches: diagnostics.caches ?? { supported: false, precache: null, runtime: [] },
      storage: diagnostics.storage ?? { usage: null, quota: null, persisted: null },
      deviceRecords: diagnostics.deviceRecords ?? [],
      network: { online: offlineData.online, navigatorOnLine: navigator.onLine, priceStream: priceStream.status },
      outbox: outboxItems(),
      calls: callLog.calls,
      failedCalls: failedCalls.calls,
    },
    now,
  );
}

export type UpdateCheck = 'no-worker' | 'up-to-date' | 'found' | 'failed';

/**
 * Asks the browser to look for a new service worker now. A new version found goes through the
 * app's own update flow (lib/update.ts): its dialog opens, and accepting it activates and reloads.
 */
export async function checkForUpdate(): Promise<UpdateCheck> {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (!registration) return 'no-worker';
  try {
    await registration.update();
  } catch {
    return 'failed';
  } finally {
    await readDiagnostics();
  }
  if (!registration.installing && !registration.waiting) return 'up-to-date';
  // "Later" chosen before should not hide a version the tester asked for; workbox-window sets
  // `waiting` once an installing worker is installed.
  appUpdate.dismissed = false;
  if (registration.waiting) appUpdate.waiting = true;
  return 'found';
}

/** Deletes the signed-in user's cached answers (as logout does), then reads the caches again. */
export async function clearMyCachedAnswers(): Promise<boolean> {
  if (!session.token) return false;
  await forgetCachedAnswers(session.token);
  await readDiagnostics();
  return true;
}

/** Unregisters the service worker and reloads: the app starts uncontrolled and registers it anew. */
export async function unregisterAndReload(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  await registration?.unregister();
  location.reload();
}
