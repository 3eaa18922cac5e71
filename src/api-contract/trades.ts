// Trade history: every fill of the caller's contract orders (real account), filtered by pair, side and a period of
// calendar days in the customer's time zone, and the profit and loss those fills realised by FIFO cost basis, per
// pair, with the options settled in the same period beside it. The app shows both and writes the fills as a CSV file
// (lib/csv.ts). Kept for offline reading like the other reads of a user.
//
// How fees enter the cost basis (the page and the CSV header say it too), all in USDT:
// - a buy's lot costs what left the balance for it (price × quantity, plus the fee when it was paid in USDT) and
//   holds what arrived (the quantity, less the fee when it was paid in the coin): either way the buy's fee is in its
//   cost;
// - a sell's proceeds are what arrived (price × quantity less the fee), so the sell's fee reduces its proceeds.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { texts } from './texts.ts';
import { CursorPaged } from './envelope.ts';
import { decimal, isoDay, isoTime, shape, signedDecimal, whole } from './answers.ts';
import { calendarDay } from './calendar.ts';
import { ORDER_SIDES, ORDER_TYPES } from './contracts.ts';

/** The longest period one request covers, in calendar days (a leap year, as a statement). */
export const TRADES_MAX_DAYS = 366;
/** Fills in one page of the history; the CSV asks page after page. */
export const TRADES_PAGE_SIZE = 50;

const pairCode = v.optional(
  v.union([v.literal(''), matching(/^[A-Z0-9]{2,10}$/, texts.chooseCoin, texts.coinUnknown)]),
  '',
);

/** The period and time zone every trade read takes: the first and the last day (both included), in `tz`. */
const period = {
  from: calendarDay(),
  to: calendarDay(),
  /** The customer's IANA time zone: the days run from its midnights. */
  tz: matching(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, texts.invalidRequest),
};

export const TradeFillsInput = v.object({
  /** One pair ("BTC" for BTC/USDT), or '' for all. */
  code: pairCode,
  /** 'buy', 'sell', or '' for both. */
  side: v.optional(v.picklist(['', ...ORDER_SIDES], texts.invalidRequest.id), ''),
  ...period,
  cursor,
});
export type TradeFillsInput = v.InferInput<typeof TradeFillsInput>;

/** One fill: a contract order fills whole, once, at one recorded tick. Amounts are 8-decimal strings. */
export const TradeFill = shape({
  /** The order's id. */
  id: whole,
  /** When it filled (UTC). */
  filled_at: isoTime,
  /** The coin of the pair: "BTC" for BTC/USDT. */
  code: v.string(),
  side: v.picklist(ORDER_SIDES),
  type: v.picklist(ORDER_TYPES),
  /** The unit price it filled at, in USDT. */
  price: decimal,
  /** The quantity dealt, of the coin. */
  quantity: decimal,
  /** Price × quantity, in USDT. */
  total: decimal,
  fee: decimal,
  /** USDT, or the coin when a market buy paid its fee out of what it received. */
  fee_asset: v.string(),
  /** What left the balance and what arrived. */
  spent: decimal,
  spent_asset: v.string(),
  received: decimal,
  received_asset: v.string(),
  /** The recorded tick it filled at: its price and time. */
  tick_price: decimal,
  tick_at: isoTime,
  /** True for a small balance's conversion to USDT (convertSmallBalances): a market sell the customer asked for as a
   * conversion, not one they placed. False when an answer kept from before the field leaves it out. */
  dust_conversion: v.optional(v.boolean(), false),
});
export type TradeFill = v.InferOutput<typeof TradeFill>;

/** The caller's fills in a period, newest first, of one pair and side or all; a page at a time by cursor. */
export const tradeFills = get('/users/trades', TradeFillsInput, returns(CursorPaged(TradeFill)), { cache: 'user' });

export const TradeResultsInput = v.object({ code: pairCode, ...period });
export type TradeResultsInput = v.InferInput<typeof TradeResultsInput>;

/** One pair's realised profit and loss over the period, and what is still held at cost at its end. In USDT unless
 * named otherwise. */
export const PairResult = shape({
  code: v.string(),
  /** Fills in the period. */
  buys: whole,
  sells: whole,
  /** Coin sold in the period. */
  quantity_sold: decimal,
  /** What the period's sells brought in (after their fees). */
  proceeds: decimal,
  /** The cost of the lots those sells consumed (their buys' fees included). */
  cost: decimal,
  /** proceeds − cost. */
  realised: signedDecimal,
  /** The fees of the period's fills, in USDT (a fee paid in the coin valued at its fill's price). */
  fees: decimal,
  /** Coin sold in the period with no recorded buy left to match it (brought in from outside trading): cost 0. */
  unmatched_quantity: decimal,
  /** The lots still held at the period's end: quantity of the coin and what it cost. */
  held_quantity: decimal,
  held_cost: decimal,
});
export type PairResult = v.InferOutput<typeof PairResult>;

/** The options settled in the period: how many, what they staked, paid back and the result (paid − staked). */
export const OptionsResult = shape({
  settled: whole,
  staked: decimal,
  paid: decimal,
  result: signedDecimal,
});
export type OptionsResult = v.InferOutput<typeof OptionsResult>;

export const TradeResults = shape({
  from: isoDay,
  to: isoDay,
  time_zone: v.string(),
  /** The period's bounds as instants: [starts_at, ends_at). */
  starts_at: isoTime,
  ends_at: isoTime,
  /** Pairs with a fill in the period or a lot held at its end, in code order. */
  pairs: v.pipe(v.array(PairResult), v.readonly()),
  /** Σ realised of the pairs. */
  realised: signedDecimal,
  options: OptionsResult,
});
export type TradeResults = v.InferOutput<typeof TradeResults>;

/**
 * The caller's realised profit and loss by FIFO cost basis over a period, per pair (one pair when `code` is given),
 * and the options settled in it.
 */
export const tradeResults = get('/users/trades/results', TradeResultsInput, returns(TradeResults), { cache: 'user' });
