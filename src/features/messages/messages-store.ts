// Station messages: the all and unread lists with paging, the open message, and
// marking one or all read. The unread count the shell shows lives in lib/messages.ts.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { messages, readMessages, type MESSAGE_FILTERS, type StationMessage } from '../../api-contract/messages.ts';
import { api } from '../../lib/api.ts';
import { cursorLoader, emptyCursorList, hasMore as listHasMore, type CursorList } from '../../lib/paged-list.ts';
import { noteRead, unread } from '../../lib/messages.ts';
import { keepForLater, queueMessagesRead } from '../../lib/outbox.ts';
import { pendingReads, readHere } from '../../lib/outbox-store.ts';
import { session } from '../../lib/session.ts';
import { withoutAntiPhishingLine } from '../../api-contract/anti-phishing-line.ts';

export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

/** A list of messages, paged by cursor (lib/paged-list.ts). */
export type MessageList = CursorList<StationMessage>;
const emptyList = (): MessageList => emptyCursorList<StationMessage>();

export const messagesState = proxy({
  filter: 'all' as MessageFilter,
  all: emptyList(),
  unread: emptyList(),
  /** The message open in the reader. */
  opened: null as StationMessage | null,
});

/** Whether "Load more" shows: until the server says the list has ended (the cursor continues past read messages). */
export const hasMore = (
  _filter: MessageFilter,
  list: { readonly lists: readonly unknown[]; readonly next: string | null },
) => listHasMore(list);

// A message shown may be read meanwhile on another device (read, or gone from the unread list) below the head: each
// list is read again from its head as deep as it was shown (readToDepth), not merged with the rows first shown.
const loaders = {
  all: cursorLoader(
    () => messagesState.all,
    (cursor, loading) => pageOf('all', cursor, loading),
    { arrivals: 'anywhere' },
  ),
  unread: cursorLoader(
    () => messagesState.unread,
    (cursor, loading) => pageOf('unread', cursor, loading),
    { arrivals: 'anywhere' },
  ),
};

async function pageOf(filter: MessageFilter, cursor: string, loading: boolean) {
  const answer = await api(messages, { status: filter, cursor }, { loading });
  // Read on this device while offline: read on screen, though the server (or a cached answer) says unread.
  const pending = pendingReads();
  for (const message of answer.lists)
    if (message.status === 'unread' && readHere(message.id, pending)) message.status = 'read';
  return answer;
}

/**
 * Reads the list again from its head, as deep as it was shown (new messages on top, the pages read stay, each message
 * as the server has it now); `more` adds the next page.
 */
export function loadMessages(filter: MessageFilter, { more = false } = {}): Promise<void> {
  return loaders[filter].load({ more });
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
  loaders.unread.cancel();
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
  loaders.all.cancel();
  loaders.unread.cancel();
  Object.assign(messagesState, { filter: 'all', all: emptyList(), unread: emptyList(), opened: null });
});
