// Short-term options (buy up or short, an expiry chosen in minutes, settled at expiry): the products, placing an
// order, the orders and their totals, and what a win pays. Prices come from markets.ts.
import Big from 'big.js';
import * as v from 'valibot';
import { get, post, returns } from './endpoint.ts';
import { cursor, matching, required } from './fields.ts';
import { texts } from './texts.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, isoTime, shape, signedDecimal, whole } from './answers.ts';
import { Constituents, amount, coinCode } from './markets.ts';
import { account } from './practice.ts';
import type { MessageDescriptor } from '@lingui/core';

/**
 * A stake of at least the product's minimum (1 USDT unless the operator set another), for the
 * trade form and the server alike: null, or the text broken with the minimum as written ("1", not "1.00000000").
 */
export function belowOptionMinimum(amount: string, minimum: string): MessageDescriptor | null {
  return new Big(amount).lt(minimum) ? { ...texts.minimumOption, values: { 0: new Big(minimum).toFixed() } } : null;
}

export const OptionProduct = shape({
  id: whole,
  code: v.string(),
  minutes: whole,
  /** 0.85 = 85 % profit on a win. */
  yield_rate: decimal,
  min_amount: decimal,
});
export type OptionProduct = v.InferOutput<typeof OptionProduct>;
/** Our addition: the option products of a coin (or of every coin). */
export const optionProducts = get(
  '/coin/option/products',
  v.object({ code: v.optional(coinCode) }),
  returns(Paged(OptionProduct)),
  { cache: 'public', auth: false },
);

export const DIRECTIONS = ['up', 'down'] as const;
export type Direction = (typeof DIRECTIONS)[number];
/**
 * void: no price was recorded in the 10 s after the order was accepted (it never opened: start_price
 * is null) or in the 10 s before its end time (the market data was unavailable): the stake is refunded.
 */
export const OPTION_OUTCOMES = ['win', 'loss', 'tie', 'void'] as const;
export type OptionOutcome = (typeof OPTION_OUTCOMES)[number];
export const OPTION_STATUSES = ['opening', 'holding', 'settled'] as const;
export type OptionStatus = (typeof OPTION_STATUSES)[number];
export const OptionOrder = shape({
  id: whole,
  code: v.string(),
  direction: v.picklist(DIRECTIONS),
  amount: decimal,
  minutes: whole,
  yield_rate: decimal,
  /** The first tick recorded after the order was accepted; null while opening (or void for want of one). */
  start_price: v.nullable(decimal),
  start_price_at: v.nullable(isoTime),
  start_constituents: Constituents,
  /** When the order was accepted and the stake debited. */
  start_at: isoTime,
  /** The start tick's time plus the product's minutes; null until the order opens. */
  end_at: v.nullable(isoTime),
  /** opening: accepted, waiting (about a second) for its start tick; holding: running; settled: done. */
  status: v.picklist(OPTION_STATUSES),
  end_price: v.nullable(decimal),
  end_price_at: v.nullable(isoTime),
  end_constituents: Constituents,
  outcome: v.nullable(v.picklist(OPTION_OUTCOMES)),
  payout: v.nullable(decimal),
  profit: v.nullable(signedDecimal),
  settled_at: v.nullable(isoTime),
  /** Seconds to the end time, from the server's clock (0 once due; the whole duration while opening). */
  remaining_seconds: whole,
  simulated: v.boolean(),
  seeded: v.boolean(),
  exchanges: whole,
  /** Traded with the practice account's virtual money. */
  practice: v.boolean(),
});
export type OptionOrder = v.InferOutput<typeof OptionOrder>;

export const PlaceOptionInput = v.object({
  code: coinCode,
  direction: v.picklist(['up', 'down'], texts.chooseDirection.id),
  product_id: matching(/^\d{1,9}$/, texts.chooseProduct),
  amount,
  account,
  /**
   * Our addition: the product's yield the customer was shown and confirmed (its `yield_rate` as listed, 0.85 = 85 %).
   * When sent, an order whose product's yield is another one now (an operator changed it meanwhile) is refused rather
   * than accepted at a yield the customer never saw; without it the order takes the product's yield of the moment.
   */
  yield_rate: v.optional(matching(/^\d{1,4}(?:\.\d{1,8})?$/, texts.invalidRequest)),
});
export const placeOption = post('/coin/order/add', PlaceOptionInput, returns(OptionOrder));

export const optionOrder = get(
  '/coin/order/info',
  v.object({ id: required(texts.orderNotFound) }),
  returns(OptionOrder),
);

export const OPTION_ORDER_STATUSES = ['holding', 'history'] as const;
/** Our addition: the caller's holding (pending, soonest end first) or history (settled, newest first) orders, by
 * cursor; `total` counts the whole list (the holdings' badge). */
export const optionOrders = get(
  '/coin/order/lists',
  v.object({
    status: v.optional(v.picklist(OPTION_ORDER_STATUSES, texts.invalidRequest.id), 'holding'),
    cursor,
    account,
  }),
  returns(CursorPaged(OptionOrder, shape({ total: whole }))),
);

export const OptionTotals = shape({
  holding_count: whole,
  holding_amount: decimal,
  settled_count: whole,
  wins: whole,
  losses: whole,
  ties: whole,
  total_profit: signedDecimal,
});
export type OptionTotals = v.InferOutput<typeof OptionTotals>;
export const optionTotals = get('/coin/order/total', v.object({ account }), returns(OptionTotals));

export const OPTION_PAGE_SIZE = 20;

/**
 * What a winning option pays back: stake × (1 + yield), rounded down to 8 decimals (never more
 * than was won). The settlement and the order form both use this one rule.
 */
export function winPayout(amount: string, yieldRate: string): string {
  return new Big(amount).times(new Big(1).plus(yieldRate)).round(8, Big.roundDown).toFixed(8);
}
