// The signed-in session: token and user info, persisted. Shared by every feature.
import type { UserInfo } from '../contract/account.ts';
import { persistedStore, resetStore } from './storage.ts';

export const session = persistedStore('session', {
  token: null as string | null,
  user: null as UserInfo | null,
});

/** Forgets the token and the user on this device (logout, or the server said ret -1). */
export function clearSession(): Promise<void> {
  return resetStore(session);
}
