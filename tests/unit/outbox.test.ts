// @vitest-environment jsdom
// Marking messages read offline: shown read at once, kept in the outbox on the device, and sent
// once when the connection returns — with the Idempotency-Key it was given, so a send whose answer
// is lost and is sent again applies once. Nothing that moves money is ever queued.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StationMessage } from '../../src/api-contract/messages.ts';
import { refreshUnread, unread } from '../../src/lib/messages.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { flushOutbox, outbox } from '../../src/lib/outbox.ts';
import { clearSession, session } from '../../src/lib/session.ts';
import { loadMessages, markAllRead, markRead, messagesState } from '../../src/features/messages/messages-store.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

const message = (id: number): StationMessage => ({
  id,
  title: `Notice ${id}`,
  content: '',
  status: 'unread',
  created_at: '2026-01-02T03:04:05.000Z',
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-a';
  await settle();
  outbox.pending = [];
  messagesState.all = { lists: [message(1), message(2), message(3)], next: null, loaded: true, failure: null };
  unread.count = 3;
});
afterEach(resetClientState);

it('offline, a message marked read shows read at once, the count drops, and nothing is sent', async () => {
  const fetch = stubFetch(envelope(1, 'ok', { unread: 2 }));
  offlineData.online = false;
  await markRead([2]);
  expect(messagesState.all.lists.map((item) => item.status)).toEqual(['unread', 'read', 'unread']);
  expect(unread.count).toBe(2);
  expect(fetch.calls).toHaveLength(0);
  expect(outbox.pending).toHaveLength(1);
  expect(outbox.pending[0]).toMatchObject({ kind: 'messages-read', ids: [2] });
});

it('back online it is sent once, with the key it was given, and leaves the outbox', async () => {
  offlineData.online = false;
  await markRead([1]);
  await markRead([3]);
  const keys = outbox.pending.map((entry) => entry.key);
  const fetch = stubFetch(envelope(1, 'ok', { unread: 2 }), envelope(1, 'ok', { unread: 1 }));
  offlineData.online = true;
  await flushOutbox();
  await flushOutbox();
  expect(fetch.calls.map((call) => Object.fromEntries(new URLSearchParams(call.body)))).toEqual([
    { ids: '1' },
    { ids: '3' },
  ]);
  expect(fetch.calls.map((call) => call.request.headers.get('Idempotency-Key'))).toEqual(keys);
  expect(outbox.pending).toEqual([]);
  expect(unread.count).toBe(1);
});

it('a send whose answer is lost stays in the outbox and is sent again with the same key', async () => {
  offlineData.online = false;
  await markRead([1]);
  const key = outbox.pending[0]!.key;
  // The request leaves, the answer never comes back (the network drops it): five attempts, then offline.
  let fetch = stubFetch(new TypeError('Failed to fetch'));
  offlineData.online = true;
  await flushOutbox();
  expect(outbox.pending.map((entry) => entry.key)).toEqual([key]);
  fetch = stubFetch(envelope(1, 'ok', { unread: 2 }));
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls.map((call) => call.request.headers.get('Idempotency-Key'))).toEqual([key]);
  expect(outbox.pending).toEqual([]);
});

it('a send the server refuses is dropped (sending again cannot help) and the next one still goes', async () => {
  offlineData.online = false;
  await markRead([1]);
  await markRead([2]);
  const fetch = stubFetch(envelope(0, 'The request is not valid!'), envelope(1, 'ok', { unread: 1 }));
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls).toHaveLength(2);
  expect(outbox.pending).toEqual([]);
});

it('"mark all read" offline is kept too; the outbox belongs to the user and logout empties it', async () => {
  offlineData.online = false;
  await markAllRead();
  expect(messagesState.all.lists.every((item) => item.status === 'read')).toBe(true);
  expect(outbox.pending.map((entry) => entry.kind === 'messages-read' && entry.ids)).toEqual(['all']);
  await clearSession();
  expect(outbox.pending).toEqual([]);
});

it('a cached answer stored before the reads (a reload offline) still shows them read, and the count without them', async () => {
  offlineData.online = false;
  await markRead([1, 3]);
  // The list and the count come again from answers that still call every message unread.
  stubFetch(
    envelope(1, 'ok', { lists: [message(3), message(2), message(1)], total: 3 }),
    envelope(1, 'ok', { count: 3, first: message(1) }),
  );
  offlineData.online = true;
  await loadMessages('all');
  await refreshUnread();
  expect(messagesState.all.lists.map((item) => [item.id, item.status])).toEqual([
    [3, 'read'],
    [2, 'unread'],
    [1, 'read'],
  ]);
  expect(unread).toMatchObject({ count: 1, first: null });
});
