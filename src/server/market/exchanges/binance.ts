// Binance spot, public market data (no key): the combined trade stream
// `/stream?streams=<symbol>@trade/…`, each event `{ stream, data: { e: "trade", s, t, p, q, T } }`;
// Binance sends a protocol ping every 20 s and drops a connection whose pong (the ws library's
// answer) is a minute late; a connection lasts 24 h at most, then it is closed and opened anew.
// Candles: GET /api/v3/klines
// (interval 1m, startTime, limit ≤ 1000), each `[openTime, open, high, low, close, volume, …]`.
import { EXCHANGE_LABELS } from '../../../api-contract/markets.ts';
import {
  CandlesRateLimited,
  candle,
  epochMs,
  isObject,
  json,
  positivePrice,
  quantity,
  type Exchange,
  type ExchangeCandle,
  type ExchangeEndpoints,
  type Frame,
} from './exchange.ts';

export const BINANCE_ENDPOINTS: ExchangeEndpoints = {
  socket: 'wss://stream.binance.com:9443',
  rest: 'https://api.binance.com',
};

export function binance(endpoints: ExchangeEndpoints = BINANCE_ENDPOINTS): Exchange {
  return {
    name: 'binance',
    label: EXCHANGE_LABELS.binance,
    endpoints,
    symbolOf: (coin) => `${coin}USDT`,
    socketUrl: (symbols) =>
      `${endpoints.socket}/stream?streams=${symbols.map((symbol) => `${symbol.toLowerCase()}@trade`).join('/')}`,
    subscriptions: () => [],
    keepalive: { everyMs: 20_000, frame: null },
    // Two of Binance's pings missed, and then some: still inside the minute it waits for our pong.
    silenceMs: 50_000,
    parse(frame): Frame {
      const message = json(frame);
      if (!isObject(message)) return { kind: 'garbage', why: 'not a JSON object' };
      if ('result' in message && 'id' in message) return { kind: 'control' };
      const data = message.data;
      if (!isObject(data) || data.e !== 'trade') return { kind: 'garbage', why: 'not a trade event' };
      const price = positivePrice(data.p);
      const amount = quantity(data.q);
      const at = epochMs(data.T);
      if (
        typeof data.s !== 'string' ||
        !price ||
        amount === null ||
        !at ||
        (typeof data.t !== 'number' && typeof data.t !== 'string')
      )
        return { kind: 'garbage', why: 'a trade without symbol, id, price, quantity or time' };
      return { kind: 'trades', trades: [{ symbol: data.s, id: String(data.t), price, quantity: amount, at }] };
    },
    // Klines: limit up to 1000 a request; each weighs 2 of the 6,000 request weight an address may
    // use a minute (3,000 requests). Too many: HTTP 429 (418 once banned) with Retry-After, body code -1003.
    candlesPerRequest: 1000,
    candlesPacing: { requests: 3000, perMs: 60_000 },
    candlesUrl: (symbol, from, limit) =>
      `${endpoints.rest}/api/v3/klines?symbol=${encodeURIComponent(symbol)}&interval=1m&startTime=${from.getTime()}&endTime=${from.getTime() + limit * 60_000 - 1}&limit=${limit}`,
    parseCandles(body): ExchangeCandle[] {
      if (isObject(body) && body.code === -1003) throw new CandlesRateLimited(`Binance candles: ${String(body.msg)}`);
      if (!Array.isArray(body)) throw new Error('Binance candles: not a list');
      return body.map((row) => {
        const parsed = Array.isArray(row) ? candle(epochMs(row[0]), row.slice(1, 6)) : null;
        if (!parsed) throw new Error('Binance candles: a malformed row');
        return parsed;
      });
    },
  };
}
