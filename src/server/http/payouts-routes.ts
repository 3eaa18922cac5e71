// Bank cards (/users/bank*) and wallets (our additions): list, add, delete, label — the caller's own only. Adding
// one needs the second factor when the caller has two-factor on; deleting never does. A frozen account changes none
// (account-freeze.ts).
import {
  addBankCard,
  bankCards,
  deleteBankCard,
  deleteWallet,
  editPayeeLabel,
  wallets,
} from '../../api-contract/payouts.ts';
import { addWallet } from '../../api-contract/add-wallet.ts';
import * as payouts from '../domain/payouts.ts';
import { requireSecondFactor } from '../domain/two-factor.ts';
import { refuseWhileFrozen } from '../domain/account-freeze.ts';
import type { RouteModule } from './route-module.ts';

export const payoutsRoutes: RouteModule = ({ route }) => {
  route(bankCards, async (_input, { db, caller, clock, payeeCoolingMs }) => {
    const lists = (await payouts.bankCardsOf(db, caller.userId)).map((row) =>
      payouts.toBankCard(row, payeeCoolingMs, clock.now()),
    );
    return { lists, page: 1, total: lists.length };
  });
  route(addBankCard, async ({ otp, ...card }, { db, caller, clock, payeeCoolingMs, twoFactorKey }) => {
    // A frozen account changes no payee: said before the code is used up (and again in the adding transaction).
    await refuseWhileFrozen(db, caller.userId, clock.now());
    await requireSecondFactor(db, caller.userId, otp, twoFactorKey, clock.now());
    return db.transaction((tx) =>
      payouts.addBankCard(tx, caller.userId, card, { coolingMs: payeeCoolingMs, now: clock.now() }),
    );
  });
  route(deleteBankCard, async (input, { db, caller, clock }) => {
    await db.transaction(async (tx) => {
      await refuseWhileFrozen(tx, caller.userId, clock.now());
      await payouts.deleteBankCard(tx, caller.userId, Number(input.id));
    });
    return null;
  });

  route(wallets, async (_input, { db, caller, clock, payeeCoolingMs }) => {
    const lists = (await payouts.walletsOf(db, caller.userId)).map((row) =>
      payouts.toWallet(row, payeeCoolingMs, clock.now()),
    );
    return { lists, page: 1, total: lists.length };
  });
  route(addWallet, async ({ otp, ...wallet }, { db, caller, clock, payeeCoolingMs, twoFactorKey }) => {
    // A frozen account changes no payee: said before the code is used up (and again in the adding transaction).
    await refuseWhileFrozen(db, caller.userId, clock.now());
    await requireSecondFactor(db, caller.userId, otp, twoFactorKey, clock.now());
    return db.transaction((tx) =>
      payouts.addWallet(tx, caller.userId, wallet, { coolingMs: payeeCoolingMs, now: clock.now() }),
    );
  });
  route(deleteWallet, async (input, { db, caller, clock }) => {
    await db.transaction(async (tx) => {
      await refuseWhileFrozen(tx, caller.userId, clock.now());
      await payouts.deleteWallet(tx, caller.userId, Number(input.id));
    });
    return null;
  });
  // A label only names a payee: no second factor, and its cooling-off is unchanged.
  route(editPayeeLabel, async (input, { db, caller, clock }) => {
    await db.transaction(async (tx) => {
      await refuseWhileFrozen(tx, caller.userId, clock.now());
      await payouts.editPayeeLabel(tx, caller.userId, input.kind, Number(input.id), input.label);
    });
    return null;
  });
};
