// Stores that survive a reload: each is a valtio proxy mirrored to one IndexedDB record.
// hydrateStores() runs before the first render, so pages never see a half-loaded session. A store
// of a lazily loaded page registers later: it hydrates on registration (await storeHydrated).
import { getVersion, proxy, snapshot, subscribe } from 'valtio/vanilla';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { DEVICE_DB, DEVICE_STORE } from './locale-pick.ts';

interface Persisted {
  key: string;
  store: object;
  initial: object;
  hydrated: Promise<void>;
  /** Holds the signed-in user's data: logout and ret -1 remove it (resetUserStores). */
  perUser: boolean;
  /**
   * Holds what the signed-in user sent or queued and has not learned the outcome of: a session the server ended
   * (ret -1) leaves it for that user's next sign-in (resetUserStores' `keepHeld`); another user's sign-in removes it.
   */
  heldForUser: boolean;
  /** The store's version after a reset made in memory only (forgetUserStores): that state is not written. */
  unsavedVersion?: number;
}

const registry: Persisted[] = [];
let database: UseStore | null = null;
const idb = () => (database ??= createStore(DEVICE_DB, DEVICE_STORE));
let pendingWrite: Promise<unknown> = Promise.resolve();
let booted = false;

/**
 * A store saved under `key`; its shape is `initial`. A store of one user's data says `perUser`; one of what they sent
 * or queued and must still learn the outcome of says `heldForUser` too (kept through a session the server ended).
 */
export function persistedStore<T extends object>(
  key: string,
  initial: T,
  options: { perUser?: boolean; heldForUser?: boolean } = {},
): T {
  const store = proxy(structuredClone(initial));
  const entry: Persisted = {
    key,
    store,
    initial,
    hydrated: Promise.resolve(),
    perUser: options.perUser ?? false,
    heldForUser: options.heldForUser ?? false,
  };
  // Registered after boot (a page chunk loaded later): nobody else will load and save it.
  if (booted) entry.hydrated = hydrate(entry);
  registry.push(entry);
  return store;
}

/** Loads every persisted store, then saves each change (writes are queued in order). */
export async function hydrateStores(): Promise<void> {
  booted = true;
  await Promise.all(registry.map((entry) => (entry.hydrated = hydrate(entry))));
}

/** Resolves once `store` holds what was saved (at once for stores hydrated at boot). */
export function storeHydrated(store: object): Promise<void> {
  return registry.find((entry) => entry.store === store)?.hydrated ?? Promise.resolve();
}

async function hydrate(entry: Persisted): Promise<void> {
  const { key, store } = entry;
  const version = getVersion(store);
  const saved = await get<object>(key, idb()).catch(() => undefined);
  const save = () => {
    if (entry.unsavedVersion !== undefined && getVersion(store) === entry.unsavedVersion) return;
    const value = snapshot(store);
    pendingWrite = pendingWrite.then(() => set(key, structuredClone(value), idb())).catch(() => undefined);
  };
  // A change made while reading (a page's first load answering) is newer than the saved copy.
  if (getVersion(store) !== version) save();
  else if (saved && typeof saved === 'object') Object.assign(store, saved);
  subscribe(store, save);
}

/** Resolves when every change made so far is on disk (before a reload, say). */
export async function flushStores(): Promise<void> {
  // valtio tells subscribers in a microtask: let a change made just now queue its write first.
  await Promise.resolve();
  await pendingWrite;
}

/** Puts a store back to its initial shape and removes its record. */
export async function resetStore(store: object): Promise<void> {
  const entry = registry.find((item) => item.store === store);
  if (!entry) return;
  Object.assign(store, structuredClone(entry.initial));
  await flushStores();
  await del(entry.key, idb()).catch(() => undefined);
}

/**
 * Puts back every store of the signed-in user's data in this tab's memory only, writing nothing: another tab ended the
 * session and removed the records (a write here could land after a new sign-in there).
 */
export function forgetUserStores(): void {
  for (const entry of registry.filter((item) => item.perUser)) {
    Object.assign(entry.store, structuredClone(entry.initial));
    entry.unsavedVersion = getVersion(entry.store);
  }
}

/**
 * Puts back every store of the signed-in user's data and removes their records (logout, ret -1); with `keepHeld` the
 * stores marked `heldForUser` stay (a session the server ended: kept for the same user's next sign-in).
 */
export async function resetUserStores({ keepHeld = false } = {}): Promise<void> {
  const reset = registry.filter((entry) => entry.perUser && !(keepHeld && entry.heldForUser));
  await Promise.all(reset.map((entry) => resetStore(entry.store)));
}

/** Puts back the stores marked `heldForUser` and removes their records (another user signs in). */
export async function resetHeldStores(): Promise<void> {
  await Promise.all(registry.filter((entry) => entry.heldForUser).map((entry) => resetStore(entry.store)));
}
