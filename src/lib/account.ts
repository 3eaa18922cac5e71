// Session actions every area needs: start a session from a token, refresh the user, sign out.
import { logout, userInfo } from '../api-contract/account.ts';
import { api } from './api.ts';
import { claimHeldWrites, clearSession, session, thisDevice } from './session.ts';
import { forgetVisits } from './navigation.ts';
import { AUTH_ROUTE_PREFIX } from '../api-contract/routes.ts';

/** `device`: the sign-in's remembered-device token, kept for the next login. */
export async function startSession(token: string, device?: string): Promise<void> {
  if (device) thisDevice.token = device;
  session.token = token;
  const user = await api(userInfo);
  // Writes held from a session the server ended are this user's again, or removed if they were another's.
  await claimHeldWrites(user.id);
  session.user = user;
  // Back from the first page after login must not land on the login form again.
  forgetVisits(AUTH_ROUTE_PREFIX);
}

export async function refreshUser(options: { loading?: boolean } = {}): Promise<void> {
  session.user = await api(userInfo, undefined, options);
}

/** Ends the session here even when the server cannot be reached (the token is forgotten). */
export async function signOut(): Promise<void> {
  if (session.token) await api(logout, undefined, { redirectOnInvalidToken: false }).catch(() => undefined);
  await clearSession();
}
