// Markets: coin list, K-lines, prices, fiat rates, the live stream (our
// addition), balances. Short-term options are in options.ts.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { decimal, isoTime, nullableList, shape, signedDecimal, whole } from './answers.ts';

/** A decimal amount as typed: up to 8 decimals, no sign, no exponent. */
export const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,8})?$/;
/** An amount as AMOUNT writes it and above 0 (a digit other than 0 in it): what a limit or cap an operator sets takes
 * (the console checks it before sending, the server's settings again). */
export const isPositiveAmount = (value: string) => AMOUNT.test(value) && /[1-9]/.test(value);
export const amount = matching(AMOUNT, texts.enterAmount, texts.amountFormat);
export const coinCode = matching(/^[A-Z0-9]{2,10}$/, texts.chooseCoin, texts.coinUnknown);

/** Where an answer's prices come from, so every screen that shows one can say it (each answer's schema spells both
 * fields out). */
export interface PriceSource {
  /** Prices come from the simulated feed (the UI says so). */
  simulated: boolean;
  /** The simulator replays a given seed (tests, replays): predictable to whoever knows it. */
  seeded: boolean;
  /** Prices are the market index of this many public exchanges ("Index · 3 exchanges"); 0 for the simulator. */
  exchanges: number;
}

/**
 * The market index's rule (server/market/index-rule.ts applies it; the option rule page states it):
 * each second, per coin, the median of the exchanges' last prices at most `freshMs` old, after
 * leaving out any further than `band` from the median of them all; fewer than `minConstituents`
 * left halt the coin.
 */
export const INDEX_RULE = { freshMs: 5_000, band: '0.02', minConstituents: 2 } as const;

/** The public exchanges the market index can read, by the id each constituent is recorded with, as customers read them.
 * */
export const EXCHANGE_LABELS = { binance: 'Binance', okx: 'OKX', kraken: 'Kraken' } as const;
/** An exchange as customers read it; one the app does not know yet by its recorded id. */
export const exchangeLabel = (id: string) => (EXCHANGE_LABELS as Record<string, string>)[id] ?? id;

/**
 * One exchange's price that went into an index tick, at the exchange's own time, with the exchange's
 * id of that trade to find it in the exchange's public trade history (absent from a tick recorded
 * before the id was kept).
 */
export const Constituent = shape({
  exchange: v.string(),
  price: decimal,
  at: isoTime,
  trade_id: v.optional(v.string()),
});
export type Constituent = v.InferOutput<typeof Constituent>;
/** What a recorded price was made of: the index's constituents, or null (the simulator's, or a price recorded before
 * the index). */
export const Constituents = nullableList(Constituent);

export const CoinQuote = shape({
  code: v.string(),
  name: v.string(),
  price: decimal,
  /** When the price was recorded. */
  at: isoTime,
  /** Percent over 24 h, 2 decimals, signed: "-1.25". */
  change_24h: signedDecimal,
  /** The price 24 h ago, so a live price can update the change. */
  open_24h: decimal,
  high_24h: decimal,
  low_24h: decimal,
  volume_24h: decimal,
  price_decimals: whole,
  /** Prices come from the simulated feed (the UI says so). */
  simulated: v.boolean(),
  /**
   * The simulator replays a seed it was given (tests, replays): whoever knows the seed can compute
   * every price, so the UI says that too. Unseeded, it draws from a cryptographic random source.
   */
  seeded: v.boolean(),
  exchanges: whole,
  /** The market index has no fair price for the coin now: its price is the last one, and nothing may trade on it. */
  halted: v.boolean(),
});
export type CoinQuote = v.InferOutput<typeof CoinQuote>;
export const coinList = get('/coin/lists', NoInput, returns(Paged(CoinQuote)), { cache: 'public', auth: false });

export const PERIODS = ['1m', '5m', '15m', '1h', '1d'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_SECONDS: Record<Period, number> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '1d': 86400 };

export const Candle = shape({
  /** Start of the period, seconds since the epoch (UTC). */
  time: whole,
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: decimal,
});
export type Candle = v.InferOutput<typeof Candle>;
/** The K-lines of a coin: the candles, oldest first, and what they are of. */
export const Klines = Paged(
  Candle,
  shape({
    code: v.string(),
    period: v.picklist(PERIODS),
    simulated: v.boolean(),
    seeded: v.boolean(),
    exchanges: whole,
  }),
);
const KlineInput = v.object({
  code: coinCode,
  period: v.optional(v.picklist(PERIODS, texts.choosePeriod.id), '1m'),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, texts.invalidRequest.id),
      v.transform(Number),
      v.minValue(1, texts.invalidRequest.id),
      v.maxValue(500, texts.invalidRequest.id),
    ),
    '200',
  ),
});
/** The K-lines are called by GET and by POST: both are served; the POST reads only, like the GET. */
export const klines = get('/coin/data/lists', KlineInput, returns(Klines), { auth: false });
export const klinesPost = post('/coin/data/lists', KlineInput, returns(Klines), { auth: false, readOnly: true });

export const PriceQuote = shape({
  code: v.string(),
  price: decimal,
  at: isoTime,
  simulated: v.boolean(),
  seeded: v.boolean(),
  exchanges: whole,
  halted: v.boolean(),
});
export type PriceQuote = v.InferOutput<typeof PriceQuote>;
export const coinRate = get('/coin/data/rate', v.object({ code: coinCode }), returns(PriceQuote), { auth: false });

export const FiatRate = shape({
  code: v.string(),
  symbol: v.string(),
  /** Units of this currency per 1 USDT. */
  rate: decimal,
});
export type FiatRate = v.InferOutput<typeof FiatRate>;
export const currencyRate = get(
  '/third/currency/rate',
  v.object({ code: v.optional(matching(/^[A-Z]{3}$/, texts.chooseCurrency), 'THB') }),
  returns(FiatRate),
  { auth: false },
);

/**
 * Our addition: server-sent events, one `ticks` event per feed step. Each step's event id is its
 * recorded time (epoch ms), the same in every server process; a client that reconnects with
 * `Last-Event-ID` (or `?last=` — an EventSource opened anew cannot set headers) first gets every
 * step recorded since, in order, so no screen has a gap.
 */
export const PRICE_STREAM_PATH = '/coin/stream';
/**
 * The stream's `heartbeat` event: sent this often to a client that heard no step meanwhile (at most 1.5 × this after
 * its last step), so a client notices a connection gone silent.
 */
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
/** The stream's `halts` event, sent on connecting and whenever it changes: the coins halted now (JSON array of codes).
 * */
export const HALTS_EVENT = 'halts';

export const Balance = shape({
  asset: v.string(),
  available: decimal,
  frozen: decimal,
});
export type Balance = v.InferOutput<typeof Balance>;
/**
 * Our addition: the caller's balances per asset. Asked of the network every time; when it does not answer, the service
 * worker gives the last answer it kept for this customer, which the pages show marked "Offline — as of" the time the
 * server gave it (never as current).
 */
export const balances = get('/users/balances', NoInput, returns(Paged(Balance)), { cache: 'user' });
