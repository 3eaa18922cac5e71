// Station messages (§3, §4, §7): the all and unread lists with paging, the open message, and
// marking one or all read. The unread count the shell shows lives in lib/messages.ts.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  MESSAGE_PAGE_SIZE,
  messages,
  readMessages,
  type MESSAGE_FILTERS,
  type StationMessage,
} from '../../contract/messages.ts';
import { api, errorText } from '../../lib/api.ts';
import { noteRead, unread } from '../../lib/messages.ts';
import { keepForLater, queueMessagesRead } from '../../lib/outbox.ts';
import { pendingReads, readHere } from '../../lib/outbox-store.ts';
import { session } from '../../lib/session.ts';
import { withoutAntiPhishingLine } from '../../contract/anti-phishing-line.ts';

export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

export interface MessageList {
  lists: StationMessage[];
  /** How many the server counts in this list now (lowered here as messages are read). */
  total: number;
  loaded: boolean;
  /** The last load failed: what it said. */
  failure: string | null;
}
const emptyList = (): MessageList => ({ lists: [], total: 0, loaded: false, failure: null });

export const messagesState = proxy({
  filter: 'all' as MessageFilter,
  all: emptyList(),
  unread: emptyList(),
  /** The message open in the reader. */
  opened: null as StationMessage | null,
});

/** Messages of a list that the server still counts in it: a message read here leaves the unread list on the server. */
export const listedOnServer = (filter: MessageFilter, lists: readonly StationMessage[]) =>
  filter === 'unread' ? lists.filter((message) => message.status === 'unread').length : lists.length;

export const hasMore = (
  filter: MessageFilter,
  list: { readonly lists: readonly StationMessage[]; readonly total: number },
) => listedOnServer(filter, list.lists) < list.total;

/** The page that holds the first message not shown yet (pages of the unread list move up as messages are read). */
export const nextPage = (filter: MessageFilter, lists: readonly StationMessage[]) =>
  Math.floor(listedOnServer(filter, lists) / MESSAGE_PAGE_SIZE) + 1;

const latestRequest: Record<MessageFilter, number> = { all: 0, unread: 0 };

/** Page 1 replaces the list; a later page adds the messages not shown yet. */
export async function loadMessages(filter: MessageFilter, { more = false } = {}): Promise<void> {
  const list = messagesState[filter];
  const request = ++latestRequest[filter];
  const page = more ? nextPage(filter, list.lists) : 1;
  try {
    const answer = await api(messages, { status: filter, page: String(page) }, { loading: !list.loaded && !more });
    if (request !== latestRequest[filter]) return;
    const kept = more ? list.lists : [];
    const known = new Set(kept.map((message) => message.id));
    // Read on this device while offline: read on screen, though the server (or a kept answer) says unread.
    const pending = pendingReads();
    const fresh = answer.lists.filter((message) => !known.has(message.id));
    const readOffline = fresh.filter((message) => message.status === 'unread' && readHere(message.id, pending));
    for (const message of readOffline) message.status = 'read';
    list.lists = [...kept, ...fresh];
    list.total = filter === 'unread' ? Math.max(0, answer.total - readOffline.length) : answer.total;
    list.loaded = true;
    list.failure = null;
  } catch (error) {
    if (request !== latestRequest[filter]) return;
    list.failure = errorText(error);
    throw error;
  }
}

/** Shows another filter and loads its first page. */
export function chooseFilter(filter: MessageFilter): Promise<void> {
  messagesState.filter = filter;
  return loadMessages(filter);
}

/** Opens a message in the reader and, if it was unread, marks it read. */
export async function openMessage(message: StationMessage): Promise<void> {
  messagesState.opened = { ...message };
  if (message.status === 'unread') await markRead([message.id]);
}

export function closeMessage(): void {
  messagesState.opened = null;
}

/**
 * Marks messages read on the server, then in both lists; the unread list keeps them in place until
 * reloaded. Offline it is kept in the outbox and sent once the connection returns; the lists show
 * them read at once.
 */
export async function markRead(ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const read = new Set(ids);
  const newlyRead = messagesState.all.lists.filter(
    (message) => read.has(message.id) && message.status === 'unread',
  ).length;
  if (keepForLater()) return showRead(ids, Math.max(0, unread.count - newlyRead), true);
  try {
    const answer = await api(readMessages, { ids: ids.join(',') }, { loading: false });
    showRead(ids, answer.unread, false);
  } catch (error) {
    if (!keepForLater(error)) throw error;
    showRead(ids, Math.max(0, unread.count - newlyRead), true);
  }
}

function showRead(ids: readonly number[], unreadLeft: number, queue: boolean): void {
  const read = new Set(ids);
  for (const filter of ['all', 'unread'] as const) {
    const list = messagesState[filter];
    for (const message of list.lists) {
      if (!read.has(message.id) || message.status === 'read') continue;
      message.status = 'read';
      if (filter === 'unread') list.total = Math.max(0, list.total - 1);
    }
  }
  if (messagesState.opened && read.has(messagesState.opened.id)) messagesState.opened.status = 'read';
  if (queue) queueMessagesRead(ids);
  noteRead(unreadLeft, ids);
}

/** Marks every message read; the unread list is then empty. Offline, kept in the outbox like markRead. */
export async function markAllRead(): Promise<void> {
  let unreadLeft = 0;
  let queue = keepForLater();
  if (!queue) {
    try {
      unreadLeft = (await api(readMessages, { ids: 'all' })).unread;
    } catch (error) {
      if (!keepForLater(error)) throw error;
      queue = true;
    }
  }
  for (const message of messagesState.all.lists) message.status = 'read';
  latestRequest.unread += 1;
  messagesState.unread = { ...emptyList(), loaded: true };
  if (queue) queueMessagesRead('all');
  noteRead(unreadLeft, 'all');
}

/** Text for the list: the content on one line, without runs of spaces and line breaks. */
/** A list row's text: the notice itself, without the anti-phishing code line a security notice starts with. */
export const previewOf = (content: string) => withoutAntiPhishingLine(content).replace(/\s+/g, ' ').trim();

export { formatMessageDate } from '../../lib/message-date.ts';

// Another session (logout, another user) must never see this one's messages.
subscribeKey(session, 'token', () => {
  latestRequest.all += 1;
  latestRequest.unread += 1;
  Object.assign(messagesState, { filter: 'all', all: emptyList(), unread: emptyList(), opened: null });
});
