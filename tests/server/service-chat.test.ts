// Customer service through both entry points: a customer writes (text, a picture), the
// reviewers see it waiting in the inbox, one answers, the customer reads the answer (and gets a push
// notice in their language), and every change of an operator leaves one audit entry. Each customer
// reaches their own conversation only; bad input is refused with the chat's text and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq, gt } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import { uploadedPicture } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { chatHistory, readChat, sendChatMessage, CHAT_PICTURES_PER_DAY } from '../../src/api-contract/service-chat.ts';
import { unreadMessages } from '../../src/api-contract/unread.ts';
import * as c from '../../src/api-contract/console-service.ts';
import { consoleQueues } from '../../src/api-contract/console.ts';
import { auditLog, outbox, pushSubscriptions, serviceMessages, uploads } from '../../src/server/db/schema.ts';
import { removeUnusedUploads } from '../../src/server/domain/uploads.ts';

let h: Harness;
let agent1: string;
let agent2: string;
let writer: string;
beforeAll(async () => {
  h = await startHarness();
  agent1 = await operatorToken(h, 'agent1', 'reviewer');
  agent2 = await operatorToken(h, 'agent2', 'reviewer');
  writer = await operatorToken(h, 'cora', 'content');
});
afterAll(() => h.close());

const as = (token: string) => ({ token, ip: '198.51.100.9' });
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const messageCount = async () => Number((await h.database.db.select({ n: count() }).from(serviceMessages))[0]!.n);
const conversationOf = async (userId: number) =>
  (await h.call(c.consoleConversations, { view: 'open' }, as(agent1))).data.find((row) => row.user_id === userId)!;

describe('a conversation', () => {
  it('starts with the customer’s first message, waits in the inbox, is answered, and the customer reads the answer', async () => {
    const user = await customer(h);
    expect(await h.call(chatHistory, {}, { token: user.token })).toMatchObject({
      ret: 1,
      data: { messages: [], more: false, unread: 0 },
    });

    const sent = await h.call(sendChatMessage, { body: '  My withdrawal has not arrived.  ' }, { token: user.token });
    expect(sent).toMatchObject({
      ret: 1,
      data: { author: 'customer', body: 'My withdrawal has not arrived.', picture: null },
    });
    const waiting = (await h.call(c.consoleConversations, {}, as(agent1))).data.find((row) => row.user_id === user.id);
    expect(waiting).toMatchObject({
      status: 'open',
      waiting: true,
      assigned_to: null,
      last_message: 'My withdrawal has not arrived.',
    });
    expect((await h.call(consoleQueues, {}, as(agent1))).data.service).toBeGreaterThanOrEqual(1);

    const since = await lastAuditId();
    const answer = await h.call(
      c.consoleReplyConversation,
      { id: String(waiting!.id), body: 'It left this morning; allow one hour.' },
      as(agent1),
    );
    expect(answer).toMatchObject({
      ret: 1,
      data: { author: 'operator', operator: 'agent1', body: 'It left this morning; allow one hour.' },
    });
    const entries = await auditSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: 'agent1',
      action: 'service.reply',
      target: `conversation:${waiting!.id}`,
    });

    // Answered: no longer waiting, and the conversation is the answerer's.
    expect(
      (await h.call(c.consoleConversations, { view: 'waiting' }, as(agent1))).data.some(
        (row) => row.user_id === user.id,
      ),
    ).toBe(false);
    expect(
      (await h.call(c.consoleConversations, { view: 'mine' }, as(agent1))).data.find((row) => row.user_id === user.id),
    ).toMatchObject({ assigned_to: 'agent1', waiting: false });

    // The customer sees one unread answer, in the chat and in the app's unread summary; the operator's name is not
    // shown.
    const history = await h.call(chatHistory, {}, { token: user.token });
    expect(history.data).toMatchObject({
      unread: 1,
      messages: [{ author: 'customer' }, { author: 'operator', body: 'It left this morning; allow one hour.' }],
    });
    expect(JSON.stringify(history.data)).not.toContain('agent1');
    expect((await h.call(unreadMessages, {}, { token: user.token })).data.service).toBe(1);
    expect(await h.call(readChat, { up_to: String(answer.data.id) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { unread: 0 },
    });
    expect((await h.call(unreadMessages, {}, { token: user.token })).data.service).toBe(0);
  });

  it('sends the answer as a push notice in the language the customer’s browser subscribed in', async () => {
    const user = await customer(h);
    await h.database.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/chat-${user.id}`,
      p256dh: 'k',
      auth: 'a',
      language: 'th',
    });
    await h.call(sendChatMessage, { body: 'สวัสดี' }, { token: user.token });
    const conversation = await conversationOf(user.id);
    await h.call(c.consoleReplyConversation, { id: String(conversation.id), body: 'ยินดีช่วยเหลือครับ' }, as(agent2));
    const [notice] = await h.database.db.select().from(outbox).where(eq(outbox.userId, user.id));
    expect(notice).toMatchObject({ channel: 'push', kind: 'service_reply', language: 'th', body: 'ยินดีช่วยเหลือครับ' });
    expect(notice!.subject).not.toBe('Customer service replied');
    expect(notice!.payload).toMatchObject({ url: '#/pages/service/chat', tag: 'service' });
  });

  it('sends a long answer of emoji or joined letters, its push notice cut between characters, never inside one', async () => {
    // The notice's text is cut to fit a push message: cut inside an emoji it held half of one (a lone surrogate),
    // which PostgreSQL's jsonb refuses, and the whole answer failed; cut inside a Devanagari conjunct it showed a stray
    // virama.
    const user = await customer(h);
    await h.database.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/chat-long-${user.id}`,
      p256dh: 'k',
      auth: 'a',
      language: 'hi',
    });
    await h.call(sendChatMessage, { body: 'नमस्ते' }, { token: user.token });
    const conversation = await conversationOf(user.id);
    const answers = ['😀'.repeat(200), `${'क'.repeat(237)}क्षत्रिय`];
    for (const body of answers) {
      expect(await h.call(c.consoleReplyConversation, { id: String(conversation.id), body }, as(agent2))).toMatchObject(
        {
          ret: 1,
          data: { body },
        },
      );
    }
    const notices = await h.database.db.select().from(outbox).where(eq(outbox.userId, user.id)).orderBy(asc(outbox.id));
    expect(notices.map((notice) => notice.body)).toEqual([`${'😀'.repeat(119)}…`, `${'क'.repeat(237)}…`]);
    expect((await h.call(chatHistory, {}, { token: user.token })).data.messages.map((m) => m.body)).toEqual([
      'नमस्ते',
      ...answers,
    ]);
  });

  it(`takes at most ${CHAT_PICTURES_PER_DAY} pictures a day from a customer, and only their own`, async () => {
    const user = await customer(h);
    const stranger = await customer(h);
    const theirs = await uploadedPicture(h, stranger.token);
    const before = await messageCount();
    expect(await h.call(sendChatMessage, { picture: theirs }, { token: user.token })).toEqual(
      refused('This picture cannot be sent: please choose it again!'),
    );
    expect(await messageCount()).toBe(before);
    for (let i = 0; i < CHAT_PICTURES_PER_DAY; i += 1) {
      expect(
        (await h.call(sendChatMessage, { picture: await uploadedPicture(h, user.token) }, { token: user.token })).ret,
      ).toBe(1);
    }
    const over = await h.call(
      sendChatMessage,
      { picture: await uploadedPicture(h, user.token) },
      { token: user.token },
    );
    expect(over.msg).toContain(`You have sent ${CHAT_PICTURES_PER_DAY} pictures today`);
    // Words still go through.
    expect((await h.call(sendChatMessage, { body: 'And one more thing.' }, { token: user.token })).ret).toBe(1);
  });

  it(`takes ${CHAT_PICTURES_PER_DAY} pictures a day, not more, when a customer sends more at once`, async () => {
    const user = await customer(h);
    const pictures = [];
    for (let i = 0; i < CHAT_PICTURES_PER_DAY + 5; i += 1) pictures.push(await uploadedPicture(h, user.token));
    const answers = await Promise.all(
      pictures.map((picture) => h.call(sendChatMessage, { picture }, { token: user.token })),
    );
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(CHAT_PICTURES_PER_DAY);
    expect(new Set(answers.filter((answer) => answer.ret !== 1).map((answer) => answer.msg))).toEqual(
      new Set([
        `You have sent ${CHAT_PICTURES_PER_DAY} pictures today: please describe the rest in words or try again tomorrow!`,
      ]),
    );
    expect((await h.call(chatHistory, {}, { token: user.token })).data.messages).toHaveLength(CHAT_PICTURES_PER_DAY);
  });

  it('refuses an empty or too long message with the chat’s text, and writes nothing', async () => {
    const user = await customer(h);
    const before = await messageCount();
    expect(await h.call(sendChatMessage, { body: '   ' }, { token: user.token })).toEqual(
      refused('Please write a message or choose a picture!'),
    );
    expect(await h.call(sendChatMessage, { body: 'x'.repeat(2001) }, { token: user.token })).toEqual(
      refused('The message is too long (at most 2,000 characters)!'),
    );
    expect(
      await h.call(sendChatMessage, { body: 'hi', picture: 'https://evil.example/x.png' }, { token: user.token }),
    ).toEqual(refused('This picture cannot be sent: please choose it again!'));
    expect(await h.call(sendChatMessage, { body: 'hi' })).toMatchObject({ ret: -1 });
    expect(await messageCount()).toBe(before);
    expect((await h.call(sendChatMessage, { body: 'x'.repeat(2000) }, { token: user.token })).ret).toBe(1);
  });

  it('applies a message sent twice with one Idempotency-Key once (a send from the outbox whose answer was lost)', async () => {
    const user = await customer(h);
    const key = 'chat-retry-0001';
    const first = await h.call(
      sendChatMessage,
      { body: 'Sent while the train left the tunnel' },
      { token: user.token, idempotencyKey: key },
    );
    const again = await h.call(
      sendChatMessage,
      { body: 'Sent while the train left the tunnel' },
      { token: user.token, idempotencyKey: key },
    );
    expect(again).toEqual(first);
    expect((await h.call(chatHistory, {}, { token: user.token })).data.messages).toHaveLength(1);
  });

  it('shows each customer their own conversation only, and marks no more read than exists', async () => {
    const one = await customer(h);
    const two = await customer(h);
    await h.call(sendChatMessage, { body: 'private to one' }, { token: one.token });
    expect((await h.call(chatHistory, {}, { token: two.token })).data.messages).toEqual([]);
    const conversation = await conversationOf(one.id);
    await h.call(c.consoleReplyConversation, { id: String(conversation.id), body: 'for one only' }, as(agent1));
    // Two marks a huge id read: their own (empty) conversation only; one still has the answer unread.
    expect(await h.call(readChat, { up_to: '999999999' }, { token: two.token })).toMatchObject({
      ret: 1,
      data: { unread: 0 },
    });
    expect((await h.call(chatHistory, {}, { token: one.token })).data.unread).toBe(1);
    // A later answer stays unread after marking "everything" read before it arrived.
    expect(await h.call(readChat, { up_to: '999999999' }, { token: one.token })).toMatchObject({ data: { unread: 0 } });
    await h.call(c.consoleReplyConversation, { id: String(conversation.id), body: 'one more thing' }, as(agent1));
    expect((await h.call(chatHistory, {}, { token: one.token })).data.unread).toBe(1);
  });

  it('pages back through a long conversation', async () => {
    const user = await customer(h);
    for (let i = 1; i <= 55; i += 1) await h.call(sendChatMessage, { body: `message ${i}` }, { token: user.token });
    const latest = await h.call(chatHistory, {}, { token: user.token });
    expect(latest.data.messages).toHaveLength(50);
    expect([latest.data.messages[0]!.body, latest.data.messages.at(-1)!.body, latest.data.more]).toEqual([
      'message 6',
      'message 55',
      true,
    ]);
    const older = await h.call(chatHistory, { before: String(latest.data.messages[0]!.id) }, { token: user.token });
    expect([older.data.messages.map((m) => m.body), older.data.more]).toEqual([
      ['message 1', 'message 2', 'message 3', 'message 4', 'message 5'],
      false,
    ]);
  });
});

describe('the inbox', () => {
  it('assigns to a reviewer (not to another role), closes, and opens again when the customer writes', async () => {
    const user = await customer(h);
    await h.call(sendChatMessage, { body: 'Can I change my phone number?' }, { token: user.token });
    const { id } = await conversationOf(user.id);
    const since = await lastAuditId();
    expect(await h.call(c.consoleAssignConversation, { id: String(id), operator: 'agent2' }, as(agent1))).toMatchObject(
      {
        ret: 1,
        data: { assigned_to: 'agent2' },
      },
    );
    expect(await h.call(c.consoleAssignConversation, { id: String(id), operator: 'cora' }, as(agent1))).toEqual(
      refused('Conversations go to active reviewers only: cora is not one!'),
    );
    expect(await h.call(c.consoleAssignConversation, { id: '999999' }, as(agent1))).toEqual(
      refused('This record does not exist!'),
    );
    expect((await h.call(c.consoleConversations, { view: 'mine' }, as(agent2))).data.map((row) => row.id)).toContain(
      id,
    );

    expect(await h.call(c.consoleCloseConversation, { id: String(id) }, as(agent2))).toMatchObject({
      ret: 1,
      data: { status: 'closed', waiting: false },
    });
    expect((await h.call(c.consoleConversations, { view: 'closed' }, as(agent2))).data.map((row) => row.id)).toContain(
      id,
    );
    await h.call(sendChatMessage, { body: 'Sorry, one more question' }, { token: user.token });
    expect(
      (await h.call(c.consoleConversations, { view: 'waiting' }, as(agent2))).data.find((row) => row.id === id),
    ).toMatchObject({
      status: 'open',
      waiting: true,
      assigned_to: 'agent2',
    });
    expect((await auditSince(since)).map((entry) => entry.action)).toEqual(['service.assign', 'service.close']);
  });

  it('keeps canned replies: added, listed, removed, each with an audit entry; an empty answer is refused', async () => {
    const since = await lastAuditId();
    const added = await h.call(
      c.consoleAddCannedReply,
      { title: 'Withdrawal times', body: 'Withdrawals are reviewed within 24 hours.' },
      as(agent1),
    );
    expect(added).toMatchObject({ ret: 1, data: { title: 'Withdrawal times' } });
    expect((await h.call(c.consoleCannedReplies, {}, as(agent2))).data).toContainEqual(added.data);
    expect(await h.call(c.consoleRemoveCannedReply, { id: String(added.data.id) }, as(agent2))).toMatchObject({
      ret: 1,
    });
    expect((await h.call(c.consoleCannedReplies, {}, as(agent2))).data).not.toContainEqual(added.data);
    expect(await h.call(c.consoleRemoveCannedReply, { id: String(added.data.id) }, as(agent2))).toEqual(
      refused('This record does not exist!'),
    );
    expect((await auditSince(since)).map((entry) => entry.action)).toEqual([
      'service.canned.add',
      'service.canned.remove',
    ]);
    expect(await h.call(c.consoleAddCannedReply, { title: 'Empty', body: ' ' }, as(agent1))).toEqual(
      refused('Write an answer first!'),
    );
    expect(await h.call(c.consoleReplyConversation, { id: '1', body: '' }, as(agent1))).toEqual(
      refused('Write an answer first!'),
    );
  });

  it('is the reviewers’: a content operator and a customer are refused', async () => {
    const user = await customer(h);
    expect(await h.call(c.consoleConversations, {}, as(writer))).toEqual(refused('Your role does not allow this!'));
    expect(await h.call(c.consoleConversations, {}, { token: user.token })).toMatchObject({ ret: -1 });
  });
});

// Last: it moves the clock two days on, which ends the operators' idle sessions.
describe('two days later', () => {
  it('keeps a picture with the conversation: the reviewers open it, the clean-up of unused pictures leaves it', async () => {
    const user = await customer(h);
    const picture = await uploadedPicture(h, user.token);
    expect(await h.call(sendChatMessage, { picture }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { body: '', picture },
    });
    const conversation = await conversationOf(user.id);
    expect(conversation.last_message).toBe('[picture]');
    const detail = await h.call(c.consoleConversation, { id: String(conversation.id) }, as(agent1));
    const id = detail.data.messages[0]!.picture!;
    expect(`/api/uploads/${id}`).toBe(picture);
    const open = (token?: string) =>
      h.app.inject({ method: 'GET', url: `/api/uploads/${id}`, headers: token ? { token } : {} });
    expect((await open(agent1)).statusCode).toBe(200);
    expect((await open(user.token)).statusCode).toBe(200);
    expect((await open((await customer(h)).token)).statusCode).not.toBe(200);

    h.clock.advance(48 * 3600_000);
    await h.database.db.transaction((tx) => removeUnusedUploads(tx, h.clock.now()));
    expect(await h.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id))).toHaveLength(1);
  });
});
