// OKX spot, public market data (no key): wss …/ws/v5/public, subscribe with
// `{ op: "subscribe", args: [{ channel: "trades", instId: "BTC-USDT" }, …] }`; pushes
// `{ arg: { channel: "trades", instId }, data: [{ instId, tradeId, px, sz, side, ts }] }`, answers
// `{ event: "subscribe" | "error", … }`. A connection silent for 30 s is closed by OKX: the client
// sends the text "ping" within N < 30 s of quiet and gets "pong" (none within N s: reconnect). 30 s
// before a service upgrade closes a connection OKX sends `{ event: "notice", code: "64008", msg,
// connId }`: open a new connection meanwhile. Candles: GET /api/v5/market/history-candles (bar 1m,
// limit ≤ 300, `after` = records before that time), newest first, each `[ts, o, h, l, c, vol, …]`.
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
  type ExchangeTrade,
  type Frame,
} from './exchange.ts';

export const OKX_ENDPOINTS: ExchangeEndpoints = { socket: 'wss://ws.okx.com:8443', rest: 'https://www.okx.com' };

/** One item of a trades push, or null when it lacks a symbol, id, price, quantity or time. */
function okxTrade(item: Record<string, unknown>): ExchangeTrade | null {
  const price = positivePrice(item.px);
  const amount = quantity(item.sz);
  const at = epochMs(item.ts);
  if (typeof item.instId !== 'string' || typeof item.tradeId !== 'string' || !price || amount === null || !at)
    return null;
  return { symbol: item.instId, id: item.tradeId, price, quantity: amount, at };
}

export function okx(endpoints: ExchangeEndpoints = OKX_ENDPOINTS): Exchange {
  return {
    name: 'okx',
    label: EXCHANGE_LABELS.okx,
    endpoints,
    symbolOf: (coin) => `${coin}-USDT`,
    socketUrl: () => `${endpoints.socket}/ws/v5/public`,
    subscriptions: (symbols) => [
      JSON.stringify({ op: 'subscribe', args: symbols.map((instId) => ({ channel: 'trades', instId })) }),
    ],
    keepalive: { everyMs: 10_000, frame: 'ping' },
    // Two pings unanswered; still under the 30 s after which OKX itself gives up on a quiet connection.
    silenceMs: 25_000,
    parse(frame): Frame {
      if (frame === 'pong') return { kind: 'control' };
      const message = json(frame);
      if (!isObject(message)) return { kind: 'garbage', why: 'not a JSON object' };
      if (message.event === 'subscribe') return { kind: 'control' };
      if (message.event === 'error')
        return { kind: 'garbage', why: `an error event: ${String(message.msg ?? message.code)}` };
      if (message.event === 'notice')
        return { kind: 'reconnect', why: `notice ${String(message.code)} (${JSON.stringify(message.msg)})` };
      if (!isObject(message.arg) || message.arg.channel !== 'trades' || !Array.isArray(message.data))
        return { kind: 'garbage', why: 'not a trades push' };
      const trades: ExchangeTrade[] = [];
      let malformed = 0;
      for (const item of message.data) {
        const trade = isObject(item) ? okxTrade(item) : null;
        if (trade) trades.push(trade);
        else malformed++;
      }
      if (!malformed) return { kind: 'trades', trades };
      return {
        kind: 'trades',
        trades,
        malformed: { count: malformed, why: 'a trade without symbol, id, price, quantity or time' },
      };
    },
    // history-candles: limit up to 300 a request, 20 requests per 2 s an address; `after` and `before`
    // bound the page (records older than `after`, newer than `before`). Too many: HTTP 429, code "50011".
    candlesPerRequest: 300,
    candlesPacing: { requests: 20, perMs: 2_000 },
    candlesUrl: (symbol, from, limit) =>
      `${endpoints.rest}/api/v5/market/history-candles?instId=${encodeURIComponent(symbol)}&bar=1m&after=${from.getTime() + limit * 60_000}&before=${from.getTime() - 1}&limit=${limit}`,
    parseCandles(body): ExchangeCandle[] {
      if (isObject(body) && body.code === '50011')
        throw new CandlesRateLimited(`OKX candles: ${String(body.msg || body.code)}`);
      if (!isObject(body) || body.code !== '0' || !Array.isArray(body.data))
        throw new Error(`OKX candles: ${isObject(body) ? String(body.msg || body.code) : 'not an answer'}`);
      const candles = body.data.map((row) => {
        const parsed = Array.isArray(row) ? candle(epochMs(row[0]), row.slice(1, 6)) : null;
        if (!parsed) throw new Error('OKX candles: a malformed row');
        return parsed;
      });
      return candles.sort((a, b) => a.minute.getTime() - b.minute.getTime());
    },
  };
}
