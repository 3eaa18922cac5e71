// Two-factor authentication (issue 28): status, setup and its confirmation, new recovery codes,
// turning it off. The check the protected calls make is domain/two-factor.ts requireSecondFactor.
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor, renewRecoveryCodes, twoFactorStatus } from '../../contract/two-factor.ts';
import { findUser } from '../domain/accounts.ts';
import * as twoFactor from '../domain/two-factor.ts';
import type { router } from './handle.ts';

export function twoFactorRoutes(route: ReturnType<typeof router>) {
  route(twoFactorStatus, (_input, { db, caller }) => twoFactor.twoFactorStatusOf(db, caller.userId));
  route(beginTwoFactor, (_input, { db, caller, clock, twoFactorKey }) => twoFactor.beginSetup(db, caller.userId, twoFactorKey, clock.now()));
  route(confirmTwoFactor, async (input, { db, caller, clock, twoFactorKey }) => ({
    recovery_codes: await twoFactor.confirmSetup(db, await findUser(db, caller.userId), input, twoFactorKey, clock.now()),
  }));
  route(renewRecoveryCodes, async (input, { db, caller, clock, twoFactorKey }) => ({
    recovery_codes: await twoFactor.renewRecoveryCodes(db, caller.userId, input.code, twoFactorKey, clock.now()),
  }));
  route(disableTwoFactor, async (input, { db, caller, clock, twoFactorKey }) =>
    twoFactor.turnOff(db, await findUser(db, caller.userId), { otp: input.otp, password: input.password }, twoFactorKey, clock.now()),
  );
}
