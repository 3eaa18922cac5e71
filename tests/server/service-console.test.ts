// Customer service as the team works it in the console: internal notes among the messages (the
// reviewers' alone: no customer call, unread count or push notice carries them), the warning that
// another reviewer is writing an answer (renewed while they type, gone a few seconds after they stop
// or once they send), assignment to an active reviewer picked by name or to nobody (each change one
// audit entry with the names before and after), and the customer's withdrawals in review beside the chat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, gt } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused, refusedAbout } from './helpers.ts';
import { addCard, cryptoRecharge, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { chatHistory, sendChatMessage } from '../../src/api-contract/service-chat.ts';
import { unreadMessages } from '../../src/api-contract/unread.ts';
import { consoleDisableOperator, consoleRejectWithdrawal } from '../../src/api-contract/console.ts';
import * as c from '../../src/api-contract/console-service.ts';
import * as q from '../../src/api-contract/console-queues.ts';
import { auditLog, outbox, serviceAnswering, serviceNotes } from '../../src/server/db/schema.ts';

let h: Harness;
let agent1: string;
let agent2: string;
let gone: string;
let writer: string;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  agent1 = await operatorToken(h, 'agent1', 'reviewer');
  agent2 = await operatorToken(h, 'agent2', 'reviewer');
  gone = await operatorToken(h, 'gus', 'reviewer');
  writer = await operatorToken(h, 'cora', 'content');
  admin = await operatorToken(h, 'root', 'admin');
});
afterAll(() => h.close());

const as = (token: string) => ({ token, ip: '198.51.100.9' });
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));

/** A customer who wrote `question`, and their conversation's id as the console names it. */
async function askedBy(question: string, amount?: string) {
  const user = await customer(h, amount);
  expect((await h.call(sendChatMessage, { body: question }, { token: user.token })).ret).toBe(1);
  const row = (await h.call(c.consoleConversations, { view: 'open' }, as(agent1))).data.find(
    (conversation) => conversation.user_id === user.id,
  )!;
  return { user, id: String(row.id) };
}
const detail = async (id: string, token = agent1) => (await h.call(c.consoleConversation, { id }, as(token))).data;

describe('internal notes', () => {
  it('show among the messages at their time, for reviewers only; the customer’s calls and notices never carry them', async () => {
    const { user, id } = await askedBy('My withdrawal is late.');
    h.clock.advance(1_000);
    const note = 'Second time this week: check the bank card name before answering.';
    const since = await lastAuditId();
    const written = await h.call(c.consoleAddServiceNote, { id, body: `  ${note}  ` }, as(agent1));
    expect(written).toMatchObject({ ret: 1, data: { operator: 'agent1', body: note } });
    // A note is its own record (author, time): no audit entry.
    expect(await auditSince(since)).toEqual([]);
    h.clock.advance(1_000);
    await h.call(c.consoleReplyConversation, { id, body: 'We are looking at it now.' }, as(agent2));

    // Agent2 sees the note between the question and the answer, by time.
    const seen = await detail(id, agent2);
    expect(seen.notes).toEqual([written.data]);
    const question = seen.messages[0]!.created_at;
    const answer = seen.messages[1]!.created_at;
    expect([question < written.data.created_at, written.data.created_at < answer]).toEqual([true, true]);

    // The customer: the question and the answer, nothing of the note, and one unread answer (not two).
    const history = await h.call(chatHistory, {}, { token: user.token });
    expect(history.data.messages.map((message) => message.body)).toEqual([
      'My withdrawal is late.',
      'We are looking at it now.',
    ]);
    expect(history.data.unread).toBe(1);
    expect(JSON.stringify(history)).not.toContain('bank card name');
    expect((await h.call(unreadMessages, {}, { token: user.token })).data.service).toBe(1);
    const notices = await h.database.db.select().from(outbox).where(eq(outbox.userId, user.id));
    expect(notices.map((notice) => notice.kind)).toEqual(notices.map(() => 'service_reply'));
    expect(JSON.stringify(notices)).not.toContain('bank card name');
  });

  it('are refused empty or too long, with the console’s text in the operator’s language, and written by reviewers only', async () => {
    const { user, id } = await askedBy('Hello?');
    const count = async () =>
      (
        await h.database.db
          .select()
          .from(serviceNotes)
          .where(eq(serviceNotes.conversationId, Number(id)))
      ).length;
    expect(await h.call(c.consoleAddServiceNote, { id, body: '   ' }, as(agent1))).toEqual(
      refused('Write the note first!'),
    );
    expect(await h.call(c.consoleAddServiceNote, { id, body: 'x'.repeat(2001) }, as(agent1))).toEqual(
      refused('Keep the note under 2,000 characters!'),
    );
    const chinese = await h.call(c.consoleAddServiceNote, { id, body: '' }, { ...as(agent1), lang: 'zh' });
    expect(chinese.ret).toBe(0);
    expect(chinese.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(await h.call(c.consoleAddServiceNote, { id: '999999', body: 'lost' }, as(agent1))).toEqual(
      refused('This record does not exist!'),
    );
    expect(await h.call(c.consoleAddServiceNote, { id, body: 'by content' }, as(writer))).toEqual(
      refused('Your role does not allow this!'),
    );
    expect(await h.call(c.consoleAddServiceNote, { id, body: 'by the customer' }, { token: user.token })).toMatchObject(
      { ret: -1 },
    );
    expect(await count()).toBe(0);
    expect((await h.call(c.consoleAddServiceNote, { id, body: 'x'.repeat(2000) }, as(agent1))).ret).toBe(1);
    expect(await count()).toBe(1);
  });
});

describe('the team’s own texts', () => {
  it('refuse invisible or direction-changing characters in a note or a canned reply’s title, as in an answer', async () => {
    const { id } = await askedBy('Is my withdrawal on its way?');
    const HIDDEN = refusedAbout('Please remove invisible or direction-changing characters!', 'body');
    // A right-to-left override turns what follows it around for the next reviewer; a zero-width space hides in a word.
    for (const body of ['Paid to \u202Eevil wallet', 'Checked\u200B the card', 'Sent\u2066 later'])
      expect(await h.call(c.consoleAddServiceNote, { id, body }, as(agent1)), JSON.stringify(body)).toEqual(HIDDEN);
    expect(
      (
        await h.database.db
          .select()
          .from(serviceNotes)
          .where(eq(serviceNotes.conversationId, Number(id)))
      ).length,
    ).toBe(0);
    const before = (await h.call(c.consoleCannedReplies, {}, as(agent1))).data;
    expect(
      await h.call(c.consoleAddCannedReply, { title: 'Refund\u202E', body: 'Your refund is on its way.' }, as(agent1)),
    ).toEqual(refusedAbout('Please remove invisible or direction-changing characters!', 'title'));
    expect((await h.call(c.consoleCannedReplies, {}, as(agent1))).data).toEqual(before);
    // Lines and the joiners of an emoji sequence stay a note's own.
    expect(
      (await h.call(c.consoleAddServiceNote, { id, body: 'Called back 👨\u200D💻\nNo answer' }, as(agent1))).data,
    ).toMatchObject({ body: 'Called back 👨\u200D💻\nNo answer' });
  });
});

describe('a canned reply’s title', () => {
  it(`counts its ${c.CANNED_TITLE_MAX} characters as a reader does: Thai syllables with their marks, emoji`, async () => {
    const body = 'ขอบคุณที่ติดต่อเรา';
    // 60 characters as read, each a consonant with a vowel and a tone mark above it: 180 UTF-16 code units.
    const thai = 'กี่'.repeat(c.CANNED_TITLE_MAX);
    const emoji = '🙏'.repeat(c.CANNED_TITLE_MAX);
    for (const title of [thai, emoji]) {
      const added = await h.call(c.consoleAddCannedReply, { title, body }, as(agent1));
      expect(added, title).toMatchObject({ ret: 1, data: { title } });
    }
    expect(await h.call(c.consoleAddCannedReply, { title: `${thai}ก`, body }, as(agent1))).toEqual(
      refusedAbout('Keep the title under 60 characters!', 'title'),
    );
  });
});

describe('who is answering', () => {
  it('tells the others while a reviewer types, until it runs out or the answer is sent', async () => {
    const { id } = await askedBy('Can I change my bank card?');
    expect((await detail(id, agent2)).answering).toEqual([]);
    expect(await h.call(c.consoleAnswering, { id }, as(agent1))).toEqual({
      ret: 1,
      msg: expect.any(String),
      data: null,
    });
    expect((await detail(id, agent2)).answering).toEqual(['agent1']);
    // Not told of oneself.
    expect((await detail(id, agent1)).answering).toEqual([]);

    // Still typing: renewed; then quiet for longer than the warning lasts.
    h.clock.advance((c.ANSWERING_SECONDS - 5) * 1000);
    await h.call(c.consoleAnswering, { id }, as(agent1));
    h.clock.advance((c.ANSWERING_SECONDS - 5) * 1000);
    expect((await detail(id, agent2)).answering).toEqual(['agent1']);
    h.clock.advance(6_000);
    expect((await detail(id, agent2)).answering).toEqual([]);

    // Two at once, by name; one sends, the other's warning stays.
    await h.call(c.consoleAnswering, { id }, as(agent1));
    await h.call(c.consoleAnswering, { id }, as(agent2));
    expect((await detail(id, gone)).answering).toEqual(['agent1', 'agent2']);
    await h.call(c.consoleReplyConversation, { id, body: 'Yes: add the new one first.' }, as(agent1));
    expect((await detail(id, gone)).answering).toEqual(['agent2']);
    // One row per reviewer and conversation, however often it is renewed.
    expect(
      await h.database.db
        .select()
        .from(serviceAnswering)
        .where(eq(serviceAnswering.conversationId, Number(id))),
    ).toHaveLength(1);
    // Agent2 empties their box: over at once.
    expect((await h.call(c.consoleAnswering, { id, typing: 'false' }, as(agent2))).ret).toBe(1);
    expect((await detail(id, gone)).answering).toEqual([]);
    expect(await h.call(c.consoleAnswering, { id: '999999' }, as(agent1))).toEqual(
      refused('This record does not exist!'),
    );
  });
});

describe('assignment', () => {
  it('lists the active reviewers, gives a conversation to one of them or to nobody, each change audited by name', async () => {
    const { id } = await askedBy('Who can help me?');
    expect((await h.call(c.consoleServiceOperators, {}, as(agent1))).data).toEqual(['agent1', 'agent2', 'gus']);

    const since = await lastAuditId();
    expect(await h.call(c.consoleAssignConversation, { id, operator: 'agent2' }, as(agent1))).toMatchObject({
      ret: 1,
      data: { assigned_to: 'agent2' },
    });
    const mine = async (token: string) =>
      (await h.call(c.consoleConversations, { view: 'mine' }, as(token))).data.map((row) => String(row.id));
    const unassigned = async () =>
      (await h.call(c.consoleConversations, { view: 'unassigned' }, as(agent1))).data.map((row) => String(row.id));
    expect(await mine(agent2)).toContain(id);
    expect(await mine(agent1)).not.toContain(id);
    expect(await unassigned()).not.toContain(id);

    expect(await h.call(c.consoleUnassignConversation, { id }, as(agent2))).toMatchObject({
      ret: 1,
      data: { assigned_to: null },
    });
    expect(await unassigned()).toContain(id);
    expect(await mine(agent2)).not.toContain(id);
    // Taking it: the caller.
    expect(await h.call(c.consoleAssignConversation, { id }, as(agent1))).toMatchObject({
      data: { assigned_to: 'agent1' },
    });

    const entries = await auditSince(since);
    expect(
      entries.map(({ operator, action, target, before, after }) => ({ operator, action, target, before, after })),
    ).toEqual([
      {
        operator: 'agent1',
        action: 'service.assign',
        target: `conversation:${id}`,
        before: { assigned_to: null },
        after: { assigned_to: 'agent2' },
      },
      {
        operator: 'agent2',
        action: 'service.assign',
        target: `conversation:${id}`,
        before: { assigned_to: 'agent2' },
        after: { assigned_to: null },
      },
      {
        operator: 'agent1',
        action: 'service.assign',
        target: `conversation:${id}`,
        before: { assigned_to: null },
        after: { assigned_to: 'agent1' },
      },
    ]);
  });

  it('refuses an operator who cannot answer (content, admin, disabled, unknown) with a translated text, and changes nothing', async () => {
    const { id } = await askedBy('Still there?');
    await h.call(c.consoleAssignConversation, { id, operator: 'agent2' }, as(agent1));
    expect((await h.call(consoleDisableOperator, { name: 'gus' }, as(admin))).ret).toBe(1);
    expect((await h.call(c.consoleServiceOperators, {}, as(agent1))).data).toEqual(['agent1', 'agent2']);
    const since = await lastAuditId();
    for (const name of ['cora', 'root', 'gus', 'nobody'])
      expect(await h.call(c.consoleAssignConversation, { id, operator: name }, as(agent1))).toEqual(
        refused(`Conversations go to active reviewers only: ${name} is not one!`),
      );
    const thai = await h.call(c.consoleAssignConversation, { id, operator: 'cora' }, { ...as(agent1), lang: 'th' });
    expect(thai.ret).toBe(0);
    expect(thai.msg).toMatch(/[\u0e00-\u0e7f]/);
    expect(thai.msg).toContain('cora');
    expect(await h.call(c.consoleAssignConversation, { id, operator: 'Agent2!' }, as(agent1))).toMatchObject({
      ret: 0,
    });
    expect(await auditSince(since)).toEqual([]);
    expect((await detail(id)).conversation.assigned_to).toBe('agent2');
    // A disabled reviewer's session has ended; a content operator cannot read the list.
    expect(await h.call(c.consoleServiceOperators, {}, as(gone))).toMatchObject({ ret: -1 });
    expect(await h.call(c.consoleServiceOperators, {}, as(writer))).toEqual(refused('Your role does not allow this!'));
  });

  it('gives a disabled reviewer’s conversations and queue claims back to the team, named in the audit entry', async () => {
    const leaver = await operatorToken(h, 'leaver', 'reviewer');
    const { id } = await askedBy('Is anyone on my case?');
    expect((await h.call(c.consoleAssignConversation, { id, operator: 'leaver' }, as(agent1))).ret).toBe(1);
    const user = await customer(h);
    const recharge = await cryptoRecharge(h, user.token, '21');
    const claim = (token: string) =>
      h.call(q.consoleClaimItem, { kind: 'recharge', id: String(recharge.id), take_over: '' }, as(token));
    expect((await claim(leaver)).data).toMatchObject({ holder: 'leaver', mine: true });
    const unassigned = async () =>
      (await h.call(c.consoleConversations, { view: 'unassigned' }, as(agent1))).data.map((row) => String(row.id));
    expect(await unassigned()).not.toContain(id);

    const since = await lastAuditId();
    expect((await h.call(consoleDisableOperator, { name: 'leaver' }, as(admin))).ret).toBe(1);
    // The customer's conversation waits in the unassigned view again, and another reviewer takes the item at once
    // rather than after the claim would have run out.
    expect(await unassigned()).toContain(id);
    expect((await detail(id)).conversation.assigned_to).toBeNull();
    expect((await claim(agent2)).data).toMatchObject({ holder: 'agent2', mine: true });
    const [entry] = await auditSince(since);
    expect(entry).toMatchObject({
      action: 'operator.disable',
      target: 'operator:leaver',
      after: { released_claims: [`recharge:${recharge.id}`], unassigned_conversations: [Number(id)] },
    });
  });
});

describe('beside the chat', () => {
  it('lists the customer’s withdrawals in review, newest first, and no longer one that was decided', async () => {
    const { user, id } = await askedBy('Where is my money?', '1000');
    expect((await detail(id)).open_withdrawals).toEqual([]);
    const card = await addCard(h, user.token);
    const first = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
    const second = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '250.5' });
    expect((await detail(id)).open_withdrawals).toEqual([
      { id: second.id, order_no: second.order_no, amount: '250.5', asset: 'USDT', created_at: second.created_at },
      { id: first.id, order_no: first.order_no, amount: '100', asset: 'USDT', created_at: first.created_at },
    ]);
    // Another customer's withdrawal is not theirs.
    const other = await customer(h, '500');
    const otherCard = await addCard(h, other.token);
    await withdrawn(h, other.token, { target: 'bank', target_id: String(otherCard.id), amount: '50' });
    expect((await detail(id)).open_withdrawals.map((row) => row.id)).toEqual([second.id, first.id]);

    expect(
      (await h.call(consoleRejectWithdrawal, { id: String(first.id), reason: 'Wrong account name' }, as(agent1))).ret,
    ).toBe(1);
    expect((await detail(id)).open_withdrawals.map((row) => row.id)).toEqual([second.id]);
  });
});
