// One public spot exchange as the index reads it: where its trade stream is, what to send to
// subscribe, how to read its frames, and where its 1-minute candles are (to fill gaps). One file per
// exchange implements this from the exchange's published API documentation; nothing here connects.
import Big from 'big.js';

/** One trade as an exchange reported it, in its own symbol and time. */
export interface ExchangeTrade {
  symbol: string;
  /** The exchange's trade id: a repeated id is the same trade. */
  id: string;
  price: string;
  /** Coin units. */
  quantity: string;
  at: Date;
}

export interface ExchangeCandle {
  /** Start of the minute. */
  minute: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** What one text frame of the stream said. */
export type Frame =
  /** `malformed`: items of the frame that were not trades, dropped; the trades beside them still count. */
  | { kind: 'trades'; trades: ExchangeTrade[]; malformed?: { count: number; why: string } }
  | { kind: 'control' }
  /** The exchange announced this connection will close (a service upgrade): open another meanwhile. */
  | { kind: 'reconnect'; why: string }
  | { kind: 'garbage'; why: string };

export interface ExchangeEndpoints {
  /** The WebSocket base, e.g. wss://stream.binance.com:9443 (a stand-in's in tests). */
  socket: string;
  /** The REST base, e.g. https://api.binance.com. */
  rest: string;
}

export interface Exchange {
  /** Lower-case id, as configured (INDEX_EXCHANGES) and recorded with each constituent. */
  readonly name: string;
  /** As customers read it: "Binance". */
  readonly label: string;
  readonly endpoints: ExchangeEndpoints;
  /** The exchange's symbol of a coin against USDT, unless the coin data names another. */
  symbolOf(coin: string): string;
  socketUrl(symbols: readonly string[]): string;
  /** Frames to send once the socket is open. */
  subscriptions(symbols: readonly string[]): string[];
  /**
   * What keeps a quiet connection talking, as the exchange documents it: we send `frame` every
   * `everyMs` and the exchange answers it, or (frame null) the exchange sends its own ping or
   * heartbeat about every `everyMs`.
   */
  readonly keepalive: { everyMs: number; frame: string | null };
  /** Nothing heard (trade, ping, pong, heartbeat) for this long: the connection is dead. Two keepalives or more, so one
   * late answer is not a dead link. */
  readonly silenceMs: number;
  parse(frame: string): Frame;
  /** The URL of the 1-minute candles of the `limit` minutes from `from` (a minute start) on. */
  candlesUrl(symbol: string, from: Date, limit: number): string;
  /**
   * The candles of a candles answer, oldest first; throws on an answer that is not one, and
   * CandlesRateLimited on the exchange's documented answer to too many requests.
   */
  parseCandles(body: unknown): ExchangeCandle[];
  /** Most candles one request returns, as the exchange documents it. */
  readonly candlesPerRequest: number;
  /** The candles requests the exchange allows, as it documents them: at most `requests` every `perMs` (one address). */
  readonly candlesPacing: { requests: number; perMs: number };
}

/** The exchange refused a request for coming too often: wait (`retryAfterMs` when it said how long) and ask again. */
export class CandlesRateLimited extends Error {
  readonly retryAfterMs: number | null;

  constructor(message: string, retryAfterMs: number | null = null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

const DECIMAL = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/**
 * A decimal as one canonical string (no trailing zeros after the point, none before it), or null.
 * Strings are read as written, never through a binary float: the DECIMAL pattern already rules out
 * signs, exponents and leading zeros, so trimming the fraction's zeros is all that is left to do.
 */
function decimal(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? numberText(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) return null;
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * A JSON number as the decimal it was written as (Kraken sends numbers): JavaScript prints the
 * shortest text that reads back as the same number, which is the exchange's text unless it needs an
 * exponent (1e-7, 1e21); only those go through big.js (a trade a second per coin made Big the
 * index's largest cost after JSON.parse).
 */
const numberText = (value: number) => {
  const text = String(value);
  return text.includes('e') ? new Big(value).toFixed() : text;
};

/** A positive decimal price as a canonical string, or null: an exchange's garbage never becomes a price. */
export function positivePrice(value: unknown): string | null {
  const price = decimal(value);
  return price && price !== '0' ? price : null;
}

/** A non-negative decimal quantity, or null. */
export const quantity = decimal;

/** A time from epoch milliseconds (number or digits), or null. */
export function epochMs(value: unknown): Date | null {
  const ms = typeof value === 'string' && /^\d{10,16}$/.test(value) ? Number(value) : value;
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0 ? new Date(ms) : null;
}

/** JSON of a frame, or undefined for text that is not JSON. */
export function json(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return undefined;
  }
}

/** A candle from decimal fields, or null when any is not a decimal. */
export function candle(minute: Date | null, fields: unknown[]): ExchangeCandle | null {
  const [open, high, low, close] = fields.slice(0, 4).map(positivePrice);
  const volume = quantity(fields[4]);
  if (!minute || !open || !high || !low || !close || volume === null) return null;
  return { minute, open, high, low, close, volume };
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
