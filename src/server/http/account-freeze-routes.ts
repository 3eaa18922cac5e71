// The customer's own freeze (api-contract/account-freeze.ts): read, freeze, ask to unfreeze, keep frozen — the
// caller's own; and the console's read-only list of frozen accounts (api-contract/console-freeze.ts). Freezing and
// unfreezing ask for the second factor when the caller has two-factor on, and otherwise for the payment password; a
// customer with neither is asked to set the payment password first. No console call unfreezes.
import { accountFreeze, freezeAccount, keepAccountFrozen, unfreezeAccount } from '../../api-contract/account-freeze.ts';
import { consoleFrozenAccounts } from '../../api-contract/console-freeze.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import * as freeze from '../domain/account-freeze.ts';
import { Refusal } from '../domain/refusal.ts';
import { requireSecondFactorOrPayPassword } from '../domain/two-factor.ts';
import type { RouteModule } from './route-module.ts';
import { payPasswordUnlessSecondFactor } from './secrets-ahead.ts';

export const accountFreezeRoutes: RouteModule = ({ route }) => {
  route(accountFreeze, (_input, { db, caller, clock }) => freeze.accountFreezeOf(db, caller.userId, clock.now()));
  route(
    freezeAccount,
    async (input, { db, caller, clock, twoFactorKey, ip, secrets }) => {
      const now = clock.now();
      await requireSecondFactorOrPayPassword(db, caller.userId, input, twoFactorKey, now, secrets);
      const actor = freeze.customerActor(caller.userId, ip);
      return db.transaction((tx) => freeze.freezeAccount(tx, actor, caller.userId, now));
    },
    { ahead: payPasswordUnlessSecondFactor },
  );
  route(
    unfreezeAccount,
    async (input, { db, caller, clock, twoFactorKey, ip, secrets }) => {
      const now = clock.now();
      // Nothing to unfreeze is said before any secret is checked (and uses none up).
      if (!(await freeze.accountFreezeOf(db, caller.userId, now)).frozen)
        throw new Refusal(serverTexts.accountNotFrozen.id);
      await requireSecondFactorOrPayPassword(db, caller.userId, input, twoFactorKey, now, secrets);
      const actor = freeze.customerActor(caller.userId, ip);
      return db.transaction((tx) => freeze.askUnfreeze(tx, actor, caller.userId, now));
    },
    { ahead: payPasswordUnlessSecondFactor },
  );
  route(keepAccountFrozen, (_input, { db, caller, clock, ip }) =>
    db.transaction((tx) => freeze.keepFrozen(tx, freeze.customerActor(caller.userId, ip), caller.userId, clock.now())),
  );
  route(consoleFrozenAccounts, (_input, { db, clock }) => freeze.frozenAccounts(db, clock.now()));
};
