// The withdrawal address lock as this device knows it: the server's answer and, while a turning-off waits, the
// device time at which it takes effect (counted from the seconds the server said were left, like a payee's
// cooling-off). Turning on and keeping it are immediate; asking to turn it off sends the second factor or the
// payment password.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  addressLock,
  keepAddressLock,
  lockAddresses,
  unlockAddresses,
  type AddressLock,
} from '../../api-contract/address-lock.ts';
import { api, errorText } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';

export const addressLockState = proxy({
  lock: null as AddressLock | null,
  /** The last load failed: what it said. */
  failure: null as string | null,
  /** Device ms at which a waiting turning-off takes effect; 0 when none waits. */
  offBy: 0,
});

let latest = 0;

function take(lock: AddressLock, receivedAt = Date.now()): void {
  addressLockState.lock = lock;
  addressLockState.failure = null;
  addressLockState.offBy = lock.off_at ? receivedAt + lock.off_seconds * 1000 : 0;
}

export async function loadAddressLock(): Promise<void> {
  const request = ++latest;
  try {
    const lock = await api(addressLock, undefined, { loading: false });
    if (request === latest) take(lock);
  } catch (error) {
    if (request === latest) addressLockState.failure = errorText(error);
    throw error;
  }
}

/** Each change answers the lock as it now stands; a load still under way is dropped. */
async function change(call: () => Promise<AddressLock>): Promise<void> {
  const request = ++latest;
  const lock = await call();
  if (request === latest) take(lock);
}

export const turnOnAddressLock = () => change(() => api(lockAddresses, {}));
export const keepTheAddressLock = () => change(() => api(keepAddressLock, {}));
export const askAddressLockOff = (secret: { otp?: string; paypass?: string }) =>
  change(() => api(unlockAddresses, secret));

// Another session (logout, another user) must never see this one's lock.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(addressLockState, { lock: null, failure: null, offBy: 0 });
});
