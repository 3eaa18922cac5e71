// Bank cards (§7) and wallets (our additions): list, add, delete — the caller's own only.
import { addBankCard, addWallet, bankCards, deleteBankCard, deleteWallet, wallets } from '../../contract/payouts.ts';
import * as payouts from '../domain/payouts.ts';
import type { router } from './handle.ts';

export function payoutsRoutes(route: ReturnType<typeof router>) {
  route(bankCards, async (_input, { db, caller, clock, payeeCoolingMs }) => {
    const lists = (await payouts.bankCardsOf(db, caller.userId)).map((row) => payouts.toBankCard(row, payeeCoolingMs, clock.now()));
    return { lists, page: 1, total: lists.length };
  });
  route(addBankCard, (input, { db, caller, clock, payeeCoolingMs, t }) =>
    db.transaction((tx) => payouts.addBankCard(tx, caller.userId, input, { coolingMs: payeeCoolingMs, t, now: clock.now() })),
  );
  route(deleteBankCard, async (input, { db, caller }) => {
    await payouts.deleteBankCard(db, caller.userId, Number(input.id));
    return null;
  });

  route(wallets, async (_input, { db, caller, clock, payeeCoolingMs }) => {
    const lists = (await payouts.walletsOf(db, caller.userId)).map((row) => payouts.toWallet(row, payeeCoolingMs, clock.now()));
    return { lists, page: 1, total: lists.length };
  });
  route(addWallet, (input, { db, caller, clock, payeeCoolingMs, t }) =>
    db.transaction((tx) => payouts.addWallet(tx, caller.userId, input, { coolingMs: payeeCoolingMs, t, now: clock.now() })),
  );
  route(deleteWallet, async (input, { db, caller }) => {
    await payouts.deleteWallet(db, caller.userId, Number(input.id));
    return null;
  });
}
