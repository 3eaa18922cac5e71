// Coin-to-coin contract calls (§7 /coin/trans/*, /coin/user/amount): thin; the rules live in
// domain/contracts.ts, the amounts in contract/contracts.ts.
import Big from 'big.js';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { CONTRACT_PAGE_SIZE, QUOTE_ASSET, cancelContract, contractAmounts, contractOrders, contractPairs, placeContract } from '../../contract/contracts.ts';
import { texts } from '../../contract/texts.ts';
import { balances, coins, contractOrders as orders } from '../db/schema.ts';
import { activePairs, cancelContractOrder, placeContractOrder, toContractOrder } from '../domain/contracts.ts';
import type { Market } from '../market/market.ts';
import { Refusal } from '../domain/refusal.ts';
import type { router } from './handle.ts';

export function contractRoutes(route: ReturnType<typeof router>, market: Market) {
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
    const page = Number(input.page);
    const open = input.status === 'open';
    const where = and(
      eq(orders.userId, caller.userId),
      open ? eq(orders.status, 'open') : inArray(orders.status, ['filled', 'cancelled']),
      input.code ? eq(orders.coin, input.code) : undefined,
    );
    const [rows, [count]] = await Promise.all([
      db
        .select()
        .from(orders)
        .where(where)
        .orderBy(open ? asc(orders.id) : desc(orders.id))
        .limit(CONTRACT_PAGE_SIZE)
        .offset((page - 1) * CONTRACT_PAGE_SIZE),
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(orders)
        .where(where),
    ]);
    return { lists: rows.map((row) => toContractOrder(row, market.source)), page, total: Number(count?.total ?? 0) };
  });

  route(contractAmounts, async (input, { db, caller }) => {
    const [coin] = await db
      .select({ code: coins.code })
      .from(coins)
      .where(and(eq(coins.code, input.code), eq(coins.active, true)));
    if (!coin) throw new Refusal(texts.coinUnknown.id);
    const rows = await db
      .select({ asset: balances.asset, available: balances.available, frozen: balances.frozen })
      .from(balances)
      .where(and(eq(balances.userId, caller.userId), inArray(balances.asset, [input.code, QUOTE_ASSET])));
    const of = (asset: string) => rows.find((row) => row.asset === asset) ?? { available: '0', frozen: '0' };
    const amount = (value: string) => new Big(value).toFixed(8);
    return {
      code: input.code,
      available: amount(of(input.code).available),
      frozen: amount(of(input.code).frozen),
      usdt_available: amount(of(QUOTE_ASSET).available),
      usdt_frozen: amount(of(QUOTE_ASSET).frozen),
    };
  });
}
