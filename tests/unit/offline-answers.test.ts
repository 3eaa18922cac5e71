// @vitest-environment jsdom
// Offline, the page's side: an answer the service worker gave from its cache is
// marked (the page shows "Offline — as of HH:MM"), an uncached read offline fails at once, and
// logout or ret -1 deletes that user's cache partition and stored records.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, get } from 'idb-keyval';
import { api, ApiError } from '../../src/lib/api.ts';
import { balances, coinList } from '../../src/api-contract/markets.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { noteAnswer, noteFreshAnswer, offlineData, offlineSince } from '../../src/lib/offline.ts';
import { loadCoinList, prices } from '../../src/lib/prices.ts';
import { clearSession, session } from '../../src/lib/session.ts';
import { flushStores, hydrateStores, persistedStore } from '../../src/lib/storage.ts';
import { SERVED_FROM_CACHE_HEADER, partitionName } from '../../src/api-contract/offline-cache.ts';
import { coinQuote, resetClientState, stubFetch } from './helpers.ts';

const setOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
const answer = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ ret: 1, msg: '', data }), {
    headers: { 'content-type': 'application/json', ...headers },
  });
const onDisk = (key: string) => get(key, createStore('coinvest', 'state'));

beforeEach(() => {
  resetClientState();
  offlineData.asOf = {};
  offlineData.online = true;
});
afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine;
  vi.unstubAllGlobals();
});

describe('answers from the service worker’s cache', () => {
  it('records when the cached answer was stored, per endpoint, and forgets it once the network answers', async () => {
    stubFetch(answer({ lists: [] }, { [SERVED_FROM_CACHE_HEADER]: '2026-01-02T03:04:05.000Z' }), answer({ lists: [] }));
    await api(coinList);
    expect(offlineData.asOf).toEqual({ [coinList.path]: '2026-01-02T03:04:05.000Z' });
    await api(coinList);
    expect(offlineData.asOf).toEqual({});
  });

  it('a coin list from the cache keeps newer streamed prices and is dated when it was stored', async () => {
    const quote = (price: string, at: string) => coinQuote('BTC', price, at, { name: 'Bitcoin', change_24h: '0' });
    prices.quotes = { BTC: quote('101.00', '2026-01-02T03:05:00.000Z') };
    stubFetch(
      answer(
        {
          lists: [
            quote('99.00', '2026-01-02T03:04:00.000Z'),
            { ...quote('5.00', '2026-01-02T03:04:00.000Z'), code: 'ETH' },
          ],
        },
        { [SERVED_FROM_CACHE_HEADER]: '2026-01-02T03:04:05.000Z' },
      ),
    );
    await loadCoinList();
    expect(prices.quotes.BTC!.price).toBe('101.00');
    expect(prices.quotes.ETH!.price).toBe('5.00');
    expect(prices.codes).toEqual(['BTC', 'ETH']);
    expect(prices.updatedAt).toBe('2026-01-02T03:04:05.000Z');
  });

  it('counts as offline data only while offline, and the oldest answer on screen wins', () => {
    const asOf = { '/a': '2026-01-02T10:00:00.000Z', '/b': '2026-01-02T09:00:00.000Z' };
    expect(offlineSince({ online: false, asOf }, ['/a', '/b'])).toBe('2026-01-02T09:00:00.000Z');
    expect(offlineSince({ online: false, asOf }, ['/c'])).toBeNull();
    // A public list the worker gives from its cache at once while it asks the network (stale-while-revalidate): the
    // fresh one follows, so it is not marked while online.
    expect(
      offlineSince({ online: true, asOf: { [coinList.path]: '2026-01-02T09:00:00.000Z' } }, [coinList.path]),
    ).toBeNull();
  });

  it("a customer's balances from the cache stay marked when the network then answers another call", async () => {
    // The balances' read failed: the worker gave the answer it kept, and said the network did not answer.
    offlineData.online = false;
    stubFetch(
      answer({ lists: [] }, { [SERVED_FROM_CACHE_HEADER]: '2026-01-02T03:04:05.000Z' }),
      answer({ lists: [], next: null, total: 0 }),
    );
    await api(balances);
    expect(offlineSince(offlineData, [balances.path])).toBe('2026-01-02T03:04:05.000Z');
    // Another read is answered by the network: the balances on screen are still those of 03:04.
    await api(messages);
    expect(offlineData.online).toBe(true);
    expect(offlineSince(offlineData, [balances.path])).toBe('2026-01-02T03:04:05.000Z');
  });

  it("the network's late answer to a page the customer has acted on leaves its cached balances marked", () => {
    offlineData.online = false;
    offlineData.asOf = { [balances.path]: '2026-01-02T03:04:05.000Z' };
    // The page is not loaded again (the customer is typing an amount): it still shows what the cache gave.
    noteFreshAnswer(balances.path);
    expect(offlineSince(offlineData, [balances.path])).toBe('2026-01-02T03:04:05.000Z');
  });

  it('back from a failed call, a page showing balances from the cache is loaded again; one showing prices is not', () => {
    // Past the pause between two loads of the page (an earlier test may have loaded it again just now).
    vi.useFakeTimers({ now: Date.now() + 3_600_000, toFake: ['Date'] });
    try {
      const fresh = new Headers();
      offlineData.online = false;
      offlineData.asOf = { [coinList.path]: '2026-01-02T03:04:05.000Z' };
      const before = offlineData.refreshes;
      noteAnswer(messages.path, fresh);
      expect(offlineData.refreshes).toBe(before);

      offlineData.online = false;
      offlineData.asOf = { [balances.path]: '2026-01-02T03:04:05.000Z' };
      noteAnswer(messages.path, fresh);
      expect(offlineData.online).toBe(true);
      expect(offlineData.refreshes).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the browser’s online and offline events', () => {
    dispatchEvent(new Event('offline'));
    expect(offlineData.online).toBe(false);
    dispatchEvent(new Event('online'));
    expect(offlineData.online).toBe(true);
  });

  it('a read offline that the cache cannot answer fails at once with the offline text (no retries)', async () => {
    setOnline(false);
    const { fetch } = stubFetch(new TypeError('Failed to fetch'));
    const error = (await api(coinList).catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(texts.offline.message);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('forgetting a user', () => {
  const deleted: string[] = [];
  const posted: unknown[] = [];
  beforeEach(() => {
    deleted.length = 0;
    posted.length = 0;
    vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => (deleted.push(name), true)) });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: { postMessage: (message: unknown) => posted.push(message) } },
    });
  });
  afterEach(() => {
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  });

  it('logout deletes the user’s cache partition (here and in the worker) and their stored records', async () => {
    const userNotes = persistedStore('test-user-notes', { notes: [] as string[] }, { perUser: true });
    const deviceNotes = persistedStore('test-device-notes', { notes: [] as string[] });
    await hydrateStores();
    session.token = 'token-of-a';
    userNotes.notes = ['a private note'];
    deviceNotes.notes = ['kept'];
    offlineData.asOf = { [messages.path]: '2026-01-02T03:04:05.000Z', [coinList.path]: '2026-01-02T03:04:05.000Z' };
    await flushStores();
    expect(await onDisk('test-user-notes')).toEqual({ notes: ['a private note'] });

    await clearSession();

    const partition = await partitionName('token-of-a');
    expect(deleted).toEqual([partition]);
    expect(posted).toEqual([{ type: 'FORGET_USER', partition, signedOut: true }]);
    expect(session.token).toBeNull();
    expect(await onDisk('session')).toBeUndefined();
    expect(await onDisk('test-user-notes')).toBeUndefined();
    expect(userNotes.notes).toEqual([]);
    expect(await onDisk('test-device-notes')).toEqual({ notes: ['kept'] });
    expect(offlineData.asOf).toEqual({ [coinList.path]: '2026-01-02T03:04:05.000Z' });
  });

  it('ret -1 does the same', async () => {
    session.token = 'token-of-b';
    stubFetch(
      new Response(JSON.stringify({ ret: -1, msg: 'Please log in again', data: null }), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect(api(messages, {}, { redirectOnInvalidToken: false })).rejects.toBeInstanceOf(ApiError);
    await expect.poll(() => deleted).toEqual([await partitionName('token-of-b')]);
    expect(session.token).toBeNull();
  });
});
