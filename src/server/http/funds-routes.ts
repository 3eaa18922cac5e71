// Money in and out: recharge channels, submit and records; the withdrawal rule, request and
// records; the account details. Each call reads or writes the caller's own records only.
import {
  accountEntries,
  rechargeChannels,
  rechargeOrder,
  rechargeRecords,
  submitRecharge,
  submitWithdraw,
  withdrawOrder,
  withdrawRecords,
  withdrawRule,
} from '../../api-contract/funds.ts';
import { texts } from '../../api-contract/texts.ts';
import { USDT } from '../domain/ledger.ts';
import { accountEntriesOf } from '../domain/account-entries.ts';
import { checkPayPasswordOf, findUser } from '../domain/accounts.ts';
import { secretsAhead } from './secrets-ahead.ts';
import {
  findRecharge,
  listChannels,
  listRecharges,
  submitRecharge as submitRechargeOrder,
  toRechargeOrder,
} from '../domain/recharge.ts';
import {
  checkLimits,
  findWithdrawal,
  listWithdrawals,
  requestWithdrawal,
  ruleFor,
  toWithdrawOrder,
  withdrawRuleFor,
  type Payee,
} from '../domain/withdraw.ts';
import { bankCardsOf, refuseCoolingPayee, walletsOf } from '../domain/payouts.ts';
import { refuseUnlockedPayee } from '../domain/address-lock.ts';
import { refuseWhileFrozen } from '../domain/account-freeze.ts';
import { Refusal, refusedAbout, type TextId } from '../domain/refusal.ts';
import { requireSecondFactor } from '../domain/two-factor.ts';
import type { RouteModule } from './route-module.ts';
import type { Executor } from '../db/connection.ts';

/**
 * The saved payee a withdrawal names: one of the caller's bank cards (`target` 'bank', paid in USDT) or chain wallets
 * (`target` 'wallet'), by its id in `targetId`. Refuses with the kind's own prompt when the caller has none of that
 * kind yet (texts.noBankCard, texts.noWallet), and about the payee field (`target_id`) when none was chosen
 * (texts.choosePayee) or the one chosen is not the caller's (texts.payeeNotFound; with the address lock on, the lock's
 * own reason first, since a payee deleted meanwhile is then one the lock would not let come back at once).
 */
async function chosenPayee(
  db: Executor,
  userId: number,
  target: 'bank' | 'wallet',
  targetId: string | undefined,
  coolingMs: number,
  now: Date,
): Promise<Payee> {
  const pick = async <Row extends { id: number }>(saved: Row[], noneYet: TextId): Promise<Row> => {
    if (!saved.length) throw new Refusal(noneYet);
    if (!targetId) throw new Refusal(texts.choosePayee.id, undefined, 'target_id');
    const found = saved.find((item) => item.id === Number(targetId));
    if (found) return found;
    await refusedAbout('target_id', () => refuseUnlockedPayee(db, userId, undefined, coolingMs, now));
    throw new Refusal(texts.payeeNotFound.id, undefined, 'target_id');
  };
  return target === 'bank'
    ? { kind: 'bank', card: await pick(await bankCardsOf(db, userId), texts.noBankCard.id) }
    : { kind: 'wallet', wallet: await pick(await walletsOf(db, userId), texts.noWallet.id) };
}

export const fundsRoutes: RouteModule = ({ route }) => {
  route(rechargeChannels, async (_input, { db, caller }) => {
    const lists = await listChannels(db, caller.userId);
    return { lists, page: 1, total: lists.length };
  });

  route(submitRecharge, async (input, { db, caller, clock }) => {
    const now = clock.now();
    const request =
      input.kind === 'crypto'
        ? {
            kind: 'crypto' as const,
            channelId: Number(input.channel_id),
            amount: input.amount,
            hash: input.hash,
            shownAddress: input.address,
          }
        : { kind: 'bank' as const, channelId: Number(input.channel_id), amount: input.amount, proof: input.proof };
    return toRechargeOrder(await db.transaction((tx) => submitRechargeOrder(tx, caller.userId, request, now)));
  });

  route(rechargeRecords, (input, { db, caller }) => listRecharges(db, caller.userId, input.status, input.cursor));
  route(rechargeOrder, (input, { db, caller }) => findRecharge(db, caller.userId, Number(input.id)));

  route(withdrawRule, (input, { db, caller }) => withdrawRuleFor(db, caller.userId, input.asset));

  route(
    submitWithdraw,
    async (input, { db, caller, clock, payeeCoolingMs, twoFactorKey, secrets }) => {
      const now = clock.now();
      const user = await findUser(db, caller.userId);
      // A withdrawal needs a payment password and a bound card or wallet; each missing one has its own prompt,
      // before anything else is checked.
      if (!user.paypassHash) throw new Refusal(texts.noPayPassword.id);
      // A frozen account says so before anything else is checked (and again in the withdrawal's transaction).
      await refuseWhileFrozen(db, user.id, now);
      const payee = await chosenPayee(db, user.id, input.target, input.target_id, payeeCoolingMs, now);
      // With the address lock on, only a saved payee past the lock's cooling-off (told with the lock's own reason);
      // a payee still cooling off is refused too. Both are about the payee chosen: the form shows them under it.
      const chosen = payee.kind === 'bank' ? payee.card : payee.wallet;
      await refusedAbout('target_id', async () => {
        await refuseUnlockedPayee(db, user.id, chosen, payeeCoolingMs, now);
        refuseCoolingPayee(chosen, payeeCoolingMs, now);
      });
      const rule = await ruleFor(db, payee.kind === 'bank' ? USDT : payee.wallet.currency);
      // Each refusal from here on names the field it is about, so the form shows it under that field.
      await refusedAbout('amount', () => checkLimits(input.amount, rule));
      // The second factor, after the form's own checks and before the payment password; a
      // request refused after this point has used its code.
      await refusedAbout('otp', () => requireSecondFactor(db, user.id, input.otp, twoFactorKey, now));
      // Outside the withdrawal's transaction: a wrong try must be counted even though nothing else is written. Its
      // hashing was done before the call's transaction opened (ahead, below), so no transaction waits for it.
      await checkPayPasswordOf(db, user, input.paypass, 'paypass', now, secrets);
      return toWithdrawOrder(
        await db.transaction((tx) => requestWithdrawal(tx, user.id, payee, input.amount, rule, now)),
      );
    },
    // The payment password verified before the call's transaction opens.
    { ahead: secretsAhead((input) => ({ pay: input.paypass })) },
  );

  route(withdrawRecords, (input, { db, caller }) => listWithdrawals(db, caller.userId, input.status, input.cursor));
  route(withdrawOrder, (input, { db, caller, clock }) =>
    findWithdrawal(db, caller.userId, Number(input.id), clock.now()),
  );

  route(accountEntries, (input, { db, caller }) =>
    accountEntriesOf(
      db,
      caller.userId,
      input.setup,
      Number(input.page),
      input.before === undefined ? undefined : Number(input.before),
    ),
  );
};
