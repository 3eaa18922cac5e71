// The customer's conversation with customer service as the server has it: the messages, newest
// last, shared by the chat page and the outbox's sender (lib/chat-send.ts), which adds each message
// it delivers. Apart from lib/chat.ts, which queues what the customer writes in the outbox, so the
// sender the outbox loads does not import the outbox back.
import { proxy } from 'valtio/vanilla';
import { chatHistory, readChat, type ChatMessage } from '../api-contract/service-chat.ts';
import { api } from './api.ts';
import { unread } from './messages.ts';
import { session } from './session.ts';

export const chat = proxy({
  messages: [] as ChatMessage[],
  /** Older messages exist on the server. */
  more: false,
  loaded: false,
  /** The session these messages belong to. */
  token: '' as string | null,
});

/** Puts messages in, each once, in the order of their ids. */
export function addChatMessages(messages: readonly ChatMessage[]): void {
  const known = new Set(chat.messages.map((message) => message.id));
  const fresh = messages.filter((message) => !known.has(message.id));
  if (!fresh.length) return;
  chat.messages = [...chat.messages, ...fresh].sort((a, b) => a.id - b.id);
}

/** The latest page: new messages join the ones shown (older pages already loaded stay). */
export async function loadChat({ loading = false } = {}): Promise<void> {
  if (chat.token !== session.token)
    Object.assign(chat, { messages: [], more: false, loaded: false, token: session.token });
  const token = session.token;
  const answer = await api(chatHistory, {}, { loading: loading && !chat.loaded });
  if (token !== session.token) return;
  if (!chat.loaded) chat.more = answer.more;
  addChatMessages(answer.messages);
  chat.loaded = true;
  unread.service = answer.unread;
}

/** The page before the oldest message shown. */
export async function loadOlderChat(): Promise<void> {
  const oldest = chat.messages[0];
  if (!oldest) return;
  const answer = await api(chatHistory, { before: String(oldest.id) }, { loading: false });
  addChatMessages(answer.messages);
  chat.more = answer.more;
}

/** The team's answers shown are seen (nothing to say when there are none, or offline: the next open says it). */
export async function markChatRead(): Promise<void> {
  const last = chat.messages.at(-1);
  if (!last || unread.service === 0) return;
  const answer = await api(readChat, { up_to: String(last.id) }, { loading: false });
  unread.service = answer.unread;
}
