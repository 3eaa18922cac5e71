// @vitest-environment jsdom
// Station messages: the shared unread count, the all/unread lists with paging,
// marking read (one, or all) and the startup dialog's once-per-app-start rule.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGE_PAGE_SIZE, type StationMessage } from '../../src/api-contract/messages.ts';
import { FRESH_READ_MS } from '../../src/lib/api.ts';
import {
  firstUnreadOnce,
  noteRead,
  refreshUnread,
  refreshUnreadUnlessFresh,
  resetStartupCheck,
  unread,
} from '../../src/lib/messages.ts';
import { session } from '../../src/lib/session.ts';
import {
  hasMore,
  loadMessages,
  markAllRead,
  markRead,
  messagesState,
  formatMessageDate,
  openMessage,
  previewOf,
} from '../../src/features/messages/messages-store.ts';
import { deferred, envelope, httpError, resetClientState, stubFetch } from './helpers.ts';

const message = (id: number, status: StationMessage['status'] = 'unread'): StationMessage => ({
  id,
  title: `Notice ${id}`,
  content: `Body of ${id}`,
  status,
  created_at: '2026-01-02T03:04:05.000Z',
});
/** A page of messages: `next` continues after it, null on the last. */
const page = (lists: StationMessage[], next: string | null = null) => envelope(1, 'ok', { lists, next });
const range = (from: number, to: number, status: StationMessage['status'] = 'unread') =>
  Array.from({ length: to - from + 1 }, (_, index) => message(from + index, status));
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
/** valtio tells its subscribers (the reset on a new token) in a microtask. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function signIn(token = 'token-a') {
  session.token = token;
  await settle();
}

beforeEach(async () => {
  resetClientState();
  resetStartupCheck();
  await settle();
  await signIn();
});
afterEach(resetClientState);

describe('the unread count (lib/messages)', () => {
  it('takes count and first from the server, without the loading mask', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', { count: 3, first: message(4) }));
    await refreshUnread();
    expect(unread).toMatchObject({ count: 3, first: message(4), loaded: true });
    expect(calls[0]!.request.method).toBe('GET');
    expect(new URL(calls[0]!.request.url).pathname).toBe('/api/users/message/unread');
  });

  it('asks nothing without a session', async () => {
    session.token = null;
    await settle();
    const { calls } = stubFetch(envelope(1, 'ok', { count: 1, first: null }));
    await refreshUnread();
    expect(calls).toHaveLength(0);
    expect(unread.count).toBe(0);
  });

  it('drops an answer that arrives after the session changed, and forgets the old count', async () => {
    const held = deferred<Response>();
    stubFetch(() => held.promise);
    const asking = refreshUnread();
    await signIn('token-b');
    held.resolve(envelope(1, 'ok', { count: 9, first: message(1) }));
    await asking;
    expect(unread).toMatchObject({ count: 0, first: null, loaded: false });
  });

  it('drops an older answer that arrives after a read', async () => {
    const held = deferred<Response>();
    stubFetch(() => held.promise);
    const asking = refreshUnread();
    noteRead(0, 'all');
    held.resolve(envelope(1, 'ok', { count: 5, first: message(1) }));
    await asking;
    expect(unread).toMatchObject({ count: 0, first: null });
  });

  it('reading the first unread message asks for the next one', async () => {
    unread.first = message(1);
    const { calls } = stubFetch(envelope(1, 'ok', { count: 1, first: message(2) }));
    noteRead(1, [1]);
    expect(unread.first).toBeNull();
    await settle();
    expect(calls).toHaveLength(1);
    expect(unread).toMatchObject({ count: 1, first: message(2) });
  });

  it('a screen that only shows the count takes one asked for a moment ago, and asks again once it is older', async () => {
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1_000_000);
    const { calls } = stubFetch(
      envelope(1, 'ok', { count: 2, first: message(7) }),
      envelope(1, 'ok', { count: 3, first: message(7) }),
    );
    await refreshUnread();
    now.mockReturnValue(1_000_000 + FRESH_READ_MS - 1);
    refreshUnreadUnlessFresh();
    await settle();
    expect(calls).toHaveLength(1);
    now.mockReturnValue(1_000_000 + FRESH_READ_MS);
    refreshUnreadUnlessFresh();
    await settle();
    expect(calls).toHaveLength(2);
    expect(unread.count).toBe(3);
    now.mockRestore();
  });

  it('another session asks for its own count at once', async () => {
    const { calls } = stubFetch(
      envelope(1, 'ok', { count: 2, first: null }),
      envelope(1, 'ok', { count: 5, first: null }),
    );
    await refreshUnread();
    await signIn('token-b');
    refreshUnreadUnlessFresh();
    await settle();
    expect(calls).toHaveLength(2);
    expect(unread.count).toBe(5);
  });

  it('a logout clears the count and the message', async () => {
    stubFetch(envelope(1, 'ok', { count: 2, first: message(7) }));
    await refreshUnread();
    session.token = null;
    await settle();
    expect(unread).toMatchObject({ count: 0, first: null, loaded: false });
  });
});

describe('the message lists', () => {
  it('asks for status and the head, and adds the page after the cursor without repeating a message', async () => {
    const { calls } = stubFetch(page(range(1, MESSAGE_PAGE_SIZE), '20'), page(range(MESSAGE_PAGE_SIZE, 25)));
    await loadMessages('all');
    expect(form(calls[0]!.body)).toEqual({ status: 'all', cursor: '' });
    expect(hasMore('all', messagesState.all)).toBe(true);

    await loadMessages('all', { more: true });
    expect(form(calls[1]!.body)).toEqual({ status: 'all', cursor: '20' });
    expect(messagesState.all.lists.map((item) => item.id)).toEqual(range(1, 25).map((item) => item.id));
    expect(hasMore('all', messagesState.all)).toBe(false);
  });

  it('in the unread list, continues after the last message shown though some were read meanwhile', async () => {
    const { calls } = stubFetch(
      page(range(1, MESSAGE_PAGE_SIZE), '20'),
      envelope(1, 'ok', { unread: 22 }),
      page(range(21, 25)),
    );
    await loadMessages('unread');
    await markRead([1, 2, 3]);
    // The three stay on screen, read; the next page starts after the last one shown, whatever was read.
    expect(messagesState.unread.lists).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(hasMore('unread', messagesState.unread)).toBe(true);
    await loadMessages('unread', { more: true });
    expect(form(calls[2]!.body)).toEqual({ status: 'unread', cursor: '20' });
    expect(messagesState.unread.lists.map((item) => item.id)).toEqual(range(1, 25).map((item) => item.id));
    expect(hasMore('unread', messagesState.unread)).toBe(false);
  });

  it('opened again, shows the messages that arrived meanwhile on top and reads as deep as was shown', async () => {
    const ids = (from: number, to: number) => range(from, to).map((item) => item.id);
    const newestFirst = (from: number, to: number) => range(from, to).reverse();
    const { calls } = stubFetch(
      page(newestFirst(21, 40), '21'),
      page(newestFirst(1, 20)),
      // Four arrived: the head and the page after it are read again, as many as were shown.
      page(newestFirst(25, 44), '25'),
      page(newestFirst(5, 24), '5'),
    );
    await loadMessages('all');
    await loadMessages('all', { more: true });
    expect(hasMore('all', messagesState.all)).toBe(false);
    await loadMessages('all');
    expect(calls.slice(2).map((call) => form(call.body).cursor)).toEqual(['', '25']);
    expect(messagesState.all.lists.map((item) => item.id)).toEqual(ids(5, 44).reverse());
    expect(hasMore('all', messagesState.all)).toBe(true);
  });

  it('opened again, a message below the first page read on another device shows read, and leaves the unread list', async () => {
    const newestFirst = (from: number, to: number, status: StationMessage['status'] = 'unread') =>
      range(from, to, status).reverse();
    stubFetch(
      page(newestFirst(2, 21), '2'),
      page([message(1)]),
      page(newestFirst(2, 21), '2'),
      page([message(1)]),
      // Message 1 was read on another device.
      page(newestFirst(2, 21), '2'),
      page([message(1, 'read')]),
      page(newestFirst(2, 21), '2'),
      page([]),
    );
    for (const filter of ['all', 'unread'] as const) {
      await loadMessages(filter);
      await loadMessages(filter, { more: true });
      expect(messagesState[filter].lists).toHaveLength(21);
    }
    await loadMessages('all');
    expect(messagesState.all.lists.at(-1)).toMatchObject({ id: 1, status: 'read' });
    await loadMessages('unread');
    expect(messagesState.unread.lists.map((item) => item.id)).toEqual(newestFirst(2, 21).map((item) => item.id));
    expect(hasMore('unread', messagesState.unread)).toBe(false);
  });

  it('keeps what is shown when a reload fails, and says why', async () => {
    stubFetch(page([message(1)]), httpError(404));
    await loadMessages('all');
    await expect(loadMessages('all')).rejects.toThrow('The requested resource was not found');
    expect(messagesState.all.lists).toHaveLength(1);
    expect(messagesState.all.failure).toBe('The requested resource was not found');
  });

  it('a new session starts with empty lists', async () => {
    stubFetch(page([message(1)]));
    await loadMessages('all');
    await signIn('token-b');
    expect(messagesState.all).toMatchObject({ lists: [], loaded: false });
  });

  it('dates a message as short as stays clear in the list, in full in the reader', () => {
    const now = new Date(2026, 5, 15, 18, 0);
    expect(formatMessageDate(new Date(2026, 5, 15, 9, 5).toISOString(), { now })).toBe('09:05');
    expect(formatMessageDate(new Date(2026, 0, 2, 23, 4).toISOString(), { now })).toBe('01/02, 23:04');
    expect(formatMessageDate(new Date(2025, 11, 31, 8, 0).toISOString(), { now })).toBe('12/31/2025');
    expect(formatMessageDate(new Date(2026, 5, 15, 9, 5).toISOString(), { now, full: true })).toBe('06/15/2026, 09:05');
    expect(formatMessageDate('not a date')).toBe('not a date');
  });

  it('shows the content on one line in the list', () => {
    expect(previewOf('  Line one\n\nline   two ')).toBe('Line one line two');
  });
});

describe('reading', () => {
  it('opening an unread message marks it read in both lists and updates the count', async () => {
    const { calls } = stubFetch(
      page([message(1), message(2, 'read')]),
      page([message(1)]),
      envelope(1, 'ok', { unread: 0 }),
    );
    await loadMessages('all');
    await loadMessages('unread');
    await openMessage(messagesState.all.lists[0]!);
    expect(form(calls[2]!.body)).toEqual({ ids: '1' });
    expect(messagesState.opened).toMatchObject({ id: 1, status: 'read' });
    expect(messagesState.all.lists[0]!.status).toBe('read');
    expect(messagesState.unread.lists[0]!.status).toBe('read');
    expect(unread.count).toBe(0);
  });

  it('opening a read message sends nothing', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', { unread: 0 }));
    await openMessage(message(3, 'read'));
    expect(calls).toHaveLength(0);
    expect(messagesState.opened?.id).toBe(3);
  });

  it('a failed read leaves the message unread', async () => {
    stubFetch(page([message(1)]), envelope(0, 'No such message'));
    await loadMessages('all');
    await expect(markRead([1])).rejects.toThrow('No such message');
    expect(messagesState.all.lists[0]!.status).toBe('unread');
  });

  it('mark all read sends ids=all and empties the unread list', async () => {
    unread.count = 2;
    unread.first = message(1);
    const { calls } = stubFetch(
      page([message(1), message(2)]),
      page([message(1), message(2)]),
      envelope(1, 'ok', { unread: 0 }),
    );
    await loadMessages('all');
    await loadMessages('unread');
    await markAllRead();
    expect(form(calls[2]!.body)).toEqual({ ids: 'all' });
    expect(messagesState.all.lists.every((item) => item.status === 'read')).toBe(true);
    expect(messagesState.unread).toMatchObject({ lists: [], next: null, loaded: true });
    expect(unread).toMatchObject({ count: 0, first: null });
  });
});

describe('the startup message', () => {
  it('is the first unread message, once per app start and session', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', { count: 2, first: message(5) }));
    await expect(firstUnreadOnce('token-a')).resolves.toMatchObject({ id: 5 });
    await expect(firstUnreadOnce('token-a')).resolves.toBeNull();
    expect(calls).toHaveLength(1);

    await signIn('token-b');
    await expect(firstUnreadOnce('token-b')).resolves.toMatchObject({ id: 5 });
  });

  it('still opens when Home asks for the count while the startup question is on its way', async () => {
    const held = deferred<Response>();
    // The startup question is answered at once; Home's, asked just after it, is still on its way.
    stubFetch(envelope(1, 'ok', { count: 2, first: message(5) }), () => held.promise);
    const startup = firstUnreadOnce('token-a');
    const home = refreshUnread();
    await expect(startup).resolves.toMatchObject({ id: 5 });
    held.resolve(envelope(1, 'ok', { count: 2, first: message(5) }));
    await home;
  });

  it('is nothing when all is read', async () => {
    stubFetch(envelope(1, 'ok', { count: 0, first: null }));
    await expect(firstUnreadOnce('token-a')).resolves.toBeNull();
  });
});
