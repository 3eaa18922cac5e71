// OKX spot, public market data (no key): wss …/ws/v5/public, subscribe with
// `{ op: "subscribe", args: [{ channel: "trades", instId: "BTC-USDT" }, …] }`; pushes
// `{ arg: { channel: "trades", instId }, data: [{ instId, tradeId, px, sz, side, ts }] }`, answers
// `{ event: "subscribe" | "error", … }`. A connection silent for 30 s is closed by OKX: the client
// sends the text "ping" and gets "pong". Candles: GET /api/v5/market/history-candles (bar 1m,
// limit ≤ 100, `after` = records before that time), newest first, each `[ts, o, h, l, c, vol, …]`.
import { EXCHANGE_LABELS } from '../../../contract/markets.ts';
import {
  candle,
  epochMs,
  isObject,
  json,
  positivePrice,
  quantity,
  type Exchange,
  type ExchangeCandle,
  type ExchangeEndpoints,
  type ExchangeTrade,
  type Frame,
} from './exchange.ts';

export const OKX_ENDPOINTS: ExchangeEndpoints = { socket: 'wss://ws.okx.com:8443', rest: 'https://www.okx.com' };

export function okx(endpoints: ExchangeEndpoints = OKX_ENDPOINTS): Exchange {
  return {
    name: 'okx',
    label: EXCHANGE_LABELS.okx,
    endpoints,
    symbolOf: (coin) => `${coin}-USDT`,
    socketUrl: () => `${endpoints.socket}/ws/v5/public`,
    subscriptions: (symbols) => [JSON.stringify({ op: 'subscribe', args: symbols.map((instId) => ({ channel: 'trades', instId })) })],
    keepalive: { everyMs: 20_000, frame: 'ping' },
    parse(frame): Frame {
      if (frame === 'pong') return { kind: 'control' };
      const message = json(frame);
      if (!isObject(message)) return { kind: 'garbage', why: 'not a JSON object' };
      if (message.event === 'subscribe') return { kind: 'control' };
      if (message.event === 'error') return { kind: 'garbage', why: `an error event: ${String(message.msg ?? message.code)}` };
      if (!isObject(message.arg) || message.arg.channel !== 'trades' || !Array.isArray(message.data)) return { kind: 'garbage', why: 'not a trades push' };
      const trades: ExchangeTrade[] = [];
      for (const item of message.data) {
        if (!isObject(item)) return { kind: 'garbage', why: 'a trade that is not an object' };
        const price = positivePrice(item.px);
        const amount = quantity(item.sz);
        const at = epochMs(item.ts);
        if (typeof item.instId !== 'string' || typeof item.tradeId !== 'string' || !price || amount === null || !at)
          return { kind: 'garbage', why: 'a trade without symbol, id, price, quantity or time' };
        trades.push({ symbol: item.instId, id: item.tradeId, price, quantity: amount, at });
      }
      return { kind: 'trades', trades };
    },
    candlesPerRequest: 100,
    candlesUrl: (symbol, from, limit) =>
      `${endpoints.rest}/api/v5/market/history-candles?instId=${encodeURIComponent(symbol)}&bar=1m&after=${from.getTime() + limit * 60_000}&limit=${limit}`,
    parseCandles(body): ExchangeCandle[] {
      if (!isObject(body) || body.code !== '0' || !Array.isArray(body.data)) throw new Error(`OKX candles: ${isObject(body) ? String(body.msg || body.code) : 'not an answer'}`);
      const candles = body.data.map((row) => {
        const parsed = Array.isArray(row) ? candle(epochMs(row[0]), row.slice(1, 6)) : null;
        if (!parsed) throw new Error('OKX candles: a malformed row');
        return parsed;
      });
      return candles.sort((a, b) => a.minute.getTime() - b.minute.getTime());
    },
  };
}
