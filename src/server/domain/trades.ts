// Trade history (api-contract/trades.ts): the caller's contract fills of the real account over a period of calendar
// days in their time zone, a page at a time, and the profit and loss they realised by FIFO cost basis (fifo.ts), per
// pair, with the options settled in the period beside it. A fill belongs to the period its filled_at falls in,
// [first midnight, midnight after the last day).
import Big from 'big.js';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';
import { contractOrders } from '../db/schema.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { texts } from '../../api-contract/texts.ts';
import { canonicalTimeZone } from '../../api-contract/calendar.ts';
import { periodProblem } from '../../api-contract/statements.ts';
import { QUOTE_ASSET, type OrderSide, type OrderType } from '../../api-contract/contracts.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import {
  TRADES_MAX_DAYS,
  TRADES_PAGE_SIZE,
  type PairResult,
  type TradeFill,
  type TradeResults,
} from '../../api-contract/trades.ts';
import { dayEnd, dayStart } from './earn-days.ts';
import { applyFifo, type FifoFill } from './fifo.ts';
import { idKey, keysetQuery, timeKey, type KeysetOrder } from './paged-query.ts';
import { Refusal } from './refusal.ts';

type ContractOrderRow = typeof contractOrders.$inferSelect;

/** A period asked for: calendar days `from`–`to` (both included) in the IANA zone `timeZone`. */
export interface TradePeriod {
  from: string;
  to: string;
  timeZone: string;
}

/**
 * The period's bounds as instants, [startsAt, endsAt), and the zone's canonical name.
 * @throws Refusal with the statement's period texts (a day missing, the first after the last, an unknown zone), the
 * calendar's text for a day that does not exist, or tradesTooLong beyond TRADES_MAX_DAYS days.
 */
export function tradePeriod({ from, to, timeZone }: TradePeriod): { startsAt: Date; endsAt: Date; zone: string } {
  const problem = periodProblem(from, to);
  if (problem === 'date') throw new Refusal(serverTexts.statementPeriod.id);
  if (problem === 'calendar') throw new Refusal(texts.calendarDate.id);
  if (problem === 'order') throw new Refusal(serverTexts.statementOrder.id);
  // periodProblem allows a statement's 366 days, the same as TRADES_MAX_DAYS: a longer one is refused here.
  if (problem === 'length') throw new Refusal(serverTexts.tradesTooLong.id, { 0: TRADES_MAX_DAYS });
  const zone = canonicalTimeZone(timeZone);
  if (zone === null) throw new Refusal(serverTexts.statementTimeZone.id);
  return { startsAt: dayStart(from, zone), endsAt: dayEnd(to, zone), zone };
}

/** A fill as the answer shows it. */
export function toTradeFill(row: ContractOrderRow): TradeFill {
  const fixed = (value: string | null) => new Big(value ?? '0').toFixed(8);
  return {
    id: row.id,
    filled_at: row.filledAt!.toISOString(),
    code: row.coin,
    side: row.side as OrderSide,
    type: row.type as OrderType,
    price: new Big(row.unitPrice ?? '0').toFixed(),
    quantity: fixed(row.dealtQuantity),
    total: fixed(row.total),
    fee: fixed(row.fee),
    fee_asset: row.feeAsset ?? QUOTE_ASSET,
    spent: fixed(row.spent),
    spent_asset: row.spentAsset ?? '',
    received: fixed(row.received),
    received_asset: row.receivedAsset ?? '',
    tick_price: new Big(row.tickPrice ?? '0').toFixed(),
    tick_at: (row.tickAt ?? row.filledAt!).toISOString(),
    dust_conversion: row.dustConversion,
  };
}

const NEWEST_FIRST: KeysetOrder<ContractOrderRow> = {
  keys: [timeKey(contractOrders.filledAt, (row) => row.filledAt), idKey(contractOrders.id, (row) => row.id)],
  direction: 'desc',
};

/** The filled orders of the caller's real account, as SQL, of one pair when `code` is not ''. */
const realFills = (userId: number, code: string) =>
  and(
    eq(contractOrders.userId, userId),
    eq(contractOrders.practice, false),
    eq(contractOrders.status, 'filled'),
    code ? eq(contractOrders.coin, code) : undefined,
  );

/**
 * One page (`cursor` '' for the head) of the caller's fills in a period, newest first (fill time, then id), of one
 * pair (`code`) and side (`side`) or all ('' for either).
 * @throws Refusal for a period tradePeriod refuses, or a cursor that is not one of this list's.
 */
export async function tradeFillsOf(
  db: Executor,
  userId: number,
  request: TradePeriod & { code: string; side: string; cursor: string },
): Promise<CursorPage<TradeFill>> {
  const { startsAt, endsAt } = tradePeriod(request);
  const where = and(
    realFills(userId, request.code),
    request.side ? eq(contractOrders.side, request.side) : undefined,
    gte(contractOrders.filledAt, startsAt),
    lt(contractOrders.filledAt, endsAt),
  );
  const page = await keysetQuery(
    (after) => db.select().from(contractOrders).where(and(where, after)).$dynamic(),
    NEWEST_FIRST,
    { cursor: request.cursor },
    TRADES_PAGE_SIZE,
  );
  return { lists: page.lists.map(toTradeFill), next: page.next };
}

/** A fill's fee in USDT: as paid, or — paid in the coin by a market buy — valued at its fill price, rounded up. */
const feeInUsdt = (fee: string, feeAsset: string, price: string) =>
  feeAsset === QUOTE_ASSET ? new Big(fee) : new Big(fee).times(price).round(8, Big.roundUp);

/**
 * The caller's realised profit and loss over a period by FIFO cost basis (fifo.ts), per pair — every fill from the
 * first up to the period's end is applied, so lots bought before the period are consumed by its sells — and the
 * options settled in the period (count, stakes, payouts, payouts − stakes). Real account only.
 * @throws Refusal for a period tradePeriod refuses.
 */
export async function tradeResultsOf(
  db: Executor,
  userId: number,
  request: TradePeriod & { code: string },
): Promise<TradeResults> {
  const { startsAt, endsAt, zone } = tradePeriod(request);
  const fills = rowsOf<{
    id: number;
    coin: string;
    side: OrderSide;
    filled_at: Date | string;
    spent: string;
    received: string;
    fee: string;
    fee_asset: string;
    unit_price: string;
  }>(
    await db.execute(sql`
      select id, coin, side, filled_at, spent::text as spent, received::text as received, fee::text as fee, fee_asset,
        unit_price::text as unit_price
      from contract_orders
      where user_id = ${userId} and practice = false and status = 'filled' and filled_at < ${endsAt.toISOString()}::timestamptz
        ${request.code ? sql`and coin = ${request.code}` : sql``}
      order by filled_at, id`),
  );
  const fifoFills: FifoFill[] = fills.map((row) => ({
    id: Number(row.id),
    code: row.coin,
    side: row.side,
    at: new Date(row.filled_at),
    spent: row.spent,
    received: row.received,
  }));
  const { disposals, lots } = applyFifo(fifoFills);
  const inPeriod = (at: Date) => at.getTime() >= startsAt.getTime();

  const zero = () => new Big(0);
  const sums = new Map<
    string,
    { buys: number; sells: number; sold: Big; proceeds: Big; cost: Big; fees: Big; unmatched: Big }
  >();
  const sumOf = (code: string) => {
    let sum = sums.get(code);
    if (!sum) {
      sum = { buys: 0, sells: 0, sold: zero(), proceeds: zero(), cost: zero(), fees: zero(), unmatched: zero() };
      sums.set(code, sum);
    }
    return sum;
  };
  for (const row of fills) {
    if (!inPeriod(new Date(row.filled_at))) continue;
    const sum = sumOf(row.coin);
    if (row.side === 'buy') sum.buys += 1;
    else sum.sells += 1;
    sum.fees = sum.fees.plus(feeInUsdt(row.fee, row.fee_asset, row.unit_price));
  }
  for (const disposal of disposals) {
    if (!inPeriod(disposal.at)) continue;
    const sum = sumOf(disposal.code);
    sum.sold = sum.sold.plus(disposal.quantity);
    sum.proceeds = sum.proceeds.plus(disposal.proceeds);
    sum.cost = sum.cost.plus(disposal.cost);
    sum.unmatched = sum.unmatched.plus(disposal.unmatched);
  }
  for (const [code, held] of lots) if (held.length > 0) sumOf(code);

  const pairs: PairResult[] = [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, sum]) => {
      const held = lots.get(code) ?? [];
      return {
        code,
        buys: sum.buys,
        sells: sum.sells,
        quantity_sold: sum.sold.toFixed(8),
        proceeds: sum.proceeds.toFixed(8),
        cost: sum.cost.toFixed(8),
        realised: sum.proceeds.minus(sum.cost).toFixed(8),
        fees: sum.fees.toFixed(8),
        unmatched_quantity: sum.unmatched.toFixed(8),
        held_quantity: held.reduce((total, lot) => total.plus(lot.quantity), zero()).toFixed(8),
        held_cost: held.reduce((total, lot) => total.plus(lot.cost), zero()).toFixed(8),
      };
    });
  const realised = pairs.reduce((total, pair) => total.plus(pair.realised), zero());

  const [options] = rowsOf<{ settled: number | string; staked: string; paid: string; result: string }>(
    await db.execute(sql`
      select count(*)::int as settled, coalesce(sum(amount), 0)::text as staked, coalesce(sum(payout), 0)::text as paid,
        coalesce(sum(profit), 0)::text as result
      from option_orders
      where user_id = ${userId} and practice = false and status = 'settled'
        and settled_at >= ${startsAt.toISOString()}::timestamptz and settled_at < ${endsAt.toISOString()}::timestamptz`),
  );
  return {
    from: request.from,
    to: request.to,
    time_zone: zone,
    starts_at: startsAt.toISOString(),
    ends_at: endsAt.toISOString(),
    pairs,
    realised: realised.toFixed(8),
    options: {
      settled: Number(options?.settled ?? 0),
      staked: new Big(options?.staked ?? '0').toFixed(8),
      paid: new Big(options?.paid ?? '0').toFixed(8),
      result: new Big(options?.result ?? '0').toFixed(8),
    },
  };
}
