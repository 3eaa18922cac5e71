// @vitest-environment jsdom
// What the customer sent or queued without learning the outcome, when the server ends the session meanwhile (the
// customer's idle limit of 15 minutes, say): a write that moves funds whose answer was lost, a message to customer
// service written offline. Kept for the same customer's next sign-in, asked about or sent then under the new session
// with the key it was given; never asked about, sent or shown for another customer.
import { afterEach, beforeEach, expect, it, vi, type MockInstance } from 'vitest';
import { TOKEN_REDIRECT_DELAY_MS } from '../../src/api-contract/constants.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { api, onLostAnswer } from '../../src/lib/api.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { lostAnswers } from '../../src/lib/lost-answers-state.ts';
import { askAboutLostWrites, keepLostWrite } from '../../src/features/lost-answers/lost-answers.ts';
import { heldWrites, session } from '../../src/lib/session.ts';
import { chat, queueChatMessage } from '../../src/lib/chat.ts';
import { flushOutbox, outbox } from '../../src/lib/outbox.ts';
import { offlineData } from '../../src/lib/offline.ts';
import type { ChatMessage } from '../../src/api-contract/service-chat.ts';
import { startSession } from '../../src/lib/account.ts';
import { customerInfo, deferred, envelope, resetClientState, stubFetch } from './helpers.ts';

const lost = Array.from({ length: 5 }, () => () => new TypeError('Failed to fetch'));
const withdrawal = { target: 'wallet', target_id: '3', amount: '99.5', paypass: '123456' } as const;
const ended = () => envelope(-1, 'Your login has expired, please log in again!');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-1';
  session.user = customerInfo({ id: 7 });
  heldWrites.userId = null;
  lostAnswers.waiting = [];
  lostAnswers.told = [];
  outbox.pending = [];
  outbox.refused = [];
  Object.assign(chat, { messages: [], more: false, loaded: false, token: session.token });
  onLostAnswer(keepLostWrite);
});
/** The page's timers set during a test: an ended session's way to login is one of them. */
let timers: MockInstance<typeof setTimeout>;
beforeEach(() => void (timers = vi.spyOn(globalThis, 'setTimeout')));
afterEach(async () => {
  // The ended session's way to login (after TOKEN_REDIRECT_DELAY_MS) runs out here, not after this file's document is
  // gone: a busy machine once ended the file first, and the redirect then found no `location`.
  const toLogin = timers.mock.calls.some(([, ms]) => ms === TOKEN_REDIRECT_DELAY_MS);
  timers.mockRestore();
  if (toLogin) await vi.waitFor(() => expect(location.hash).toContain(ROUTES.login), { timeout: 5_000 });
  resetClientState();
});

/** A withdrawal whose answer was lost, then the question about it answered "session ended"; its key. */
async function lostThenSessionEnded(): Promise<string> {
  const { calls } = stubFetch(...lost, ended());
  await expect(api(submitWithdraw, withdrawal)).rejects.toThrow();
  await askAboutLostWrites();
  expect(session.token).toBeNull();
  await settle();
  return calls[0]!.request.headers.get('idempotency-key')!;
}

it('the same customer signing in again is asked about it under the new session, and told', async () => {
  const key = await lostThenSessionEnded();
  const { calls } = stubFetch(
    envelope(1, '', customerInfo({ id: 7 })),
    envelope(1, '', { state: 'applied', msg: null, received_at: '2026-12-05T08:00:00.000Z' }),
    envelope(1, '', {}),
  );
  await startSession('token-2');
  await settle();
  await askAboutLostWrites();
  const question = calls.find((call) => call.request.url.endsWith('/users/write-outcome'));
  expect(question?.request.headers.get('token')).toBe('token-2');
  expect(Object.fromEntries(new URLSearchParams(question!.body))).toMatchObject({ key, path: '/users/extract' });
  expect(lostAnswers.told).toMatchObject([{ key, state: 'applied', amount: '99.5' }]);
});

it('another customer signing in is never asked about it nor shown it', async () => {
  await lostThenSessionEnded();
  const { calls } = stubFetch(envelope(1, '', customerInfo({ id: 8 })), envelope(1, '', {}));
  await startSession('token-3');
  await settle();
  await askAboutLostWrites();
  expect(calls.some((call) => call.request.url.endsWith('/users/write-outcome'))).toBe(false);
  expect(lostAnswers.waiting).toEqual([]);
  expect(lostAnswers.told).toEqual([]);
});

/** A message to customer service written offline, then sent back online and answered "session ended"; its key. */
async function queuedThenSessionEnded(): Promise<string> {
  offlineData.online = false;
  await queueChatMessage('Where is my withdrawal?', '');
  const key = outbox.pending[0]!.key;
  stubFetch(ended());
  offlineData.online = true;
  await flushOutbox();
  expect(session.token).toBeNull();
  await settle();
  return key;
}

const sent: ChatMessage = {
  id: 5,
  author: 'customer',
  body: 'Where is my withdrawal?',
  picture: null,
  created_at: '2026-12-05T08:00:00.000Z',
};

it('a message written offline is sent once the same customer signs in again, with the key it was given', async () => {
  const key = await queuedThenSessionEnded();
  const { calls } = stubFetch(
    envelope(1, '', customerInfo({ id: 7 })),
    envelope(1, 'ok', sent),
    envelope(1, 'ok', { messages: [sent], more: false, unread: 0 }),
  );
  await startSession('token-2');
  await flushOutbox();
  const send = calls.find((call) => call.request.url.endsWith('/service/chat/send'));
  expect(send?.request.headers.get('token')).toBe('token-2');
  expect(send?.request.headers.get('idempotency-key')).toBe(key);
  expect(outbox.pending).toEqual([]);
});

it('a message another customer wrote offline is never sent under this one, nor shown waiting', async () => {
  await queuedThenSessionEnded();
  const { calls } = stubFetch(envelope(1, '', customerInfo({ id: 8 })), envelope(1, '', {}));
  await startSession('token-3');
  await flushOutbox();
  expect(calls.some((call) => call.request.url.endsWith('/service/chat/send'))).toBe(false);
  expect(outbox.pending).toEqual([]);
});

it('while a sign-in has not yet said whose it is, nothing held is sent under its token', async () => {
  await queuedThenSessionEnded();
  const who = deferred<Response>();
  const { calls } = stubFetch(() => who.promise, envelope(1, 'ok', sent));
  const signingIn = startSession('token-4');
  await flushOutbox();
  expect(calls.map((call) => new URL(call.request.url).pathname)).toEqual(['/api/users/info']);
  who.resolve(envelope(1, '', customerInfo({ id: 8 })));
  await signingIn;
  await flushOutbox();
  expect(calls).toHaveLength(1);
});
