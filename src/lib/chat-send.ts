// Sends one chat message of the outbox (lib/outbox.ts, which loads this module only when one waits):
// its picture first, if it is still a data: URL (the entry then keeps the upload's URL, so a retry
// does not upload it again), then the message with the entry's Idempotency-Key, then the conversation
// again (the cached answer a reload offline shows must hold the message).
import { UPLOAD_FIELD, uploadImage } from '../api-contract/account.ts';
import { sendChatMessage } from '../api-contract/service-chat.ts';
import { api, refusedByServer } from './api.ts';
import { addChatMessages, loadChat } from './chat-store.ts';
import { outbox, type ChatOutgoing } from './outbox-store.ts';
import { session } from './session.ts';

export async function sendChatEntry(entry: ChatOutgoing): Promise<void> {
  const token = session.token;
  try {
    await send(entry, token);
  } catch (error) {
    // Refused by the server (not a lost connection, not an ended session): sending again cannot help,
    // so the message leaves the queue and stays on screen with the reason until the customer removes it; not when
    // the customer signed out meanwhile (another one may be signed in now).
    if (refusedByServer(error) && session.token === token) outbox.refused.push({ ...entry, reason: error.message });
    throw error;
  }
}

/** `token`: the session it is sent for; what the server answers is shown only while that session lasts. */
async function send(entry: ChatOutgoing, token: string | null): Promise<void> {
  if (entry.picture.startsWith('data:')) {
    const formData = new FormData();
    formData.append(UPLOAD_FIELD, blobOf(entry.picture), 'picture.jpg');
    const { url } = await api(uploadImage, undefined, { formData, loading: false });
    entry.picture = url;
  }
  const message = await api(
    sendChatMessage,
    { body: entry.body, picture: entry.picture },
    { loading: false, idempotencyKey: entry.key },
  );
  if (session.token !== token) return;
  addChatMessages([message]);
  // Asked again, so the answer the service worker keeps for offline has this message too.
  loadChat().catch(() => undefined);
}

/** A data: URL's bytes (read here: the page's content policy may not let fetch() open a data: URL). */
function blobOf(dataUrl: string): Blob {
  const [head = '', data = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type });
}
