// Binance spot, public market data (no key): the combined trade stream
// `/stream?streams=<symbol>@trade/…`, each event `{ stream, data: { e: "trade", s, t, p, q, T } }`;
// Binance pings every 20 s and the client's pong is the protocol's own (the ws library answers);
// a connection lasts 24 h at most, then it is closed and opened anew. Candles: GET /api/v3/klines
// (interval 1m, startTime, limit ≤ 1000), each `[openTime, open, high, low, close, volume, …]`.
import { EXCHANGE_LABELS } from '../../../contract/markets.ts';
import { candle, epochMs, isObject, json, positivePrice, quantity, type Exchange, type ExchangeCandle, type ExchangeEndpoints, type Frame } from './exchange.ts';

export const BINANCE_ENDPOINTS: ExchangeEndpoints = { socket: 'wss://stream.binance.com:9443', rest: 'https://api.binance.com' };

export function binance(endpoints: ExchangeEndpoints = BINANCE_ENDPOINTS): Exchange {
  return {
    name: 'binance',
    label: EXCHANGE_LABELS.binance,
    endpoints,
    symbolOf: (coin) => `${coin}USDT`,
    socketUrl: (symbols) => `${endpoints.socket}/stream?streams=${symbols.map((symbol) => `${symbol.toLowerCase()}@trade`).join('/')}`,
    subscriptions: () => [],
    keepalive: null,
    parse(frame): Frame {
      const message = json(frame);
      if (!isObject(message)) return { kind: 'garbage', why: 'not a JSON object' };
      if ('result' in message && 'id' in message) return { kind: 'control' };
      const data = message.data;
      if (!isObject(data) || data.e !== 'trade') return { kind: 'garbage', why: 'not a trade event' };
      const price = positivePrice(data.p);
      const amount = quantity(data.q);
      const at = epochMs(data.T);
      if (typeof data.s !== 'string' || !price || amount === null || !at || (typeof data.t !== 'number' && typeof data.t !== 'string'))
        return { kind: 'garbage', why: 'a trade without symbol, id, price, quantity or time' };
      return { kind: 'trades', trades: [{ symbol: data.s, id: String(data.t), price, quantity: amount, at }] };
    },
    candlesPerRequest: 1000,
    candlesUrl: (symbol, from, limit) => `${endpoints.rest}/api/v3/klines?symbol=${encodeURIComponent(symbol)}&interval=1m&startTime=${from.getTime()}&limit=${limit}`,
    parseCandles(body): ExchangeCandle[] {
      if (!Array.isArray(body)) throw new Error('Binance candles: not a list');
      return body.map((row) => {
        const parsed = Array.isArray(row) ? candle(epochMs(row[0]), row.slice(1, 6)) : null;
        if (!parsed) throw new Error('Binance candles: a malformed row');
        return parsed;
      });
    },
  };
}
