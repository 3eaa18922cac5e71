// Conditional contract orders on the server: stop-market and stop-limit orders and take-profit / stop-loss legs wait
// ('waiting') until the first recorded tick after their acceptance reaches their trigger (the rule is stated in
// api-contract/contract-triggers.ts); then the matcher releases them in its own transaction: a stop-market (and every
// leg) as a market order filling at the next tick ('filling', eligible after the trigger tick), a stop-limit as a
// resting limit ('open'). Each release is a state change WHERE the order is still waiting, on rows claimed FOR UPDATE
// SKIP LOCKED under the pair's row lock, so two server processes never release one order twice; the fills stay
// exactly-once as before.
//
// An OCO pair (a take-profit and a stop-loss over one quantity) holds ONE reserve: on the stop-loss leg while both
// wait. The leg that triggers takes it (the other keeps waiting, but can no longer trigger); when that leg fills, or
// its release voids, the other is cancelled in the same transaction. A gap through both legs releases the one the
// first reaching tick reaches; one tick reaching both releases the stop-loss. Revoking one waiting leg passes the
// reserve to the other; legs attached to an open buy wait ('attached', nothing reserved) until it fills, then freeze
// what it bought.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { isTrue, rowsOf, type Tx } from '../db/connection.ts';
import { contractOrders } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  TRIGGER_LIFETIME_MS,
  triggersAbove,
  triggerTexts,
  type TriggerLeg,
} from '../../api-contract/contract-triggers.ts';
import { checkLegs, notional, onGrid, gridStep } from '../../api-contract/contracts.ts';
import { Refusal, refusalOf } from './refusal.ts';
import { bucketMovePostings, freeze, ledgerAsset, postMany } from './ledger.ts';
import { CONTRACT_ENTRY, contractReference } from './contract-entries.ts';
import { lastRecordedPrice } from '../market/market.ts';
import { MAX_QUOTE_AGE_MS, refuseWhileHalted } from './prices.ts';
import { refusePreTrade } from './pre-trade-checks.ts';
import { pairRulesColumn, pairRulesOf } from './contract-pairs.ts';

type OrderRow = typeof contractOrders.$inferSelect;

/** Order ids as an SQL list of integers (`1, 2, 3`), for `in (…)`; `ids` is never empty where it is used. */
const idList = (ids: number[]) =>
  sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );

/** When a conditional order accepted at `now` expires if not released. */
export const expiryOf = (now: Date) => new Date(now.getTime() + TRIGGER_LIFETIME_MS);

/** The legs of a take-profit / stop-loss request: their trigger prices ('' for a leg not asked). */
export interface LegPrices {
  takeProfit: string;
  stopLoss: string;
}

/**
 * Inserts the sell legs over `quantity` of `coin`: the stop-loss first (its id names the OCO group when both are
 * asked), then the take-profit. `reserve` given (a position): the legs wait at once and the stop-loss leg (or the only
 * leg) freezes the quantity; null (attached to an open buy): they wait for it ('attached'), nothing frozen yet.
 */
export async function insertLegs(
  tx: Tx,
  order: {
    userId: number;
    coin: string;
    quantity: string;
    feeRate: string;
    practice: boolean;
    parentId: number | null;
    eligibleAfter: Date;
  },
  prices: LegPrices,
  reserve: boolean,
  now: Date,
): Promise<OrderRow[]> {
  const asked = (['stop_loss', 'take_profit'] as const).filter(
    (leg) => (leg === 'stop_loss' ? prices.stopLoss : prices.takeProfit) !== '',
  );
  const rows: OrderRow[] = [];
  let group: number | null = null;
  for (const leg of asked) {
    const holds = reserve && rows.length === 0;
    const [row]: OrderRow[] = await tx
      .insert(contractOrders)
      .values({
        userId: order.userId,
        coin: order.coin,
        side: 'sell',
        type: 'stop_market',
        status: reserve ? 'waiting' : 'attached',
        price: null,
        quantity: order.quantity,
        feeRate: order.feeRate,
        frozenAsset: order.coin,
        frozen: holds ? new Big(order.quantity).toFixed(8) : '0',
        eligibleAfter: order.eligibleAfter,
        createdAt: now,
        practice: order.practice,
        triggerPrice: leg === 'stop_loss' ? prices.stopLoss : prices.takeProfit,
        triggerAbove: triggersAbove('sell', leg),
        expiresAt: reserve ? expiryOf(now) : null,
        leg,
        ocoGroup: asked.length === 2 ? group : null,
        parentId: order.parentId,
      })
      .returning();
    if (asked.length === 2 && group === null) {
      group = row!.id;
      row!.ocoGroup = group;
      await tx.execute(sql`update contract_orders set oco_group = ${group} where id = ${group}`);
    }
    if (holds) {
      const asset = ledgerAsset(order.coin, order.practice);
      await freeze(tx, order.userId, asset, row!.frozen, CONTRACT_ENTRY.freeze, contractReference(row!.id), now);
    }
    rows.push(row!);
  }
  return rows;
}

/** A take-profit / stop-loss request of the caller (AttachTakeProfitStopLossInput, validated). */
export interface AttachLegs extends LegPrices {
  code: string;
  /** '' for a position: `quantity` of the coin held. */
  orderId: string;
  quantity: string;
  practice: boolean;
}

/**
 * Attaches take-profit / stop-loss sell legs in `tx`: to `quantity` of the coin the caller holds (frozen at once; the
 * pair's rules as for an order: quantity on the step, worth the minimum at the latest price, the take-profit above and
 * the stop-loss below that price), or to the caller's open, filling or waiting buy order of the coin without legs
 * (the prices around its limit, trigger or the latest price). Refusals: the pair or a fresh price unavailable, a
 * halted coin, a frozen account or a time-out, a broken rule, and 'orderTakesNoLegs' for an order that cannot take
 * them.
 */
export async function attachLegs(tx: Tx, userId: number, input: AttachLegs, now: Date): Promise<OrderRow[]> {
  // The pair's rules, held FOR SHARE, read in the checks' own statement after their locks.
  const { alsoRead } = await refusePreTrade(tx, userId, now, undefined, pairRulesColumn(input.code, true));
  const pair = pairRulesOf(alsoRead);
  if (!pair) throw new Refusal(texts.pairUnavailable.id);
  await refuseWhileHalted(tx, input.code);
  const quote = await lastRecordedPrice(tx, input.code);
  if (!quote || now.getTime() - quote.at.getTime() > MAX_QUOTE_AGE_MS) throw new Refusal(texts.priceUnavailable.id);
  const market = new Big(quote.price).toFixed();
  const priceDecimals = Number(pair.price_decimals);
  const prices = { takeProfit: input.takeProfit, stopLoss: input.stopLoss };
  const through = new Date(pair.matched_through);
  const eligibleAfter = now.getTime() > through.getTime() ? now : through;

  if (input.orderId === '') {
    const decimals = Number(pair.quantity_decimals);
    if (!onGrid(input.quantity, decimals))
      throw refusalOf({ ...texts.quantityOffStep, values: { 0: gridStep(decimals) } });
    const quantity = new Big(input.quantity).toFixed(decimals);
    if (new Big(quantity).eq(0) || notional(market, quantity).lt(pair.min_notional))
      throw refusalOf({ ...texts.belowMinimumNotional, values: { 0: new Big(pair.min_notional).toFixed() } });
    const broken = checkLegs(prices.takeProfit, prices.stopLoss, market, priceDecimals);
    if (broken) throw refusalOf({ ...broken.text, values: broken.values });
    const order = {
      userId,
      coin: input.code,
      quantity,
      feeRate: pair.fee_rate,
      practice: input.practice,
      parentId: null,
      eligibleAfter,
    };
    return insertLegs(tx, order, prices, true, now);
  }

  const [parent] = rowsOf<{ id: number; type: string; price: string | null; trigger_price: string | null }>(
    await tx.execute(sql`
      select o.id, o.type, o.price::text as price, o.trigger_price::text as trigger_price from contract_orders o
      where o.id = ${Number(input.orderId)} and o.user_id = ${userId} and o.coin = ${input.code} and o.side = 'buy'
        and o.practice = ${input.practice} and o.status in ('open', 'filling', 'waiting') and o.leg is null
      for update of o`),
  );
  if (!parent) throw new Refusal(triggerTexts.orderTakesNoLegs.id);
  // Read after the buy's lock, in a statement of its own: legs another request attached while this one waited for the
  // lock are seen (the lock's statement reads what committed before it began). Two sets of legs would each freeze what
  // the buy bought, and the second freeze, refused, would roll back every fill of the coin's matching run.
  const [legged] = rowsOf(
    await tx.execute(sql`
      select 1 from contract_orders where parent_id = ${Number(parent.id)} and status in ('attached', 'waiting') limit 1`),
  );
  if (legged) throw new Refusal(triggerTexts.orderTakesNoLegs.id);
  const reference = parent.price ?? parent.trigger_price ?? market;
  const broken = checkLegs(prices.takeProfit, prices.stopLoss, new Big(reference).toFixed(), priceDecimals);
  if (broken) throw refusalOf({ ...broken.text, values: broken.values });
  return attachToOrder(tx, { ...parentOf(parent), userId, coin: input.code, practice: input.practice }, prices, now);
}

const parentOf = (row: { id: number }) => ({ id: Number(row.id) });

/** Inserts legs attached to order `parent.id` (its quantity a placeholder until it fills). */
export async function attachToOrder(
  tx: Tx,
  parent: { id: number; userId: number; coin: string; practice: boolean },
  prices: LegPrices,
  now: Date,
): Promise<OrderRow[]> {
  const [row] = rowsOf<{ quantity: string; fee_rate: string }>(
    await tx.execute(
      sql`select quantity::text as quantity, fee_rate::text as fee_rate from contract_orders where id = ${parent.id}`,
    ),
  );
  const order = {
    userId: parent.userId,
    coin: parent.coin,
    quantity: row!.quantity,
    feeRate: row!.fee_rate,
    practice: parent.practice,
    parentId: parent.id,
    eligibleAfter: now,
  };
  return insertLegs(tx, order, prices, false, now);
}

/** What the trigger pass looks at: a matching window (ticks after `through` up to `upto`, priced `low`…`high`), or the
 * legs just armed (`ids`), each from its own eligible time up to `upto`. */
type TriggerScope =
  { window: { through: string; upto: string; low: string; high: string } } | { ids: number[]; upto: string };

/**
 * The waiting conditional orders of `coin` a recorded tick of the scope reaches, each with its first such tick after
 * it became eligible (and before it expires), in tick-time order, a stop-loss before a take-profit on one tick. An OCO
 * leg whose other leg was already released is left out. Through the partial indexes on trigger price: a tick that
 * reaches nothing reads nothing of the waiting book.
 */
function reached(coin: string, scope: TriggerScope, lock: boolean, limit: number) {
  const upto = 'window' in scope ? scope.window.upto : scope.upto;
  const from =
    'window' in scope ? sql`greatest(o.eligible_after, ${scope.window.through}::timestamptz)` : sql`o.eligible_after`;
  const which =
    'window' in scope
      ? sql`((o.trigger_above and o.trigger_price <= ${scope.window.high}::numeric)
          or (not o.trigger_above and o.trigger_price >= ${scope.window.low}::numeric))`
      : sql`o.id in (${idList(scope.ids)})`;
  return sql`
    select o.id, o.user_id, o.type, o.oco_group, o.leg, o.frozen::text as frozen, tick.price::text as tick_price,
      tick.at as tick_at
    from contract_orders o
    cross join lateral (
      select t.at, t.price from price_ticks t
      where t.coin = o.coin and t.at > ${from} and t.at <= least(${upto}::timestamptz, o.expires_at)
        and (case when o.trigger_above then t.price >= o.trigger_price else t.price <= o.trigger_price end)
      order by t.at limit 1
    ) tick
    where o.coin = ${coin} and o.status = 'waiting' and ${which}
      and (o.oco_group is null or not exists (
        select 1 from contract_orders s where s.oco_group = o.oco_group and s.id <> o.id and s.status in ('filling', 'open', 'filled')))
    order by tick.at, coalesce(o.leg = 'stop_loss', false) desc, o.id
    limit ${limit}
    ${lock ? sql`for update of o skip locked` : sql``}`;
}

export interface TriggerResult {
  released: number;
  /** A reached order left waiting: held by a revoke in progress, or beyond the batch. The window must stay. */
  held: boolean;
}

/**
 * Releases, in `tx` (the matcher's, holding the pair's row FOR UPDATE), up to `batch` waiting orders of `coin` a tick
 * of
 * the scope reaches: each WHERE still waiting, stamped with its trigger tick, eligible to fill only after it. An OCO
 * leg takes its pair's reserve from the other leg, locked SKIP LOCKED beside it (a revoke holding it keeps both waiting
 * for the next run).
 */
export async function releaseReached(tx: Tx, coin: string, scope: TriggerScope, batch: number, now: Date) {
  if ('ids' in scope && !scope.ids.length) return { released: 0, held: false };
  const claimed = rowsOf<{
    id: number;
    user_id: number;
    type: string;
    oco_group: number | null;
    leg: TriggerLeg | null;
    frozen: string;
    tick_price: string;
    tick_at: Date | string;
  }>(await tx.execute(reached(coin, scope, true, batch)));
  const groupsDone = new Set<number>();
  let released = 0;
  let held = claimed.length === batch;
  for (const order of claimed) {
    const id = Number(order.id);
    const group = order.oco_group === null ? null : Number(order.oco_group);
    if (group !== null && groupsDone.has(group)) continue;
    let taken = '0';
    if (group !== null) {
      const waiting = rowsOf<{ id: number; frozen: string }>(
        await tx.execute(sql`
          select id, frozen::text as frozen from contract_orders
          where oco_group = ${group} and id <> ${id} and status = 'waiting' for update skip locked`),
      );
      const [count] = rowsOf<{ n: number | string }>(
        await tx.execute(sql`
          select count(*)::int as n from contract_orders where oco_group = ${group} and id <> ${id} and status = 'waiting'`),
      );
      if (Number(count!.n) > waiting.length) {
        held = true;
        continue;
      }
      for (const other of waiting) {
        taken = new Big(taken).plus(other.frozen).toFixed(8);
        await tx.execute(sql`update contract_orders set frozen = 0 where id = ${Number(other.id)}`);
      }
      groupsDone.add(group);
    }
    const tickAt = new Date(order.tick_at).toISOString();
    const updated = rowsOf(
      await tx.execute(sql`
        update contract_orders
        set status = case when type = 'stop_limit' then 'open' else 'filling' end, triggered_at = ${now.toISOString()}::timestamptz,
          trigger_tick_at = ${tickAt}::timestamptz, trigger_tick_price = ${order.tick_price}::numeric,
          eligible_after = ${tickAt}::timestamptz, frozen = frozen + ${taken}::numeric
        where id = ${id} and status = 'waiting'
        returning id`),
    );
    // Claimed FOR UPDATE by this transaction: anything else is a bug, and nothing must move.
    if (updated.length !== 1) throw new Error(`contract ${id}: released twice`);
    released++;
  }
  if (!held) held = rowsOf(await tx.execute(reached(coin, scope, false, 1))).length > 0;
  return { released, held };
}

/**
 * After orders filled in `tx`: the other leg of each filled OCO leg is cancelled (it holds nothing: the filled leg took
 * the reserve when released), and the legs attached to each filled buy are armed — they freeze what it bought (the
 * quantity received, down to the pair's step; none when that is nothing: the stop-loss of a pair holds it, or the one
 * leg still attached when the other was revoked), wait from its fill tick, and are then checked at once against the
 * ticks recorded since (up to `upto`, or the pair's matched_through), so none a window already passed is missed.
 */
export async function afterFills(tx: Tx, coin: string, ids: number[], upto: string | null, now: Date) {
  if (!ids.length) return;
  const list = idList(ids);
  await tx.execute(sql`
    update contract_orders s set status = 'cancelled', cancelled_at = ${now.toISOString()}::timestamptz
    from contract_orders f
    where f.id in (${list}) and f.oco_group is not null and s.oco_group = f.oco_group and s.id <> f.id and s.status = 'waiting'`);
  const legs = rowsOf<{
    id: number;
    user_id: number;
    leg: TriggerLeg;
    oco_group: number | null;
    received: string;
    quantity_decimals: number;
    tick_at: Date | string;
    practice: boolean | string;
  }>(
    await tx.execute(sql`
      select l.id, l.user_id, l.leg, l.oco_group, p.received::text as received, pr.quantity_decimals, p.tick_at, l.practice
      from contract_orders l
      join contract_orders p on p.id = l.parent_id
      join contract_pairs pr on pr.coin = p.coin
      where l.parent_id in (${list}) and l.status = 'attached'
      order by l.id
      for update of l`),
  );
  // The legs still attached, as locked: a leg the customer revoked before the fill is not among them, so the other leg
  // of its pair, left alone, holds the reserve itself.
  const pairedWith = (leg: (typeof legs)[number]) =>
    legs.find(
      (other) =>
        other.oco_group !== null &&
        Number(other.oco_group) === Number(leg.oco_group) &&
        Number(other.id) !== Number(leg.id),
    );
  const armed: number[] = [];
  for (const leg of legs) {
    const id = Number(leg.id);
    const quantity = new Big(leg.received).round(Number(leg.quantity_decimals), Big.roundDown);
    if (quantity.eq(0)) {
      await tx.execute(sql`update contract_orders set status = 'cancelled', cancelled_at = ${now.toISOString()}::timestamptz
        where id = ${id}`);
      continue;
    }
    const holds = leg.leg === 'stop_loss' || !pairedWith(leg);
    const frozen = holds ? quantity.toFixed(8) : '0';
    await tx.execute(sql`
      update contract_orders set status = 'waiting', quantity = ${quantity.toFixed(8)}::numeric, frozen = ${frozen}::numeric,
        eligible_after = ${new Date(leg.tick_at).toISOString()}::timestamptz, expires_at = ${expiryOf(now).toISOString()}::timestamptz
      where id = ${id}`);
    if (holds) {
      const asset = ledgerAsset(coin, isTrue(leg.practice));
      await freeze(tx, Number(leg.user_id), asset, frozen, CONTRACT_ENTRY.freeze, contractReference(id), now);
    }
    armed.push(id);
  }
  if (!armed.length) return;
  let through = upto;
  if (through === null) {
    const [pair] = rowsOf<{ matched_through: Date | string }>(
      await tx.execute(sql`select matched_through from contract_pairs where coin = ${coin} for share`),
    );
    through = new Date(pair!.matched_through).toISOString();
  }
  await releaseReached(tx, coin, { ids: armed, upto: through }, armed.length + 1, now);
}

/** After released orders voided in `tx` (no fill tick in time, or one beyond the reserve): the other leg of an OCO
 * pair is cancelled with it, and legs attached to a void buy never arm. Neither holds anything. */
export async function afterVoids(tx: Tx, ids: number[], now: Date) {
  if (!ids.length) return;
  const list = idList(ids);
  await tx.execute(sql`
    update contract_orders s set status = 'cancelled', cancelled_at = ${now.toISOString()}::timestamptz
    from contract_orders f
    where f.id in (${list}) and ((f.oco_group is not null and s.oco_group = f.oco_group and s.id <> f.id) or s.parent_id = f.id)
      and s.status in ('waiting', 'attached')`);
}

/**
 * After the caller revoked order `order` in `tx`: a waiting OCO leg hands its reserve to the other leg while that one
 * waits (answering true: nothing to release), and legs attached to a revoked order are cancelled with it.
 */
export async function afterCancel(tx: Tx, order: OrderRow, now: Date): Promise<boolean> {
  await tx.execute(sql`
    update contract_orders set status = 'cancelled', cancelled_at = ${now.toISOString()}::timestamptz
    where parent_id = ${order.id} and status = 'attached'`);
  if (order.ocoGroup === null || new Big(order.frozen).eq(0)) return false;
  const passed = rowsOf(
    await tx.execute(sql`
      update contract_orders set frozen = frozen + ${order.frozen}::numeric
      where oco_group = ${order.ocoGroup} and id <> ${order.id} and status = 'waiting'
      returning id`),
  );
  return passed.length > 0;
}

/**
 * How long after its expiry time a waiting order of a coin that records no tick after it expires anyway (ms): the
 * time a recorded tick may trail its own time, as for a market order with no tick (MAX_QUOTE_AGE_MS), so a tick
 * stamped before the expiry and recorded late still decides the order, never a clock that has no price.
 */
export const EXPIRY_GRACE_MS = MAX_QUOTE_AGE_MS;

/**
 * SQL boolean over a waiting order `o` and its pair's row `p`: its lifetime is over and every recorded tick up to its
 * expiry time has been checked against it — either matching has passed its expiry time (the tick-driven case), or the
 * expiry time is EXPIRY_GRACE_MS before `now` and no tick of the coin recorded after the pair's mark is stamped at or
 * before it (a coin with no new prices: a halt, a quiet feed, a pair closed to new orders). A tick stamped before the
 * expiry but not yet matched keeps the order waiting for the matcher, which alone decides a trigger.
 */
const lapsed = (now: Date) => {
  const cutoff = new Date(now.getTime() - EXPIRY_GRACE_MS).toISOString();
  return sql`(o.expires_at <= p.matched_through or (o.expires_at <= ${cutoff}::timestamptz and not exists (
      select 1 from price_ticks t where t.coin = o.coin and t.at > p.matched_through and t.at <= o.expires_at)))`;
};

/** SQL boolean: pair `coin` has a waiting order whose lifetime is over (see `lapsed`); read by the matcher with the
 * pair's row it holds as `p`. */
export const lapsedWaits = (coin: string, now: Date) =>
  sql`exists (select 1 from contract_orders o where o.coin = ${coin} and o.status = 'waiting' and ${lapsed(now)})`;

/**
 * Expires, in `tx` (the matcher's, holding the pair's row FOR UPDATE, so its matched_through is settled), up to `batch`
 * waiting orders of `coin` whose lifetime is over (see `lapsed`), whether or not the coin still records ticks: each
 * claimed FOR UPDATE SKIP LOCKED and changed WHERE still waiting, its reserve returned by the ledger
 * ('contract_expire', once: a revoke holding it is left to finish, and then finds it expired or leaves nothing), the
 * legs attached to it cancelled. An OCO pair ends whole: both legs expire together (they share one expiry time) or,
 * when one is held by a revoke or beyond the batch, neither does in this run. Expiry never fills nor releases
 * anything. Answers how many orders it claimed (a full batch: run again).
 */
export async function expireLapsed(tx: Tx, coin: string, now: Date, batch: number): Promise<number> {
  type Claimed = { id: number; user_id: number; frozen_asset: string; frozen: string; practice: boolean | string };
  const claimed = rowsOf<Claimed & { oco_group: number | null }>(
    await tx.execute(sql`
      select o.id, o.user_id, o.frozen_asset, o.frozen::text as frozen, o.practice, o.oco_group
      from contract_orders o join contract_pairs p on p.coin = o.coin
      where o.coin = ${coin} and o.status = 'waiting' and ${lapsed(now)}
      order by o.expires_at, coalesce(o.oco_group, o.id), o.id
      limit ${batch}
      for update of o skip locked`),
  );
  if (!claimed.length) return 0;
  const ids = new Set(claimed.map((order) => Number(order.id)));
  const groups = [...new Set(claimed.flatMap((order) => (order.oco_group === null ? [] : [Number(order.oco_group)])))];
  // The waiting legs of those pairs outside the claim (held by a revoke, or beyond the batch) hold their pair back.
  const left = groups.length
    ? rowsOf<{ oco_group: number }>(
        await tx.execute(sql`
          select oco_group from contract_orders
          where oco_group in (${idList(groups)}) and status = 'waiting' and id not in (${idList([...ids])})`),
      ).map((row) => Number(row.oco_group))
    : [];
  const ending = claimed.filter((order) => order.oco_group === null || !left.includes(Number(order.oco_group)));
  if (ending.length) {
    const endingIds = ending.map((order) => Number(order.id));
    const expired = rowsOf<Claimed>(
      await tx.execute(sql`
        update contract_orders set status = 'expired', cancelled_at = ${now.toISOString()}::timestamptz
        where id in (${idList(endingIds)}) and status = 'waiting'
        returning id, user_id, frozen_asset, frozen::text as frozen, practice`),
    );
    // Claimed FOR UPDATE by this transaction: anything else is a bug, and nothing must move.
    if (expired.length !== ending.length) throw new Error(`contract ${coin}: expired orders it had not claimed`);
    await postMany(
      tx,
      expired.flatMap((order) =>
        bucketMovePostings({
          userId: Number(order.user_id),
          asset: ledgerAsset(order.frozen_asset, isTrue(order.practice)),
          amount: order.frozen,
          from: 'frozen',
          kind: CONTRACT_ENTRY.expire,
          reference: contractReference(Number(order.id)),
        }),
      ),
      now,
    );
    await afterVoids(tx, endingIds, now);
  }
  return claimed.length;
}
