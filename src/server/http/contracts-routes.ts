// Coin-to-coin contract calls (§7 /coin/trans/*, /coin/user/amount): thin; the rules live in
// domain/contracts.ts, the amounts in contract/contracts.ts.
import Big from 'big.js';
import {
  QUOTE_ASSET,
  cancelContract,
  contractAmounts,
  contractOrders,
  contractPairs,
  placeContract,
} from '../../contract/contracts.ts';
import { balanceOf } from '../domain/ledger.ts';
import { refuseUnlistedCoin } from '../domain/markets.ts';
import {
  activePairs,
  cancelContractOrder,
  contractOrdersOf,
  placeContractOrder,
  toContractOrder,
} from '../domain/contracts.ts';
import type { Market } from '../market/market.ts';
import type { router } from './handle.ts';

export function contractsRoutes(route: ReturnType<typeof router>, market: Market) {
  route(contractPairs, async (_input, { db }) => {
    const lists = await activePairs(db);
    return { lists, page: 1, total: lists.length };
  });

  route(placeContract, async (input, { db, caller, clock }) => {
    const now = clock.now();
    const order = await db.transaction((tx) => placeContractOrder(tx, caller.userId, input, now));
    return toContractOrder(order, market.source);
  });

  route(cancelContract, async (input, { db, caller, clock }) => {
    const id = /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0;
    const now = clock.now();
    const order = await db.transaction((tx) => cancelContractOrder(tx, caller.userId, id, now));
    return toContractOrder(order, market.source);
  });

  route(contractOrders, async (input, { db, caller }) => {
    const page = await contractOrdersOf(db, caller.userId, input.status, input.code, Number(input.page));
    return { ...page, lists: page.lists.map((row) => toContractOrder(row, market.source)) };
  });

  route(contractAmounts, async (input, { db, caller }) => {
    await refuseUnlistedCoin(db, input.code);
    const [coinHeld, usdtHeld] = await Promise.all([
      balanceOf(db, caller.userId, input.code),
      balanceOf(db, caller.userId, QUOTE_ASSET),
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
}
