// The signed-in session: token and user info, persisted. Shared by every feature.
import type { UserInfo } from '../api-contract/account.ts';
import { forgetUserStores, persistedStore, resetHeldStores, resetUserStores } from './storage.ts';
import { forgetCachedAnswers } from './offline.ts';

export const session = persistedStore(
  'session',
  {
    token: null as string | null,
    user: null as UserInfo | null,
  },
  { perUser: true },
);

/**
 * The token that says this device passed the second factor (the server's `device` in a
 * sign-in's answer, sent back with the next login). Not the user's data: it stays after logout.
 */
export const thisDevice = persistedStore('device', { token: '' });

/** Where the tabs of this app tell each other that a session ended (same origin only). */
export const SESSION_CHANNEL = 'coinvest.session';
const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_CHANNEL) : null;
// Where the app's modules are loaded by Node (the build renders the first screens), an open channel would keep the
// process alive for good: Node's channel can be unreferenced, a browser's has no such method.
(tabs as { unref?: () => void } | null)?.unref?.();

/**
 * Whose writes the device holds while signed out after the server ended their session (ret -1: an idle limit, say):
 * that user's id, until the next sign-in says whether they are the same user (claimHeldWrites). Null when none are
 * held. While it is set nothing held is sent or asked about: a token of another user may be on its way in.
 */
export const heldWrites = persistedStore('held-writes', { userId: null as number | null });

/**
 * What one tab tells the others when it ends a session: which one, so a newer session elsewhere stays; `heldFor`: the
 * user whose writes are held for their next sign-in (heldWrites), when the server ended it.
 */
export interface SessionEnded {
  ended: string;
  heldFor?: number;
}

/**
 * Forgets the user on this device (logout, or the server said ret -1): the token, every stored
 * record of their data, and their cached answers in the service worker's cache. Every other tab of the app showing
 * the same session forgets it at once too (no name or balance left on screen until its next navigation).
 * `byServer`: the server ended the session (ret -1), the customer did not sign out. What they queued or sent without
 * learning the outcome (the stores marked `heldForUser`: the outbox, writes that move funds whose answer was lost) is
 * then kept for their next sign-in rather than lost unseen; a sign-out removes it with the rest.
 */
export async function clearSession({ byServer = false } = {}): Promise<void> {
  const token = session.token;
  // A session whose sign-in never learned its user (claimHeldWrites not reached) leaves what is held as it was.
  const heldFor = byServer ? (session.user?.id ?? heldWrites.userId) : null;
  heldWrites.userId = heldFor;
  await resetUserStores({ keepHeld: heldFor !== null });
  if (token) tabs?.postMessage({ ended: token, ...(heldFor === null ? {} : { heldFor }) } satisfies SessionEnded);
  if (token) await forgetCachedAnswers(token, { signedOut: true });
}

/**
 * A sign-in as `userId`: what is held for another user is removed unseen and unsent, what is held for this one is
 * theirs again (sent and asked about under the new session). Call it before the user is set on the session.
 */
export async function claimHeldWrites(userId: number): Promise<void> {
  const heldFor = heldWrites.userId;
  heldWrites.userId = null;
  if (heldFor !== null && heldFor !== userId) await resetHeldStores();
}

/**
 * Another tab ended a session: when it is this one, the stores go back to signed out (the route guard then shows the
 * login). A message about another session (an older one, or garbage) changes nothing. Resolves when done.
 */
export async function endIfThisSession(message: unknown): Promise<void> {
  const { ended, heldFor } = (message as Partial<SessionEnded> | null) ?? {};
  if (typeof ended !== 'string' || ended === '' || ended !== session.token) return;
  forgetUserStores();
  if (typeof heldFor === 'number') heldWrites.userId = heldFor;
}
tabs?.addEventListener('message', (event) => void endIfThisSession(event.data));
