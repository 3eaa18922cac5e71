// Option calls (/coin/option/products, /coin/order/*): thin; the rules live in domain/options.ts,
// the quote each order settles against comes from the market.
import { optionOrder, optionOrders, optionProducts, optionTotals, placeOption } from '../../api-contract/options.ts';
import { refuseUnlistedCoin } from '../domain/markets.ts';
import {
  activeOptionProducts,
  findOwnOrder,
  optionOrdersPage,
  optionTotalsOf,
  placeOptionOrder,
  toOptionOrder,
} from '../domain/options.ts';
import { settlementTicks } from '../../api-contract/settlement-ticks.ts';
import { settlementTicksOf } from '../domain/settlement-ticks.ts';
import { openPracticeAccount } from '../domain/practice.ts';
import type { RouteModule } from './route-module.ts';
import type { CachedAnswers } from './cached-answers.ts';
import type { Executor } from '../db/connection.ts';
import { houseCaps } from '../domain/house-limits.ts';
import { marketNow } from '../market/market.ts';

/** The products of `code` (every coin's with none) as listed now, from the process's memory between changes. */
const productsAnswer = (db: Executor, cache: CachedAnswers, code: string | undefined) =>
  cache.optionProducts.read(
    code ?? '',
    async () => {
      const lists = await activeOptionProducts(db, code);
      return { lists, page: 1, total: lists.length };
    },
    // Only a code with products is cached: the cached answers are per listed coin, not per code a caller invents.
    (answer) => (answer.total > 0 ? undefined : null),
  );

export const optionsRoutes: RouteModule = ({ route, services: { market } }) => {
  route(optionProducts, (input, { db, cache }) => productsAnswer(db, cache, input.code));

  route(placeOption, async (input, { db, caller, clock, cache }) => {
    // What the order is checked against besides the customer's rows, read before its transaction: the coin's listing,
    // products and the house's caps from memory between their changes (an operator's change is heard in milliseconds),
    // the halts and the latest price as the market holds them, read after the moment of acceptance (`now`): a read
    // that waits for the database must not make a fresh price look stale (at 20× a quote is fresh for 500 real ms).
    await refuseUnlistedCoin(db, input.code, cache.listedCoins);
    const [{ lists: products }, caps] = await Promise.all([
      productsAnswer(db, cache, input.code),
      cache.houseCaps.read('', () => houseCaps(db)),
    ]);
    const now = clock.now();
    const known = await marketNow(market, input.code, db);
    const practice = input.account === 'practice';
    const order = await db.transaction(async (tx) => {
      // Opened on first use; its row is held (shared) so a reset waits for this order, or this order for the reset.
      if (practice) await openPracticeAccount(tx, caller.userId, now, { hold: true });
      return placeOptionOrder(
        tx,
        caller.userId,
        {
          code: input.code,
          direction: input.direction,
          productId: Number(input.product_id),
          amount: input.amount,
          practice,
          yieldRate: input.yield_rate,
        },
        { products, caps, ...known },
        now,
      );
    });
    return toOptionOrder(order, now, market.source);
  });

  route(optionOrder, async (input, { db, caller, clock }) => {
    const id = /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0;
    return toOptionOrder(await findOwnOrder(db, caller.userId, id), clock.now(), market.source);
  });

  route(optionOrders, async (input, { db, caller, clock }) => {
    const status = input.status === 'holding' ? 'holding' : 'settled';
    const practice = input.account === 'practice';
    const { lists, next, total } = await optionOrdersPage(db, caller.userId, status, input.cursor, practice);
    const now = clock.now();
    return { lists: lists.map((row) => toOptionOrder(row, now, market.source)), next, total };
  });

  route(optionTotals, (input, { db, caller }) => optionTotalsOf(db, caller.userId, input.account === 'practice'));

  route(settlementTicks, (input, { db, caller }) =>
    settlementTicksOf(db, caller.userId, /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0),
  );
};
