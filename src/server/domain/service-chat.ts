// Customer service: one conversation per customer with the service team. The
// customer's entry point is http/service-chat-routes.ts, the reviewers' the console's inbox
// (http/console-service-routes.ts); both call these functions. An operator's change is written with
// its audit entry in the same transaction, and an answer queues the customer's push notice there too.
// The team's internal notes and "who is answering" live in their own tables, which no customer read
// touches. Nothing here moves a balance, an order or a price; the customer's open withdrawals shown beside a
// conversation come from the withdrawal rules' own list, which the console's route adds (so the chat imports no
// withdrawal rule).
import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import {
  operators,
  serviceAnswering,
  serviceCannedReplies,
  serviceConversations,
  serviceMessages,
  serviceNotes,
  users,
} from '../db/schema.ts';
import { CHAT_PAGE_SIZE, CHAT_PICTURES_PER_DAY, chatTexts, type ChatMessage } from '../../api-contract/service-chat.ts';
import {
  ANSWERING_SECONDS,
  type CannedReply,
  type ConsoleChatMessage,
  type ConsoleConversation,
  type ConsoleServiceNote,
} from '../../api-contract/console-service.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { queueNotice } from './notices.ts';
import { UPLOADS_PATH, ownsUploads } from './uploads.ts';
import { Refusal } from './refusal.ts';

type ConversationRow = typeof serviceConversations.$inferSelect;
type MessageRow = typeof serviceMessages.$inferSelect;

/** How much of the last message the inbox shows. */
const PREVIEW_MAX = 120;
const INBOX_MAX = 100;
const CONSOLE_MESSAGES_MAX = 200;

const chatMessage = (row: MessageRow): ChatMessage => ({
  id: row.id,
  author: row.author as ChatMessage['author'],
  body: row.body,
  picture: row.picture,
  created_at: row.createdAt.toISOString(),
});

const conversationOf = async (db: Executor, userId: number) =>
  (await db.select().from(serviceConversations).where(eq(serviceConversations.userId, userId)))[0] ?? null;

/** The team's answers after what the customer has seen. */
async function unreadIn(
  db: Executor,
  conversation: Pick<ConversationRow, 'id' | 'customerReadTo'> | null,
): Promise<number> {
  if (!conversation) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(serviceMessages)
    .where(
      and(
        eq(serviceMessages.conversationId, conversation.id),
        eq(serviceMessages.author, 'operator'),
        gt(serviceMessages.id, conversation.customerReadTo),
      ),
    );
  return Number(row?.n ?? 0);
}

/** How many answers `userId` has not seen (the app's unread summary carries it). */
export async function chatUnread(db: Executor, userId: number): Promise<number> {
  return unreadIn(db, await conversationOf(db, userId));
}

/** The customer's conversation, newest last: the latest page, or the page before message `before`. */
export async function customerChat(
  db: Executor,
  userId: number,
  before?: number,
): Promise<{ messages: ChatMessage[]; more: boolean; unread: number }> {
  const conversation = await conversationOf(db, userId);
  if (!conversation) return { messages: [], more: false, unread: 0 };
  const where = and(
    eq(serviceMessages.conversationId, conversation.id),
    before === undefined ? undefined : lt(serviceMessages.id, before),
  );
  const rows = await db
    .select()
    .from(serviceMessages)
    .where(where)
    .orderBy(desc(serviceMessages.id))
    .limit(CHAT_PAGE_SIZE + 1);
  return {
    messages: rows.slice(0, CHAT_PAGE_SIZE).reverse().map(chatMessage),
    more: rows.length > CHAT_PAGE_SIZE,
    unread: await unreadIn(db, conversation),
  };
}

const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * A customer's message: made into their conversation (a first message makes it; a closed one opens
 * again and waits for an answer). A picture must be the caller's own private upload, and at most
 * CHAT_PICTURES_PER_DAY a day. Writing means the customer has seen everything before it.
 */
export async function sendCustomerMessage(
  tx: Tx,
  userId: number,
  message: { body: string; picture: string },
  now: Date,
): Promise<ChatMessage> {
  const [conversation] = await tx
    .insert(serviceConversations)
    .values({ userId, status: 'open', waiting: true, lastMessageAt: now, createdAt: now })
    .onConflictDoUpdate({
      target: serviceConversations.userId,
      set: { status: 'open', waiting: true, lastMessageAt: now },
    })
    .returning();
  // The upsert holds the conversation's row: two sends of one customer count pictures one after the other.
  if (message.picture) {
    if (!(await ownsUploads(tx, userId, [message.picture]))) throw new Refusal(chatTexts.chatPictureNotYours.id);
    const [sent] = await tx
      .select({ n: count() })
      .from(serviceMessages)
      .where(
        and(
          eq(serviceMessages.conversationId, conversation!.id),
          isNotNull(serviceMessages.picture),
          gte(serviceMessages.createdAt, startOfUtcDay(now)),
        ),
      );
    if (Number(sent?.n ?? 0) >= CHAT_PICTURES_PER_DAY)
      throw new Refusal(chatTexts.chatPicturesLimit.id, { 0: CHAT_PICTURES_PER_DAY });
  }
  const [row] = await tx
    .insert(serviceMessages)
    .values({
      conversationId: conversation!.id,
      author: 'customer',
      body: message.body,
      picture: message.picture || null,
      createdAt: now,
    })
    .returning();
  await tx
    .update(serviceConversations)
    .set({ customerReadTo: row!.id })
    .where(eq(serviceConversations.id, conversation!.id));
  return chatMessage(row!);
}

/** The team's answers up to message `upTo` are seen (never fewer than before); answers the unread left. */
export async function readCustomerChat(tx: Tx, userId: number, upTo: number): Promise<number> {
  const [conversation] = await tx
    .update(serviceConversations)
    .set({
      customerReadTo: sql`greatest(${serviceConversations.customerReadTo}, least(${upTo}, (select coalesce(max(id), 0) from service_messages where conversation_id = ${serviceConversations.id})))`,
    })
    .where(eq(serviceConversations.userId, userId))
    .returning();
  return unreadIn(tx, conversation ?? null);
}

// ---- The reviewers' inbox ---------------------------------------------------------------------

export type InboxView = 'waiting' | 'mine' | 'unassigned' | 'open' | 'closed';

const conversationColumns = {
  conversation: serviceConversations,
  username: users.username,
  assignedName: operators.name,
  lastBody: sql<string>`(select case when m.body <> '' then left(m.body, ${PREVIEW_MAX}) else '[picture]' end
    from service_messages m where m.conversation_id = ${serviceConversations.id} order by m.id desc limit 1)`,
};

type ConversationRead = {
  conversation: ConversationRow;
  username: string;
  assignedName: string | null;
  lastBody: string | null;
};

const conversationView = (row: ConversationRead): ConsoleConversation => ({
  id: row.conversation.id,
  user_id: row.conversation.userId,
  username: row.username,
  status: row.conversation.status as ConsoleConversation['status'],
  assigned_to: row.assignedName,
  waiting: row.conversation.waiting,
  last_message: row.lastBody ?? '',
  last_message_at: row.conversation.lastMessageAt.toISOString(),
});

const readConversations = (db: Executor, where: SQL | undefined) =>
  db
    .select(conversationColumns)
    .from(serviceConversations)
    .innerJoin(users, eq(users.id, serviceConversations.userId))
    .leftJoin(operators, eq(operators.id, serviceConversations.assignedTo))
    .where(where);

/** The inbox: waiting (oldest wait first), the caller's, nobody's, every open one or the closed ones (latest first). */
export async function inbox(db: Executor, view: InboxView, operatorId: number): Promise<ConsoleConversation[]> {
  const open = eq(serviceConversations.status, 'open');
  const where = {
    waiting: and(open, eq(serviceConversations.waiting, true)),
    mine: and(open, eq(serviceConversations.assignedTo, operatorId)),
    unassigned: and(open, isNull(serviceConversations.assignedTo)),
    open,
    closed: eq(serviceConversations.status, 'closed'),
  }[view];
  const order = view === 'waiting' ? asc(serviceConversations.lastMessageAt) : desc(serviceConversations.lastMessageAt);
  return (await readConversations(db, where).orderBy(order).limit(INBOX_MAX)).map(conversationView);
}

/** How many conversations wait for an answer (the review queues show it). */
export async function waitingConversations(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(serviceConversations)
    .where(and(eq(serviceConversations.status, 'open'), eq(serviceConversations.waiting, true)));
  return Number(row?.n ?? 0);
}

async function conversationById(db: Executor, id: number): Promise<ConsoleConversation> {
  const [row] = await readConversations(db, eq(serviceConversations.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return conversationView(row);
}

/** The team's notes on a conversation, oldest first, from `from` on (the time of the first message shown). */
async function notesOf(db: Executor, id: number, from: Date | null): Promise<ConsoleServiceNote[]> {
  const rows = await db
    .select({ note: serviceNotes, operator: operators.name })
    .from(serviceNotes)
    .innerJoin(operators, eq(operators.id, serviceNotes.operatorId))
    .where(and(eq(serviceNotes.conversationId, id), from ? gte(serviceNotes.createdAt, from) : undefined))
    .orderBy(desc(serviceNotes.id))
    .limit(CONSOLE_MESSAGES_MAX);
  return rows.reverse().map(({ note, operator }) => ({
    id: note.id,
    operator,
    body: note.body,
    created_at: note.createdAt.toISOString(),
  }));
}

/** The other operators writing an answer to it now, by name. */
async function answeringOthers(db: Executor, id: number, operatorId: number, now: Date): Promise<string[]> {
  const rows = await db
    .select({ name: operators.name })
    .from(serviceAnswering)
    .innerJoin(operators, eq(operators.id, serviceAnswering.operatorId))
    .where(
      and(
        eq(serviceAnswering.conversationId, id),
        ne(serviceAnswering.operatorId, operatorId),
        gt(serviceAnswering.until, now),
      ),
    )
    .orderBy(asc(operators.name));
  return rows.map((row) => row.name);
}

/**
 * One conversation for the operator `operatorId`: its latest messages, oldest first, each operator's by
 * name, the team's notes of the same stretch of time, and who else is answering it now. The customer's withdrawals
 * still in review, shown beside it, are the withdrawal rules' (withdraw.ts `openWithdrawals`): the route adds them.
 */
export async function conversationDetail(
  db: Executor,
  id: number,
  operatorId: number,
  now: Date,
): Promise<{
  conversation: ConsoleConversation;
  messages: ConsoleChatMessage[];
  notes: ConsoleServiceNote[];
  answering: string[];
}> {
  const conversation = await conversationById(db, id);
  const rows = await db
    .select({ message: serviceMessages, operator: operators.name })
    .from(serviceMessages)
    .leftJoin(operators, eq(operators.id, serviceMessages.operatorId))
    .where(eq(serviceMessages.conversationId, id))
    .orderBy(desc(serviceMessages.id))
    .limit(CONSOLE_MESSAGES_MAX);
  const messages = rows.reverse().map(({ message, operator }) => ({
    ...chatMessage(message),
    picture: message.picture?.slice(UPLOADS_PATH.length) ?? null,
    operator,
  }));
  // Older messages than those shown are left out: so are the notes written among them.
  const from = rows.length === CONSOLE_MESSAGES_MAX ? (rows.at(-1)?.message.createdAt ?? null) : null;
  return {
    conversation,
    messages,
    notes: await notesOf(db, id, from),
    answering: await answeringOthers(db, id, operatorId, now),
  };
}

/** Locks the conversation for an operator's change; refused when there is none of this id. */
async function lockConversation(tx: Tx, id: number): Promise<ConversationRow> {
  const [row] = await tx.select().from(serviceConversations).where(eq(serviceConversations.id, id)).for('update');
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return row;
}

const target = (id: number) => `conversation:${id}`;

/** Who can answer a conversation, so be given one: the active reviewers (an admin's role does not answer). */
const canAnswer = and(eq(operators.role, 'reviewer'), isNull(operators.disabledAt));

/** The operators a conversation can be given to, by name. */
export async function serviceOperators(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: operators.name }).from(operators).where(canAnswer).orderBy(asc(operators.name));
  return rows.map((row) => row.name);
}

const operatorName = async (db: Executor, id: number | null) =>
  id === null
    ? null
    : ((await db.select({ name: operators.name }).from(operators).where(eq(operators.id, id)))[0]?.name ?? null);

/** Gives the conversation to an active reviewer (the caller, or the one named), or to nobody (`null`). */
export async function assignConversation(
  tx: Tx,
  actor: Actor,
  id: number,
  to: string | null,
  now: Date,
): Promise<ConsoleConversation> {
  const before = await lockConversation(tx, id);
  let assignee: { id: number; name: string } | null = null;
  if (to !== null) {
    const name = to || actor.name;
    const [reviewer] = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(and(eq(operators.name, name), canAnswer));
    if (!reviewer) throw new Refusal(consoleTexts.consoleNotReviewer.id, { 0: name });
    assignee = { id: reviewer.id, name };
  }
  await tx
    .update(serviceConversations)
    .set({ assignedTo: assignee?.id ?? null })
    .where(eq(serviceConversations.id, id));
  await appendAudit(
    tx,
    actor,
    'service.assign',
    target(id),
    {
      before: { assigned_to: await operatorName(tx, before.assignedTo) },
      after: { assigned_to: assignee?.name ?? null },
    },
    now,
  );
  return conversationById(tx, id);
}

/**
 * An internal note of the team's: written with its author and time and never changed, so it is its
 * own record (no audit entry); no customer read or notice carries it.
 */
export async function addServiceNote(
  tx: Tx,
  operatorId: number,
  id: number,
  body: string,
  now: Date,
): Promise<ConsoleServiceNote> {
  await lockConversation(tx, id);
  const [row] = await tx
    .insert(serviceNotes)
    .values({ conversationId: id, operatorId, body, createdAt: now })
    .returning();
  return {
    id: row!.id,
    operator: (await operatorName(tx, operatorId))!,
    body: row!.body,
    created_at: now.toISOString(),
  };
}

/**
 * The operator is writing an answer to it (`typing`): the others are told until ANSWERING_SECONDS from
 * now; or no longer (they emptied the box). Not audited (it changes nothing but this warning); the
 * conversation's rows that ran out go at the same time.
 */
export async function renewAnswering(
  tx: Tx,
  operatorId: number,
  id: number,
  typing: boolean,
  now: Date,
): Promise<null> {
  await lockConversation(tx, id);
  const until = new Date(now.getTime() + ANSWERING_SECONDS * 1000);
  await tx
    .delete(serviceAnswering)
    .where(
      and(
        eq(serviceAnswering.conversationId, id),
        typing ? lt(serviceAnswering.until, now) : eq(serviceAnswering.operatorId, operatorId),
      ),
    );
  if (!typing) return null;
  await tx
    .insert(serviceAnswering)
    .values({ conversationId: id, operatorId, until })
    .onConflictDoUpdate({ target: [serviceAnswering.conversationId, serviceAnswering.operatorId], set: { until } });
  return null;
}

/**
 * An operator's answer: the conversation no longer waits, opens again if it was closed, and becomes
 * the caller's if nobody had taken it. The customer's push notice is queued in the same transaction.
 */
export async function replyToConversation(
  tx: Tx,
  actor: Actor & { operatorId: number },
  id: number,
  body: string,
  now: Date,
): Promise<ConsoleChatMessage> {
  const before = await lockConversation(tx, id);
  const [row] = await tx
    .insert(serviceMessages)
    .values({ conversationId: id, author: 'operator', operatorId: actor.operatorId, body, createdAt: now })
    .returning();
  await tx
    .update(serviceConversations)
    .set({ waiting: false, status: 'open', lastMessageAt: now, assignedTo: before.assignedTo ?? actor.operatorId })
    .where(eq(serviceConversations.id, id));
  // Sent: the caller no longer answers it.
  await tx
    .delete(serviceAnswering)
    .where(and(eq(serviceAnswering.conversationId, id), eq(serviceAnswering.operatorId, actor.operatorId)));
  await appendAudit(
    tx,
    actor,
    'service.reply',
    target(id),
    { before: { status: before.status, waiting: before.waiting }, after: { message: row!.id, body } },
    now,
  );
  await queueNotice(tx, before.userId, { kind: 'service_reply', body }, now);
  return { ...chatMessage(row!), operator: actor.name };
}

/** Closes it: it leaves the open views until the customer writes again. */
export async function closeConversation(tx: Tx, actor: Actor, id: number, now: Date): Promise<ConsoleConversation> {
  const before = await lockConversation(tx, id);
  await tx
    .update(serviceConversations)
    .set({ status: 'closed', waiting: false })
    .where(eq(serviceConversations.id, id));
  await appendAudit(
    tx,
    actor,
    'service.close',
    target(id),
    { before: { status: before.status, waiting: before.waiting }, after: { status: 'closed' } },
    now,
  );
  return conversationById(tx, id);
}

// ---- Canned replies ---------------------------------------------------------------------------

const cannedView = (row: typeof serviceCannedReplies.$inferSelect): CannedReply => ({
  id: row.id,
  title: row.title,
  body: row.body,
});

export async function cannedReplies(db: Executor): Promise<CannedReply[]> {
  return (
    await db
      .select()
      .from(serviceCannedReplies)
      .where(isNull(serviceCannedReplies.removedAt))
      .orderBy(asc(serviceCannedReplies.title))
  ).map(cannedView);
}

export async function addCannedReply(
  tx: Tx,
  actor: Actor,
  reply: { title: string; body: string },
  now: Date,
): Promise<CannedReply> {
  const [row] = await tx
    .insert(serviceCannedReplies)
    .values({ title: reply.title, body: reply.body, createdAt: now })
    .returning();
  await appendAudit(
    tx,
    actor,
    'service.canned.add',
    `canned:${row!.id}`,
    { before: null, after: cannedView(row!) },
    now,
  );
  return cannedView(row!);
}

export async function removeCannedReply(tx: Tx, actor: Actor, id: number, now: Date): Promise<CannedReply> {
  const [row] = await tx
    .update(serviceCannedReplies)
    .set({ removedAt: now })
    .where(and(eq(serviceCannedReplies.id, id), isNull(serviceCannedReplies.removedAt)))
    .returning();
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  await appendAudit(tx, actor, 'service.canned.remove', `canned:${id}`, { before: cannedView(row), after: null }, now);
  return cannedView(row);
}
