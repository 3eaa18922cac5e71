// A test double for the outbox's senders: a send on its way whose answer is held back.
import { offlineData } from '../../src/lib/offline.ts';
import { flushOutbox } from '../../src/lib/outbox.ts';
import { deferred, stubFetch } from './helpers.ts';

/**
 * Sends the outbox back online with the first answer held back: resolves once its request has left, with the send
 * (`sending`) and `answer`, which lets the held answer come.
 */
export async function outboxSentAnswerHeld() {
  const held = deferred<Response>();
  let sent!: () => void;
  const leaving = new Promise<void>((resolve) => (sent = resolve));
  stubFetch(() => {
    sent();
    return held.promise;
  });
  offlineData.online = true;
  const sending = flushOutbox();
  await leaving;
  return { sending, answer: held.resolve };
}
