// Lock-up mining (a fixed period, a daily return, a single limit): subscribing moves the principal
// from available USDT into the regular balance (ledger asset REGULAR); from the next interest day on,
// the daily job pays the order's income per day into available USDT, and at the end of its last day
// returns the principal and marks the order `end`. No early redemption: the principal is locked for
// the period the customer chose (README.md beside this file, "Earn").
import Big from 'big.js';
import { and, asc, eq, sql } from 'drizzle-orm';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import { rowsOf, tableRow, type Executor, type Tx } from '../db/connection.ts';
import { lockupOrders, lockupProducts } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { EARN_PAGE_SIZE, REGULAR_ASSET, addDays } from '../../api-contract/earn.ts';
import {
  lockupDailyIncome,
  type LockupOrder,
  type LockupProduct,
  type RegularBalance,
} from '../../api-contract/lockup.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { Refusal, refuseIfBroken } from './refusal.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { USDT, insertedRow, post, postRows, postWithin } from './ledger.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { refusePreTrade } from './pre-trade-checks.ts';

export const LOCKUP_ENTRY = { subscribe: 'lockup_subscribe', income: 'lockup_income', end: 'lockup_end' } as const;

type ProductRow = typeof lockupProducts.$inferSelect;
type OrderRow = typeof lockupOrders.$inferSelect;

/** What is left of a product's quota (USDT): never below 0, though an operator may lower the quota below what is
 * sold (to take no more money); null when it has none. */
const quotaLeft = (row: ProductRow): Big | null => {
  if (row.quota === null) return null;
  const left = new Big(row.quota).minus(row.sold);
  return left.lt(0) ? new Big(0) : left;
};

export function toLockupProduct(row: ProductRow): LockupProduct {
  return {
    id: row.id,
    name: row.name,
    days: row.days,
    daily_rate: new Big(row.dailyRate).toFixed(),
    min_amount: new Big(row.minAmount).toFixed(),
    max_amount: new Big(row.maxAmount).toFixed(),
    remaining: quotaLeft(row)?.toFixed() ?? null,
  };
}

export async function activeLockupProducts(db: Executor): Promise<LockupProduct[]> {
  const rows = await db
    .select()
    .from(lockupProducts)
    .where(eq(lockupProducts.active, true))
    .orderBy(asc(lockupProducts.sort), asc(lockupProducts.id));
  return rows.map(toLockupProduct);
}

export async function lockupProductById(db: Executor, id: number): Promise<LockupProduct> {
  const [row] = await db
    .select()
    .from(lockupProducts)
    .where(and(eq(lockupProducts.id, id), eq(lockupProducts.active, true)));
  if (!row) throw new Refusal(texts.productUnavailable.id);
  return toLockupProduct(row);
}

/** How a lock-up order's postings are referenced in the ledger: `lockup:` and the order's id. */
const LOCKUP_REFERENCE_PREFIX = 'lockup:';

/** The terms of a lock-up product the customer was shown and confirmed: its period in days, its daily rate (a decimal,
 * 0.0008 = 0.08 % a day); either left out when not sent. */
export interface ConfirmedLockupTerms {
  days?: number;
  dailyRate?: string;
}

/**
 * A lock-up subscription in the caller's transaction `tx`: `amount` USDT (a decimal string) of the customer's
 * available USDT into the product `productId` for its period, earning from the next interest day (in `timeZone`).
 * Refuses, in this order: the pre-trade checks (a frozen account, a time-out, own limits), a product not offered, an
 * amount outside its limits, a quota it would pass (saying what remains), terms other than the `confirmed` ones (an
 * operator changed them meanwhile: lockupTermsChanged, saying the terms now), too little USDT; a refusal leaves nothing
 * written once the transaction rolls back.
 */
export async function subscribeLockup(
  tx: Tx,
  userId: number,
  productId: number,
  amount: string,
  now: Date,
  timeZone: string,
  confirmed: ConfirmedLockupTerms = {},
): Promise<OrderRow> {
  await refusePreTrade(tx, userId, now);
  const value = new Big(amount);
  const limitsOf = (product: typeof lockupProducts.$inferSelect) =>
    amountOutsideLimits(amount, { min: product.minAmount, max: product.maxAmount }, USDT);
  // The quota is taken in one guarded update, which also reads the product: parallel subscriptions never oversell it.
  // The refusals keep their order (no such product, then the amount's limits, then the quota): an amount outside the
  // limits is refused after the update, which the refusal rolls back; no row taken, the product is read to tell why.
  const [product] = await tx
    .update(lockupProducts)
    .set({ sold: sql`${lockupProducts.sold} + ${value.toFixed(8)}` })
    .where(
      and(
        eq(lockupProducts.id, productId),
        eq(lockupProducts.active, true),
        sql`(${lockupProducts.quota} is null or ${lockupProducts.sold} + ${value.toFixed(8)} <= ${lockupProducts.quota})`,
      ),
    )
    .returning();
  if (!product) {
    const [now_] = await tx
      .select()
      .from(lockupProducts)
      .where(and(eq(lockupProducts.id, productId), eq(lockupProducts.active, true)));
    if (!now_) throw new Refusal(texts.productUnavailable.id);
    refuseIfBroken(limitsOf(now_));
    throw new Refusal(texts.quotaExhausted.id, { 0: quotaLeft(now_) ?? new Big(0) });
  }
  refuseIfBroken(limitsOf(product));
  // The order takes the terms of the product row read here, so it is these the confirmed ones must be.
  if (
    (confirmed.days !== undefined && confirmed.days !== product.days) ||
    (confirmed.dailyRate !== undefined && !new Big(confirmed.dailyRate).eq(product.dailyRate))
  )
    throw new Refusal(serverTexts.lockupTermsChanged.id, {
      0: new Big(product.days),
      1: new Big(product.dailyRate).times(100),
    });
  const startDay = addDays(interestDay(now, timeZone), 1);
  const insert = tx
    .insert(lockupOrders)
    .values({
      userId,
      productId,
      name: product.name,
      amount: value.toFixed(8),
      days: product.days,
      dailyRate: product.dailyRate,
      dailyIncome: lockupDailyIncome(value.toFixed(8), product.dailyRate),
      startDay,
      endDay: addDays(startDay, product.days - 1),
      createdAt: now,
    })
    .returning();
  // The order and the USDT it takes in one statement, after the product's row. The customer's lock-up balance row (when
  // there is one) is locked in it before the USDT one: the day-end job ending an order locks an account's rows in asset
  // order (postRows: REGULAR, then USDT), so a subscription taking them the other way round would deadlock with it.
  const placed = insertedRow(
    sql`held as (
      select 1 from balances where user_id = ${userId} and asset = ${REGULAR_ASSET} for update
    ), placed as (${insert.getSQL()})`,
    LOCKUP_REFERENCE_PREFIX,
  );
  const order = tableRow(
    lockupOrders,
    await postWithin(
      tx,
      { userId, asset: USDT, amount: `-${value.toFixed(8)}`, kind: LOCKUP_ENTRY.subscribe },
      { ...placed, gate: sql`${placed.gate} and (select count(*) from held) >= 0` },
      now,
    ),
  );
  const reference = `${LOCKUP_REFERENCE_PREFIX}${order.id}`;
  await post(
    tx,
    { userId, asset: REGULAR_ASSET, amount: value.toFixed(8), kind: LOCKUP_ENTRY.subscribe, reference },
    now,
  );
  return order;
}

/**
 * The lock-up work of `day`, in the scheduler's transaction: one income entry per processing order
 * whose period covers the day (referenced `lockup-income:<day>:<order>`), and for the orders whose
 * last day it is, the principal back and the status `end`. Set-based. Returns the orders paid.
 */
export async function payLockupDay(tx: Tx, day: string, now: Date): Promise<number> {
  const at = now.toISOString();
  // The day's orders, kept for the postings (a table, not a list of ids: there can be 100,000).
  await tx.execute(
    sql`create temp table lockup_day (id int, user_id int, amount numeric, daily_income numeric, ends boolean) on commit drop`,
  );
  await tx.execute(sql`
    with due as (
      update lockup_orders set earned = earned + daily_income,
        status = case when end_day = ${day} then 'end' else status end,
        ended_at = case when end_day = ${day} then ${at}::timestamptz else ended_at end
      where status = 'processing' and start_day <= ${day} and end_day >= ${day}
      returning id, user_id, amount, daily_income, end_day = ${day} as ends
    )
    insert into lockup_day select id, user_id, amount, daily_income, ends from due`);
  await postRows(
    tx,
    sql`
      select user_id, ${USDT}::text as asset, 'available'::text as bucket, daily_income as amount, ${LOCKUP_ENTRY.income}::text as kind, 'lockup-income:' || ${day} || ':' || id as reference
      from lockup_day
      union all
      select user_id, ${REGULAR_ASSET}::text, 'available', -amount, ${LOCKUP_ENTRY.end}::text, 'lockup:' || id from lockup_day where ends
      union all
      select user_id, ${USDT}::text, 'available', amount, ${LOCKUP_ENTRY.end}::text, 'lockup:' || id from lockup_day where ends`,
    now,
  );
  const [paid] = rowsOf<{ n: number | string }>(await tx.execute(sql`select count(*)::int as n from lockup_day`));
  return Number(paid?.n ?? 0);
}

export function toLockupOrder(row: OrderRow): LockupOrder {
  return {
    id: row.id,
    product_id: row.productId,
    name: row.name,
    amount: row.amount,
    days: row.days,
    daily_rate: new Big(row.dailyRate).toFixed(),
    daily_income: row.dailyIncome,
    start_day: row.startDay,
    end_day: row.endDay,
    status: row.status as LockupOrder['status'],
    earned: row.earned,
    created_at: row.createdAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}

const NEWEST_LOCKUP_FIRST: KeysetOrder<typeof lockupOrders.$inferSelect> = {
  keys: [idKey(lockupOrders.id, (row) => row.id)],
  direction: 'desc',
};

/** The caller's lock-up orders of one status, newest first, by cursor (`cursor` '' for the head). */
export async function lockupOrdersOf(
  db: Executor,
  userId: number,
  status: 'all' | 'processing' | 'end',
  cursor: string,
): Promise<CursorPage<LockupOrder>> {
  const where = and(eq(lockupOrders.userId, userId), status === 'all' ? undefined : eq(lockupOrders.status, status));
  const listed = await keysetQuery(
    (after) => db.select().from(lockupOrders).where(and(where, after)).$dynamic(),
    NEWEST_LOCKUP_FIRST,
    { cursor },
    EARN_PAGE_SIZE,
  );
  return { ...listed, lists: listed.lists.map(toLockupOrder) };
}

export async function regularBalanceOf(db: Executor, userId: number): Promise<RegularBalance> {
  const [row] = rowsOf<{ locked: string | null; earned: string | null; processing: number | string }>(
    await db.execute(sql`
      select sum(amount) filter (where status = 'processing')::text as locked, sum(earned)::text as earned,
        count(*) filter (where status = 'processing') as processing
      from lockup_orders where user_id = ${userId}`),
  );
  return {
    type: 'regular',
    locked: new Big(row?.locked ?? 0).toFixed(8),
    earned: new Big(row?.earned ?? 0).toFixed(8),
    processing: Number(row?.processing ?? 0),
  };
}
