// The customer's conversation with customer service: the messages (lib/chat-store.ts) and what the
// customer writes. Messages written here wait in the outbox (lib/outbox.ts) until sent, so one
// written offline goes when the connection returns, once (its Idempotency-Key).
import { newIdempotencyKey } from './api.ts';
import { knownOffline } from './offline.ts';
import { flushOutbox, registerBackgroundSync } from './outbox.ts';
import { outbox } from './outbox-store.ts';

export { chat, addChatMessages, loadChat, loadOlderChat, markChatRead } from './chat-store.ts';

/** Keeps a message to customer service (its words, a picture as a data: URL) in the outbox and sends it now if the
 * network allows. */
export function queueChatMessage(body: string, picture: string): Promise<void> {
  outbox.pending.push({
    key: newIdempotencyKey(),
    kind: 'chat-message',
    body,
    picture,
    queuedAt: new Date().toISOString(),
  });
  void registerBackgroundSync();
  return knownOffline() ? Promise.resolve() : flushOutbox();
}
