// The account's freeze as this device knows it: the server's answer and, while an unfreezing waits, the device time
// at which it takes effect (counted from the seconds the server said were left). Freezing ends every session, this
// one too: the device forgets it and the login comes next, returning to the freeze card.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  accountFreeze,
  freezeAccount,
  keepAccountFrozen,
  unfreezeAccount,
  type AccountFreeze,
} from '../../api-contract/account-freeze.ts';
import { api, errorText } from '../../lib/api.ts';
import { clearSession, session } from '../../lib/session.ts';

/** The freeze page's state: the answer, the last load's failure, the device ms of a waiting unfreezing (0: none). */
export const accountFreezeState = proxy({
  freeze: null as AccountFreeze | null,
  failure: null as string | null,
  unfreezeBy: 0,
});

let latest = 0;

function take(freeze: AccountFreeze, receivedAt = Date.now()): void {
  accountFreezeState.freeze = freeze;
  accountFreezeState.failure = null;
  accountFreezeState.unfreezeBy = freeze.unfreeze_at ? receivedAt + freeze.unfreeze_seconds * 1000 : 0;
}

/** Reads the freeze; an answer older than a later request is dropped. Rejects with the failure (kept in the state). */
export async function loadAccountFreeze(): Promise<void> {
  const request = ++latest;
  try {
    const freeze = await api(accountFreeze, undefined, { loading: !accountFreezeState.freeze });
    if (request === latest) take(freeze);
  } catch (error) {
    if (request === latest) accountFreezeState.failure = errorText(error);
    throw error;
  }
}

async function change(call: () => Promise<AccountFreeze>): Promise<void> {
  const request = ++latest;
  const freeze = await call();
  if (request === latest) take(freeze);
}

/** The second factor's code or the payment password, whichever the account asks for. */
export interface FreezeSecret {
  otp?: string;
  paypass?: string;
}

/** Freezes the account: the server ends every session, so this device forgets its own afterwards. */
export async function freezeMyAccount(secret: FreezeSecret): Promise<void> {
  await api(freezeAccount, secret);
  await clearSession();
}
/** Asks to unfreeze: it takes effect 24 hours later. */
export const askUnfreeze = (secret: FreezeSecret) => change(() => api(unfreezeAccount, secret));
/** Cancels a waiting unfreezing at once. */
export const keepFrozen = () => change(() => api(keepAccountFrozen, {}));

// Another session (logout, another user) must never see this one's freeze.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(accountFreezeState, { freeze: null, failure: null, unfreezeBy: 0 });
});
