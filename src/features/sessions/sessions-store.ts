// Devices and sessions: the account's signed-in sessions, ending one or all the others.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { endOtherSessions, endSession, signedInSessions, type SignedInSession } from '../../api-contract/sessions.ts';
import { api, errorText } from '../../lib/api.ts';
import { session, thisDevice } from '../../lib/session.ts';

export const sessionsState = proxy({
  lists: [] as SignedInSession[],
  loaded: false,
  /** The last load failed: what it said. */
  failure: null as string | null,
});

let latest = 0;

export async function loadSessions(): Promise<void> {
  const request = ++latest;
  try {
    const { lists } = await api(signedInSessions, undefined, { loading: !sessionsState.loaded });
    if (request !== latest) return;
    Object.assign(sessionsState, { lists, loaded: true, failure: null });
  } catch (error) {
    if (request !== latest) return;
    sessionsState.failure = errorText(error);
    throw error;
  }
}

/** Ends another device's session: it must log in again; or forgets the device of one that had ended (`ended`). Either
 * leaves the list at once. */
export async function endOne(id: number): Promise<void> {
  await api(endSession, { id: String(id) });
  sessionsState.lists = sessionsState.lists.filter((row) => row.id !== id);
}

/** Ends every session but this device's; with two-factor on, the others are forgotten, this device remembered anew. */
export async function endOthers(): Promise<void> {
  const { device } = await api(endOtherSessions);
  if (device) thisDevice.token = device;
  sessionsState.lists = sessionsState.lists.filter((row) => row.current);
}

// Another session (logout, another user) must never see these devices.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(sessionsState, { lists: [], loaded: false, failure: null });
});
