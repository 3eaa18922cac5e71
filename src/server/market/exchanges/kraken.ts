// Kraken spot, public market data (no key): WebSocket v2 at …/v2, subscribe with
// `{ method: "subscribe", params: { channel: "trade", symbol: ["BTC/USDT", …], snapshot: false } }`;
// pushes `{ channel: "trade", type: "update", data: [{ symbol, side, price, qty, ord_type, trade_id,
// timestamp (RFC 3339) }] }` with prices as JSON numbers, `{ channel: "heartbeat" }` about every
// second without other updates (Kraken's guide: no message for a few seconds, reconnect), and
// answers `{ method: "subscribe" | "pong", success, … }`; the client may send `{ method: "ping" }`,
// not needed while the heartbeat proves the link.
// Candles: GET /0/public/OHLC?pair=…&interval=1&since=<seconds>, answering
// `{ error: [], result: { <pair>: [[time, open, high, low, close, vwap, volume, count], …], last } }`.
import { EXCHANGE_LABELS } from '../../../api-contract/markets.ts';
import {
  CandlesRateLimited,
  candle,
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

export const KRAKEN_ENDPOINTS: ExchangeEndpoints = { socket: 'wss://ws.kraken.com', rest: 'https://api.kraken.com' };

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** One item of a trade push, or null when it lacks a symbol, id, price, quantity or time. */
function krakenTrade(item: Record<string, unknown>): ExchangeTrade | null {
  const price = positivePrice(item.price);
  const amount = quantity(item.qty);
  const at = typeof item.timestamp === 'string' && RFC3339.test(item.timestamp) ? new Date(item.timestamp) : null;
  if (
    typeof item.symbol !== 'string' ||
    (typeof item.trade_id !== 'number' && typeof item.trade_id !== 'string') ||
    !price ||
    amount === null ||
    !at
  )
    return null;
  return { symbol: item.symbol, id: String(item.trade_id), price, quantity: amount, at };
}

export function kraken(endpoints: ExchangeEndpoints = KRAKEN_ENDPOINTS): Exchange {
  return {
    name: 'kraken',
    label: EXCHANGE_LABELS.kraken,
    endpoints,
    symbolOf: (coin) => `${coin}/USDT`,
    socketUrl: () => `${endpoints.socket}/v2`,
    subscriptions: (symbols) => [
      JSON.stringify({ method: 'subscribe', params: { channel: 'trade', symbol: symbols, snapshot: false } }),
    ],
    keepalive: { everyMs: 1_000, frame: null },
    // Ten heartbeats missed.
    silenceMs: 10_000,
    parse(frame): Frame {
      const message = json(frame);
      if (!isObject(message)) return { kind: 'garbage', why: 'not a JSON object' };
      if (message.channel === 'heartbeat' || message.channel === 'status' || message.method === 'pong')
        return { kind: 'control' };
      if (message.method === 'subscribe')
        return message.success === true
          ? { kind: 'control' }
          : { kind: 'garbage', why: `subscription refused: ${String(message.error)}` };
      if (message.channel !== 'trade' || !Array.isArray(message.data))
        return { kind: 'garbage', why: 'not a trade push' };
      const trades: ExchangeTrade[] = [];
      let malformed = 0;
      for (const item of message.data) {
        const trade = isObject(item) ? krakenTrade(item) : null;
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
    // OHLC answers its latest 720 entries at most (12 h of minutes, the current uncommitted one
    // included) whatever `since`: older minutes are not there to ask for. Public calls stay within
    // Kraken's limits at one a second; beyond, it answers "EAPI:Rate limit exceeded" (or
    // "EGeneral:Too many requests") and restricts the address for a few seconds.
    candlesPerRequest: 720,
    candlesPacing: { requests: 1, perMs: 1_000 },
    // The REST pair is the WebSocket symbol without its slash (BTC/USDT → BTCUSDT).
    candlesUrl: (symbol, from) =>
      `${endpoints.rest}/0/public/OHLC?pair=${encodeURIComponent(symbol.replace('/', ''))}&interval=1&since=${Math.floor(from.getTime() / 1000) - 1}`,
    parseCandles(body): ExchangeCandle[] {
      if (
        isObject(body) &&
        Array.isArray(body.error) &&
        body.error.some((error) => error === 'EAPI:Rate limit exceeded' || error === 'EGeneral:Too many requests')
      )
        throw new CandlesRateLimited(`Kraken candles: ${body.error.join(', ')}`);
      if (!isObject(body) || !Array.isArray(body.error) || body.error.length || !isObject(body.result))
        throw new Error(
          `Kraken candles: ${isObject(body) && Array.isArray(body.error) ? body.error.join(', ') : 'not an answer'}`,
        );
      const rows = Object.entries(body.result).find(([key, value]) => key !== 'last' && Array.isArray(value))?.[1] as
        unknown[] | undefined;
      if (!rows) throw new Error('Kraken candles: no pair in the answer');
      return rows.map((row) => {
        // [time (s), open, high, low, close, vwap, volume, count]
        const parsed =
          Array.isArray(row) && typeof row[0] === 'number'
            ? candle(new Date(row[0] * 1000), [row[1], row[2], row[3], row[4], row[6]])
            : null;
        if (!parsed) throw new Error('Kraken candles: a malformed row');
        return parsed;
      });
    },
  };
}
