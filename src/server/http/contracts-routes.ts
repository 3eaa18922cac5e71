// Coin-to-coin contract calls (/coin/trans/*, /coin/user/amount): thin; the rules live in
// domain/contracts.ts, the amounts in api-contract/contracts.ts.
import { assetAmountsOf } from '../../api-contract/asset-amounts.ts';
import Big from 'big.js';
import {
  QUOTE_ASSET,
  attachTakeProfitStopLoss,
  cancelContract,
  contractAmounts,
  contractOrders,
  contractPairs,
  convertSmallBalances,
  placeContract,
} from '../../api-contract/contracts.ts';
import { convertSmallBalances as convertDust } from '../domain/dust-conversion.ts';
import { balancesIn, ledgerAsset } from '../domain/ledger.ts';
import { openPracticeAccount } from '../domain/practice.ts';
import { refuseUnlistedCoin } from '../domain/markets.ts';
import {
  activePairs,
  cancelContractOrder,
  contractOrdersOf,
  placeContractOrder,
  toContractOrder,
} from '../domain/contracts.ts';
import { attachLegs } from '../domain/contract-triggers.ts';
import type { RouteModule } from './route-module.ts';
import { marketNow } from '../market/market.ts';

export const contractsRoutes: RouteModule = ({ route, services: { market } }) => {
  route(contractPairs, async (_input, { db }) => {
    const lists = await activePairs(db);
    return { lists, page: 1, total: lists.length };
  });

  route(placeContract, async (input, { db, caller, clock }) => {
    // The coin's halt and latest price as this process's market holds them, read after the moment of acceptance and
    // before the order's transaction.
    const now = clock.now();
    const known = await marketNow(market, input.code, db);
    const practice = input.account === 'practice';
    const order = await db.transaction(async (tx) => {
      // Opened on first use; its row is held (shared) so a reset waits for this order, or this order for the reset.
      if (practice) await openPracticeAccount(tx, caller.userId, now, { hold: true });
      return placeContractOrder(tx, caller.userId, { ...input, practice }, now, known);
    });
    return toContractOrder(order, market.source);
  });

  route(attachTakeProfitStopLoss, async (input, { db, caller, clock }) => {
    const now = clock.now();
    const practice = input.account === 'practice';
    const legs = await db.transaction(async (tx) => {
      if (practice) await openPracticeAccount(tx, caller.userId, now, { hold: true });
      const request = {
        code: input.code,
        orderId: input.order_id,
        quantity: input.quantity,
        takeProfit: input.take_profit,
        stopLoss: input.stop_loss,
        practice,
      };
      return attachLegs(tx, caller.userId, request, now);
    });
    const lists = legs.map((row) => toContractOrder(row, market.source));
    return { lists, page: 1, total: lists.length };
  });

  route(convertSmallBalances, async (input, { db, caller, clock }) => {
    const now = clock.now();
    const confirmed = assetAmountsOf(input.amounts);
    const orders = await db.transaction((tx) => convertDust(tx, caller.userId, confirmed, now));
    const lists = orders.map((row) => toContractOrder(row, market.source));
    return { lists, page: 1, total: lists.length };
  });

  route(cancelContract, async (input, { db, caller, clock }) => {
    const id = /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0;
    const now = clock.now();
    const order = await db.transaction((tx) => cancelContractOrder(tx, caller.userId, id, now));
    return toContractOrder(order, market.source);
  });

  route(contractOrders, async (input, { db, caller }) => {
    const practice = input.account === 'practice';
    const page = await contractOrdersOf(db, caller.userId, input.status, input.code, input.cursor, practice);
    return { ...page, lists: page.lists.map((row) => toContractOrder(row, market.source)) };
  });

  route(contractAmounts, async (input, { db, caller, clock, cache }) => {
    await refuseUnlistedCoin(db, input.code, cache.listedCoins);
    const practice = input.account === 'practice';
    // The practice account's amounts are its own assets' (opened on first use, so the form shows what it can spend).
    if (practice) await db.transaction((tx) => openPracticeAccount(tx, caller.userId, clock.now()));
    const [coinHeld, usdtHeld] = await balancesIn(db, caller.userId, [
      ledgerAsset(input.code, practice),
      ledgerAsset(QUOTE_ASSET, practice),
    ]);
    const amount = (value: string) => new Big(value).toFixed(8);
    return {
      code: input.code,
      available: amount(coinHeld.available),
      frozen: amount(coinHeld.frozen),
      usdt_available: amount(usdtHeld.available),
      usdt_frozen: amount(usdtHeld.frozen),
    };
  });
};
