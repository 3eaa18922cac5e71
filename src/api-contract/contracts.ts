// Coin-to-coin contracts: spot trading of each listed coin against USDT, by
// market or limit order, or by a conditional one (stop-market, stop-limit, take-profit / stop-loss), revocable while
// open or waiting. Orders fill only from price ticks recorded after they were accepted (a market order at the first
// one, a limit order at its own price once such a tick crosses it); a conditional order is released by the first such
// tick reaching its trigger (contract-triggers.ts) and then fills as a market or limit order does.
// The amounts of a fill are computed here, once: the order form shows them before submit and the
// server posts them to the ledger.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor, matching, optionalMatching, required } from './fields.ts';
import { ASSET_AMOUNTS, eachAssetOnce } from './asset-amounts.ts';
import { AMOUNT, Constituents } from './markets.ts';
import { texts } from './texts.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';
import { account } from './practice.ts';
import type { MessageDescriptor } from '@lingui/core';
import { TRIGGER_LEGS, onItsSide, triggerTexts, triggersAbove } from './contract-triggers.ts';

export const QUOTE_ASSET = 'USDT';

/** A pair: a listed coin against USDT, with its trading rules (our addition, set by the operator). */
export const ContractPair = shape({
  /** The coin traded, "BTC": the pair is BTC/USDT. */
  code: v.string(),
  name: v.string(),
  /** Prices are multiples of 10^-price_decimals (the tick size). */
  price_decimals: whole,
  /** Quantities are multiples of 10^-quantity_decimals (the step size). */
  quantity_decimals: whole,
  /** The least an order may be worth, in USDT. */
  min_notional: decimal,
  /** 0.001 = 0.1 % of what the fill is worth. */
  fee_rate: decimal,
  /** 0.1: a limit price at most 10 % away from the latest recorded price (fat-finger guard). */
  price_band: decimal,
});
export type ContractPair = v.InferOutput<typeof ContractPair>;
export const contractPairs = get('/coin/trans/pairs', NoInput, returns(Paged(ContractPair)), {
  cache: 'user',
  auth: false,
});

export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
/** stop_market: a market order released when a recorded tick reaches its trigger price; stop_limit: a limit order
 * released so (take-profit and stop-loss legs are stop-market orders). */
export const ORDER_TYPES = ['market', 'limit', 'stop_market', 'stop_limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** Whether an order of `type` names a limit price (limit, stop-limit). */
export const hasLimitPrice = (type: OrderType) => type === 'limit' || type === 'stop_limit';
/** Whether an order of `type` waits for a trigger price (stop-market, stop-limit). */
export const hasTrigger = (type: OrderType) => type === 'stop_market' || type === 'stop_limit';
/** filling: a market order waiting (about a second) for the first tick after it was accepted (or after its trigger);
 * void: it got none in time, or one beyond what it froze; waiting: a conditional order waiting for its trigger;
 * attached: a take-profit / stop-loss leg waiting for the order it is attached to to fill; expired: a conditional order
 * never triggered within its lifetime (its reserve returned). */
export const CONTRACT_STATUSES = [
  'open',
  'filling',
  'filled',
  'cancelled',
  'void',
  'waiting',
  'attached',
  'expired',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
/** Why a market order did not fill (its funds were released): no tick in time after it was accepted, or one beyond what
 * it froze. */
export const VOID_REASONS = ['no_price', 'price_moved'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];
/** A conditional order's state as the lists show it: waiting for its trigger (or for the order it is attached to),
 * triggered (released, filling or resting), filled, cancelled (by the customer, its OCO sibling's fill, or a release
 * that could not fill), expired. */
export const TRIGGER_STATES = ['waiting', 'triggered', 'filled', 'cancelled', 'expired'] as const;
export type TriggerState = (typeof TRIGGER_STATES)[number];

export const ContractOrder = shape({
  id: whole,
  code: v.string(),
  side: v.picklist(ORDER_SIDES),
  type: v.picklist(ORDER_TYPES),
  status: v.picklist(CONTRACT_STATUSES),
  /** The limit price; null for a market order. */
  price: v.nullable(decimal),
  /** The quantity asked (for a market buy by USDT total: the quantity that total bought). */
  quantity: decimal,
  /** A market buy by USDT total: the total asked. */
  total_asked: v.nullable(decimal),
  fee_rate: decimal,
  /** Held while open or filling: USDT of a buy (a limit's price × quantity + fee; a market buy's total, or its cost
   * within the price band), the coin of a sell. */
  frozen: decimal,
  frozen_asset: v.string(),
  /** The quantity dealt: 0 until filled, then all of it. */
  dealt_quantity: decimal,
  /** The unit price it filled at: a market order at its tick's, a limit at its own (even one the market crossed when
   * placed: it rests, and fills at its price at the next tick that crosses it). */
  unit_price: v.nullable(decimal),
  /** Unit price × dealt quantity, in USDT. */
  total: v.nullable(decimal),
  fee: v.nullable(decimal),
  fee_asset: v.nullable(v.string()),
  /** What left the balance, and what arrived. */
  spent: v.nullable(decimal),
  spent_asset: v.nullable(v.string()),
  received: v.nullable(decimal),
  received_asset: v.nullable(v.string()),
  /** The recorded tick it filled at: its price and time. */
  tick_price: v.nullable(decimal),
  tick_at: v.nullable(isoTime),
  /** What the fill tick was made of, when the market index recorded it. */
  tick_constituents: Constituents,
  created_at: isoTime,
  filled_at: v.nullable(isoTime),
  cancelled_at: v.nullable(isoTime),
  /** A void order: why it did not fill. */
  void_reason: v.optional(v.nullable(v.picklist(VOID_REASONS)), null),
  simulated: v.boolean(),
  seeded: v.boolean(),
  exchanges: whole,
  /** Traded with the practice account's virtual money. */
  practice: v.boolean(),
  /** A conditional order: the trigger price, and whether it waits for a tick at or above it (else at or below). */
  trigger_price: v.optional(v.nullable(decimal), null),
  trigger_above: v.optional(v.nullable(v.boolean()), null),
  /** Null for a plain market or limit order. */
  trigger_state: v.optional(v.nullable(v.picklist(TRIGGER_STATES)), null),
  /** The recorded tick that released it (price and time), and when the matcher did. */
  trigger_tick_price: v.optional(v.nullable(decimal), null),
  trigger_tick_at: v.optional(v.nullable(isoTime), null),
  triggered_at: v.optional(v.nullable(isoTime), null),
  /** A waiting conditional order not released by then expires. */
  expires_at: v.optional(v.nullable(isoTime), null),
  /** A take-profit or stop-loss leg. */
  leg: v.optional(v.nullable(v.picklist(TRIGGER_LEGS)), null),
  /** Both legs of one OCO pair carry the same number: when one fills, the other is cancelled. */
  oco_group: v.optional(v.nullable(whole), null),
  /** The order this leg is attached to (it holds what that order bought once filled). */
  parent_id: v.optional(v.nullable(whole), null),
  /** A small balance converted to USDT (convertSmallBalances): a market sell of an amount the pair's rules refuse. */
  dust_conversion: v.optional(v.boolean(), false),
});
export type ContractOrder = v.InferOutput<typeof ContractOrder>;

const coinCode = matching(/^[A-Z0-9]{2,10}$/, texts.chooseCoin, texts.coinUnknown);

/**
 * A limit order needs a price and a quantity; a market buy a quantity or a USDT total; a market
 * sell a quantity; a stop-market order a trigger price and a quantity, a stop-limit both prices and a quantity. A buy
 * may carry a take-profit and/or a stop-loss price: sell legs (an OCO pair when both) that wait until it fills.
 * Missing or malformed fields answer the validation texts below ('Please enter the price!', …).
 */
export const PlaceContractInput = v.pipe(
  v.object({
    code: coinCode,
    side: v.picklist(ORDER_SIDES, texts.chooseSide.id),
    type: v.picklist(ORDER_TYPES, texts.chooseOrderType.id),
    price: optionalMatching(AMOUNT, texts.priceFormat),
    quantity: optionalMatching(AMOUNT, texts.quantityFormat),
    /** A market buy only: spend this much USDT instead of naming a quantity. */
    total: optionalMatching(AMOUNT, texts.amountFormat),
    /** A stop-market or stop-limit order: the recorded price that releases it. */
    trigger_price: optionalMatching(AMOUNT, triggerTexts.triggerPriceFormat),
    /** A buy only: the take-profit and stop-loss legs' trigger prices ('' for none). */
    take_profit: optionalMatching(AMOUNT, triggerTexts.triggerPriceFormat),
    stop_loss: optionalMatching(AMOUNT, triggerTexts.triggerPriceFormat),
    account,
    /**
     * Our addition: the pair's fee rate the customer was shown and confirmed (its `fee_rate` as listed, 0.001 = 0.1 %).
     * When sent, an order on a pair whose fee rate is another one now (an operator changed it meanwhile) is refused
     * rather than charged a fee the customer never saw; without it the order takes the pair's fee rate of the moment.
     */
    fee_rate: v.optional(matching(/^\d{1,4}(?:\.\d{1,8})?$/, texts.invalidRequest)),
  }),
  v.check((input) => !hasLimitPrice(input.type) || input.price !== '', texts.enterPrice.id),
  v.check((input) => !hasTrigger(input.type) || input.trigger_price !== '', triggerTexts.enterTriggerPrice.id),
  v.check((input) => hasTrigger(input.type) || input.trigger_price === '', texts.invalidRequest.id),
  v.check((input) => hasLimitPrice(input.type) || input.price === '', texts.invalidRequest.id),
  v.check(
    (input) => (input.take_profit === '' && input.stop_loss === '') || input.side === 'buy',
    triggerTexts.takeProfitStopLossBuyOnly.id,
  ),
  v.check(
    (input) => input.quantity !== '' || (input.type === 'market' && input.side === 'buy' && input.total !== ''),
    texts.enterQuantity.id,
  ),
  v.check(
    (input) => input.total === '' || (input.type === 'market' && input.side === 'buy' && input.quantity === ''),
    texts.invalidRequest.id,
  ),
);
export type PlaceContractFields = v.InferInput<typeof PlaceContractInput>;
/** Places an order; answers it (a market order filling at the next tick, a limit open). */
export const placeContract = post('/coin/trans/add', PlaceContractInput, returns(ContractOrder));

/**
 * Attaches a take-profit and/or a stop-loss (sell legs; an OCO pair when both) to the caller's coin held — a position:
 * `order_id` '' and the quantity to protect, frozen at once — or to one of the caller's open or waiting buy orders
 * (`order_id`, `quantity` ''): its legs wait until it fills, then hold what it bought. Answers the legs placed.
 */
export const AttachTakeProfitStopLossInput = v.pipe(
  v.object({
    code: coinCode,
    order_id: v.optional(
      v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d{1,9}$/, texts.invalidRequest.id))]),
      '',
    ),
    quantity: optionalMatching(AMOUNT, texts.quantityFormat),
    take_profit: optionalMatching(AMOUNT, triggerTexts.triggerPriceFormat),
    stop_loss: optionalMatching(AMOUNT, triggerTexts.triggerPriceFormat),
    account,
  }),
  v.check((input) => input.take_profit !== '' || input.stop_loss !== '', triggerTexts.enterTakeProfitOrStopLoss.id),
  v.check((input) => input.order_id !== '' || input.quantity !== '', texts.enterQuantity.id),
  v.check((input) => input.order_id === '' || input.quantity === '', texts.invalidRequest.id),
);
export type AttachTakeProfitStopLossFields = v.InferInput<typeof AttachTakeProfitStopLossInput>;
export const attachTakeProfitStopLoss = post(
  '/coin/trans/tpsl',
  AttachTakeProfitStopLossInput,
  returns(Paged(ContractOrder)),
);

/** Revokes the caller's open or waiting order; what was frozen returns (an OCO leg's reserve passes to the other
 * leg while that one waits). */
export const cancelContract = post(
  '/coin/trans/close',
  v.object({ id: required(texts.cancellationFailed) }),
  returns(ContractOrder),
);

export const CONTRACT_LISTS = ['open', 'history'] as const;
export type ContractList = (typeof CONTRACT_LISTS)[number];
export const CONTRACT_PAGE_SIZE = 20;
/** The caller's open orders (filling, waiting and attached ones too, oldest first) or history (filled, cancelled, void
 * and expired, newest first), of one pair or all. */
export const contractOrders = post(
  '/coin/trans/lists',
  v.object({
    status: v.optional(v.picklist(CONTRACT_LISTS, texts.invalidRequest.id), 'open'),
    code: v.optional(v.union([v.literal(''), coinCode]), ''),
    cursor,
    account,
  }),
  returns(CursorPaged(ContractOrder)),
  { cache: 'user', readOnly: true },
);

/**
 * Converts the caller's small balances ("dust") into USDT: for the real account only, every coin of an open pair whose
 * available amount the pair's sell rule refuses whole (dustOf) becomes a market sell of exactly that amount, frozen at
 * once and filled like every market order at the first tick of its coin recorded after the request was accepted, at
 * that tick's price less the pair's sell fee (fillAmounts), the USDT rounded down to the ledger's 8 decimals. Frozen
 * amounts are never touched. `amounts` (asset-amounts.ts ASSET_AMOUNTS: each coin with the amount shown, at most 50) is
 * what the customer confirmed: the conversion goes ahead only when the coins and amounts that are dust when it is
 * accepted are exactly those, else it is refused (smallBalancesChanged, nothing written), so nothing is converted that
 * the customer was not shown. Answers the orders accepted ('filling'); refused (noSmallBalances, nothing written) when
 * no coin has such an amount. Like every write, an Idempotency-Key makes a retry answer the first answer again.
 */
export const convertSmallBalances = post(
  '/coin/trans/dust',
  v.object({ amounts: v.pipe(matching(ASSET_AMOUNTS, texts.invalidRequest), eachAssetOnce(texts.invalidRequest)) }),
  returns(Paged(ContractOrder)),
);

export const PairAmounts = shape({
  code: v.string(),
  available: decimal,
  frozen: decimal,
  usdt_available: decimal,
  usdt_frozen: decimal,
});
export type PairAmounts = v.InferOutput<typeof PairAmounts>;
/** The caller's available and frozen amounts of a coin and of USDT. */
export const contractAmounts = post('/coin/user/amount', v.object({ code: coinCode, account }), returns(PairAmounts), {
  cache: 'user',
  readOnly: true,
});

// ---- The rules of a fill (decimals, never floats) -------------------------------------------------

/** Whether `value` has no more decimals than allowed (a multiple of the tick or step size). */
export const onGrid = (value: string, decimals: number) => new Big(value).round(decimals, Big.roundDown).eq(value);

/** One step of `decimals`: 2 → "0.01". */
export const gridStep = (decimals: number) => new Big(1).div(new Big(10).pow(decimals)).toFixed(decimals);

const down8 = (value: Big) => value.round(8, Big.roundDown);
const up8 = (value: Big) => value.round(8, Big.roundUp);

/** The quantity a USDT total buys at `price`, down to the step size. */
export function quantityForTotal(total: string, price: string, quantityDecimals: number): string {
  return new Big(total).div(price).round(quantityDecimals, Big.roundDown).toFixed(quantityDecimals);
}

/** What an order is worth at `price`: price × quantity, in USDT. */
export const notional = (price: string, quantity: string) => new Big(price).times(quantity);

/**
 * What an open limit order holds: a buy its cost and fee in USDT (price × quantity, rounded up to
 * 8 decimals, and the fee on it), a sell its quantity of the coin.
 */
export function limitReserve(
  side: OrderSide,
  code: string,
  price: string,
  quantity: string,
  feeRate: string,
): { asset: string; amount: string } {
  if (side === 'sell') return { asset: code, amount: new Big(quantity).toFixed(8) };
  const cost = up8(notional(price, quantity));
  return { asset: QUOTE_ASSET, amount: cost.plus(up8(cost.times(feeRate))).toFixed(8) };
}

/**
 * What a market order freezes while it waits for its tick: a sell its quantity of the coin; a buy
 * by USDT total that total; a buy by quantity its cost at the latest price moved by the pair's price
 * band (the fat-finger band), rounded up — a tick further away than that in one second voids it.
 * The form checks the available balance against the same amount.
 */
export function marketReserve(
  side: OrderSide,
  code: string,
  market: string,
  quantity: string,
  total: string,
  band: string,
): { asset: string; amount: string } {
  if (side === 'sell') return { asset: code, amount: new Big(quantity).toFixed(8) };
  if (total !== '') return { asset: QUOTE_ASSET, amount: new Big(total).toFixed(8) };
  return {
    asset: QUOTE_ASSET,
    amount: notional(market, quantity).times(new Big(1).plus(band)).round(8, Big.roundUp).toFixed(8),
  };
}

export interface FillAmounts {
  /** Unit price × quantity, in USDT. */
  total: string;
  fee: string;
  fee_asset: string;
  spent: string;
  spent_asset: string;
  received: string;
  received_asset: string;
}

/**
 * The amounts of a fill of `quantity` at `price`. A market order pays its fee out of what it
 * receives (what is spent is exactly what was asked); a limit buy pays it in USDT beside the cost,
 * as it reserved it, so the quantity asked is the quantity that arrives; a sell pays it out of the
 * USDT it receives. Amounts the user pays round up to 8 decimals, amounts the user receives down.
 */
export function fillAmounts(
  side: OrderSide,
  type: OrderType,
  code: string,
  price: string,
  quantity: string,
  feeRate: string,
): FillAmounts {
  const worth = notional(price, quantity);
  if (side === 'sell') {
    const gross = down8(worth);
    const fee = up8(gross.times(feeRate));
    return {
      total: gross.toFixed(8),
      fee: fee.toFixed(8),
      fee_asset: QUOTE_ASSET,
      spent: new Big(quantity).toFixed(8),
      spent_asset: code,
      received: gross.minus(fee).toFixed(8),
      received_asset: QUOTE_ASSET,
    };
  }
  const cost = up8(worth);
  if (type === 'market') {
    const fee = up8(new Big(quantity).times(feeRate));
    return {
      total: cost.toFixed(8),
      fee: fee.toFixed(8),
      fee_asset: code,
      spent: cost.toFixed(8),
      spent_asset: QUOTE_ASSET,
      received: new Big(quantity).minus(fee).toFixed(8),
      received_asset: code,
    };
  }
  const fee = up8(cost.times(feeRate));
  return {
    total: cost.toFixed(8),
    fee: fee.toFixed(8),
    fee_asset: QUOTE_ASSET,
    spent: cost.plus(fee).toFixed(8),
    spent_asset: QUOTE_ASSET,
    received: new Big(quantity).toFixed(8),
    received_asset: code,
  };
}

/** A limit is crossed by a recorded price: a buy at or below its price, a sell at or above. */
export const crosses = (side: OrderSide, limit: string, tick: string) =>
  side === 'buy' ? new Big(tick).lte(limit) : new Big(tick).gte(limit);

/** The fat-finger guard: a limit more than `band` (0.1 = 10 %) away from the market price. */
export const outsideBand = (limit: string, market: string, band: string) =>
  new Big(limit).minus(market).abs().gt(new Big(market).times(band));

/** A rule an order breaks: the text and its values. */
export interface OrderRuleBroken {
  text: MessageDescriptor;
  values?: Record<string, string>;
}

/**
 * An order's fields as the form holds them, the server places them and the rules check them: prices and amounts as
 * decimal strings (USDT, the coin), '' for a field the order's type does not use.
 */
export interface OrderFields {
  side: OrderSide;
  type: OrderType;
  /** The limit price (USDT); '' for market and stop-market orders. */
  price: string;
  /** The coin's quantity; '' for a market buy by total. */
  quantity: string;
  /** A market buy: the USDT to spend. */
  total: string;
  /** A stop-market or stop-limit order: the price (USDT) whose first recorded tick at or through it releases it. */
  trigger_price?: string;
  /** A buy: its take-profit and stop-loss legs' trigger prices (USDT; '' for none), sell legs that wait for it. */
  take_profit?: string;
  stop_loss?: string;
}

/**
 * The pair's trading rules, checked once for the form and the server: a limit price on the tick
 * size and within the band around the market price `market`, a quantity on the step size, and an
 * order worth at least the minimum. Answers the first rule broken, or the quantity the order has
 * (a market buy by USDT total: what the total buys at `market`). `input` passed the schema.
 */
export function checkOrderRules(
  input: OrderFields,
  pair: Pick<ContractPair, 'price_decimals' | 'quantity_decimals' | 'min_notional' | 'price_band'>,
  market: string,
): { broken: OrderRuleBroken } | { quantity: string } {
  const trigger = input.trigger_price ?? '';
  if (hasTrigger(input.type)) {
    if (new Big(trigger).eq(0)) return { broken: { text: texts.enterAlertPrice } };
    if (!onGrid(trigger, pair.price_decimals))
      return { broken: { text: triggerTexts.triggerOffTick, values: { 0: gridStep(pair.price_decimals) } } };
    const above = triggersAbove(input.side, null);
    if (!onItsSide(above, trigger, market))
      return {
        broken: { text: above ? triggerTexts.triggerNotAbove : triggerTexts.triggerNotBelow, values: { 0: market } },
      };
  }
  if (hasLimitPrice(input.type)) {
    if (new Big(input.price).eq(0)) return { broken: { text: texts.enterAlertPrice } };
    if (!onGrid(input.price, pair.price_decimals))
      return { broken: { text: texts.priceOffTick, values: { 0: gridStep(pair.price_decimals) } } };
    // A stop-limit's price is checked against its trigger: the market price when it is released.
    if (outsideBand(input.price, input.type === 'stop_limit' ? trigger : market, pair.price_band))
      return { broken: { text: texts.priceOutsideBand, values: { 0: new Big(pair.price_band).times(100).toFixed() } } };
  }
  const reference = hasLimitPrice(input.type) ? input.price : input.type === 'stop_market' ? trigger : market;
  const legs = checkLegs(input.take_profit ?? '', input.stop_loss ?? '', reference, pair.price_decimals);
  if (legs) return { broken: legs };
  if (input.quantity !== '' && !onGrid(input.quantity, pair.quantity_decimals))
    return { broken: { text: texts.quantityOffStep, values: { 0: gridStep(pair.quantity_decimals) } } };
  const quantity =
    input.quantity !== ''
      ? new Big(input.quantity).toFixed(pair.quantity_decimals)
      : quantityForTotal(input.total, market, pair.quantity_decimals);
  const worth = notional(reference, quantity);
  if (worth.lt(pair.min_notional) || new Big(quantity).eq(0))
    return { broken: { text: texts.belowMinimumNotional, values: { 0: new Big(pair.min_notional).toFixed() } } };
  return { quantity };
}

/**
 * The take-profit and stop-loss prices of sell legs protecting coin bought at (or worth) `reference`: each on the tick
 * size, the take-profit strictly above it, the stop-loss strictly below ('' for a leg not asked). Answers the first
 * rule broken, or null.
 */
export function checkLegs(
  takeProfit: string,
  stopLoss: string,
  reference: string,
  priceDecimals: number,
): OrderRuleBroken | null {
  for (const [leg, price] of [
    ['take_profit', takeProfit],
    ['stop_loss', stopLoss],
  ] as const) {
    if (price === '') continue;
    if (new Big(price).eq(0)) return { text: texts.enterAlertPrice };
    if (!onGrid(price, priceDecimals))
      return { text: triggerTexts.triggerOffTick, values: { 0: gridStep(priceDecimals) } };
    if (!onItsSide(triggersAbove('sell', leg), price, reference))
      return {
        text: leg === 'take_profit' ? triggerTexts.takeProfitNotAbove : triggerTexts.stopLossNotBelow,
        values: { 0: new Big(reference).toFixed() },
      };
  }
  return null;
}

/**
 * Whether an available `amount` of a pair's coin is dust at the market price `market`: more than 0, yet the pair's sell
 * rule (checkOrderRules) refuses every sell of it: a market sell, and a limit sell at the highest price the pair's band
 * allows around the market (a limit's minimum order is weighed at its own price, so an amount just under the minimum
 * at the market can still be sold by a limit above it). That is: rounded down to the step it is nothing, or even at
 * the band's top it is worth less than the pair's minimum order. 0.00000898 BTC on a 0.00001 step is dust; so is
 * 0.0001 BTC at 40,000 USDT when an order must be worth 5 USDT (4.40 USDT at a 10 % band's top).
 */
export function dustOf(
  amount: string,
  pair: Pick<ContractPair, 'price_decimals' | 'quantity_decimals' | 'min_notional' | 'price_band'>,
  market: string,
): boolean {
  if (!new Big(amount).gt(0)) return false;
  const quantity = new Big(amount).round(pair.quantity_decimals, Big.roundDown).toFixed(pair.quantity_decimals);
  const top = new Big(market)
    .times(new Big(1).plus(pair.price_band))
    .round(pair.price_decimals, Big.roundDown)
    .toFixed(pair.price_decimals);
  const sells = (type: 'market' | 'limit', price: string) =>
    !('broken' in checkOrderRules({ side: 'sell', type, price, quantity, total: '' }, pair, market));
  return !sells('market', '') && !sells('limit', top);
}

/** The USDT a conversion of `amount` of `code` brings at `price` (the fill's rule: fillAmounts of a market sell, the
 * fee out of it, rounded down to 8 decimals); the app shows it at the latest price as an estimate. */
export const dustProceeds = (code: string, amount: string, price: string, feeRate: string): string =>
  fillAmounts('sell', 'market', code, price, new Big(amount).toFixed(8), feeRate).received;
