// Short-term options: the rules, as pure functions where they can be, and the three writes —
// placing an order (stake debited), opening it at the first tick recorded after that, and settling
// it exactly once.
import Big from 'big.js';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { countedKeysetQuery, idKey, timeKey, type KeysetOrder } from './paged-query.ts';
import { isTrue, rowsOf, tableRow, type Executor, type Tx } from '../db/connection.ts';
import { optionOrders, optionProducts } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { type PriceSource } from '../../api-contract/markets.ts';
import {
  OPTION_PAGE_SIZE,
  belowOptionMinimum,
  winPayout,
  type Direction,
  type OptionOrder,
  type OptionOutcome,
  type OptionProduct,
  type OptionTotals,
} from '../../api-contract/options.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { Refusal, refuseIfBroken } from './refusal.ts';
import { USDT, insertedRow, ledgerAsset, ledgerAssetSql, postRows, postWithin } from './ledger.ts';
import { MAX_QUOTE_AGE_MS, answerConstituents, haltedRefusal } from './prices.ts';
import { queueSettledOptionNotices } from './notices.ts';
import {
  openPayoutSql,
  refuseBeyondExposure,
  refuseBeyondHouseLimits,
  sideExposureSql,
  sideLockCte,
  sideWithOrderSql,
  type HouseCaps,
} from './house-limits.ts';
import type { MarketNow } from '../market/market.ts';
import { refusePreTrade } from './pre-trade-checks.ts';

export { MAX_QUOTE_AGE_MS };

export type OptionOrderRow = typeof optionOrders.$inferSelect;

export interface Settlement {
  outcome: OptionOutcome;
  /** What goes back to the user: stake × (1 + yield) on a win, the stake on a tie, 0 on a loss. */
  payout: string;
  profit: string;
}

/** Settles one order from its start and end prices; amounts are 8-decimal strings. */
export function settleOption(
  order: { direction: Direction; amount: string; yieldRate: string; startPrice: string },
  endPrice: string,
): Settlement {
  const stake = new Big(order.amount);
  const moved = new Big(endPrice).cmp(new Big(order.startPrice));
  const outcome: OptionOutcome = moved === 0 ? 'tie' : moved > 0 === (order.direction === 'up') ? 'win' : 'loss';
  const payout =
    outcome === 'win' ? new Big(winPayout(order.amount, order.yieldRate)) : outcome === 'tie' ? stake : new Big(0);
  return { outcome, payout: payout.toFixed(8), profit: payout.minus(stake).toFixed(8) };
}

/** A stake must be at least the product's minimum (1 USDT by default): the API contract's rule, as a yes or no. */
export const belowMinimum = (amount: string, minAmount: string): boolean =>
  belowOptionMinimum(amount, minAmount) !== null;

export interface PlaceInput {
  code: string;
  direction: Direction;
  productId: number;
  amount: string;
  /** Staked from the practice account (practice USDT): the same rules and settlement, no real money or limit. */
  practice?: boolean;
  /** The product's yield the customer confirmed (a decimal, 0.85 = 85 %): refused when the product's is another. */
  yieldRate?: string;
}

/**
 * What an option order is checked against besides the customer's own rows, read before its transaction (from this
 * process's memory where it keeps them) so the transaction holds its locks only for its own statements: the coin's
 * halt and latest price (`quote` only proves the feed is live), and these.
 */
export interface OptionOrderTerms extends MarketNow {
  /** The products active for the order's coin now (activeOptionProducts): the one ordered must be among them. */
  products: readonly OptionProduct[];
  /** The house's caps in force (houseCaps). */
  caps: HouseCaps;
}

/**
 * Debits the stake and accepts the order, in `tx`: it opens at the first tick recorded after now
 * (openPendingOptions), never at a price already recorded — whoever watches the exchanges could
 * otherwise buy a move the recorded tick has not caught up with yet. Refused (Refusal, nothing written) when the
 * account is frozen or in a time-out, beyond the customer's own limits, for a product not active for the coin or
 * whose yield is no longer the one the customer confirmed (input.yieldRate, when sent), below its minimum, while the
 * coin is halted or without a fresh price (terms.quote older than MAX_QUOTE_AGE_MS: refused rather than left to go
 * void), or beyond a house cap.
 */
export async function placeOptionOrder(
  tx: Tx,
  userId: number,
  input: PlaceInput,
  terms: OptionOrderTerms,
  now: Date,
): Promise<OptionOrderRow> {
  const practice = input.practice === true;
  // The customer's standing first (a frozen account places nothing, practice included; a time-out is a break from
  // trading, so it holds for practice too), then their own limits, which count real money only: their row stays locked
  // until the order is committed, as does their stake lock, under which the minute's stakes are read for the house's
  // per-minute cap below.
  const { minuteStaked } = await refusePreTrade(tx, userId, now, practice ? undefined : { stake: input.amount });
  const product = terms.products.find((listed) => listed.id === input.productId);
  if (!product || product.code !== input.code) throw new Refusal(texts.productUnavailable.id);
  // The order takes the yield of the product as listed here, so it is this one the confirmed yield must be.
  if (input.yieldRate !== undefined && !new Big(input.yieldRate).eq(product.yield_rate))
    throw new Refusal(serverTexts.optionYieldChanged.id, { 0: new Big(product.yield_rate).times(100) });
  refuseIfBroken(belowOptionMinimum(input.amount, product.min_amount), 'amount');
  if (terms.halted) throw haltedRefusal(input.code);
  const { quote } = terms;
  if (!quote || now.getTime() - quote.at.getTime() > MAX_QUOTE_AGE_MS) throw new Refusal(texts.priceUnavailable.id);
  refuseBeyondHouseLimits({ amount: input.amount, practice }, terms.caps, minuteStaked);

  // One statement: the side's exposure row locked (a real-money order), the order inserted, the stake debited with its
  // ledger entry, and the side's open payout with this order read, so the side's row is held for one round trip (the
  // commit) rather than two (the stake's posting and the commit). A debit too large for the balance is told before the
  // house's cap.
  const values = sql`${userId}::int, ${input.code}::text, ${product.id}::int, ${input.direction}::text,
    ${new Big(input.amount).toFixed(8)}::numeric, ${product.minutes}::int, ${product.yield_rate}::numeric,
    'opening', ${now.toISOString()}::timestamptz, ${practice}::boolean`;
  const insert = sql`insert into option_orders
    (user_id, coin, product_id, direction, amount, minutes, yield_rate, status, start_at, practice)`;
  const placed = await postWithin<Record<string, unknown> & { side_payout: string | null }>(
    tx,
    {
      userId,
      asset: ledgerAsset(USDT, practice),
      amount: new Big(input.amount).neg().toFixed(8),
      kind: 'option_stake',
    },
    insertedRow(
      practice
        ? sql`placed as (${insert} values (${values}) returning *)`
        : sql`${sideLockCte(input.code, input.direction)},
          placed as (${insert} select ${values} where (select count(*) from side) >= 0 returning *)`,
      'option:',
      sql`${practice ? sql`null` : sideWithOrderSql}::text as side_payout`,
    ),
    now,
  );
  if (!practice) {
    // A side's first order: the side had no row to lock; its insert's trigger made it, and holds it.
    const openPayout =
      placed.side_payout ??
      rowsOf<{ open_payout: string }>(await tx.execute(sideExposureSql(input.code, input.direction)))[0]?.open_payout ??
      null;
    refuseBeyondExposure(openPayout, terms.caps);
  }
  return tableRow(optionOrders, placed);
}

/** Where an order's payout goes, over option_orders: USDT, or the practice account's USDT for a practice order. */
const payoutAsset = ledgerAssetSql(sql`${USDT}::text`, sql`practice`);

/** SQL boolean: some order waits for its start tick (one read off option_orders_opening_idx). */
export const optionOpeningWaits = sql`exists (select 1 from option_orders where status = 'opening')`;

/**
 * The coins (codes) with an order waiting for its start tick, the coin of the earliest accepted first, read outside a
 * transaction in one read off option_orders_opening_idx (which holds only the orders opening, so none waiting costs
 * what asking whether any waits would). The opening job runs each coin on its own (openPendingOptions' `coin`).
 */
export async function optionCoinsOpening(db: Executor): Promise<string[]> {
  return rowsOf<{ coin: string }>(
    await db.execute(
      sql`select o.coin from option_orders o where o.status = 'opening' group by o.coin order by min(o.start_at), o.coin`,
    ),
  ).map(({ coin }) => coin);
}

/**
 * Opens the accepted orders whose start tick is recorded, in one statement, and voids those that
 * got none: an order's start price is the first tick of its coin recorded after it was accepted
 * (tick time strictly after start_at) and within MAX_QUOTE_AGE_MS of it, and its end time counts
 * from that tick. With no such tick once that time has passed (the coin was halted, the feed was
 * down), the order is void and the stake refunded in full, once (the ledger refuses a second
 * payout of the same order). Rows are claimed FOR UPDATE SKIP LOCKED, so any number of processes may
 * run it. `coin`: that coin's orders only (the job runs each coin on its own, so one coin's failing run holds back no
 * other's); `rows`: which of them (a row whose run failed is tried alone). Returns how many orders it opened or voided.
 */
export async function openPendingOptions(
  tx: Tx,
  now: Date,
  batch: number,
  coin?: string,
  rows?: RowChoice,
): Promise<number> {
  const at = now.toISOString();
  const freshness = `${MAX_QUOTE_AGE_MS} milliseconds`;
  const ofCoin = coin === undefined ? sql`` : sql`and o.coin = ${coin}`;
  const done = rowsOf<{ id: number; voided: boolean }>(
    await tx.execute(sql`
      with claimed as materialized (
        select o.id, tick.price, tick.at, tick.constituents
        from option_orders o
        left join lateral (
          select t.price, t.at, t.constituents from price_ticks t
          where t.coin = o.coin and t.at > o.start_at and t.at <= o.start_at + ${freshness}::interval
          order by t.at limit 1
        ) tick on true
        where o.status = 'opening' ${ofCoin} ${chosenRows(rows)}
          and (tick.at is not null or o.start_at < ${at}::timestamptz - ${freshness}::interval)
        order by o.start_at, o.id
        limit ${batch}
        for update of o skip locked
      )
      update option_orders o
      set status = case when c.at is null then 'settled' else 'holding' end,
        start_price = c.price, start_price_at = c.at, start_constituents = c.constituents,
        end_at = c.at + make_interval(mins => o.minutes),
        outcome = case when c.at is null then 'void' end,
        payout = case when c.at is null then o.amount end,
        profit = case when c.at is null then 0 end,
        settled_at = case when c.at is null then ${at}::timestamptz end
      from claimed c
      where o.id = c.id and o.status = 'opening'
      returning o.id, c.at is null as voided`),
  );
  const voided = done.filter((row) => isTrue(row.voided)).map((row) => Number(row.id));
  if (voided.length) {
    const ids = `{${voided.join(',')}}`;
    await postRows(
      tx,
      sql`select user_id, ${payoutAsset} as asset, 'available'::text as bucket, amount, 'option_payout'::text as kind, 'option:' || id as reference
        from option_orders where id = any(${ids}::int[]) order by id`,
      now,
    );
    await queueSettledOptionNotices(tx, ids, now);
  }
  return done.length;
}

/** Where a run has got to: later batches start after it (index entries of settled rows stay
 * behind until vacuum, and scanning past them every batch would make a long run quadratic). */
export interface SettlementCursor {
  endAt: string;
  id: number;
}

/**
 * settleOption in SQL, over a claimed order `o` and its end tick `tick`: the outcome, and the payout
 * (winPayout truncates stake × (1 + yield) to 8 decimals). Must agree with settleOption: the
 * settlement tests check both against the same arithmetic.
 */
const outcomeSql = sql`case when tick.price is null then 'void' when tick.price = o.start_price then 'tie'
  when (tick.price > o.start_price) = (o.direction = 'up') then 'win' else 'loss' end`;
const payoutSql = (outcome: SQL) =>
  sql`case ${outcome} when 'win' then ${openPayoutSql} when 'loss' then 0 else o.amount end`;

/** An order past its end time and not settled yet (option_orders_due_idx); `o` is option_orders. */
const endedHolding = (at: string) => sql`o.status = 'holding' and o.end_at <= ${at}::timestamptz`;

/**
 * The coins (codes) with an order still holding whose end time is at or before `now`, the coin of the earliest end
 * first (a run pays in the order the orders ended, coin after coin): those a settlement run at `now` may find due, read
 * outside a transaction off option_orders_due_idx. The settlement job settles each coin on its own (settleDueOptions'
 * `coin`).
 */
export async function optionCoinsEnded(db: Executor, now: Date): Promise<string[]> {
  return rowsOf<{ coin: string }>(
    await db.execute(
      sql`select o.coin from option_orders o where ${endedHolding(now.toISOString())}
        group by o.coin order by min(o.end_at), o.coin`,
    ),
  ).map(({ coin }) => coin);
}

/**
 * Which of the rows a job's batch could claim it may: every one but `exclude` (rows whose run failed alone, which
 * the job tries alone instead), or only the row `only` (a row tried alone). Ids of option_orders.
 */
export interface RowChoice {
  exclude?: readonly number[];
  only?: number;
}

/** A RowChoice as a condition on option_orders `o` (nothing when it chooses every row). */
const chosenRows = ({ exclude = [], only }: RowChoice = {}) =>
  sql`${only === undefined ? sql`` : sql`and o.id = ${only}`} ${
    exclude.length ? sql`and o.id <> all(${`{${exclude.map(Number).join(',')}}`}::int[])` : sql``
  }`;

/**
 * The ids of `coin`'s orders a batch of `job` could claim next at `now`, in the batch's order, at most `batch` and
 * none of `exclude`: those ended and holding for settlement (whether a tick settles them yet or not), those accepted
 * and waiting for their start tick for opening. Read outside a transaction, when a batch failed, to try each alone.
 */
export async function optionsClaimable(
  db: Executor,
  job: 'opening' | 'settlement',
  now: Date,
  coin: string,
  batch: number,
  exclude: readonly number[],
): Promise<number[]> {
  const rows =
    job === 'settlement'
      ? sql`select o.id from option_orders o where ${endedHolding(now.toISOString())} and o.coin = ${coin}
          ${chosenRows({ exclude })} order by o.end_at, o.id limit ${batch}`
      : sql`select o.id from option_orders o where o.status = 'opening' and o.coin = ${coin}
          ${chosenRows({ exclude })} order by o.start_at, o.id limit ${batch}`;
  return rowsOf<{ id: number }>(await db.execute(rows)).map(({ id }) => Number(id));
}

/** How a settlement run goes about a batch (settleDueOptions). */
export interface SettlementRun {
  /** Called before the batch's commit: lets tests crash a run between claim and commit. */
  beforeCommit?: () => void;
  /** Where the run has got to: the batch starts after it, and it is moved to the batch's last order. */
  cursor?: SettlementCursor;
  /** That coin's orders only: the job settles each coin on its own, so one coin's failing run holds back no other's. */
  coin?: string;
  /** The rows the batch may claim (all by default). */
  rows?: RowChoice;
}

/**
 * When the earliest order still holding ends (null when none holds): one read off option_orders_due_idx, outside a
 * transaction. The settlement job settles only when it is past (jobs/settlement.ts); an order that ended with no tick
 * yet to settle on stays the earliest, and is read again on the next run.
 */
export async function nextOptionEnd(db: Executor): Promise<Date | null> {
  const [row] = rowsOf<{ end_at: string | null }>(
    await db.execute(
      sql`select to_json(min(o.end_at)) #>> '{}' as end_at from option_orders o where o.status = 'holding'`,
    ),
  );
  return row?.end_at ? new Date(row.end_at) : null;
}

/**
 * Settles the due orders of one batch in one transaction, in three set-based statements: (1) claims
 * them (FOR UPDATE SKIP LOCKED, so a second runner takes other rows) each with the last recorded
 * tick at or before its end time, and settles them in the same statement (outcome, payout, profit,
 * the tick's exact price and time); (2, 3) pays the wins and ties through the ledger with postRows.
 * An order is due once its coin has a tick at or after the end time, so its end price can no longer
 * change, or once MAX_QUOTE_AGE_MS have passed after it. Its end price is the last tick at or before
 * the end time recorded within MAX_QUOTE_AGE_MS before it (the same freshness a start price needs);
 * with none (the market data was unavailable, a halt), the order is void and the stake refunded in
 * full. Returns how many orders it settled (`run`: SettlementRun).
 */
export async function settleDueOptions(
  tx: Tx,
  now: Date,
  batch: number,
  { beforeCommit, cursor, coin, rows }: SettlementRun = {},
): Promise<number> {
  const at = now.toISOString();
  const freshness = `${MAX_QUOTE_AGE_MS} milliseconds`;
  const after = cursor ? sql`and (o.end_at, o.id) > (${cursor.endAt}::timestamptz, ${cursor.id}::int)` : sql``;
  const ofCoin = coin === undefined ? sql`` : sql`and o.coin = ${coin}`;
  // The batch must come off option_orders_due_idx in (end_at, id) order, so the scan stops after
  // `batch` rows. Without statistics (PGlite never analyzes by itself) the planner guesses a
  // handful of due rows and takes a bitmap scan, which then prices and sorts every due order.
  await tx.execute(sql`set local enable_bitmapscan = off`);
  const settled = rowsOf<{ id: number; end_at: Date | string; claimed: number | string }>(
    await tx.execute(sql`
      with claimed as materialized (
        select o.id, tick.price as end_price, tick.at as end_price_at, tick.constituents as end_constituents, ${outcomeSql} as outcome,
          ${payoutSql(outcomeSql)} as payout, o.amount
        from option_orders o
        left join lateral (
          select t.price, t.at, t.constituents from price_ticks t
          where t.coin = o.coin and t.at <= o.end_at and t.at >= o.end_at - ${freshness}::interval
          order by t.at desc limit 1
        ) tick on true
        where ${endedHolding(at)} ${ofCoin} ${chosenRows(rows)}
          and (o.end_at <= (select max(t.at) from price_ticks t where t.coin = o.coin) or o.end_at <= ${at}::timestamptz - ${freshness}::interval) ${after}
        order by o.end_at, o.id
        limit ${batch}
        for update of o skip locked
      ), settled as (
        update option_orders o
        set status = 'settled', end_price = c.end_price, end_price_at = c.end_price_at, end_constituents = c.end_constituents, outcome = c.outcome,
          payout = c.payout, profit = c.payout - c.amount, settled_at = ${at}::timestamptz
        from claimed c
        where o.id = c.id and o.status = 'holding'
        returning o.id, o.end_at
      )
      select s.id, s.end_at, (select count(*) from claimed)::int as claimed from settled s`),
  );
  if (!settled.length) return 0;
  // The rows are locked by this transaction: anything else is a bug, and nothing must be paid.
  if (Number(settled[0]!.claimed) !== settled.length) throw new Error('settlement claimed rows it could not settle');

  const ids = `{${settled.map(({ id }) => Number(id)).join(',')}}`;
  await postRows(
    tx,
    sql`select user_id, ${payoutAsset} as asset, 'available'::text as bucket, payout as amount, 'option_payout'::text as kind, 'option:' || id as reference
      from option_orders where id = any(${ids}::int[]) order by end_at, id`,
    now,
  );
  await queueSettledOptionNotices(tx, ids, now);
  beforeCommit?.();
  if (cursor) {
    const last = settled
      .map(({ id, end_at }) => ({ endAt: new Date(end_at).toISOString(), id: Number(id) }))
      .reduce((a, b) => (a.endAt > b.endAt || (a.endAt === b.endAt && a.id > b.id) ? a : b));
    Object.assign(cursor, last);
  }
  return settled.length;
}

/** A recorded price as the user reads it: every digit the feed gave, no padding zeros. */
const price = (value: string) => new Big(value).toFixed();

export function toOptionOrder(row: OptionOrderRow, now: Date, source: PriceSource): OptionOrder {
  return {
    id: row.id,
    code: row.coin,
    direction: row.direction as Direction,
    amount: row.amount,
    practice: row.practice,
    minutes: row.minutes,
    yield_rate: new Big(row.yieldRate).toFixed(),
    start_price: row.startPrice === null ? null : price(row.startPrice),
    start_price_at: row.startPriceAt?.toISOString() ?? null,
    start_constituents: answerConstituents(row.startConstituents),
    start_at: row.startAt.toISOString(),
    end_at: row.endAt?.toISOString() ?? null,
    status: row.status as OptionOrder['status'],
    end_price: row.endPrice === null ? null : price(row.endPrice),
    end_price_at: row.endPriceAt?.toISOString() ?? null,
    end_constituents: answerConstituents(row.endConstituents),
    outcome: row.outcome as OptionOutcome | null,
    payout: row.payout,
    profit: row.profit,
    settled_at: row.settledAt?.toISOString() ?? null,
    remaining_seconds: row.endAt
      ? Math.max(0, Math.ceil((row.endAt.getTime() - now.getTime()) / 1000))
      : row.status === 'opening'
        ? row.minutes * 60
        : 0,
    ...source,
  };
}

export async function findOwnOrder(db: Executor, userId: number, id: number): Promise<OptionOrderRow> {
  const [row] = await db
    .select()
    .from(optionOrders)
    .where(and(eq(optionOrders.id, id), eq(optionOrders.userId, userId)));
  if (!row) throw new Refusal(texts.orderNotFound.id);
  return row;
}

/** The products a user can buy now, of one coin or of every coin, in the order the app lists them. */
export async function activeOptionProducts(db: Executor, code: string | undefined): Promise<OptionProduct[]> {
  const rows = await db
    .select()
    .from(optionProducts)
    .where(code ? and(eq(optionProducts.active, true), eq(optionProducts.coin, code)) : eq(optionProducts.active, true))
    .orderBy(asc(optionProducts.coin), asc(optionProducts.sort), asc(optionProducts.minutes));
  return rows.map((row) => ({
    id: row.id,
    code: row.coin,
    minutes: row.minutes,
    yield_rate: new Big(row.yieldRate).toFixed(),
    min_amount: new Big(row.minAmount).toFixed(),
  }));
}

// Opening orders have no end yet: they sort first, as the epoch.
const SOONEST_END_FIRST: KeysetOrder<OptionOrderRow> = {
  keys: [timeKey(optionOrders.endAt, (row) => row.endAt), idKey(optionOrders.id, (row) => row.id)],
  direction: 'asc',
};
const NEWEST_FIRST: KeysetOrder<OptionOrderRow> = {
  keys: [idKey(optionOrders.id, (row) => row.id)],
  direction: 'desc',
};

/**
 * One page, by cursor (`cursor` '' for the head), of the user's pending orders (opening first, then soonest to end) or
 * settled ones (newest first), of the real account or of the practice one; `total` counts the whole list.
 */
export async function optionOrdersPage(
  db: Executor,
  userId: number,
  status: 'holding' | 'settled',
  cursor: string,
  practice = false,
): Promise<CursorPage<OptionOrderRow> & { total: number }> {
  const where = and(
    eq(optionOrders.userId, userId),
    eq(optionOrders.practice, practice),
    status === 'holding' ? inArray(optionOrders.status, ['opening', 'holding']) : eq(optionOrders.status, status),
  );
  const list = (after?: SQL) => db.select().from(optionOrders).where(and(where, after)).$dynamic();
  const order = status === 'holding' ? SOONEST_END_FIRST : NEWEST_FIRST;
  return countedKeysetQuery(db, list, order, { cursor }, OPTION_PAGE_SIZE);
}

/** The user's option record (real or practice): what is at stake now, and the wins, losses, ties and profit so far. */
export async function optionTotalsOf(db: Executor, userId: number, practice = false): Promise<OptionTotals> {
  const result = await db.execute(sql`
    select
      count(*) filter (where status in ('opening', 'holding'))::int as holding_count,
      coalesce(sum(amount) filter (where status in ('opening', 'holding')), 0)::text as holding_amount,
      count(*) filter (where status = 'settled')::int as settled_count,
      count(*) filter (where outcome = 'win')::int as wins,
      count(*) filter (where outcome = 'loss')::int as losses,
      count(*) filter (where outcome = 'tie')::int as ties,
      coalesce(sum(profit) filter (where status = 'settled'), 0)::text as total_profit
    from option_orders where user_id = ${userId} and practice = ${practice}`);
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
}
