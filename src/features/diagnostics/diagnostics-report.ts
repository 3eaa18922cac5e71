// The diagnostics report: what the page shows, as one JSON value a tester pastes into a
// bug report. Pure: the store gathers the browser's state, these functions shape it. No token ever
// leaves here but masked, and no stored value but its size.
import type { LoggedCall } from '../../lib/call-log.ts';
import type { FailedCall } from '../../lib/failed-calls.ts';

export type WorkerState = ServiceWorkerState | null;

export interface ServiceWorkerFacts {
  supported: boolean;
  /** The registration's scope; null when no worker is registered for this page. */
  scope: string | null;
  installing: WorkerState;
  waiting: WorkerState;
  active: WorkerState;
  /** A worker controls this page (its calls go through the worker's caches). */
  controlling: boolean;
}

export interface CachedEntry {
  /** Path and query of the cache key, as stored (a POST's synthetic key `/__offline__/POST/api/…` as it is). */
  key: string;
  /** When the service worker stored the answer (its x-served-from-cache stamp), ISO; null if unstamped. */
  storedAt: string | null;
}

export type CacheKind = 'public' | 'user' | 'other';

export interface RuntimeCache {
  name: string;
  kind: CacheKind;
  /** The partition of the user signed in on this page. */
  mine: boolean;
  entries: readonly CachedEntry[];
}

export interface CacheFacts {
  supported: boolean;
  /** Workbox's precache (the app shell); null when there is none. */
  precache: { name: string; entries: number } | null;
  runtime: RuntimeCache[];
}

export interface StorageFacts {
  usage: number | null;
  quota: number | null;
  /** navigator.storage.persisted(); null where the browser cannot say. */
  persisted: boolean | null;
}

export interface DeviceRecord {
  key: string;
  /** Length of the record as JSON: an approximate size in bytes. */
  size: number;
  /** The token the record holds, masked (first 4 characters + …). */
  token?: string;
}

export interface NetworkFacts {
  /** What the app believes (offlineData.online: the browser's word and the last call's outcome). */
  online: boolean;
  navigatorOnLine: boolean;
  priceStream: string;
}

/** A harmless write waiting in the outbox (lib/outbox.ts) for the connection to return. */
export interface OutboxItem {
  kind: string;
  /** How many messages it marks read, or 'all'; 1 for a chat message or a price alert (no words or prices here). */
  messages: number | 'all';
  queuedAt: string;
}

export interface DiagnosticsFacts {
  serviceWorker: ServiceWorkerFacts;
  caches: CacheFacts;
  storage: StorageFacts;
  deviceRecords: DeviceRecord[];
  network: NetworkFacts;
  /** Small writes waiting in the outbox to be sent when the connection returns (messages marked read). */
  outbox: readonly OutboxItem[];
  calls: readonly LoggedCall[];
  /** The last failed calls with their request ids (kept across reloads). */
  failedCalls: readonly FailedCall[];
}

export interface AppFacts {
  version: number;
  packageVersion: string;
  build: string;
  userAgent: string;
  locale: string;
}

/** "abcd…": enough to tell two sessions apart, too little to use. */
export const maskToken = (token: string) => (token.length > 4 ? `${token.slice(0, 4)}…` : '…');

/** One IndexedDB record as the page shows it: its name, its size, and a token it holds, masked. */
export function describeRecord(key: string, value: unknown): DeviceRecord {
  const record: DeviceRecord = { key, size: JSON.stringify(value ?? null).length };
  const token = findToken(value, 3);
  if (token) record.token = maskToken(token);
  return record;
}

function findToken(value: unknown, depth: number): string | null {
  if (!value || typeof value !== 'object' || depth < 0) return null;
  for (const [name, inner] of Object.entries(value)) {
    if (name.toLowerCase().includes('token') && typeof inner === 'string' && inner) return inner;
    const found = findToken(inner, depth - 1);
    if (found) return found;
  }
  return null;
}

/** The age of a stored answer in whole seconds at `now`; null when unknown. */
export function ageSeconds(storedAt: string | null, now: Date): number | null {
  const stored = storedAt ? Date.parse(storedAt) : NaN;
  return Number.isNaN(stored) ? null : Math.max(0, Math.round((now.getTime() - stored) / 1000));
}

/** What a cache's name says it holds. */
export function cacheKind(name: string, publicCache: string, isPartition: (name: string) => boolean): CacheKind {
  if (name === publicCache) return 'public';
  return isPartition(name) ? 'user' : 'other';
}

/** The path and query of a cache key's URL, as the cache holds it. */
export function cacheKeyPath(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/** The report copied for a bug report: everything on the page, nothing secret. */
export function diagnosticsReport(app: AppFacts, facts: DiagnosticsFacts, now: Date) {
  return {
    generatedAt: now.toISOString(),
    app,
    serviceWorker: facts.serviceWorker,
    caches: {
      supported: facts.caches.supported,
      precache: facts.caches.precache,
      runtime: facts.caches.runtime.map((cache) => ({
        ...cache,
        entries: cache.entries.map((entry) => ({ ...entry, ageSeconds: ageSeconds(entry.storedAt, now) })),
      })),
    },
    storage: facts.storage,
    deviceRecords: facts.deviceRecords,
    network: facts.network,
    outbox: facts.outbox.map((item) => ({ ...item })),
    calls: facts.calls.map((call) => ({ ...call })),
    failedCalls: facts.failedCalls.map((call) => ({ ...call })),
  };
}

export type DiagnosticsReport = ReturnType<typeof diagnosticsReport>;
