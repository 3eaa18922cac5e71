// The house's result on options, for the console's House page: per coin and product (period in
// minutes), the stakes it took and the payouts it paid over a period, read from the ledger itself
// (option_stake and option_payout entries, referenced `option:<id>`, joined to their order for its
// coin and product), so the figures add up to the balances' moves; beside them, what a win of the
// open options would pay now, per product and per coin and direction against the exposure cap.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';
import type { ConsoleHouse, HouseExposure, HousePeriod, HouseResultRow } from '../../api-contract/console-house.ts';
import { addDays } from '../../api-contract/earn.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import type { Direction } from '../../api-contract/options.ts';
import { dayStart } from './earn-days.ts';
import { houseCaps, openOptionSql, openPayoutSql } from './house-limits.ts';
import { USDT } from './ledger.ts';

/** The week is today and the days before it, this many in all. */
const WEEK_DAYS = 7;

const amount = (value: string | null | undefined) => new Big(value ?? 0);
const money = (value: Big) => value.toFixed(8);

/** What a win of every open option would pay, per coin and direction, against the exposure cap; busiest first within a
 * coin. */
export async function openExposure(db: Executor, cap: string): Promise<HouseExposure[]> {
  const rows = rowsOf<{ coin: string; direction: Direction; orders: number | string; payout: string }>(
    await db.execute(sql`
      select o.coin, o.direction, count(*)::int as orders, sum(${openPayoutSql})::text as payout
      from option_orders o where ${openOptionSql}
      group by o.coin, o.direction
      order by o.coin, o.direction desc`),
  );
  return rows.map((row) => ({
    coin: row.coin,
    direction: row.direction,
    open_orders: Number(row.orders),
    open_payout: money(amount(row.payout)),
    cap: new Big(cap).toFixed(),
    used_percent: amount(row.payout).times(100).div(cap).toFixed(2),
  }));
}

interface ProductMoves {
  coin: string;
  minutes: number | string;
  stakes_today: string;
  payouts_today: string;
  stakes_week: string;
  payouts_week: string;
  open_payout: string;
}

/**
 * One statement: the ledger's option entries since the week's first instant, summed per product for
 * the week and for today, beside each product's open payout (a product with open options and no
 * entries yet shows too). A stake entry is negative (the customer's balance went down by it).
 */
async function productMoves(db: Executor, weekFrom: Date, todayFrom: Date): Promise<ProductMoves[]> {
  const today = sql`e.created_at >= ${todayFrom.toISOString()}::timestamptz`;
  return rowsOf<ProductMoves>(
    await db.execute(sql`
      with moved as (
        select o.coin, o.minutes,
          coalesce(-sum(e.amount) filter (where e.kind = 'option_stake' and ${today}), 0) as stakes_today,
          coalesce(sum(e.amount) filter (where e.kind = 'option_payout' and ${today}), 0) as payouts_today,
          coalesce(-sum(e.amount) filter (where e.kind = 'option_stake'), 0) as stakes_week,
          coalesce(sum(e.amount) filter (where e.kind = 'option_payout'), 0) as payouts_week
        from ledger_entries e
        join option_orders o on e.reference = 'option:' || o.id
        where e.kind in ('option_stake', 'option_payout') and e.asset = ${USDT} and e.created_at >= ${weekFrom.toISOString()}::timestamptz
        group by o.coin, o.minutes
      ), open as (
        select o.coin, o.minutes, sum(${openPayoutSql}) as open_payout from option_orders o where ${openOptionSql} group by o.coin, o.minutes
      )
      select coalesce(m.coin, p.coin) as coin, coalesce(m.minutes, p.minutes) as minutes,
        coalesce(m.stakes_today, 0)::text as stakes_today, coalesce(m.payouts_today, 0)::text as payouts_today,
        coalesce(m.stakes_week, 0)::text as stakes_week, coalesce(m.payouts_week, 0)::text as payouts_week,
        coalesce(p.open_payout, 0)::text as open_payout
      from moved m full join open p on p.coin = m.coin and p.minutes = m.minutes
      order by 1, 2`),
  );
}

function period(day: string, from: Date, moves: ProductMoves[], which: 'today' | 'week'): HousePeriod {
  const rows: HouseResultRow[] = moves
    .map((move) => {
      const stakes = amount(which === 'today' ? move.stakes_today : move.stakes_week);
      const payouts = amount(which === 'today' ? move.payouts_today : move.payouts_week);
      return { coin: move.coin, minutes: Number(move.minutes), stakes, payouts, open: amount(move.open_payout) };
    })
    .filter((row) => !row.stakes.eq(0) || !row.payouts.eq(0) || !row.open.eq(0))
    .map((row) => ({
      coin: row.coin,
      minutes: row.minutes,
      stakes: money(row.stakes),
      payouts: money(row.payouts),
      result: money(row.stakes.minus(row.payouts)),
      open_payout: money(row.open),
    }));
  const sum = (pick: (row: HouseResultRow) => string) => rows.reduce((total, row) => total.plus(pick(row)), new Big(0));
  const stakes = sum((row) => row.stakes);
  const payouts = sum((row) => row.payouts);
  return {
    from_day: day,
    from: from.toISOString(),
    rows,
    totals: {
      stakes: money(stakes),
      payouts: money(payouts),
      result: money(stakes.minus(payouts)),
      open_payout: money(sum((row) => row.open_payout)),
    },
  };
}

/**
 * The House page: the caps, the open exposure per coin and direction, and the result per product
 * today and over the last 7 days (today and the 6 days before), days starting at midnight in `timeZone`
 * (the server's day, as for interest and sign-in).
 */
export async function houseView(db: Executor, now: Date, timeZone: string): Promise<ConsoleHouse> {
  const today = interestDay(now, timeZone);
  const weekDay = addDays(today, 1 - WEEK_DAYS);
  const [todayFrom, weekFrom] = [dayStart(today, timeZone), dayStart(weekDay, timeZone)];
  const caps = await houseCaps(db);
  const [exposure, moves] = [await openExposure(db, caps.exposure), await productMoves(db, weekFrom, todayFrom)];
  return {
    caps,
    exposure,
    time_zone: timeZone,
    as_of: now.toISOString(),
    today: period(today, todayFrom, moves, 'today'),
    week: period(weekDay, weekFrom, moves, 'week'),
  };
}
