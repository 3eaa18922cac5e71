// Coin-to-coin contracts: spot trading of each listed coin against USDT, by
// market or limit order, revocable while open. Orders fill only from price ticks recorded after
// they were accepted (a market order at the first one, a limit order at its own price once such a
// tick crosses it).
// The amounts of a fill are computed here, once: the order form shows them before submit and the
// server posts them to the ledger.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor, matching, optionalMatching, required } from './fields.ts';
import { AMOUNT, Constituents } from './markets.ts';
import { texts } from './texts.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';
import { account } from './practice.ts';
import type { MessageDescriptor } from '@lingui/core';

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
export const ORDER_TYPES = ['market', 'limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** filling: a market order waiting (about a second) for the first tick after it was accepted; void: it got none in
 * time, or one beyond what it froze. */
export const CONTRACT_STATUSES = ['open', 'filling', 'filled', 'cancelled', 'void'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
/** Why a market order did not fill (its funds were released): no tick in time after it was accepted, or one beyond what
 * it froze. */
export const VOID_REASONS = ['no_price', 'price_moved'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

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
  /** The unit price it filled at: a limit at its own price (or the market's, when already crossed when placed). */
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
});
export type ContractOrder = v.InferOutput<typeof ContractOrder>;

const coinCode = matching(/^[A-Z0-9]{2,10}$/, texts.chooseCoin, texts.coinUnknown);

/**
 * A limit order needs a price and a quantity; a market buy a quantity or a USDT total; a market
 * sell a quantity. Missing or malformed fields answer the validation texts below ('Please enter the price!', …).
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
    account,
  }),
  v.check((input) => input.type === 'market' || input.price !== '', texts.enterPrice.id),
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

/** Revokes the caller's open order; what was frozen returns. */
export const cancelContract = post(
  '/coin/trans/close',
  v.object({ id: required(texts.cancellationFailed) }),
  returns(ContractOrder),
);

export const CONTRACT_LISTS = ['open', 'history'] as const;
export type ContractList = (typeof CONTRACT_LISTS)[number];
export const CONTRACT_PAGE_SIZE = 20;
/** The caller's open orders (filling ones too, oldest first) or history (filled, cancelled and void, newest first),
 * of one pair or all. */
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
 * The pair's trading rules, checked once for the form and the server: a limit price on the tick
 * size and within the band around the market price `market`, a quantity on the step size, and an
 * order worth at least the minimum. Answers the first rule broken, or the quantity the order has
 * (a market buy by USDT total: what the total buys at `market`). `input` passed the schema.
 */
export function checkOrderRules(
  input: { side: OrderSide; type: OrderType; price: string; quantity: string; total: string },
  pair: Pick<ContractPair, 'price_decimals' | 'quantity_decimals' | 'min_notional' | 'price_band'>,
  market: string,
): { broken: OrderRuleBroken } | { quantity: string } {
  if (input.type === 'limit') {
    if (!onGrid(input.price, pair.price_decimals) || new Big(input.price).eq(0))
      return { broken: { text: texts.priceOffTick, values: { 0: gridStep(pair.price_decimals) } } };
    if (outsideBand(input.price, market, pair.price_band))
      return { broken: { text: texts.priceOutsideBand, values: { 0: new Big(pair.price_band).times(100).toFixed() } } };
  }
  if (input.quantity !== '' && !onGrid(input.quantity, pair.quantity_decimals))
    return { broken: { text: texts.quantityOffStep, values: { 0: gridStep(pair.quantity_decimals) } } };
  const quantity =
    input.quantity !== ''
      ? new Big(input.quantity).toFixed(pair.quantity_decimals)
      : quantityForTotal(input.total, market, pair.quantity_decimals);
  const worth = notional(input.type === 'limit' ? input.price : market, quantity);
  if (worth.lt(pair.min_notional) || new Big(quantity).eq(0))
    return { broken: { text: texts.belowMinimumNotional, values: { 0: new Big(pair.min_notional).toFixed() } } };
  return { quantity };
}
