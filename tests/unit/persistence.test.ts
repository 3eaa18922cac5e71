// @vitest-environment jsdom
// Persistence: stores mirrored to IndexedDB survive a reload; the navigation
// history keeps 10 entries (HISTORY_LENGTH) and back goes to the previous one.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, get } from 'idb-keyval';

type Storage = typeof import('../../src/lib/storage.ts');

/** A fresh copy of the module, as after a page reload (IndexedDB itself is kept). */
async function reload(): Promise<Storage> {
  vi.resetModules();
  return import('../../src/lib/storage.ts');
}

/** What IndexedDB holds under `key`, read straight from the database. */
const onDisk = (key: string) => get(key, createStore('coinvest', 'state'));

describe('persistedStore + hydrateStores', () => {
  it('a change survives a reload once flushed', async () => {
    const before = await reload();
    const prefs = before.persistedStore('prefs', { theme: 'light', count: 0 });
    await before.hydrateStores();
    expect(prefs.theme).toBe('light');

    prefs.theme = 'dark';
    prefs.count = 3;
    await before.flushStores();
    expect(await onDisk('prefs')).toEqual({ theme: 'dark', count: 3 });

    const after = await reload();
    const again = after.persistedStore('prefs', { theme: 'light', count: 0 });
    expect(again.theme).toBe('light');
    await after.hydrateStores();
    expect(again).toEqual({ theme: 'dark', count: 3 });
  });

  it('a store without a saved record starts from its initial shape', async () => {
    const storage = await reload();
    const fresh = storage.persistedStore('never-saved', { items: ['a'] });
    await storage.hydrateStores();
    expect(fresh).toEqual({ items: ['a'] });
  });

  it('the initial shape is copied, not shared', async () => {
    const storage = await reload();
    const initial = { items: ['a'] };
    const store = storage.persistedStore('copy-check', initial);
    store.items.push('b');
    expect(initial.items).toEqual(['a']);
  });

  it('the last of several changes in a row wins', async () => {
    const before = await reload();
    const counter = before.persistedStore('counter', { n: 0 });
    await before.hydrateStores();
    for (let n = 1; n <= 5; n += 1) {
      counter.n = n;
      await Promise.resolve();
    }
    await before.flushStores();
    const after = await reload();
    const again = after.persistedStore('counter', { n: 0 });
    await after.hydrateStores();
    expect(again.n).toBe(5);
  });

  it('resetStore puts the initial shape back and removes the record', async () => {
    const before = await reload();
    const prefs = before.persistedStore('to-reset', { theme: 'light' });
    await before.hydrateStores();
    prefs.theme = 'dark';
    await before.flushStores();
    expect(await onDisk('to-reset')).toEqual({ theme: 'dark' });

    await before.resetStore(prefs);
    expect(prefs.theme).toBe('light');
    await before.flushStores();
    expect(await onDisk('to-reset')).toBeUndefined();

    const after = await reload();
    const again = after.persistedStore('to-reset', { theme: 'light' });
    await after.hydrateStores();
    expect(again.theme).toBe('light');
  });

  it('the session survives a reload and clearSession forgets it', async () => {
    vi.resetModules();
    const first = await import('../../src/lib/session.ts');
    const storage1 = await import('../../src/lib/storage.ts');
    await storage1.hydrateStores();
    first.session.token = 'tok-1';
    await storage1.flushStores();

    vi.resetModules();
    const second = await import('../../src/lib/session.ts');
    const storage2 = await import('../../src/lib/storage.ts');
    await storage2.hydrateStores();
    expect(second.session.token).toBe('tok-1');

    await second.clearSession();
    expect(second.session.token).toBeNull();
    await storage2.flushStores();
    expect(await onDisk('session')).toBeUndefined();

    vi.resetModules();
    const third = await import('../../src/lib/session.ts');
    const storage3 = await import('../../src/lib/storage.ts');
    await storage3.hydrateStores();
    expect(third.session.token).toBeNull();
  });
});

describe('navigation history', () => {
  type Navigation = typeof import('../../src/lib/navigation.ts');
  let nav: Navigation;

  beforeEach(async () => {
    vi.resetModules();
    nav = await import('../../src/lib/navigation.ts');
    location.hash = '';
  });

  it('keeps at most 10 entries, the newest last', () => {
    for (let n = 1; n <= 12; n += 1) nav.recordVisit(`/pages/test/${n}`);
    expect(nav.navigationHistory.entries).toHaveLength(10);
    expect(nav.navigationHistory.entries[0]).toBe('/pages/test/3');
    expect(nav.navigationHistory.entries.at(-1)).toBe('/pages/test/12');
  });

  it('counts the same route twice in a row once', () => {
    nav.recordVisit('/pages/index/index');
    nav.recordVisit('/pages/index/index');
    nav.recordVisit('/pages/mine/mine');
    expect(nav.navigationHistory.entries).toEqual(['/pages/index/index', '/pages/mine/mine']);
  });

  it('goBack goes to the previous entry', () => {
    nav.recordVisit('/pages/index/index');
    nav.recordVisit('/pages/mine/mine');
    nav.recordVisit('/pages/mine/setting');
    location.hash = '#/pages/mine/setting';
    nav.goBack();
    expect(location.hash).toBe('#/pages/mine/mine');
    expect(nav.currentRoute()).toBe('/pages/mine/mine');
    expect(nav.navigationHistory.entries).toEqual(['/pages/index/index']);
  });

  it('goBack goes home when there is no previous entry', () => {
    location.hash = '#/pages/mine/setting';
    nav.recordVisit('/pages/mine/setting');
    nav.goBack();
    expect(location.hash).toBe('#/pages/index/index');
  });

  it('the history survives a reload', async () => {
    const storage = await import('../../src/lib/storage.ts');
    await storage.hydrateStores();
    nav.recordVisit('/pages/index/index');
    nav.recordVisit('/pages/coinList/index');
    await storage.flushStores();

    vi.resetModules();
    const reloaded: Navigation = await import('../../src/lib/navigation.ts');
    await (await import('../../src/lib/storage.ts')).hydrateStores();
    expect(reloaded.navigationHistory.entries).toEqual(['/pages/index/index', '/pages/coinList/index']);
  });

  it('currentRoute reads the hash route with its query', async () => {
    location.hash = '#/pages/mine/setting?tab=1';
    expect(nav.currentRoute()).toBe('/pages/mine/setting?tab=1');
    expect(nav.pathOf(nav.currentRoute())).toBe('/pages/mine/setting');
    expect(nav.queryOf(nav.currentRoute())).toBe('tab=1');
    // A hash changed from outside (a link, the back button) is read once the task that read the old one is over.
    location.hash = '';
    await Promise.resolve();
    expect(nav.currentRoute()).toBe('/');
    // A change made here is read at once.
    nav.navigate('/pages/mine/mine');
    expect(nav.currentRoute()).toBe('/pages/mine/mine');
    nav.navigate('/pages/login/login', { replace: true });
    expect(nav.currentRoute()).toBe('/pages/login/login');
  });
});

describe('a store several tabs add to (acrossTabs)', () => {
  type Queue = { pending: { key: string; body: string }[]; note: string };
  const initial = (): Queue => ({ pending: [], note: '' });
  const keys = (queue: Queue) => queue.pending.map((item) => item.key);

  /** A tab of the app: its own copy of the module (its own memory), the one IndexedDB of the origin. */
  async function openTab() {
    const storage = await reload();
    const queue = storage.persistedStore('shared-queue', initial(), { acrossTabs: true });
    await storage.hydrateStores();
    return { storage, queue };
  }

  it('keeps what each of two open tabs queued, and what either removed stays removed', async () => {
    const first = await openTab();
    const second = await openTab();
    first.queue.pending.push({ key: 'a', body: 'queued in the first tab' });
    await first.storage.flushStores();
    // The second tab has not read the first tab's entry: its save must not write over it.
    second.queue.pending.push({ key: 'b', body: 'queued in the second tab' });
    await second.storage.flushStores();
    expect(keys((await onDisk('shared-queue')) as Queue)).toEqual(['a', 'b']);
    // The second tab's save brought the first tab's entry into its own memory.
    expect(keys(second.queue)).toEqual(['a', 'b']);

    // The first tab sends its entry and removes it, unaware of the second's: the second's stays, the first's is gone.
    first.queue.pending.shift();
    await first.storage.flushStores();
    expect(keys((await onDisk('shared-queue')) as Queue)).toEqual(['b']);
    // A change of one entry (a picture uploaded) is kept beside the other tab's list.
    second.queue.pending.find((item) => item.key === 'b')!.body = 'edited';
    await second.storage.flushStores();
    expect((await onDisk('shared-queue')) as Queue).toEqual({ pending: [{ key: 'b', body: 'edited' }], note: '' });

    const reloaded = await openTab();
    expect(keys(reloaded.queue)).toEqual(['b']);
    // A tab that read the record at its start sends and removes the entry: it stays removed (its base is a copy of
    // what it read, not the objects its store now holds).
    reloaded.queue.pending.shift();
    await reloaded.storage.flushStores();
    expect(keys(reloaded.queue)).toEqual([]);
    expect(keys((await onDisk('shared-queue')) as Queue)).toEqual([]);
  });

  it('merges by key: removed, added and changed entries, and a field that is no list', async () => {
    const { mergeEntries } = await import('../../src/lib/store-merge.ts');
    const base: Queue = {
      pending: [
        { key: 'x', body: '1' },
        { key: 'y', body: '1' },
      ],
      note: 'n',
    };
    const mine: Queue = {
      pending: [
        { key: 'y', body: '2' },
        { key: 'm', body: '1' },
      ],
      note: 'mine',
    };
    const theirs: Queue = {
      pending: [
        { key: 'x', body: '1' },
        { key: 'y', body: '1' },
        { key: 't', body: '1' },
      ],
      note: 'n',
    };
    expect(mergeEntries(base, mine, theirs)).toEqual({
      pending: [
        { key: 'y', body: '2' },
        { key: 't', body: '1' },
        { key: 'm', body: '1' },
      ],
      note: 'mine',
    });
    // A field mine did not change is theirs.
    expect(mergeEntries(base, { ...base }, { ...theirs, note: 'theirs' }).note).toBe('theirs');
  });
});
