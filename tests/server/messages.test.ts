// Station messages: each user lists their own messages and every broadcast, newest
// first and paged; the unread count and the oldest unread message drive the startup dialog; a
// read mark belongs to the reader alone.
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, refused } from './helpers.ts';
import {
  MESSAGE_PAGE_SIZE,
  messages,
  readMessages,
  unreadMessages,
  type StationMessage,
} from '../../src/api-contract/messages.ts';
import type { CursorPage, Envelope } from '../../src/api-contract/envelope.ts';
import { messageReads, messages as messageRows } from '../../src/server/db/schema.ts';
import { WELCOME_MESSAGE, seedDemo } from '../../src/server/db/seed.ts';
import { postMessage } from '../../src/server/domain/messages.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
// Broadcasts reach every user, the fresh ones of each test too: each test starts with none.
beforeEach(async () => {
  await h.database.db.delete(messageReads);
  await h.database.db.delete(messageRows);
});

/** Posts as the operator command does, a minute after the previous one. */
async function send(to: number | null, title: string) {
  h.clock.advance(60_000);
  return postMessage(h.database.db, { to, title, content: `${title}: content` }, h.clock.now());
}

const titlesOf = (res: Envelope<CursorPage<StationMessage>>) => res.data.lists.map((message) => message.title);
const statusesOf = (res: Envelope<CursorPage<StationMessage>>) =>
  Object.fromEntries(res.data.lists.map((message) => [message.title, message.status]));
const readRows = () =>
  h.database.db.select().from(messageReads).orderBy(asc(messageReads.userId), asc(messageReads.messageId));

it('lists the caller’s own messages and the broadcasts, newest first, MESSAGE_PAGE_SIZE a page', async () => {
  const a = await customer(h);
  const b = await customer(h);
  for (let n = 1; n <= 10; n++) await send(a.id, `A${n}`);
  const broadcast = await send(null, 'To everyone');
  for (let n = 11; n <= 22; n++) await send(a.id, `A${n}`);
  await send(b.id, 'B1');
  await send(b.id, 'B2');

  const first = await h.call(messages, { status: 'all', page: '1' }, { token: a.token });
  expect(first).toMatchObject({ ret: 1, msg: 'Success' });
  expect(first.data.next).toBe(String(first.data.lists.at(-1)!.id));
  expect(first.data.lists).toHaveLength(MESSAGE_PAGE_SIZE);
  const newestFirst = [
    ...Array.from({ length: 12 }, (_, i) => `A${22 - i}`),
    'To everyone',
    ...Array.from({ length: 10 }, (_, i) => `A${10 - i}`),
  ];
  expect(titlesOf(first)).toEqual(newestFirst.slice(0, MESSAGE_PAGE_SIZE));
  expect(first.data.lists[12]).toEqual({
    id: broadcast.id,
    title: 'To everyone',
    content: 'To everyone: content',
    status: 'unread',
    created_at: broadcast.createdAt.toISOString(),
  });

  // The app continues by cursor; the last page says it is the last.
  const second = await h.call(messages, { status: 'all', cursor: first.data.next! }, { token: a.token });
  expect(second.data.next).toBeNull();
  expect(titlesOf(second)).toEqual(newestFirst.slice(MESSAGE_PAGE_SIZE));
  // The spec's page numbers still work for a client that sends them without a cursor.
  expect(await h.call(messages, { status: 'all', page: '2' }, { token: a.token })).toEqual(second);
  expect(await h.call(messages, { status: 'all', page: '3' }, { token: a.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { lists: [], next: null },
  });

  // B sees the broadcast and B's own, none of A's; no status and page mean all, page 1.
  const ofB = await h.call(messages, {}, { token: b.token });
  expect(ofB.data.next).toBeNull();
  expect(titlesOf(ofB)).toEqual(['B2', 'B1', 'To everyone']);
});

it('the unread filter, the unread count and the oldest unread message follow what the caller read', async () => {
  const a = await customer(h);
  const first = await send(a.id, 'A1');
  const broadcast = await send(null, 'To everyone');
  for (let n = 2; n <= 23; n++) await send(a.id, `A${n}`);

  const before = await h.call(unreadMessages, {}, { token: a.token });
  expect(before).toEqual({
    ret: 1,
    msg: 'Success',
    // `service`: customer service's answers not seen, none here.
    data: {
      count: 24,
      first: {
        id: first.id,
        title: 'A1',
        content: 'A1: content',
        status: 'unread',
        created_at: first.createdAt.toISOString(),
      },
      service: 0,
    },
  });

  expect(await h.call(readMessages, { ids: `${first.id},${first.id + 3}` }, { token: a.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { unread: 22 },
  });
  const after = await h.call(unreadMessages, {}, { token: a.token });
  expect(after.data).toMatchObject({ count: 22, first: { id: broadcast.id, title: 'To everyone', status: 'unread' } });

  const unreadPage1 = await h.call(messages, { status: 'unread', page: '1' }, { token: a.token });
  expect(unreadPage1.data.lists).toHaveLength(MESSAGE_PAGE_SIZE);
  expect(unreadPage1.data.lists.every((message) => message.status === 'unread')).toBe(true);
  // A message read on the next page meanwhile leaves the list, and moves nothing past the cursor.
  expect((await h.call(readMessages, { ids: String(broadcast.id) }, { token: a.token })).data).toEqual({ unread: 21 });
  const unreadPage2 = await h.call(messages, { status: 'unread', cursor: unreadPage1.data.next! }, { token: a.token });
  expect(titlesOf(unreadPage2)).toEqual(['A2']);
  expect(unreadPage2.data.next).toBeNull();
  expect([...titlesOf(unreadPage1), ...titlesOf(unreadPage2)]).not.toContain('A1');
  expect([...titlesOf(unreadPage1), ...titlesOf(unreadPage2)]).not.toContain('A3');

  // The full list still holds the read ones, marked read.
  const all = await h.call(messages, { status: 'all', page: '2' }, { token: a.token });
  expect(statusesOf(all)).toEqual({ A3: 'read', A2: 'unread', 'To everyone': 'read', A1: 'read' });
});

it('ids of another user’s messages are ignored: B cannot read, or mark read, A’s message', async () => {
  const a = await customer(h);
  const b = await customer(h);
  const ofA = await send(a.id, 'For A');
  const ofB = await send(b.id, 'For B');

  expect(await h.call(readMessages, { ids: String(ofA.id) }, { token: b.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { unread: 1 },
  });
  expect(await readRows()).toEqual([]);
  expect((await h.call(unreadMessages, {}, { token: a.token })).data).toMatchObject({
    count: 1,
    first: { id: ofA.id, status: 'unread' },
  });

  // Mixed with B's own id and one that does not exist: only B's own is marked.
  expect(await h.call(readMessages, { ids: `${ofA.id},${ofB.id},999999` }, { token: b.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { unread: 0 },
  });
  expect(await readRows()).toEqual([{ messageId: ofB.id, userId: b.id, readAt: h.clock.now() }]);
  expect(statusesOf(await h.call(messages, {}, { token: a.token }))).toEqual({ 'For A': 'unread' });
  expect(titlesOf(await h.call(messages, {}, { token: b.token }))).toEqual(['For B']);
});

it('"all" marks every message of the caller read, broadcasts included, and nobody else’s', async () => {
  const a = await customer(h);
  const b = await customer(h);
  await send(a.id, 'For A');
  await send(null, 'To everyone');
  await send(b.id, 'For B');

  expect(await h.call(readMessages, { ids: 'all' }, { token: a.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { unread: 0 },
  });
  expect(await h.call(unreadMessages, {}, { token: a.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { count: 0, first: null, service: 0 },
  });
  expect(statusesOf(await h.call(messages, {}, { token: a.token }))).toEqual({
    'For A': 'read',
    'To everyone': 'read',
  });
  expect((await h.call(messages, { status: 'unread' }, { token: a.token })).data).toEqual({
    lists: [],
    next: null,
  });

  expect((await h.call(unreadMessages, {}, { token: b.token })).data.count).toBe(2);
  expect(statusesOf(await h.call(messages, {}, { token: b.token }))).toEqual({
    'For B': 'unread',
    'To everyone': 'unread',
  });
  expect((await readRows()).every((row) => row.userId === a.id)).toBe(true);

  // Reading again changes nothing: the first read time stays.
  const marks = await readRows();
  h.clock.advance(60_000);
  expect((await h.call(readMessages, { ids: 'all' }, { token: a.token })).data).toEqual({ unread: 0 });
  expect(await readRows()).toEqual(marks);
});

it('a broadcast read by A stays unread for B, and reaches users who register after it was posted', async () => {
  const a = await customer(h);
  const b = await customer(h);
  const broadcast = await send(null, 'Maintenance tonight');

  expect((await h.call(readMessages, { ids: String(broadcast.id) }, { token: a.token })).data).toEqual({ unread: 0 });
  expect((await h.call(unreadMessages, {}, { token: b.token })).data).toMatchObject({
    count: 1,
    first: { id: broadcast.id, status: 'unread' },
  });

  const later = await customer(h);
  expect((await h.call(unreadMessages, {}, { token: later.token })).data).toMatchObject({
    count: 1,
    first: { id: broadcast.id, title: 'Maintenance tonight' },
  });
});

it('the demo welcome is one broadcast, seeded once, and the first thing a new user reads', async () => {
  await seedDemo(h.database.db);
  await seedDemo(h.database.db);
  const newcomer = await customer(h);
  const res = await h.call(unreadMessages, {}, { token: newcomer.token });
  expect(res.data).toMatchObject({
    count: 1,
    first: { title: 'Welcome to Coinvest', content: WELCOME_MESSAGE.content, status: 'unread' },
  });
  expect(WELCOME_MESSAGE.content).toMatch(/simulated/);
});

it('refuses malformed input with the generic text and marks nothing', async () => {
  const a = await customer(h);
  const message = await send(a.id, 'For A');
  const invalid = refused('The request is not valid!');

  for (const input of [
    { status: 'read' },
    { status: '' },
    { page: '0' },
    { page: '-1' },
    { page: 'abc' },
    { page: '1.5' },
    { page: '' },
    { page: '1234567' },
    // Hostile cursors: not numbers, too many keys, too large, keys this list does not have.
    { cursor: 'abc' },
    { cursor: '-1' },
    { cursor: '1e9' },
    { cursor: '1.2.3.4.5' },
    { cursor: '12345678901234567' },
    { cursor: '9999999999999999' },
    { cursor: '1.2' },
    { cursor: "1' or 1=1" },
    { cursor: '0x10' },
  ]) {
    expect(await h.call(messages, input, { token: a.token }), JSON.stringify(input)).toEqual(invalid);
  }
  for (const input of [
    {},
    { ids: '' },
    { ids: 'ALL' },
    { ids: `${message.id},` },
    { ids: `,${message.id}` },
    { ids: `${message.id},,1` },
    { ids: `${message.id};1` },
    { ids: '1 2' },
    { ids: 'x' },
    { ids: '1234567890' },
  ]) {
    expect(await h.call(readMessages, input, { token: a.token }), JSON.stringify(input)).toEqual(invalid);
  }
  expect(await readRows()).toEqual([]);
  expect((await h.call(unreadMessages, {}, { token: a.token })).data.count).toBe(1);
});

it('answers ret -1 without a valid token, and marks nothing', async () => {
  const a = await customer(h);
  const message = await send(a.id, 'For A');
  for (const token of [undefined, 'not-a-session']) {
    expect(await h.call(messages, { status: 'all', page: '1' }, { token })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(unreadMessages, {}, { token })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(readMessages, { ids: String(message.id) }, { token })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(readMessages, { ids: 'all' }, { token })).toEqual(TOKEN_EXPIRED);
  }
  expect(await readRows()).toEqual([]);
});
