// Passkeys: the account's list, adding one (login password, and the authenticator code
// when two-factor is on, then the browser's prompt), removing one. Signing in with one is the
// account feature's (account-store.ts).
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  addPasskey,
  listPasskeys,
  passkeyCreationOptions,
  removePasskey,
  type Passkey,
} from '../../api-contract/passkeys.ts';
import { api, errorText } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { createCredential } from '../../lib/passkey-ceremony.ts';

export const passkeysState = proxy({
  lists: [] as Passkey[],
  loaded: false,
  /** The last load failed: what it said. */
  failure: null as string | null,
});

let latest = 0;

export async function loadPasskeys(): Promise<void> {
  const request = ++latest;
  try {
    const { lists } = await api(listPasskeys, undefined, { loading: !passkeysState.loaded });
    if (request !== latest) return;
    Object.assign(passkeysState, { lists, loaded: true, failure: null });
  } catch (error) {
    if (request !== latest) return;
    passkeysState.failure = errorText(error);
    throw error;
  }
}

/** The password (and code) first, then the browser's prompt; the new passkey heads the list. */
export async function createPasskey(password: string, otp: string): Promise<Passkey> {
  const options = await api(passkeyCreationOptions, { password, ...(otp ? { otp } : {}) });
  const passkey = await api(addPasskey, { credential: await createCredential(options) });
  passkeysState.lists = [passkey, ...passkeysState.lists.filter((row) => row.id !== passkey.id)];
  return passkey;
}

export async function deletePasskey(id: string): Promise<void> {
  await api(removePasskey, { id });
  passkeysState.lists = passkeysState.lists.filter((row) => row.id !== id);
}

// Another session (logout, another user) must never see these passkeys.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(passkeysState, { lists: [], loaded: false, failure: null });
});
