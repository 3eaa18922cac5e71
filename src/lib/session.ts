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
 * Forgets the user on this device (logout, or the server said ret -1): the token, every stored
 * record of their data, and their cached answers in the service worker's cache.
 */
export async function clearSession(): Promise<void> {
  const token = session.token;
  await resetUserStores();
  if (token) await forgetCachedAnswers(token);
}
