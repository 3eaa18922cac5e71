// The signed-in session: token and user info, persisted. Shared by every feature.
import type { UserInfo } from '../api-contract/account.ts';
import { forgetUserStores, persistedStore, resetUserStores } from './storage.ts';
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

/** What one tab tells the others when it ends a session: which one, so a newer session elsewhere stays. */
export interface SessionEnded {
  ended: string;
}

/**
 * Forgets the user on this device (logout, or the server said ret -1): the token, every stored
 * record of their data, and their cached answers in the service worker's cache. Every other tab of the app showing
 * the same session forgets it at once too (no name or balance left on screen until its next navigation).
 */
export async function clearSession(): Promise<void> {
  const token = session.token;
  await resetUserStores();
  if (token) tabs?.postMessage({ ended: token } satisfies SessionEnded);
  if (token) await forgetCachedAnswers(token, { signedOut: true });
}

/**
 * Another tab ended a session: when it is this one, the stores go back to signed out (the route guard then shows the
 * login). A message about another session (an older one, or garbage) changes nothing. Resolves when done.
 */
export async function endIfThisSession(message: unknown): Promise<void> {
  const ended = (message as Partial<SessionEnded> | null)?.ended;
  if (typeof ended === 'string' && ended !== '' && ended === session.token) forgetUserStores();
}
tabs?.addEventListener('message', (event) => void endIfThisSession(event.data));
