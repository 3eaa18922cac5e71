// Markets and options calls (the live price stream is in price-stream.ts).
import Big from 'big.js';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  OPTION_PAGE_SIZE,
  balances,
  coinList,
  coinRate,
  currencyRate,
  klines,
  klinesPost,
  optionOrder,
  optionOrders,
  optionProducts,
  optionTotals,
  placeOption,
  type Period,
} from '../../contract/markets.ts';
import { texts } from '../../contract/texts.ts';
import { coins, fiatRates, optionOrders as orders, optionProducts as products } from '../db/schema.ts';
import { balancesOf } from '../domain/ledger.ts';
import { findOwnOrder, placeOptionOrder, toOptionOrder } from '../domain/options.ts';
import { rowsOf, type Executor } from '../db/connection.ts';
import type { Market } from '../market/market.ts';
import { Refusal } from '../domain/refusal.ts';
import type { router } from './handle.ts';

export function marketRoutes(route: ReturnType<typeof router>, market: Market) {
  route(coinList, (_input, { kept }) =>
    kept.coinList.read('', async () => {
      const lists = await market.coinList();
      return { lists, page: 1, total: lists.length };
    }),
  );

  const candlesOf = async (input: { code: string; period: Period; limit: number }, db: Executor) => {
    await listedCoin(db, input.code);
    const lists = await market.klines(input.code, input.period, input.limit, db);
    return { lists, page: 1, total: lists.length, code: input.code, period: input.period, ...market.source };
  };
  route(klines, (input, { db }) => candlesOf(input, db));
  route(klinesPost, (input, { db }) => candlesOf(input, db));

  route(coinRate, async (input, { db }) => {
    await listedCoin(db, input.code);
    const quote = await market.quote(input.code, db);
    if (!quote) throw new Refusal(texts.priceUnavailable.id);
    return { code: input.code, price: new Big(quote.price).toFixed(), at: quote.at.toISOString(), ...market.source, halted: market.halted().has(input.code) };
  });

  route(currencyRate, async (input, { db, kept }) => {
    const rate = await kept.currencyRates.read(input.code, async () => {
      const [row] = await db.select().from(fiatRates).where(eq(fiatRates.code, input.code));
      return row ? { code: row.code, symbol: row.symbol, rate: row.rate } : null;
    });
    if (!rate) throw new Refusal(texts.chooseCurrency.id);
    return rate;
  });

  route(balances, (_input, { db, caller, kept }) =>
    kept.balances.read(
      String(caller.userId),
      async () => {
        const lists = await balancesOf(db, caller.userId);
        return { lists, page: 1, total: lists.length };
      },
      () => caller.userId,
    ),
  );

  route(optionProducts, (input, { db, kept }) =>
    kept.optionProducts.read(input.code ?? '', async () => {
      const rows = await db
        .select()
        .from(products)
        .where(input.code ? and(eq(products.active, true), eq(products.coin, input.code)) : eq(products.active, true))
        .orderBy(asc(products.coin), asc(products.sort), asc(products.minutes));
      const lists = rows.map((row) => ({
        id: row.id,
        code: row.coin,
        minutes: row.minutes,
        yield_rate: new Big(row.yieldRate).toFixed(),
        min_amount: new Big(row.minAmount).toFixed(),
      }));
      return { lists, page: 1, total: lists.length };
    }),
  );

  route(placeOption, async (input, { db, caller, clock }) => {
    await listedCoin(db, input.code);
    const now = clock.now();
    const quote = await market.quote(input.code, db);
    const order = await db.transaction((tx) =>
      placeOptionOrder(tx, caller.userId, { code: input.code, direction: input.direction, productId: Number(input.product_id), amount: input.amount }, quote, now),
    );
    return toOptionOrder(order, now, market.source);
  });

  route(optionOrder, async (input, { db, caller, clock }) => {
    const id = /^\d{1,9}$/.test(input.id) ? Number(input.id) : 0;
    return toOptionOrder(await findOwnOrder(db, caller.userId, id), clock.now(), market.source);
  });

  route(optionOrders, async (input, { db, caller, clock }) => {
    const page = Number(input.page);
    const status = input.status === 'holding' ? 'holding' : 'settled';
    const where = and(eq(orders.userId, caller.userId), eq(orders.status, status));
    const [rows, [count]] = await Promise.all([
      db
        .select()
        .from(orders)
        .where(where)
        .orderBy(...(status === 'holding' ? [asc(orders.endAt), asc(orders.id)] : [desc(orders.id)]))
        .limit(OPTION_PAGE_SIZE)
        .offset((page - 1) * OPTION_PAGE_SIZE),
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(orders)
        .where(where),
    ]);
    const now = clock.now();
    return { lists: rows.map((row) => toOptionOrder(row, now, market.source)), page, total: Number(count?.total ?? 0) };
  });

  route(optionTotals, async (_input, { db, caller }) => {
    const result = await db.execute(sql`
      select
        count(*) filter (where status = 'holding')::int as holding_count,
        coalesce(sum(amount) filter (where status = 'holding'), 0)::text as holding_amount,
        count(*) filter (where status = 'settled')::int as settled_count,
        count(*) filter (where outcome = 'win')::int as wins,
        count(*) filter (where outcome = 'loss')::int as losses,
        count(*) filter (where outcome = 'tie')::int as ties,
        coalesce(sum(profit) filter (where status = 'settled'), 0)::text as total_profit
      from option_orders where user_id = ${caller.userId}`);
    const [row] = rowsOf<Record<string, string | number>>(result);
    return {
      holding_count: Number(row!.holding_count),
      holding_amount: new Big(row!.holding_amount!).toFixed(8),
      settled_count: Number(row!.settled_count),
      wins: Number(row!.wins),
      losses: Number(row!.losses),
      ties: Number(row!.ties),
      total_profit: new Big(row!.total_profit!).toFixed(8),
    };
  });
}

async function listedCoin(db: Executor, code: string) {
  const [coin] = await db
    .select({ code: coins.code })
    .from(coins)
    .where(and(eq(coins.code, code), eq(coins.active, true)));
  if (!coin) throw new Refusal(texts.coinUnknown.id);
}
