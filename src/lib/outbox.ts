// Harmless writes kept on the device while offline and sent once the connection returns: marking
// messages read, messages to customer service, and price alerts made or deleted offline (the last two sent by
// lib/outbox-send.ts, loaded only when one waits). Nothing that moves money is ever queued here. Each entry keeps the
// Idempotency-Key it was given when queued, so a send whose answer is lost and is sent again applies once.
// Sent on the `online` event, when the service worker's Background Sync fires (where the browser has
// it), when a call finds the network again, and at the next start.
import { subscribeKey } from 'valtio/vanilla/utils';
import { readMessages } from '../api-contract/messages.ts';
import { ApiError, api, newIdempotencyKey, refusedByServer } from './api.ts';
import { noteRead } from './messages.ts';
import { knownOffline, offlineData } from './offline.ts';
import { heldWrites, session } from './session.ts';
import { outbox } from './outbox-store.ts';
import { OUTBOX_SYNC_TAG, FLUSH_OUTBOX_MESSAGE } from '../api-contract/offline-cache.ts';

export { outbox, type OutboxEntry } from './outbox-store.ts';

/** Keeps "these messages are read" for later and asks the browser to send it when it can. */
export function queueMessagesRead(ids: readonly number[] | 'all'): void {
  outbox.pending.push({
    key: newIdempotencyKey(),
    kind: 'messages-read',
    ids: ids === 'all' ? 'all' : [...ids],
    queuedAt: new Date().toISOString(),
  });
  void registerBackgroundSync();
}

let sending: Promise<void> | null = null;

/**
 * Sends what waits, oldest first, each once; stops at the first that finds no network (tried again later) or an ended
 * session (sent after the same customer signs in again: lib/session.ts, heldWrites). Nothing while the device holds
 * the outbox for a customer whose sign-in is not yet known to be theirs.
 */
export function flushOutbox(): Promise<void> {
  sending ??= sendPending().finally(() => (sending = null));
  return sending;
}

async function sendPending(): Promise<void> {
  while (outbox.pending.length && session.token && heldWrites.userId === null) {
    const entry = outbox.pending[0]!;
    const token = session.token;
    try {
      if (entry.kind !== 'messages-read') await (await import('./outbox-send.ts')).sendEntry(entry);
      else {
        const answer = await api(
          readMessages,
          { ids: entry.ids === 'all' ? 'all' : entry.ids.join(',') },
          { loading: false, idempotencyKey: entry.key },
        );
        noteRead(answer.unread, entry.ids === 'all' ? 'all' : entry.ids);
      }
    } catch (error) {
      // No network (or no answer), or the session ended: kept for later. The server answered and refused: sending again
      // cannot help.
      if (!refusedByServer(error)) return;
    }
    // Signed out (and maybe another customer in) while it was on its way: the outbox is no longer the one it came from.
    if (session.token !== token || outbox.pending[0]?.key !== entry.key) return;
    outbox.pending.shift();
  }
}

/** Whether a write should be kept for later rather than fail: the network is known to be down. */
export const keepForLater = (error?: unknown) =>
  knownOffline() && (error === undefined || (error instanceof ApiError && error.ret === undefined));

/** Asks the service worker to send the outbox when the connection returns (where Background Sync exists). */
export async function registerBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as
      (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // No Background Sync here: the `online` event and the next start send it.
  }
}

/** Sends at start and whenever the connection (or the service worker's sync) says it can. */
export function startOutbox(): void {
  addEventListener('online', () => void flushOutbox());
  // A call that finds the network again: after a reload without a network the browser may already say online, so
  // no `online` event comes when the connection returns.
  subscribeKey(offlineData, 'online', (online) => online && void flushOutbox());
  // A sign-in after the server ended the session: what was held for this customer goes now.
  subscribeKey(session, 'user', (user) => user && void flushOutbox());
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: string } | null>) => {
    if (event.data?.type === FLUSH_OUTBOX_MESSAGE) void flushOutbox();
  });
  if (!knownOffline()) void flushOutbox();
}
