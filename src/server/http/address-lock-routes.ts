// The withdrawal address lock (api-contract/address-lock.ts): read, turn on, ask to turn off, keep — the caller's own.
// Turning off is what an intruder would want, so it asks for the second factor when the caller has two-factor on,
// and otherwise for the payment password (the fund password that already guards every withdrawal); a customer with
// neither set is asked to set the payment password first.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { addressLock, keepAddressLock, lockAddresses, unlockAddresses } from '../../api-contract/address-lock.ts';
import { texts } from '../../api-contract/texts.ts';
import * as lock from '../domain/address-lock.ts';
import { checkSecret, findUser, payPasswordCounter } from '../domain/accounts.ts';
import { Refusal } from '../domain/refusal.ts';
import { refuseWhileFrozen } from '../domain/account-freeze.ts';
import { hasSecondFactor, requireSecondFactor } from '../domain/two-factor.ts';
import type { RouteModule } from './route-module.ts';

export const addressLockRoutes: RouteModule = ({ route }) => {
  route(addressLock, (_input, { db, caller, clock, t }) => lock.addressLockOf(db, caller.userId, clock.now(), t));
  route(lockAddresses, (_input, { db, caller, clock, t }) => lock.lockAddresses(db, caller.userId, clock.now(), t));
  route(unlockAddresses, async ({ otp, paypass }, { db, caller, clock, t, twoFactorKey }) => {
    const now = clock.now();
    // Nothing to turn off is said before any secret is checked (and uses none up).
    if (!(await lock.addressLockOf(db, caller.userId, now, t)).on) throw new Refusal(serverTexts.addressLockNotOn.id);
    // A frozen account changes no payee: said before any secret is used up too.
    await refuseWhileFrozen(db, caller.userId, now);
    if (await hasSecondFactor(db, caller.userId)) {
      await requireSecondFactor(db, caller.userId, otp, twoFactorKey, now);
    } else {
      const user = await findUser(db, caller.userId);
      if (!user.paypassHash) throw new Refusal(texts.noPayPassword.id);
      if (!paypass) throw new Refusal(texts.enterPayPassword.id);
      await checkSecret(
        db,
        payPasswordCounter(user.id),
        user.paypassHash,
        paypass,
        serverTexts.wrongPayPassword.id,
        now,
      );
    }
    return lock.askUnlock(db, caller.userId, now, t);
  });
  route(keepAddressLock, (_input, { db, caller, clock, t }) => lock.keepAddressLock(db, caller.userId, clock.now(), t));
};
