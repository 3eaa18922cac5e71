// flushStores() is what changeLocale awaits before location.reload(): when it resolves, every
// change made so far, including one made in the same tick, must already be written.
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Every completed IndexedDB write and delete, in order. */
const disk = vi.hoisted(() => ({ log: [] as string[] }));

vi.mock('idb-keyval', async (importOriginal) => {
  const actual = await importOriginal<typeof import('idb-keyval')>();
  return {
    ...actual,
    set: async (...args: Parameters<typeof actual.set>) => {
      await actual.set(...args);
      disk.log.push(`set ${String(args[0])} ${JSON.stringify(args[1])}`);
    },
    del: async (...args: Parameters<typeof actual.del>) => {
      await actual.del(...args);
      disk.log.push(`del ${String(args[0])}`);
    },
  };
});

const { persistedStore, hydrateStores, flushStores, resetStore } = await import('../../src/lib/storage.ts');
const { get, createStore } = await import('idb-keyval');
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(() => {
  disk.log.length = 0;
});

describe('flushStores', () => {
  it('waits for a change made just before it was called', async () => {
    const choice = persistedStore('flush-locale', { locale: 'en' });
    await hydrateStores();
    disk.log.length = 0;

    choice.locale = 'zh';
    await flushStores();
    expect(disk.log).toEqual(['set flush-locale {"locale":"zh"}']);
  });

  it('resetStore deletes the record last, so nothing is left behind', async () => {
    const prefs = persistedStore('flush-reset', { theme: 'light' });
    await hydrateStores();
    prefs.theme = 'dark';
    await flushStores();
    disk.log.length = 0;

    await resetStore(prefs);
    await flushStores();
    await settle();
    expect(disk.log.at(-1)).toBe('del flush-reset');
    expect(await get('flush-reset', createStore('coinvest', 'state'))).toBeUndefined();
  });
});
