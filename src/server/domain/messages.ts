// Station messages: a user sees their own messages and every broadcast; each is unread
// for that user until the user reads it. Every read and write here is scoped to one user.
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { idKey, keysetQuery, type KeysetOrder, type PageRequest } from './paged-query.ts';
import type { Executor } from '../db/connection.ts';
import { contentTranslations, messageReads, messages } from '../db/schema.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { MESSAGE_PAGE_SIZE, type StationMessage } from '../../api-contract/messages.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { queueNotice } from './notices.ts';
import { inLanguage } from './content-languages.ts';

export type MessageRow = typeof messages.$inferSelect;
export type MessageFilter = 'all' | 'unread';

/** The messages `userId` may see: addressed to them, or to everyone. */
const visibleTo = (userId: number) => or(eq(messages.userId, userId), isNull(messages.userId));

/** Joins the caller's own read mark only, so another user's reading changes nothing here. */
const readBy = (userId: number) => and(eq(messageReads.messageId, messages.id), eq(messageReads.userId, userId));

const unreadFor = (userId: number) => and(visibleTo(userId), isNull(messageReads.messageId));

const columns = {
  id: messages.id,
  title: messages.title,
  content: messages.content,
  createdAt: messages.createdAt,
  readAt: messageReads.readAt,
};

function toStationMessage(row: {
  id: number;
  title: string;
  content: string;
  createdAt: Date;
  readAt: Date | null;
}): StationMessage {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    status: row.readAt ? 'read' : 'unread',
    created_at: row.createdAt.toISOString(),
  };
}

const NEWEST_MESSAGE_FIRST: KeysetOrder<{ id: number }> = {
  keys: [idKey(messages.id, (row) => row.id)],
  direction: 'desc',
};

/**
 * One page of the caller's messages, newest first (status all or unread), by cursor, or by the page number the spec
 * names when no cursor is sent; each in `lang` where it has that version, else in English.
 */
export async function listMessages(
  db: Executor,
  userId: number,
  status: MessageFilter,
  request: PageRequest,
  lang: string,
): Promise<CursorPage<StationMessage>> {
  const where = status === 'unread' ? unreadFor(userId) : visibleTo(userId);
  const list = (after?: SQL) =>
    db.select(columns).from(messages).leftJoin(messageReads, readBy(userId)).where(and(where, after)).$dynamic();
  const listed = await keysetQuery(list, NEWEST_MESSAGE_FIRST, request, MESSAGE_PAGE_SIZE);
  return { ...listed, lists: (await inLanguage(db, 'message', listed.lists, lang, 'content')).map(toStationMessage) };
}

/**
 * Every message `userId` may see, oldest first, for the data export: addressed to them or to everyone (`broadcast`),
 * when they read it (null: unread), each in `lang` where it has that version, else in English. Not paged: the export's
 * size bound (EXPORT_MAX_BYTES) is the bound.
 */
export async function everyMessageOf(
  db: Executor,
  userId: number,
  lang: string,
): Promise<{ id: number; at: Date; broadcast: boolean; title: string; body: string; readAt: Date | null }[]> {
  const rows = await db
    .select({ ...columns, userId: messages.userId })
    .from(messages)
    .leftJoin(messageReads, readBy(userId))
    .where(visibleTo(userId))
    .orderBy(asc(messages.id));
  return (await inLanguage(db, 'message', rows, lang, 'content')).map((row) => ({
    id: row.id,
    at: row.createdAt,
    broadcast: row.userId === null,
    title: row.title,
    body: row.content,
    readAt: row.readAt,
  }));
}

/**
 * How many of the caller's messages are unread, and the oldest unread one (in `lang` where it has that version, else
 * in English): the app's startup dialog shows it. The unread summary the app reads also counts the service chat's
 * answers not seen; the route adds that count (http/messages-routes.ts), so the station messages import no chat.
 */
export async function unreadSummary(
  db: Executor,
  userId: number,
  lang: string,
): Promise<{ count: number; first: StationMessage | null }> {
  const [[oldest], count] = await Promise.all([
    db
      .select(columns)
      .from(messages)
      .leftJoin(messageReads, readBy(userId))
      .where(unreadFor(userId))
      .orderBy(asc(messages.id))
      .limit(1),
    countUnread(db, userId),
  ]);
  const [first] = oldest ? await inLanguage(db, 'message', [oldest], lang, 'content') : [];
  return { count, first: first ? toStationMessage(first) : null };
}

export async function countUnread(db: Executor, userId: number): Promise<number> {
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(messages)
    .leftJoin(messageReads, readBy(userId))
    .where(unreadFor(userId));
  return Number(counted?.total ?? 0);
}

/**
 * Marks the caller's messages read: the given ids, or every one. An id the caller may not see
 * (another user's message, or none at all) is skipped silently. Answers what is still unread.
 */
export async function markRead(
  db: Executor,
  userId: number,
  ids: readonly number[] | 'all',
  now: Date,
): Promise<number> {
  if (ids === 'all' || ids.length > 0) {
    const chosen = ids === 'all' ? unreadFor(userId) : and(unreadFor(userId), inArray(messages.id, [...new Set(ids)]));
    await db
      .insert(messageReads)
      .select(
        db
          .select({
            messageId: messages.id,
            userId: sql<number>`${userId}::int`.as('user_id'),
            readAt: sql<Date>`${now.toISOString()}::timestamptz`.as('read_at'),
          })
          .from(messages)
          .leftJoin(messageReads, readBy(userId))
          .where(chosen),
      )
      // Two taps at once may both pass the unread check: the first read mark stays.
      .onConflictDoNothing();
  }
  return countUnread(db, userId);
}

/** A message's title and text in one language. */
export interface MessageText {
  title: string;
  content: string;
}

/**
 * Posts a message to one user, or to every user (present and future) with `to: null`: `title` and `content` are its
 * English version (its own row), `versions` the other languages' (listMessages reads the reader's; a push to its one
 * user says the version of each subscription's language).
 */
export async function postMessage(
  db: Executor,
  input: MessageText & {
    to: number | null;
    versions?: Partial<Record<Locale, MessageText>>;
  },
  now: Date,
): Promise<MessageRow> {
  const [row] = await db
    .insert(messages)
    .values({ userId: input.to, title: input.title, content: input.content, createdAt: now })
    .returning();
  const versions = Object.entries(input.versions ?? {}).map(([lang, version]) => ({
    kind: 'message',
    item: String(row!.id),
    lang,
    title: version.title,
    body: version.content,
  }));
  if (versions.length) await db.insert(contentTranslations).values(versions);
  // A broadcast reaches everyone in the app; only a message to one customer is pushed.
  if (input.to !== null)
    await queueNotice(
      db,
      input.to,
      { kind: 'station_message', id: row!.id, title: row!.title, content: row!.content, versions: input.versions },
      now,
    );
  return row!;
}

/** The ids of a reader call: "all", or "1,2,3" (the API contract has checked the shape). */
export function parseMessageIds(ids: string): number[] | 'all' {
  return ids === 'all' ? 'all' : ids.split(',').map(Number);
}
