// Two-factor authentication: status, setup and its confirmation, new recovery codes,
// turning it off. The check the protected calls make is domain/two-factor.ts requireSecondFactor.
import {
  beginTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  renewRecoveryCodes,
  twoFactorStatus,
} from '../../api-contract/two-factor.ts';
import { findUser } from '../domain/accounts.ts';
import * as twoFactor from '../domain/two-factor.ts';
import { noticeSecurityChange } from '../domain/security-notices.ts';
import type { RouteModule } from './route-module.ts';
import { secretsAhead } from './secrets-ahead.ts';

/** The login password verified before the call's transaction opens. */
const loginPasswordAhead = secretsAhead((input: { password: string }) => ({ login: input.password }));

export const twoFactorRoutes: RouteModule = ({ route }) => {
  route(twoFactorStatus, (_input, { db, caller }) => twoFactor.twoFactorStatusOf(db, caller.userId));
  route(beginTwoFactor, (_input, { db, caller, clock, twoFactorKey }) =>
    twoFactor.beginSetup(db, caller.userId, twoFactorKey, clock.now()),
  );
  route(
    confirmTwoFactor,
    async (input, { db, caller, clock, twoFactorKey, secrets }) => {
      const now = clock.now();
      const user = await findUser(db, caller.userId);
      const codes = await twoFactor.confirmSetup(db, user, input, twoFactorKey, now, secrets);
      await noticeSecurityChange(db, caller.userId, 'twoFactorOn', now);
      return { recovery_codes: codes };
    },
    { ahead: loginPasswordAhead },
  );
  route(renewRecoveryCodes, async (input, { db, caller, clock, twoFactorKey }) => {
    const now = clock.now();
    const codes = await twoFactor.renewRecoveryCodes(db, caller.userId, input.code, twoFactorKey, now);
    await noticeSecurityChange(db, caller.userId, 'recoveryCodes', now);
    return { recovery_codes: codes };
  });
  route(
    disableTwoFactor,
    async (input, { db, caller, clock, twoFactorKey, secrets }) => {
      const now = clock.now();
      const status = await twoFactor.turnOff(
        db,
        await findUser(db, caller.userId),
        { otp: input.otp, password: input.password },
        twoFactorKey,
        now,
        secrets,
      );
      await noticeSecurityChange(db, caller.userId, 'twoFactorOff', now);
      return status;
    },
    { ahead: loginPasswordAhead },
  );
};
