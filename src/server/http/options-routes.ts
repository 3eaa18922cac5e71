// Option calls (§7 /coin/option/products, /coin/order/*): thin; the rules live in domain/options.ts,
// the quote each order settles against comes from the market.
import { optionOrder, optionOrders, optionProducts, optionTotals, placeOption } from '../../contract/options.ts';
import { refuseUnlistedCoin } from '../domain/markets.ts';
import {
  activeOptionProducts,
  findOwnOrder,
  optionOrdersPage,
  optionTotalsOf,
  placeOptionOrder,
  toOptionOrder,
} from '../domain/options.ts';
import { settlementTicks } from '../../contract/settlement-ticks.ts';
import { settlementTicksOf } from '../domain/settlement-ticks.ts';
import type { Market } from '../market/market.ts';
import type { router } from './handle.ts';

export function optionsRoutes(route: ReturnType<typeof router>, market: Market) {
  route(optionProducts, (input, { db, kept }) =>
    kept.optionProducts.read(input.code ?? '', async () => {
      const lists = await activeOptionProducts(db, input.code);
      return { lists, page: 1, total: lists.length };
    }),
  );

  route(placeOption, async (input, { db, caller, clock }) => {
    await refuseUnlistedCoin(db, input.code);
    const now = clock.now();
    const quote = await market.quote(input.code, db);
    const order = await db.transaction((tx) =>
      placeOptionOrder(
        tx,
        caller.userId,
        { code: input.code, direction: input.direction, productId: Number(input.product_id), amount: input.amount },
        quote,
        now,
      ),
    );
    return toOptionOrder(order, now, market.source);
  });

  route(optionOrder, async (input, { db, caller, clock }) => {
    const id = /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0;
    return toOptionOrder(await findOwnOrder(db, caller.userId, id), clock.now(), market.source);
  });

  route(optionOrders, async (input, { db, caller, clock }) => {
    const status = input.status === 'holding' ? 'holding' : 'settled';
    const { lists, page, total } = await optionOrdersPage(db, caller.userId, status, Number(input.page));
    const now = clock.now();
    return { lists: lists.map((row) => toOptionOrder(row, now, market.source)), page, total };
  });

  route(optionTotals, (_input, { db, caller }) => optionTotalsOf(db, caller.userId));

  route(settlementTicks, (input, { db, caller }) =>
    settlementTicksOf(db, caller.userId, /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0),
  );
}
