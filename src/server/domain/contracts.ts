// Coin-to-coin contracts: placing an order (a market order freezes what it may spend and fills at
// the first tick recorded after it was accepted; a limit order freezes what it needs and rests until
// a tick recorded after it was placed crosses it), revoking it, and the matching that fills both
// from recorded ticks only — exactly once, in time order. No order ever fills at a price recorded
// before it was accepted: whoever watches the exchanges could buy a move the tick has not caught up with.
// The amounts of a fill come from the API contract (fillAmounts, limitReserve): the form shows the same.
import Big from 'big.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import { isTrue, rowsOf, tableRow, type Executor, type Tx } from '../db/connection.ts';
import { contractOrders, contractPairs } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import {
  CONTRACT_PAGE_SIZE,
  checkOrderRules,
  fillAmounts,
  hasTrigger,
  limitReserve,
  marketReserve,
  notional,
  quantityForTotal,
  type ContractList,
  type ContractOrder,
  type ContractPair,
  type FillAmounts,
  type OrderFields,
  type OrderSide,
  type OrderType,
  type TriggerState,
  type VoidReason,
} from '../../api-contract/contracts.ts';
import type { TriggerLeg } from '../../api-contract/contract-triggers.ts';
import type { LedgerKind } from '../../api-contract/ledger-kinds.ts';
import type { PriceSource } from '../../api-contract/markets.ts';
import { Refusal, refusalOf } from './refusal.ts';
import { lastRecordedPrice, type MarketNow } from '../market/market.ts';
import { MAX_QUOTE_AGE_MS, answerConstituents, haltedRefusal, refuseWhileHalted, simulatedTick } from './prices.ts';
import {
  bucketMovePostings,
  freezeWithin,
  insertedRow,
  ledgerAsset,
  postMany,
  unfreeze,
  type Posting,
} from './ledger.ts';
import { queueNotices } from './notices.ts';
import { refusePreTrade } from './pre-trade-checks.ts';
import { pairRulesColumn, pairRulesOf } from './contract-pairs.ts';
import { CONTRACT_ENTRY, CONTRACT_REFERENCE_PREFIX, DUST_ENTRY, contractReference } from './contract-entries.ts';
import {
  afterCancel,
  afterFills,
  afterVoids,
  attachToOrder,
  expireLapsed,
  expiryOf,
  lapsedWaits,
  releaseReached,
} from './contract-triggers.ts';
import { stopMarketReserve, triggersAbove } from '../../api-contract/contract-triggers.ts';

export type ContractOrderRow = typeof contractOrders.$inferSelect;
type PairRow = typeof contractPairs.$inferSelect;

export { CONTRACT_ENTRY } from './contract-entries.ts';
const reference = contractReference;

/** The first amount the ledger's numeric(36, 8) columns cannot hold (10²⁸): no balance reaches it. */
const BEYOND_ANY_BALANCE = new Big(10).pow(28);

/** Refuses a reserve no balance can cover (insufficientBalance): a stop order's trigger is not held near the market, so
 * its price × quantity can pass what the ledger can write, which would fail the order's insert instead. */
function refuseBeyondAnyBalance(reserve: { amount: string }) {
  if (new Big(reserve.amount).gte(BEYOND_ANY_BALANCE)) throw new Refusal(texts.insufficientBalance.id);
}

export interface PlaceContract extends OrderFields {
  code: string;
  /** The pair's fee rate the customer confirmed (a decimal, 0.001 = 0.1 %): refused when the pair's is another now. */
  fee_rate?: string;
  /** Traded with the practice account's virtual money: its ledger assets are practiceAsset(...) ones. */
  practice?: boolean;
}

export function toPair(row: PairRow & { name: string }): ContractPair {
  return {
    code: row.coin,
    name: row.name,
    price_decimals: row.priceDecimals,
    quantity_decimals: row.quantityDecimals,
    min_notional: new Big(row.minNotional).toFixed(),
    fee_rate: new Big(row.feeRate).toFixed(),
    price_band: new Big(row.priceBand).toFixed(),
  };
}

/**
 * Places an order in `tx`. For a limit or a conditional order the pair's row is read FOR SHARE: a matching run of the
 * coin (which holds it FOR UPDATE) finishes first, so a resting order's first eligible tick is never one the matcher
 * has already passed. A market order reads it without a lock: the matcher never fills one (fillPendingMarketOrders
 * does, at the first tick recorded after its acceptance), so it neither waits for a matching run nor holds one up;
 * at 10,000 customers in the capacity bench, the runs' FOR UPDATE waited 11.8 ms on average behind placements. A
 * stop-market or stop-limit order waits for its trigger with its reserve frozen (a stop-limit what its limit would
 * freeze, a stop-market what stopMarketReserve says); a buy with a take-profit or stop-loss gets its legs attached,
 * waiting for it to fill. `known`: the halt and the latest price as the caller's process holds them (else read from
 * the tables). Refused (Refusal, nothing written) for a frozen account or a time-out, a pair not open to orders, a
 * halted coin, no price within MAX_QUOTE_AGE_MS, an order breaking the pair's rules, or too little to freeze.
 */
export async function placeContractOrder(
  tx: Tx,
  userId: number,
  input: PlaceContract,
  now: Date,
  known?: MarketNow,
): Promise<ContractOrderRow> {
  // A time-out is a break from trading: it holds for practice orders too. The pair's rules are read in the checks' own
  // statement, after their locks, and refused only after them, as when they were read apart.
  const { alsoRead } = await refusePreTrade(
    tx,
    userId,
    now,
    undefined,
    pairRulesColumn(input.code, input.type !== 'market'),
  );
  const practice = input.practice === true;
  const pair = pairRulesOf(alsoRead);
  if (!pair) throw new Refusal(texts.pairUnavailable.id);
  // The order takes the fee rate of the pair as read here, so it is this one the confirmed rate must be.
  if (input.fee_rate !== undefined && !new Big(input.fee_rate).eq(pair.fee_rate))
    throw new Refusal(serverTexts.contractFeeChanged.id, { 0: new Big(pair.fee_rate).times(100) });
  const priceDecimals = Number(pair.price_decimals);
  const quantityDecimals = Number(pair.quantity_decimals);
  if (!known) await refuseWhileHalted(tx, input.code);
  else if (known.halted) throw haltedRefusal(input.code);
  const quote = known ? known.quote : await lastRecordedPrice(tx, input.code);
  if (!quote || now.getTime() - quote.at.getTime() > MAX_QUOTE_AGE_MS) throw new Refusal(texts.priceUnavailable.id);
  const market = new Big(quote.price).toFixed();

  const checked = checkOrderRules(
    input,
    {
      price_decimals: priceDecimals,
      quantity_decimals: quantityDecimals,
      min_notional: pair.min_notional,
      price_band: pair.price_band,
    },
    market,
  );
  if ('broken' in checked) throw refusalOf({ ...checked.broken.text, values: checked.broken.values });
  const { quantity } = checked;

  const base = {
    userId,
    coin: input.code,
    side: input.side,
    type: input.type,
    price: input.type === 'limit' || input.type === 'stop_limit' ? input.price : null,
    quantity,
    totalAsked: input.type === 'market' && input.total !== '' ? new Big(input.total).toFixed(8) : null,
    feeRate: pair.fee_rate,
    createdAt: now,
    practice,
  };

  const legs = { takeProfit: input.take_profit ?? '', stopLoss: input.stop_loss ?? '' };
  const withLegs = async (order: ContractOrderRow) => {
    if (legs.takeProfit !== '' || legs.stopLoss !== '')
      await attachToOrder(tx, { id: order.id, userId, coin: input.code, practice }, legs, now);
    return order;
  };

  // One statement: the order inserted, then its reserve frozen (both buckets of the balance row, two entries) under
  // the order's reference, so the account's row is held from then on for the commit's round trip only.
  const insertAndFreeze = async (
    values: typeof contractOrders.$inferInsert & { frozenAsset: string; frozen: string },
  ) =>
    tableRow(
      contractOrders,
      await freezeWithin(
        tx,
        {
          userId,
          asset: ledgerAsset(values.frozenAsset, practice),
          amount: values.frozen,
          kind: CONTRACT_ENTRY.freeze,
        },
        insertedRow(
          sql`placed as (${tx.insert(contractOrders).values(values).returning().getSQL()})`,
          CONTRACT_REFERENCE_PREFIX,
        ),
        now,
      ),
    );

  if (input.type === 'market') {
    // Filled by fillPendingMarketOrders at the first tick after now; what it may spend is frozen until then.
    const reserve = marketReserve(input.side, input.code, market, quantity, input.total, pair.price_band);
    refuseBeyondAnyBalance(reserve);
    const order = await insertAndFreeze({
      ...base,
      status: 'filling',
      frozenAsset: reserve.asset,
      frozen: reserve.amount,
      eligibleAfter: now,
    });
    return withLegs(order);
  }

  // A limit, even one the latest recorded price already crosses, rests: only a tick recorded after now fills it; a
  // conditional order likewise waits for a tick recorded after now to reach its trigger.
  const trigger = input.trigger_price ?? '';
  const reserve =
    input.type === 'stop_market'
      ? stopMarketReserve(input.side, input.code, trigger, quantity, pair.price_band)
      : limitReserve(input.side, input.code, input.price, quantity, pair.fee_rate);
  refuseBeyondAnyBalance(reserve);
  const matchedThrough = new Date(pair.matched_through);
  const conditional = hasTrigger(input.type)
    ? {
        status: 'waiting',
        triggerPrice: trigger,
        triggerAbove: triggersAbove(input.side, null),
        expiresAt: expiryOf(now),
      }
    : { status: 'open' };
  const order = await insertAndFreeze({
    ...base,
    ...conditional,
    frozenAsset: reserve.asset,
    frozen: reserve.amount,
    eligibleAfter: now.getTime() > matchedThrough.getTime() ? now : matchedThrough,
  });
  return withLegs(order);
}

/**
 * One transaction's worth of market orders of `coin` waiting for their tick: each fills at the
 * first tick of its coin recorded after it was accepted, or after the tick that released it (tick time strictly after
 * eligible_after, which is its acceptance or its trigger tick) and
 * within MAX_QUOTE_AGE_MS of it, with the amounts of fillAmounts at that tick's price; a buy by
 * total gets the quantity its total buys there. With no such tick once that time has passed (a
 * halt), or a tick beyond what the order froze, the order is void and its funds released, the reason
 * kept. Claimed FOR UPDATE SKIP LOCKED and filled only while 'filling', so each fills or voids once. A small balance's
 * conversion (dust_conversion, domain/dust-conversion.ts) fills the same way, of its whole amount (the pair's step and
 * minimum do not apply: they are why it is converted), posted as dust_convert / dust_return, with no notice (the
 * customer waits for it on the screen).
 * Returns how many orders it finished.
 */
export async function fillPendingMarketOrders(tx: Tx, coin: string, now: Date, batch: number): Promise<number> {
  const freshness = `${MAX_QUOTE_AGE_MS} milliseconds`;
  const claimed = rowsOf<{
    id: number;
    user_id: number;
    side: OrderSide;
    quantity: string;
    total_asked: string | null;
    fee_rate: string;
    frozen_asset: string;
    frozen: string;
    quantity_decimals: number;
    min_notional: string;
    tick_price: string | null;
    tick_at: Date | string | null;
    /** The tick came from the simulated feed (it carries no exchanges' prices). */
    simulated: boolean | string;
    practice: boolean | string;
    dust_conversion: boolean | string;
  }>(
    await tx.execute(sql`
      select o.id, o.user_id, o.side, o.quantity::text as quantity, o.total_asked::text as total_asked, o.fee_rate::text as fee_rate,
        o.frozen_asset, o.frozen::text as frozen, o.practice, o.dust_conversion, p.quantity_decimals, p.min_notional::text as min_notional, tick.price::text as tick_price, tick.at as tick_at,
        ${simulatedTick(sql`tick`)} as simulated
      from contract_orders o
      join contract_pairs p on p.coin = o.coin
      left join lateral (
        select t.price, t.at, t.constituents from price_ticks t
        where t.coin = o.coin and t.at > o.eligible_after and t.at <= o.eligible_after + ${freshness}::interval
        order by t.at limit 1
      ) tick on true
      where o.coin = ${coin} and o.status = 'filling' and (tick.at is not null or o.eligible_after < ${now.toISOString()}::timestamptz - ${freshness}::interval)
      order by o.eligible_after, o.id
      limit ${batch}
      for update of o skip locked`),
  );
  if (!claimed.length) return 0;
  // Set-based: every amount is worked out here first, then one UPDATE writes the batch's orders (fills and voids
  // alike), one postMany its ledger entries, one insert its notices. The orders are locked by this transaction and
  // each is finished only while 'filling', so the batch is all or nothing, and exactly once.
  const done = claimed.map((order) => {
    const fill = order.tick_price === null ? null : marketFill(order, coin, order.tick_price);
    return {
      order,
      fill: fill && !('void' in fill) ? fill : null,
      reason: (fill && 'void' in fill ? fill.void : 'no_price') as VoidReason,
    };
  });
  const text = (value: string | null) => (value === null ? sql`null::text` : sql`${value}::text`);
  const values = sql.join(
    done.map(({ order, fill, reason }) => {
      const amounts = fill?.amounts;
      const tickAt = fill ? new Date(order.tick_at!).toISOString() : null;
      return sql`(${Number(order.id)}::int, ${fill ? 'filled' : 'void'}::text, ${text(fill ? null : reason)},
        ${text(fill?.quantity ?? null)}::numeric, ${text(fill ? new Big(order.tick_price!).toFixed() : null)}::numeric,
        ${text(amounts?.total ?? null)}::numeric, ${text(amounts?.fee ?? null)}::numeric, ${text(amounts?.fee_asset ?? null)},
        ${text(amounts?.spent ?? null)}::numeric, ${text(amounts?.spent_asset ?? null)},
        ${text(amounts?.received ?? null)}::numeric, ${text(amounts?.received_asset ?? null)},
        ${text(fill ? order.tick_price : null)}::numeric, ${text(tickAt)}::timestamptz)`;
    }),
    sql`, `,
  );
  const nowAt = now.toISOString();
  const updated = await tx.execute(sql`
    update contract_orders o
    set status = v.status, void_reason = v.void_reason,
      cancelled_at = case when v.status = 'void' then ${nowAt}::timestamptz else o.cancelled_at end,
      -- A void keeps what the order held; only a fill writes its amounts.
      quantity = coalesce(v.quantity, o.quantity),
      dealt_quantity = case when v.status = 'filled' then v.quantity else o.dealt_quantity end,
      unit_price = case when v.status = 'filled' then v.unit_price else o.unit_price end,
      total = case when v.status = 'filled' then v.total else o.total end,
      fee = case when v.status = 'filled' then v.fee else o.fee end,
      fee_asset = case when v.status = 'filled' then v.fee_asset else o.fee_asset end,
      spent = case when v.status = 'filled' then v.spent else o.spent end,
      spent_asset = case when v.status = 'filled' then v.spent_asset else o.spent_asset end,
      received = case when v.status = 'filled' then v.received else o.received end,
      received_asset = case when v.status = 'filled' then v.received_asset else o.received_asset end,
      tick_price = case when v.status = 'filled' then v.tick_price else o.tick_price end,
      tick_at = case when v.status = 'filled' then v.tick_at else o.tick_at end,
      -- A tick recorded after this run took its time is still the fill's: the fill is never stamped before its tick.
      filled_at = case when v.status = 'filled' then greatest(${nowAt}::timestamptz, v.tick_at) else o.filled_at end,
      tick_constituents = case when v.status = 'filled'
        then (select t.constituents from price_ticks t where t.coin = o.coin and t.at = v.tick_at)
        else o.tick_constituents end
    from (values ${values}) as v(id, status, void_reason, quantity, unit_price, total, fee, fee_asset, spent, spent_asset,
      received, received_asset, tick_price, tick_at)
    where o.id = v.id and o.status = 'filling'
    returning o.id`);
  // The rows are locked by this transaction: anything else is a bug, and nothing must be paid.
  if (rowsOf(updated).length !== done.length) throw new Error('market fills claimed orders they could not finish');
  await postMany(
    tx,
    done.flatMap(({ order, fill }) => {
      const id = Number(order.id);
      const userId = Number(order.user_id);
      const practice = isTrue(order.practice);
      const dust = isTrue(order.dust_conversion);
      if (fill)
        return tradePostings(
          id,
          userId,
          fill.amounts,
          { asset: order.frozen_asset, amount: order.frozen },
          practice,
          dust ? DUST_ENTRY.trade : CONTRACT_ENTRY.trade,
        );
      // A void releases what the order froze, as unfreeze() would: out of frozen, back to available.
      return bucketMovePostings({
        userId,
        asset: ledgerAsset(order.frozen_asset, practice),
        amount: order.frozen,
        from: 'frozen',
        kind: dust ? DUST_ENTRY.void : CONTRACT_ENTRY.void,
        reference: reference(id),
      });
    }),
    now,
  );
  const filled = done.filter(({ fill }) => fill !== null);
  await queueNotices(
    tx,
    filled
      .filter(({ order }) => !isTrue(order.dust_conversion))
      .map(({ order, fill }) => ({
        userId: Number(order.user_id),
        notice: {
          kind: 'contract_filled' as const,
          id: Number(order.id),
          coin,
          side: order.side,
          quantity: fill!.quantity,
          price: new Big(order.tick_price!).toFixed(),
          practice: isTrue(order.practice),
          simulated: isTrue(order.simulated),
        },
      })),
    now,
  );
  await afterVoids(
    tx,
    done.filter(({ fill }) => fill === null).map(({ order }) => Number(order.id)),
    now,
  );
  await afterFills(
    tx,
    coin,
    filled.map(({ order }) => Number(order.id)),
    null,
    now,
  );
  return claimed.length;
}

/** A waiting market order's fill at `price`, or why it cannot fill there. A small balance's conversion sells its whole
 * amount, whatever the pair's step and minimum. */
function marketFill(
  order: {
    side: OrderSide;
    quantity: string;
    total_asked: string | null;
    fee_rate: string;
    frozen: string;
    quantity_decimals: number;
    min_notional: string;
    dust_conversion: boolean | string;
  },
  coin: string,
  price: string,
): { quantity: string; amounts: FillAmounts } | { void: VoidReason } {
  if (isTrue(order.dust_conversion)) {
    const quantity = new Big(order.quantity).toFixed(8);
    return { quantity, amounts: fillAmounts('sell', 'market', coin, price, quantity, order.fee_rate) };
  }
  const decimals = Number(order.quantity_decimals);
  const quantity =
    order.total_asked !== null
      ? quantityForTotal(order.total_asked, price, decimals)
      : new Big(order.quantity).toFixed(decimals);
  // A buy by total checked the pair's minimum at the price of its acceptance; at the fill's it must hold too. An order
  // of a quantity was checked when accepted: a sell (a stop-loss above all) fills at its tick, however low.
  if (new Big(quantity).eq(0)) return { void: 'price_moved' };
  if (order.total_asked !== null && notional(price, quantity).lt(order.min_notional)) return { void: 'price_moved' };
  const amounts = fillAmounts(order.side, 'market', coin, price, quantity, order.fee_rate);
  if (new Big(amounts.spent).gt(order.frozen)) return { void: 'price_moved' };
  return { quantity, amounts };
}

/**
 * The ledger entries of a fill: what was spent leaves the available balance (or, for a resting
 * order, the frozen one, with any excess reserve returned), what was received arrives. A practice
 * order's amounts (plain assets, as the order keeps them) move the practice account's assets.
 */
function tradePostings(
  id: number,
  userId: number,
  amounts: FillAmounts,
  reserved: { asset: string; amount: string } | null,
  practice: boolean,
  kind: LedgerKind = CONTRACT_ENTRY.trade,
): Posting[] {
  const ref = reference(id);
  const asset = (plain: string) => ledgerAsset(plain, practice);
  const postings: Posting[] = [];
  if (reserved) {
    postings.push({
      userId,
      asset: asset(reserved.asset),
      amount: new Big(reserved.amount).neg().toFixed(8),
      kind,
      reference: ref,
      bucket: 'frozen',
    });
    const excess = new Big(reserved.amount).minus(amounts.spent);
    if (excess.lt(0)) throw new Error(`contract ${id}: the fill costs more than was reserved`);
    postings.push({ userId, asset: asset(reserved.asset), amount: excess.toFixed(8), kind, reference: ref });
  } else {
    postings.push({
      userId,
      asset: asset(amounts.spent_asset),
      amount: new Big(amounts.spent).neg().toFixed(8),
      kind,
      reference: ref,
    });
  }
  postings.push({ userId, asset: asset(amounts.received_asset), amount: amounts.received, kind, reference: ref });
  return postings;
}

/**
 * Revokes the caller's open, waiting or attached order and returns what it froze (a waiting OCO leg hands its reserve
 * to the other leg instead, while that one waits; legs attached to the order go with it). The caller's own order that
 * is no longer open (filled, being filled at its tick, revoked) is refused as such; another's order or an unknown id
 * as 'Cancellation failed', which says nothing of it.
 */
export async function cancelContractOrder(tx: Tx, userId: number, id: number, now: Date): Promise<ContractOrderRow> {
  const [order] = await tx
    .update(contractOrders)
    .set({ status: 'cancelled', cancelledAt: now })
    .where(
      and(
        eq(contractOrders.id, id),
        eq(contractOrders.userId, userId),
        inArray(contractOrders.status, ['open', 'waiting', 'attached']),
      ),
    )
    .returning();
  if (!order) {
    // Trying again could never revoke the caller's own order once it left the book: say so. Someone else's order or an
    // unknown id: the same answer as always, nothing learnt.
    const [own] = await tx
      .select({ id: contractOrders.id })
      .from(contractOrders)
      .where(and(eq(contractOrders.id, id), eq(contractOrders.userId, userId)));
    throw new Refusal(own ? serverTexts.orderNotOpen.id : texts.cancellationFailed.id);
  }
  if (await afterCancel(tx, order, now)) {
    await tx.update(contractOrders).set({ frozen: '0' }).where(eq(contractOrders.id, order.id));
    return { ...order, frozen: '0.00000000' };
  }
  const frozenAsset = ledgerAsset(order.frozenAsset, order.practice);
  await unfreeze(tx, userId, frozenAsset, order.frozen, CONTRACT_ENTRY.cancel, reference(order.id), now);
  return order;
}

/** Recorded ticks of one coin a matching transaction looks at, at most (a catch-up after downtime goes window by
 * window). */
export const MATCH_WINDOW_TICKS = 3_600;

export interface MatchResult {
  filled: number;
  /** Conditional orders released (triggered) by this transaction. */
  released?: number;
  /** Whether another transaction should follow at once (a full batch, or more ticks waiting). */
  more: boolean;
}

/**
 * One matching transaction of one coin. Holds the pair's row FOR UPDATE (one matcher per coin at a
 * time, placements wait), takes the recorded ticks after `matched_through` (a window), claims the
 * open limits some tick of the window crosses — through the partial indexes on price, so a tick
 * that crosses nothing reads nothing of the book — each with the first tick that crosses it after
 * it became eligible, in tick-time order, FOR UPDATE SKIP LOCKED (a revoke in progress keeps its
 * row), and fills them at their limit price with their ledger entries. The window is done, and
 * `matched_through` advances, only when no crossed order of it is left open; then (in the next transaction, `more`,
 * when this one filled orders), and in a run that finds no tick after the mark (a quiet or halted coin), the waiting
 * orders whose lifetime is over expire (expireLapsed), so a stop on a coin with no new prices still expires at its
 * time. `beforeCommit` lets tests crash a run between claim and commit.
 */
export async function matchCrossedOrders(
  tx: Tx,
  coin: string,
  now: Date,
  batch: number,
  beforeCommit?: () => void,
): Promise<MatchResult> {
  // The pair's row locked and the window of ticks after its mark read in one statement (one round trip less with the
  // lock held). The lock is taken before the window is read: a mark another matcher moved meanwhile is the one read
  // (PostgreSQL re-reads a row it waited for), while the ticks are those of the statement's start; a tick committed
  // while it waited is left for the next run, never skipped, because the window ends at the last tick it saw.
  const [window] = rowsOf<{
    matched_through: Date | string;
    upto: Date | string | null;
    low: string | null;
    high: string | null;
    ticks: number | string;
    lapsed: boolean | string;
  }>(
    await tx.execute(sql`
      select p.matched_through, w.upto, w.low, w.high, w.ticks, ${lapsedWaits(coin, now)} as lapsed
      from (select coin, matched_through from contract_pairs where coin = ${coin} for update) p
      cross join lateral (
        select max(at) as upto, min(price)::text as low, max(price)::text as high, count(*)::int as ticks
        from (
          select at, price from price_ticks where coin = ${coin} and at > p.matched_through order by at limit ${MATCH_WINDOW_TICKS}
        ) ticks
      ) w`),
  );
  if (!window) return { filled: 0, more: false };
  if (!window.upto) {
    // No tick since the mark: waiting orders still expire at their time, the coin's feed quiet or not.
    const expired = isTrue(window.lapsed) ? await expireLapsed(tx, coin, now, batch) : 0;
    return { filled: 0, more: expired === batch };
  }
  const through = new Date(window.matched_through).toISOString();
  const upto = new Date(window.upto).toISOString();
  // Conditional orders first: a stop-limit released by a tick of the window rests from that tick on, and can fill at a
  // later one of the same window below.
  const triggers = await releaseReached(
    tx,
    coin,
    { window: { through, upto, low: window.low!, high: window.high! } },
    batch,
    now,
  );
  const crossed = (lock: boolean, limit: number) => sql`
    select o.id, o.user_id, o.side, o.price::text as price, o.quantity::text as quantity, o.fee_rate::text as fee_rate,
      o.frozen_asset, o.frozen::text as frozen, o.practice, tick.price::text as tick_price, tick.at as tick_at,
      ${simulatedTick(sql`tick`)} as simulated
    from contract_orders o
    cross join lateral (
      select t.at, t.price, t.constituents from price_ticks t
      where t.coin = o.coin and t.at > greatest(o.eligible_after, ${through}::timestamptz) and t.at <= ${upto}::timestamptz
        and (case when o.side = 'buy' then t.price <= o.price else t.price >= o.price end)
      order by t.at limit 1
    ) tick
    where o.coin = ${coin} and o.status = 'open'
      and ((o.side = 'buy' and o.price >= ${window.low}::numeric) or (o.side = 'sell' and o.price <= ${window.high}::numeric))
    order by tick.at, o.id
    limit ${limit}
    ${lock ? sql`for update of o skip locked` : sql``}`;
  const claimed = rowsOf<{
    id: number;
    user_id: number;
    side: OrderSide;
    price: string;
    quantity: string;
    fee_rate: string;
    frozen_asset: string;
    frozen: string;
    practice: boolean | string;
    tick_price: string;
    tick_at: Date | string;
    simulated: boolean | string;
  }>(await tx.execute(crossed(true, batch)));

  if (claimed.length) {
    const fills = claimed.map((order) => ({
      order,
      amounts: fillAmounts(order.side, 'limit', coin, order.price, order.quantity, order.fee_rate),
    }));
    const values = sql.join(
      fills.map(
        ({ order, amounts }) =>
          sql`(${Number(order.id)}::int, ${amounts.total}::numeric, ${amounts.fee}::numeric, ${amounts.fee_asset}::text, ${amounts.spent}::numeric, ${amounts.spent_asset}::text,
            ${amounts.received}::numeric, ${amounts.received_asset}::text, ${order.tick_price}::numeric, ${new Date(order.tick_at).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const updated = await tx.execute(sql`
      update contract_orders o
      set status = 'filled', unit_price = o.price, dealt_quantity = o.quantity, total = v.total, fee = v.fee, fee_asset = v.fee_asset,
        spent = v.spent, spent_asset = v.spent_asset, received = v.received, received_asset = v.received_asset,
        tick_price = v.tick_price, tick_at = v.tick_at, filled_at = greatest(${now.toISOString()}::timestamptz, v.tick_at),
        tick_constituents = (select t.constituents from price_ticks t where t.coin = o.coin and t.at = v.tick_at)
      from (values ${values}) as v(id, total, fee, fee_asset, spent, spent_asset, received, received_asset, tick_price, tick_at)
      where o.id = v.id and o.status = 'open'
      returning o.id`);
    // The rows are locked by this transaction: anything else is a bug, and nothing must be paid.
    if (rowsOf(updated).length !== fills.length) throw new Error('matching claimed orders it could not fill');
    const filledIds = fills.map(({ order }) => Number(order.id));
    await postMany(
      tx,
      fills.flatMap(({ order, amounts }) =>
        tradePostings(
          Number(order.id),
          Number(order.user_id),
          amounts,
          { asset: order.frozen_asset, amount: order.frozen },
          isTrue(order.practice),
        ),
      ),
      now,
    );
    await queueNotices(
      tx,
      fills.map(({ order }) => ({
        userId: Number(order.user_id),
        notice: {
          kind: 'contract_filled',
          id: Number(order.id),
          coin,
          side: order.side,
          quantity: order.quantity,
          price: order.price,
          practice: isTrue(order.practice),
          simulated: isTrue(order.simulated),
        },
      })),
      now,
    );
    await afterFills(tx, coin, filledIds, upto, now);
  }

  let more = claimed.length === batch || triggers.held;
  if (!more) {
    // A crossed order still open here is held by a revoke in progress: keep the window for the next run. The check
    // and the mark's move are one statement (one round trip less with the pair's row locked).
    const marked = await tx.execute(sql`
      update contract_pairs set matched_through = ${upto}::timestamptz
      where coin = ${coin} and not exists (${crossed(false, 1)})
      returning coin`);
    if (rowsOf(marked).length > 0 && claimed.length > 0) {
      // Every tick up to here has been checked, but the expiries go in the next transaction: their balance rows
      // locked after the fills' would break the (user, asset) order every batch locks in, and deadlock with another
      // coin's run.
      more = true;
    } else if (rowsOf(marked).length > 0) {
      // Every tick up to here has been checked against the waiting orders: those whose lifetime is over expire.
      const expired = await expireLapsed(tx, coin, now, batch);
      more = Number(window.ticks) === MATCH_WINDOW_TICKS || expired === batch;
    }
  }
  beforeCommit?.();
  return { filled: claimed.length, released: triggers.released, more };
}

/** A recorded price as the user reads it: every digit the feed gave, no padding zeros. */
const price = (value: string | null) => (value === null ? null : new Big(value).toFixed());

export function toContractOrder(row: ContractOrderRow, source: PriceSource): ContractOrder {
  return {
    id: row.id,
    code: row.coin,
    side: row.side as OrderSide,
    type: row.type as OrderType,
    status: row.status as ContractOrder['status'],
    price: price(row.price),
    practice: row.practice,
    quantity: row.quantity,
    total_asked: row.totalAsked,
    fee_rate: new Big(row.feeRate).toFixed(),
    frozen: row.frozen,
    frozen_asset: row.frozenAsset,
    dealt_quantity: row.dealtQuantity,
    unit_price: price(row.unitPrice),
    total: row.total,
    fee: row.fee,
    fee_asset: row.feeAsset,
    spent: row.spent,
    spent_asset: row.spentAsset,
    received: row.received,
    received_asset: row.receivedAsset,
    tick_price: price(row.tickPrice),
    tick_at: row.tickAt?.toISOString() ?? null,
    tick_constituents: answerConstituents(row.tickConstituents),
    created_at: row.createdAt.toISOString(),
    filled_at: row.filledAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    void_reason: (row.voidReason as VoidReason | null) ?? null,
    ...source,
    trigger_price: price(row.triggerPrice),
    trigger_above: row.triggerAbove,
    trigger_state: triggerState(row),
    trigger_tick_price: price(row.triggerTickPrice),
    trigger_tick_at: row.triggerTickAt?.toISOString() ?? null,
    triggered_at: row.triggeredAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    leg: (row.leg as TriggerLeg | null) ?? null,
    oco_group: row.ocoGroup,
    parent_id: row.parentId,
    dust_conversion: row.dustConversion,
  };
}

/** A conditional order's state as the lists show it (a release that voided reads as cancelled); null for a plain one.
 * */
function triggerState(row: ContractOrderRow): TriggerState | null {
  if (row.triggerPrice === null) return null;
  switch (row.status) {
    case 'waiting':
    case 'attached':
      return 'waiting';
    case 'open':
    case 'filling':
      return 'triggered';
    case 'filled':
      return 'filled';
    case 'expired':
      return 'expired';
    default:
      return 'cancelled';
  }
}

const byId = (direction: 'asc' | 'desc'): KeysetOrder<ContractOrderRow> => ({
  keys: [idKey(contractOrders.id, (row) => row.id)],
  direction,
});
const OLDEST_FIRST = byId('asc');
const NEWEST_FIRST = byId('desc');

/**
 * One page, by cursor (`cursor` '' for the head), of the user's orders of the real account or of the practice one: the
 * open ones oldest first (as they wait to fill), or the finished ones (filled or revoked) newest first; of one coin
 * when `code` is given.
 */
export async function contractOrdersOf(
  db: Executor,
  userId: number,
  list: ContractList,
  code: string,
  cursor: string,
  practice = false,
): Promise<CursorPage<ContractOrderRow>> {
  const open = list === 'open';
  const where = and(
    eq(contractOrders.userId, userId),
    eq(contractOrders.practice, practice),
    open
      ? inArray(contractOrders.status, ['open', 'filling', 'waiting', 'attached'])
      : inArray(contractOrders.status, ['filled', 'cancelled', 'void', 'expired']),
    code ? eq(contractOrders.coin, code) : undefined,
  );
  return keysetQuery(
    (after) => db.select().from(contractOrders).where(and(where, after)).$dynamic(),
    open ? OLDEST_FIRST : NEWEST_FIRST,
    { cursor },
    CONTRACT_PAGE_SIZE,
  );
}

/** The pairs a new order can use (coin listed, pair active), in the coin list's order. */
export async function activePairs(db: Executor): Promise<ContractPair[]> {
  const rows = rowsOf<PairRow & { name: string }>(
    await db.execute(sql`
      select p.coin, c.name, p.price_decimals as "priceDecimals", p.quantity_decimals as "quantityDecimals", p.min_notional::text as "minNotional",
        p.fee_rate::text as "feeRate", p.price_band::text as "priceBand", p.active, p.matched_through as "matchedThrough"
      from contract_pairs p join coins c on c.code = p.coin
      where p.active and c.active order by c.sort, c.code`),
  );
  return rows.map((row) =>
    toPair({ ...row, priceDecimals: Number(row.priceDecimals), quantityDecimals: Number(row.quantityDecimals) }),
  );
}
