// The withdrawal address lock (api-contract/address-lock.ts): read, turn on, ask to turn off, keep — the caller's own.
// Turning off is what an intruder would want, so it asks for the second factor when the caller has two-factor on,
// and otherwise for the payment password (the fund password that already guards every withdrawal); a customer with
// neither set is asked to set the payment password first.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { addressLock, keepAddressLock, lockAddresses, unlockAddresses } from '../../api-contract/address-lock.ts';
import * as lock from '../domain/address-lock.ts';
import { Refusal } from '../domain/refusal.ts';
import { refuseWhileFrozen } from '../domain/account-freeze.ts';
import { requireSecondFactorOrPayPassword } from '../domain/two-factor.ts';
import type { RouteModule } from './route-module.ts';
import { payPasswordUnlessSecondFactor } from './secrets-ahead.ts';

export const addressLockRoutes: RouteModule = ({ route }) => {
  route(addressLock, (_input, { db, caller, clock }) => lock.addressLockOf(db, caller.userId, clock.now()));
  route(lockAddresses, (_input, { db, caller, clock }) => lock.lockAddresses(db, caller.userId, clock.now()));
  route(
    unlockAddresses,
    async ({ otp, paypass }, { db, caller, clock, twoFactorKey, secrets }) => {
      const now = clock.now();
      // Nothing to turn off is said before any secret is checked (and uses none up).
      if (!(await lock.addressLockOf(db, caller.userId, now)).on) throw new Refusal(serverTexts.addressLockNotOn.id);
      // A frozen account changes no payee: said before any secret is used up too.
      await refuseWhileFrozen(db, caller.userId, now);
      await requireSecondFactorOrPayPassword(db, caller.userId, { otp, paypass }, twoFactorKey, now, secrets);
      return lock.askUnlock(db, caller.userId, now);
    },
    // The payment password verified before the call's transaction opens, when it is the one asked for.
    { ahead: payPasswordUnlessSecondFactor },
  );
  route(keepAddressLock, (_input, { db, caller, clock }) => lock.keepAddressLock(db, caller.userId, clock.now()));
};
