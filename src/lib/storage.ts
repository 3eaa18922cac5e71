// Stores that survive a reload: each is a valtio proxy mirrored to one IndexedDB record.
// hydrateStores() runs before the first render, so pages never see a half-loaded session. A store
// of a lazily loaded page registers later: it hydrates on registration (await storeHydrated).
// A store several tabs add to (the outbox) is merged with what the others wrote rather than written over it: see
// store-merge.ts.
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
  /** Merged with what other tabs wrote (mergeEntries) rather than written over it. */
  acrossTabs: boolean;
  /** acrossTabs: the record as this tab last read or wrote it, the base of the next merge. */
  base?: object;
}

const registry: Persisted[] = [];
let database: UseStore | null = null;
const idb = () => (database ??= createStore(DEVICE_DB, DEVICE_STORE));
let pendingWrite: Promise<unknown> = Promise.resolve();
let booted = false;
/** What is done when a store's record could not be written (onSaveFailure). */
let saveFailed: (key: string, error: unknown) => void = () => undefined;

/**
 * Sets what is done when a store's record could not be written to the device (`key`: the store's; `error`: what
 * IndexedDB answered, a QuotaExceededError when the device's storage is full). The store keeps its state in memory, and
 * its next change tries the write again; the app tells the customer (lib/storage-full.ts).
 */
export function onSaveFailure(listener: (key: string, error: unknown) => void): void {
  saveFailed = listener;
}

/**
 * A store saved under `key`; its shape is `initial`. A store of one user's data says `perUser`; one of what they sent
 * or queued and must still learn the outcome of says `heldForUser` too (kept through a session the server ended). A
 * store that several tabs of the app add to says `acrossTabs`: each of its lists holds entries with a unique `key`
 * field, and each save merges this tab's changes into the record other tabs wrote (mergeEntries), then tells them,
 * so an entry queued in one tab is never written over by another's save.
 */
export function persistedStore<T extends object>(
  key: string,
  initial: T,
  options: { perUser?: boolean; heldForUser?: boolean; acrossTabs?: boolean } = {},
): T {
  const store = proxy(structuredClone(initial));
  const entry: Persisted = {
    key,
    store,
    initial,
    hydrated: Promise.resolve(),
    perUser: options.perUser ?? false,
    heldForUser: options.heldForUser ?? false,
    acrossTabs: options.acrossTabs ?? false,
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
    // Merged as the store is when its turn comes (an earlier merge may have changed it since); written as it is now.
    const value = entry.acrossTabs ? null : (structuredClone(snapshot(store)) as object);
    pendingWrite = pendingWrite
      .then(() => (value ? set(key, value, idb()) : saveMerged(entry)))
      .catch((error: unknown) => saveFailed(key, error));
  };
  if (entry.acrossTabs) {
    // A copy: the store takes the saved objects themselves (valtio proxies them in place), and the base must not move
    // with the store.
    entry.base = structuredClone(saved && typeof saved === 'object' ? saved : entry.initial);
    // Another tab saved it: merge that in (this tab's changes kept), as a save of this tab would.
    tabs()?.addEventListener('message', (event: MessageEvent<unknown>) => event.data === key && save());
  }
  // A change made while reading (a page's first load answering) is newer than the saved copy.
  if (getVersion(store) !== version) save();
  else if (saved && typeof saved === 'object') Object.assign(store, saved);
  subscribe(store, save);
}

let channel: BroadcastChannel | null | undefined;
/** The channel the app's tabs tell each other of a save on (none where the browser has no BroadcastChannel). */
const tabs = () =>
  channel === undefined
    ? (channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('coinvest-stores') : null)
    : channel;

/**
 * Saves this tab's copy of an acrossTabs store merged into the record as it is now, under a lock every tab takes for
 * that record (Web Locks, where the browser has them), so no two tabs read and write it at once; tells the other tabs
 * when the record changed; then brings what they wrote into this tab's store, keeping changes made here meanwhile.
 */
async function saveMerged(entry: Persisted): Promise<void> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  // Loaded with the first save of such a store: most starts queue nothing, and the first screen does not wait for it.
  const { mergeEntries } = await import('./store-merge.ts');
  const merge = async () => {
    if (entry.unsavedVersion !== undefined && getVersion(entry.store) === entry.unsavedVersion) return;
    const mine = structuredClone(snapshot(entry.store)) as object;
    const theirs = (await get<object>(entry.key, idb())) ?? structuredClone(entry.initial);
    const merged = mergeEntries(entry.base ?? entry.initial, mine, theirs);
    if (JSON.stringify(merged) !== JSON.stringify(theirs)) {
      await set(entry.key, merged, idb());
      tabs()?.postMessage(entry.key);
    }
    entry.base = merged;
    const now = structuredClone(snapshot(entry.store)) as object;
    const updated = mergeEntries(mine, now, merged);
    // A copy again: what the store takes in is proxied in place, and `merged` is the base.
    if (JSON.stringify(updated) !== JSON.stringify(now)) Object.assign(entry.store, structuredClone(updated));
  };
  await (locks ? locks.request(`store:${entry.key}`, merge) : merge());
}

/**
 * Brings into an acrossTabs `store` what the other tabs have saved of it by now (this tab's changes kept, as a save
 * merges them), without waiting for their message; resolves when done. Nothing for any other store.
 */
export async function storeSynced(store: object): Promise<void> {
  const entry = registry.find((item) => item.store === store);
  if (!entry?.acrossTabs) return;
  await entry.hydrated;
  pendingWrite = pendingWrite.then(() => saveMerged(entry)).catch((error: unknown) => saveFailed(entry.key, error));
  await pendingWrite;
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
  // Removed, not saved: a store merged across tabs would otherwise take back in what another tab had added.
  entry.unsavedVersion = getVersion(store);
  entry.base = structuredClone(entry.initial);
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
