// A device whose storage is full refuses the app's writes: the customer is told (once a minute at most), the store
// keeps its state in memory, and the next change writes it once there is room again.
import { beforeEach, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { texts } from '../../src/api-contract/texts.ts';

/** Whether the device refuses writes now, and every record written. */
const disk = vi.hoisted(() => ({ full: false, refusing: null as string | null, written: [] as string[] }));

vi.mock('idb-keyval', async (importOriginal) => {
  const actual = await importOriginal<typeof import('idb-keyval')>();
  return {
    ...actual,
    set: async (...args: Parameters<typeof actual.set>) => {
      if (disk.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      if (disk.refusing) throw new DOMException('Refused.', disk.refusing);
      await actual.set(...args);
      disk.written.push(`${String(args[0])} ${JSON.stringify(args[1])}`);
    },
  };
});

const { persistedStore, hydrateStores, flushStores } = await import('../../src/lib/storage.ts');
const { STORAGE_FULL_NOTICE_EVERY_MS, tellWhenStorageFull } = await import('../../src/lib/storage-full.ts');
const { toasts } = await import('../../src/lib/toast.ts');

/** The toast on screen now, if any. */
const shown = (): string | null => toasts.current?.text ?? null;

let clock = 0;
beforeEach(() => {
  disk.full = false;
  disk.refusing = null;
  disk.written.length = 0;
  toasts.current = null;
  tellWhenStorageFull(() => clock);
});

it('tells the customer once a minute that storage is full; the store keeps its state and writes it once there is room', async () => {
  const queue = persistedStore('full-queue', { items: [] as string[] });
  await hydrateStores();
  disk.full = true;
  queue.items.push('chat message');
  await flushStores();
  expect(shown()).toBe(i18n._(texts.deviceStorageFull));
  expect(disk.written).toEqual([]);
  expect(queue.items).toEqual(['chat message']);

  // A second refusal within the minute says nothing more.
  toasts.current = null;
  queue.items.push('price alert');
  await flushStores();
  expect(shown()).toBeNull();
  clock += STORAGE_FULL_NOTICE_EVERY_MS;
  queue.items.push('read mark');
  await flushStores();
  expect(shown()).toBe(i18n._(texts.deviceStorageFull));

  // Room again: the next change writes the whole state.
  disk.full = false;
  queue.items.push('another');
  await flushStores();
  expect(disk.written).toEqual(['full-queue {"items":["chat message","price alert","read mark","another"]}']);
});

it('shows nothing for a failure that is not the device being full (IndexedDB turned off in the browser)', async () => {
  const prefs = persistedStore('full-other', { theme: 'light' });
  await hydrateStores();
  disk.refusing = 'InvalidStateError';
  prefs.theme = 'dark';
  await flushStores();
  expect(shown()).toBeNull();
  expect(prefs.theme).toBe('dark');
});
