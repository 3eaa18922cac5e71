// A settled option's ticks: the recorded index ticks around the tick that gave its start price and
// around the one that gave its end price, so the customer can see the ticks either side and why the
// deciding one decided (the first after acceptance; the last at or before the end time). The
// deciding ticks are answered from the order itself, which kept their price, time and constituents:
// the ticks around them are thinned after 48 h (jobs/retention.ts), the order's record is not.
import Big from 'big.js';
import { and, asc, desc, eq, gt, lt, lte } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { priceTicks, type Constituent } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  TICKS_AROUND,
  type SettlementTick,
  type SettlementTicks,
  type TickWindow,
} from '../../api-contract/settlement-ticks.ts';
import { Refusal } from './refusal.ts';
import { answerConstituents } from './prices.ts';
import { findOwnOrder } from './options.ts';

interface Recorded {
  price: string;
  at: Date;
  constituents: Constituent[] | null;
}

const answer = (tick: Recorded, deciding: boolean): SettlementTick => ({
  price: new Big(tick.price).toFixed(),
  at: tick.at.toISOString(),
  constituents: answerConstituents(tick.constituents),
  deciding,
});

/**
 * The ticks of `coin` around `deciding` (up to TICKS_AROUND either side of it, oldest first), or, with no
 * deciding tick (a void order), around `moment`: those at or before it and those after it.
 */
async function around(db: Executor, coin: string, deciding: Recorded | null, moment: Date | null): Promise<TickWindow> {
  const anchor = deciding?.at ?? moment;
  if (!anchor) return { deciding_at: null, ticks: [] };
  const columns = { price: priceTicks.price, at: priceTicks.at, constituents: priceTicks.constituents };
  const before = await db
    .select(columns)
    .from(priceTicks)
    .where(and(eq(priceTicks.coin, coin), deciding ? lt(priceTicks.at, anchor) : lte(priceTicks.at, anchor)))
    .orderBy(desc(priceTicks.at))
    .limit(TICKS_AROUND);
  const after = await db
    .select(columns)
    .from(priceTicks)
    .where(and(eq(priceTicks.coin, coin), gt(priceTicks.at, anchor)))
    .orderBy(asc(priceTicks.at))
    .limit(TICKS_AROUND);
  return {
    deciding_at: deciding?.at.toISOString() ?? null,
    ticks: [
      ...before.reverse().map((tick) => answer(tick, false)),
      ...(deciding ? [answer(deciding, true)] : []),
      ...after.map((tick) => answer(tick, false)),
    ],
  };
}

/** The caller's own settled option's ticks; another customer's order is not found, a pending one refused. */
export async function settlementTicksOf(db: Executor, userId: number, id: number): Promise<SettlementTicks> {
  const order = await findOwnOrder(db, userId, id);
  if (order.status !== 'settled') throw new Refusal(texts.orderNotSettled.id);
  const start =
    order.startPrice !== null && order.startPriceAt
      ? { price: order.startPrice, at: order.startPriceAt, constituents: order.startConstituents }
      : null;
  const end =
    order.endPrice !== null && order.endPriceAt
      ? { price: order.endPrice, at: order.endPriceAt, constituents: order.endConstituents }
      : null;
  return {
    id: order.id,
    code: order.coin,
    start: await around(db, order.coin, start, order.startAt),
    // An order that never opened has no end time: nothing was looked for at the end.
    end: await around(db, order.coin, end, order.endAt),
  };
}
