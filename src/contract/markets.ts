// Markets and short-term options (§1, §3, §7, §9): coin list, K-lines, prices, fiat rates,
// the live stream (our addition), option products, orders, balances.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, result } from './endpoint.ts';
import { matching, required } from './fields.ts';
import { texts } from './texts.ts';
import type { Paged } from './envelope.ts';

/** A decimal amount as typed: up to 8 decimals, no sign, no exponent. */
export const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,8})?$/;
export const amount = matching(AMOUNT, texts.enterAmount, texts.amountFormat);
const coinCode = matching(/^[A-Z0-9]{2,10}$/, texts.chooseCoin, texts.coinUnknown);

/** Where an answer's prices come from, so every screen that shows one can say it. */
export interface PriceSource {
  /** Prices come from the simulated feed (the UI says so). */
  simulated: boolean;
  /**
   * The simulator replays a seed it was given (tests, replays): whoever knows the seed can compute
   * every price, so the UI says that too. Unseeded, it draws from a cryptographic random source.
   */
  seeded: boolean;
}

export interface CoinQuote extends PriceSource {
  code: string;
  name: string;
  price: string;
  /** When the price was recorded (ISO time). */
  at: string;
  /** Percent over 24 h, 2 decimals, signed: "-1.25". */
  change_24h: string;
  /** The price 24 h ago, so a live price can update the change. */
  open_24h: string;
  high_24h: string;
  low_24h: string;
  volume_24h: string;
  price_decimals: number;
}
export const coinList = get('/coin/lists', NoInput, result<Paged<CoinQuote>>(), { auth: false });

export const PERIODS = ['1m', '5m', '15m', '1h', '1d'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_SECONDS: Record<Period, number> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '1d': 86400 };

export interface Candle {
  /** Start of the period, seconds since the epoch (UTC). */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}
const KlineInput = v.object({
  code: coinCode,
  period: v.optional(v.picklist(PERIODS, texts.choosePeriod.id), '1m'),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, texts.invalidRequest.id), v.transform(Number), v.minValue(1, texts.invalidRequest.id), v.maxValue(500, texts.invalidRequest.id)), '200'),
});
/** §7 lists GET and POST for the K-lines: both are served. */
export const klines = get('/coin/data/lists', KlineInput, result<Paged<Candle> & { code: string; period: Period } & PriceSource>(), { auth: false });
export const klinesPost = post('/coin/data/lists', KlineInput, result<Paged<Candle> & { code: string; period: Period } & PriceSource>(), { auth: false });

export interface PriceQuote extends PriceSource {
  code: string;
  price: string;
  at: string;
}
export const coinRate = get('/coin/data/rate', v.object({ code: coinCode }), result<PriceQuote>(), { auth: false });

export interface FiatRate {
  code: string;
  symbol: string;
  /** Units of this currency per 1 USDT. */
  rate: string;
}
export const currencyRate = get(
  '/third/currency/rate',
  v.object({ code: v.optional(matching(/^[A-Z]{3}$/, texts.chooseCurrency), 'THB') }),
  result<FiatRate>(),
  { auth: false },
);

/**
 * Our addition: server-sent events, one `ticks` event per feed step. Each step's event id is its
 * recorded time (epoch ms), the same in every server process; a client that reconnects with
 * `Last-Event-ID` (or `?last=` — an EventSource opened anew cannot set headers) first gets every
 * step recorded since, in order, so no screen has a gap.
 */
export const PRICE_STREAM_PATH = '/coin/stream';
/** The stream's `heartbeat` event: sent this often, so a client notices a connection gone silent. */
export const STREAM_HEARTBEAT_MS = 5_000;
/** A client that heard nothing (no tick, no heartbeat) for this long reconnects. */
export const STREAM_STALL_MS = 15_000;
/** Steps resent at most after a reconnect; a client away longer gets `reset` and reloads the prices. */
export const STREAM_REPLAY_STEPS = 3_600;
export interface TickEvent {
  code: string;
  price: string;
  at: string;
}

export interface Balance {
  asset: string;
  available: string;
  frozen: string;
}
/** Our addition: the caller's balances per asset. */
export const balances = get('/users/balances', NoInput, result<Paged<Balance>>());

export interface OptionProduct {
  id: number;
  code: string;
  minutes: number;
  /** 0.85 = 85 % profit on a win. */
  yield_rate: string;
  min_amount: string;
}
/** Our addition: the option products of a coin (or of every coin). */
export const optionProducts = get(
  '/coin/option/products',
  v.object({ code: v.optional(coinCode) }),
  result<Paged<OptionProduct>>(),
  { auth: false },
);

export type Direction = 'up' | 'down';
/** void: no price was recorded near the end time (the market data was unavailable): the stake is refunded. */
export type OptionOutcome = 'win' | 'loss' | 'tie' | 'void';
export interface OptionOrder extends PriceSource {
  id: number;
  code: string;
  direction: Direction;
  amount: string;
  minutes: number;
  yield_rate: string;
  start_price: string;
  start_price_at: string;
  start_at: string;
  end_at: string;
  status: 'holding' | 'settled';
  end_price: string | null;
  end_price_at: string | null;
  outcome: OptionOutcome | null;
  payout: string | null;
  profit: string | null;
  settled_at: string | null;
  /** Seconds to the end time, from the server's clock (0 once due). */
  remaining_seconds: number;
}

export const PlaceOptionInput = v.object({
  code: coinCode,
  direction: v.picklist(['up', 'down'], texts.chooseDirection.id),
  product_id: matching(/^\d{1,9}$/, texts.chooseProduct),
  amount,
});
export const placeOption = post('/coin/order/add', PlaceOptionInput, result<OptionOrder>());

export const optionOrder = get('/coin/order/info', v.object({ id: required(texts.orderNotFound) }), result<OptionOrder>());

export const OPTION_ORDER_STATUSES = ['holding', 'history'] as const;
/** Our addition: the caller's holding (pending) or history (settled) orders, newest first. */
export const optionOrders = get(
  '/coin/order/lists',
  v.object({
    status: v.optional(v.picklist(OPTION_ORDER_STATUSES, texts.invalidRequest.id), 'holding'),
    page: v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1'),
  }),
  result<Paged<OptionOrder>>(),
);

export interface OptionTotals {
  holding_count: number;
  holding_amount: string;
  settled_count: number;
  wins: number;
  losses: number;
  ties: number;
  total_profit: string;
}
export const optionTotals = get('/coin/order/total', NoInput, result<OptionTotals>());

export const OPTION_PAGE_SIZE = 20;

/**
 * What a winning option pays back: stake × (1 + yield), rounded down to 8 decimals (never more
 * than was won). The settlement and the order form both use this one rule.
 */
export function winPayout(amount: string, yieldRate: string): string {
  return new Big(amount).times(new Big(1).plus(yieldRate)).round(8, Big.roundDown).toFixed(8);
}
