// Stores that survive a reload: each is a valtio proxy mirrored to one IndexedDB record.
// hydrateStores() runs before the first render, so pages never see a half-loaded session.
import { proxy, snapshot, subscribe } from 'valtio/vanilla';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

interface Persisted {
  key: string;
  store: object;
  initial: object;
}

const registry: Persisted[] = [];
let database: UseStore | null = null;
const idb = () => (database ??= createStore('coinvest', 'state'));
let pendingWrite: Promise<unknown> = Promise.resolve();

/** A store saved under `key`; its shape is `initial`. */
export function persistedStore<T extends object>(key: string, initial: T): T {
  const store = proxy(structuredClone(initial));
  registry.push({ key, store, initial });
  return store;
}

/** Loads every persisted store, then saves each change (writes are queued in order). */
export async function hydrateStores(): Promise<void> {
  await Promise.all(
    registry.map(async ({ key, store }) => {
      const saved = await get<object>(key, idb()).catch(() => undefined);
      if (saved && typeof saved === 'object') Object.assign(store, saved);
      subscribe(store, () => {
        const value = snapshot(store);
        pendingWrite = pendingWrite.then(() => set(key, structuredClone(value), idb())).catch(() => undefined);
      });
    }),
  );
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
