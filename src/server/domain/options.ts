// Short-term options: the rules, as pure functions where they can be, and the two writes —
// placing an order (stake debited, start price recorded) and settling it exactly once.
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Executor, type Tx } from '../db/connection.ts';
import { optionOrders, optionProducts } from '../db/schema.ts';
import { texts } from '../../contract/texts.ts';
import { winPayout, type Direction, type OptionOrder, type OptionOutcome } from '../../contract/markets.ts';
import { Refusal } from '../http/context.ts';
import { USDT, post, postMany } from './ledger.ts';

export type OptionOrderRow = typeof optionOrders.$inferSelect;

export interface Settlement {
  outcome: OptionOutcome;
  /** What goes back to the user: stake × (1 + yield) on a win, the stake on a tie, 0 on a loss. */
  payout: string;
  profit: string;
}

/** Settles one order from its start and end prices; amounts are 8-decimal strings. */
export function settleOption(order: { direction: Direction; amount: string; yieldRate: string; startPrice: string }, endPrice: string): Settlement {
  const stake = new Big(order.amount);
  const moved = new Big(endPrice).cmp(new Big(order.startPrice));
  const outcome: OptionOutcome = moved === 0 ? 'tie' : (moved > 0) === (order.direction === 'up') ? 'win' : 'loss';
  const payout = outcome === 'win' ? new Big(winPayout(order.amount, order.yieldRate)) : outcome === 'tie' ? stake : new Big(0);
  return { outcome, payout: payout.toFixed(8), profit: payout.minus(stake).toFixed(8) };
}

/** §9: at least the product's minimum (1 USDT). */
export function belowMinimum(amount: string, minAmount: string): boolean {
  return new Big(amount).lt(new Big(minAmount));
}

export interface PlaceInput {
  code: string;
  direction: Direction;
  productId: number;
  amount: string;
}

export interface StartQuote {
  price: string;
  at: Date;
}

/** A price older than this is not a fair start price: the feed is down. */
export const MAX_QUOTE_AGE_MS = 10_000;

/** Debits the stake and opens the order at the latest recorded price, in `tx`. */
export async function placeOptionOrder(tx: Tx, userId: number, input: PlaceInput, quote: StartQuote | null, now: Date): Promise<OptionOrderRow> {
  const [product] = await tx
    .select()
    .from(optionProducts)
    .where(and(eq(optionProducts.id, input.productId), eq(optionProducts.active, true)));
  if (!product || product.coin !== input.code) throw new Refusal(texts.productUnavailable.id);
  if (belowMinimum(input.amount, product.minAmount)) throw new Refusal(texts.minimumOption.id, { 0: new Big(product.minAmount).toString() });
  if (!quote || now.getTime() - quote.at.getTime() > MAX_QUOTE_AGE_MS) throw new Refusal(texts.priceUnavailable.id);

  const [order] = await tx
    .insert(optionOrders)
    .values({
      userId,
      coin: input.code,
      productId: product.id,
      direction: input.direction,
      amount: new Big(input.amount).toFixed(8),
      minutes: product.minutes,
      yieldRate: product.yieldRate,
      startPrice: quote.price,
      startPriceAt: quote.at,
      startAt: now,
      endAt: new Date(now.getTime() + product.minutes * 60_000),
    })
    .returning();
  await post(tx, { userId, asset: USDT, amount: new Big(input.amount).neg().toFixed(8), kind: 'option_stake', reference: `option:${order!.id}` }, now);
  return order!;
}

/**
 * Settles the due orders of one batch in one transaction: claims them (FOR UPDATE SKIP LOCKED,
 * so a second runner takes other rows) together with the last tick at or before each end time,
 * settles each with settleOption, and pays through the ledger. An order is due once its coin has
 * a tick at or after the end time, so its end price can no longer change. Returns how many
 * orders it settled. `beforeCommit` lets tests crash a run between claim and commit.
 */
/** Where a run has got to: later batches start after it (index entries of settled rows stay
 * behind until vacuum, and scanning past them every batch would make a long run quadratic). */
export interface SettlementCursor {
  endAt: string;
  id: number;
}

export async function settleDueOptions(tx: Tx, now: Date, batch: number, beforeCommit?: () => void, cursor?: SettlementCursor): Promise<number> {
  const after = cursor ? sql`and (o.end_at, o.id) > (${cursor.endAt}::timestamptz, ${cursor.id}::int)` : sql``;
  const claimed = rowsOf<{ id: number; end_at: Date | string; user_id: number; direction: Direction; amount: string; yield_rate: string; start_price: string; end_price: string; end_price_at: Date | string }>(
    await tx.execute(sql`
      select o.id, o.end_at, o.user_id, o.direction, o.amount::text as amount, o.yield_rate::text as yield_rate,
        o.start_price::text as start_price, tick.price::text as end_price, tick.at as end_price_at
      from option_orders o
      cross join lateral (
        select t.price, t.at from price_ticks t where t.coin = o.coin and t.at <= o.end_at order by t.at desc limit 1
      ) tick
      where o.status = 'holding' and o.end_at <= ${now.toISOString()}::timestamptz
        and o.end_at <= (select max(t.at) from price_ticks t where t.coin = o.coin) ${after}
      order by o.end_at, o.id
      limit ${batch}
      for update of o skip locked`),
  );
  if (!claimed.length) return 0;

  const settled = claimed.map((order) => ({
    order,
    result: settleOption({ direction: order.direction, amount: order.amount, yieldRate: order.yield_rate, startPrice: order.start_price }, order.end_price),
  }));
  const values = sql.join(
    settled.map(
      ({ order, result }) =>
        sql`(${Number(order.id)}::int, ${order.end_price}::numeric, ${new Date(order.end_price_at).toISOString()}::timestamptz, ${result.outcome}::text, ${result.payout}::numeric, ${result.profit}::numeric)`,
    ),
    sql`, `,
  );
  const updated = await tx.execute(sql`
    update option_orders o
    set status = 'settled', end_price = v.end_price, end_price_at = v.end_price_at, outcome = v.outcome,
      payout = v.payout, profit = v.profit, settled_at = ${now.toISOString()}::timestamptz
    from (values ${values}) as v(id, end_price, end_price_at, outcome, payout, profit)
    where o.id = v.id and o.status = 'holding'
    returning o.id`);
  // The rows are locked by this transaction: anything else is a bug, and nothing must be paid.
  if (rowsOf(updated).length !== settled.length) throw new Error('settlement claimed rows it could not settle');

  await postMany(
    tx,
    settled.map(({ order, result }) => ({ userId: Number(order.user_id), asset: USDT, amount: result.payout, kind: 'option_payout', reference: `option:${order.id}` })),
    now,
  );
  beforeCommit?.();
  const last = claimed.at(-1)!;
  if (cursor) Object.assign(cursor, { endAt: new Date(last.end_at).toISOString(), id: Number(last.id) });
  return settled.length;
}

/** A recorded price as the user reads it: every digit the feed gave, no padding zeros. */
const price = (value: string) => new Big(value).toFixed();

export function toOptionOrder(row: OptionOrderRow, now: Date, simulated: boolean): OptionOrder {
  return {
    id: row.id,
    code: row.coin,
    direction: row.direction as Direction,
    amount: row.amount,
    minutes: row.minutes,
    yield_rate: new Big(row.yieldRate).toFixed(),
    start_price: price(row.startPrice),
    start_price_at: row.startPriceAt.toISOString(),
    start_at: row.startAt.toISOString(),
    end_at: row.endAt.toISOString(),
    status: row.status as OptionOrder['status'],
    end_price: row.endPrice === null ? null : price(row.endPrice),
    end_price_at: row.endPriceAt?.toISOString() ?? null,
    outcome: row.outcome as OptionOutcome | null,
    payout: row.payout,
    profit: row.profit,
    settled_at: row.settledAt?.toISOString() ?? null,
    remaining_seconds: Math.max(0, Math.ceil((row.endAt.getTime() - now.getTime()) / 1000)),
    simulated,
  };
}

export async function findOwnOrder(db: Executor, userId: number, id: number): Promise<OptionOrderRow> {
  const [row] = await db.select().from(optionOrders).where(and(eq(optionOrders.id, id), eq(optionOrders.userId, userId)));
  if (!row) throw new Refusal(texts.orderNotFound.id);
  return row;
}
