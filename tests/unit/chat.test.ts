// @vitest-environment jsdom
// The service chat's messages in the outbox: written offline, a message waits on the device and is
// sent once when the connection returns, with the key it was given; a picture is uploaded first and
// never twice; a message the server refuses leaves the queue but stays on screen with the reason;
// the conversation's unread answers reach the shared count.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/api-contract/service-chat.ts';
import { chat, loadChat, queueChatMessage } from '../../src/lib/chat.ts';
import { unread } from '../../src/lib/messages.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { flushOutbox, outbox } from '../../src/lib/outbox.ts';
import { clearSession, session } from '../../src/lib/session.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';
import { outboxSentAnswerHeld } from './outbox-helpers.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const message = (id: number, fields: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  author: 'customer',
  body: `message ${id}`,
  picture: null,
  created_at: '2026-11-25T10:00:00.000Z',
  ...fields,
});
const history = (messages: ChatMessage[], unreadCount = 0) =>
  envelope(1, 'ok', { messages, more: false, unread: unreadCount });
/** A 1×1 PNG as the chat page keeps a chosen picture. */
const PICTURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-chat';
  await settle();
  outbox.pending = [];
  outbox.refused = [];
  Object.assign(chat, { messages: [], more: false, loaded: false, token: session.token });
});
afterEach(resetClientState);

it('offline, a message waits in the outbox and nothing is sent', async () => {
  const fetch = stubFetch(history([]));
  offlineData.online = false;
  await queueChatMessage('Written without signal', '');
  expect(fetch.calls).toHaveLength(0);
  expect(outbox.pending).toMatchObject([{ kind: 'chat-message', body: 'Written without signal', picture: '' }]);
});

it('back online it is sent once with the key it was given, joins the conversation, and the conversation is asked again', async () => {
  offlineData.online = false;
  await queueChatMessage('Written without signal', '');
  const key = outbox.pending[0]!.key;
  const sent = message(7, { body: 'Written without signal' });
  const fetch = stubFetch(envelope(1, 'ok', sent), history([sent]));
  offlineData.online = true;
  await flushOutbox();
  await settle();
  expect(fetch.calls[0]!.request.url).toContain('/service/chat/send');
  expect(fetch.calls[0]!.request.headers.get('Idempotency-Key')).toBe(key);
  expect(Object.fromEntries(new URLSearchParams(fetch.calls[0]!.body))).toEqual({
    body: 'Written without signal',
    picture: '',
  });
  expect(outbox.pending).toEqual([]);
  expect(chat.messages.map((shown) => shown.id)).toEqual([7]);
  expect(fetch.calls[1]!.request.url).toContain('/service/chat');
});

it('a picture is uploaded first; when the message’s answer is lost, the retry sends the same upload with the same key', async () => {
  const uploaded = '/api/uploads/abcdefghijklmnop';
  let fetch = stubFetch(envelope(1, 'ok', { url: uploaded }), new TypeError('Failed to fetch'));
  await queueChatMessage('', PICTURE);
  const key = outbox.pending[0]?.key;
  expect(fetch.calls[0]!.request.url).toContain('/users/upload');
  expect(outbox.pending).toMatchObject([{ picture: uploaded, key }]);

  fetch = stubFetch(envelope(1, 'ok', message(8, { body: '', picture: uploaded })), history([]));
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls.filter((call) => call.request.url.includes('/users/upload'))).toHaveLength(0);
  expect(fetch.calls[0]!.request.headers.get('Idempotency-Key')).toBe(key);
  expect(Object.fromEntries(new URLSearchParams(fetch.calls[0]!.body))).toEqual({ body: '', picture: uploaded });
  expect(outbox.pending).toEqual([]);
});

it('a message the server refuses leaves the queue, stays with the reason, and the next one still goes', async () => {
  offlineData.online = false;
  await queueChatMessage('first', '');
  await queueChatMessage('second', '');
  const fetch = stubFetch(
    envelope(0, 'You have sent 20 pictures today'),
    envelope(1, 'ok', message(9, { body: 'second' })),
    history([]),
  );
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls.filter((call) => call.request.url.includes('/send'))).toHaveLength(2);
  expect(outbox.pending).toEqual([]);
  expect(outbox.refused).toMatchObject([{ body: 'first', reason: 'You have sent 20 pictures today' }]);
});

it('loading the conversation keeps what is shown, adds what is new in order, and gives the unread answers to the shared count', async () => {
  stubFetch(history([message(1), message(2, { author: 'operator' })], 1));
  await loadChat();
  expect(chat.messages.map((shown) => shown.id)).toEqual([1, 2]);
  expect(unread.service).toBe(1);
  stubFetch(history([message(2, { author: 'operator' }), message(3)], 0));
  await loadChat();
  expect(chat.messages.map((shown) => shown.id)).toEqual([1, 2, 3]);
  expect(unread.service).toBe(0);
});

/** A message written offline whose send is on its way when its customer signs out; resolves its answer. */
async function onItsWayAtSignOut() {
  offlineData.online = false;
  await queueChatMessage('My card ends in 4242', '');
  const held = await outboxSentAnswerHeld();
  await clearSession();
  return held;
}

it('an answer that comes after its customer signed out and another signed in is not shown to the other', async () => {
  const { sending, answer } = await onItsWayAtSignOut();
  // Another customer signs in, has a message of their own waiting, and opens the chat.
  session.token = 'token-other';
  offlineData.online = false;
  await queueChatMessage('Hello from the other customer', '');
  Object.assign(chat, { messages: [], more: false, loaded: true, token: session.token });
  answer(envelope(1, 'ok', message(7, { body: 'My card ends in 4242' })));
  await sending;
  await settle();
  expect(chat.messages).toEqual([]);
  expect(outbox.pending).toMatchObject([{ body: 'Hello from the other customer' }]);
});

it('a refusal that comes after its customer signed out and another signed in is not listed for the other', async () => {
  const { sending, answer } = await onItsWayAtSignOut();
  session.token = 'token-other';
  answer(envelope(0, 'You have sent 20 pictures today'));
  await sending;
  expect(outbox.refused).toEqual([]);
});
