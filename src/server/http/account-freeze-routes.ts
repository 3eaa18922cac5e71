// The customer's own freeze (api-contract/account-freeze.ts): read, freeze, ask to unfreeze, keep frozen — the
// caller's own; and the console's read-only list of frozen accounts (api-contract/console-freeze.ts). Freezing and
// unfreezing ask for the second factor when the caller has two-factor on, and otherwise for the payment password; a
// customer with neither is asked to set the payment password first. No console call unfreezes.
import { accountFreeze, freezeAccount, keepAccountFrozen, unfreezeAccount } from '../../api-contract/account-freeze.ts';
import { consoleFrozenAccounts } from '../../api-contract/console-freeze.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { texts } from '../../api-contract/texts.ts';
import * as freeze from '../domain/account-freeze.ts';
import { checkSecret, findUser, payPasswordCounter } from '../domain/accounts.ts';
import { Refusal } from '../domain/refusal.ts';
import { hasSecondFactor, requireSecondFactor } from '../domain/two-factor.ts';
import type { Executor } from '../db/connection.ts';
import type { RouteModule } from './route-module.ts';

/** The second factor when it is on, else the payment password; refuses with the prompt of what is missing or wrong. */
async function checkFreezeSecret(
  db: Executor,
  userId: number,
  { otp, paypass }: { otp?: string; paypass: string },
  twoFactorKey: Buffer,
  now: Date,
): Promise<void> {
  if (await hasSecondFactor(db, userId)) return requireSecondFactor(db, userId, otp, twoFactorKey, now);
  const user = await findUser(db, userId);
  if (!user.paypassHash) throw new Refusal(texts.noPayPassword.id);
  if (!paypass) throw new Refusal(texts.enterPayPassword.id);
  await checkSecret(db, payPasswordCounter(user.id), user.paypassHash, paypass, serverTexts.wrongPayPassword.id, now);
}

export const accountFreezeRoutes: RouteModule = ({ route }) => {
  route(accountFreeze, (_input, { db, caller, clock, t }) => freeze.accountFreezeOf(db, caller.userId, clock.now(), t));
  route(freezeAccount, async (input, { db, caller, clock, t, twoFactorKey, ip }) => {
    const now = clock.now();
    await checkFreezeSecret(db, caller.userId, input, twoFactorKey, now);
    const actor = freeze.customerActor(caller.userId, ip);
    return db.transaction((tx) => freeze.freezeAccount(tx, actor, caller.userId, now, t));
  });
  route(unfreezeAccount, async (input, { db, caller, clock, t, twoFactorKey, ip }) => {
    const now = clock.now();
    // Nothing to unfreeze is said before any secret is checked (and uses none up).
    if (!(await freeze.accountFreezeOf(db, caller.userId, now, t)).frozen)
      throw new Refusal(serverTexts.accountNotFrozen.id);
    await checkFreezeSecret(db, caller.userId, input, twoFactorKey, now);
    const actor = freeze.customerActor(caller.userId, ip);
    return db.transaction((tx) => freeze.askUnfreeze(tx, actor, caller.userId, now, t));
  });
  route(keepAccountFrozen, (_input, { db, caller, clock, t, ip }) =>
    db.transaction((tx) =>
      freeze.keepFrozen(tx, freeze.customerActor(caller.userId, ip), caller.userId, clock.now(), t),
    ),
  );
  route(consoleFrozenAccounts, (_input, { db, clock }) => freeze.frozenAccounts(db, clock.now()));
};
