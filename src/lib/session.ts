// The signed-in session: token and user info, persisted. Shared by every feature.
import type { UserInfo } from '../contract/account.ts';
import { persistedStore, resetUserStores } from './storage.ts';
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

/**
 * Forgets the user on this device (logout, or the server said ret -1): the token, every stored
 * record of their data, and their cached answers in the service worker's cache.
 */
export async function clearSession(): Promise<void> {
  const token = session.token;
  await resetUserStores();
  if (token) await forgetCachedAnswers(token, { signedOut: true });
}
