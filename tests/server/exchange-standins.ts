// Local stand-ins for the exchanges the index reads, each speaking that exchange's published public
// protocol on loopback (WebSocket trade stream and REST 1-minute candles): Binance's combined
// stream and /api/v3/klines, OKX's v5 public socket and history-candles, Kraken's WebSocket v2 and
// /0/public/OHLC. A test makes them trade, lie, fall silent, send garbage, drop every connection,
// close each one right after answering it, or (OKX) announce a service upgrade.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ExchangeCandle, ExchangeEndpoints } from '../../src/server/market/exchanges/exchange.ts';

export type StandInKind = 'binance' | 'okx' | 'kraken';

export interface StandIn {
  readonly kind: StandInKind;
  readonly endpoints: ExchangeEndpoints;
  /** Symbols some open connection is subscribed to (in the exchange's spelling). */
  subscribed(): string[];
  /** Connections opened so far. */
  readonly connections: number;
  /** Connections open now. */
  readonly open: number;
  /** Sends a trade to every subscriber of the symbol; returns its id. */
  trade(symbol: string, price: string, options?: { quantity?: string; at?: Date; id?: string }): string;
  /** Sends a raw text frame to every open connection. */
  raw(frame: string): void;
  /** Stops every frame (trades, heartbeats, pongs) while true: a connection gone quiet. */
  silent: boolean;
  /** While true, each new connection gets its status message and subscription answers, then is closed: an exchange up
   * but not serving. */
  acksThenCloses: boolean;
  /** Keepalive pings received from clients (OKX's "ping", Kraken's `{ method: "ping" }`). */
  readonly pings: number;
  /** OKX: the notice sent 30 s before a service upgrade closes the connection, to every open connection. */
  notice(): void;
  /** Closes every open connection (a scheduled disconnect or an outage). */
  dropConnections(): void;
  /** 1-minute candles the REST endpoint answers, per symbol. */
  candles: Map<string, ExchangeCandle[]>;
  /** REST: every request as it arrived (its path and query; performance.now()), and whether it got the rate-limit
   * answer. */
  readonly requests: { url: string; at: number; refused: boolean }[];
  /** REST: real milliseconds each answer is held back (a slow exchange). */
  latencyMs: number;
  /** REST: a request rate enforced as the exchange does, beyond which it gets the exchange's rate-limit answer; null:
   * none. */
  rateLimit: { requests: number; perMs: number } | null;
  /** REST: the next this-many requests get the rate-limit answer (only those whose URL holds `refuseOnly`, when set:
   * a request a stopped feed sent before the test began does not take the refusal meant for the test's own). */
  refuse: number;
  refuseOnly: string | null;
  /** REST: only the latest this-many candles of a symbol are served, whatever the request asks (Kraken's OHLC: 720);
   * null: all. */
  keeps: number | null;
  close(): Promise<void>;
}

/** Each exchange's documented answer to too many requests: Binance 429 with Retry-After, OKX 429 code 50011, Kraken its
 * error. */
function rateLimitAnswer(kind: StandInKind, response: ServerResponse, retryAfterSeconds: number) {
  const [status, headers, body] =
    kind === 'binance'
      ? [
          429,
          { 'retry-after': String(retryAfterSeconds) },
          { code: -1003, msg: 'Too much request weight used; current limit is 6000 request weight per 1 MINUTE.' },
        ]
      : kind === 'okx'
        ? [429, {}, { code: '50011', msg: 'Too Many Requests', data: [] }]
        : [200, {}, { error: ['EAPI:Rate limit exceeded'] }];
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export async function startStandIn(kind: StandInKind): Promise<StandIn> {
  const rest = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const from = (ms: number) => (candle: ExchangeCandle) => candle.minute.getTime() >= ms;
    const served = (symbol: string) =>
      standIn.keeps === null
        ? (standIn.candles.get(symbol) ?? [])
        : (standIn.candles.get(symbol) ?? []).slice(-standIn.keeps);
    if (kind === 'binance' && url.pathname === '/api/v3/klines') {
      const limit = Number(url.searchParams.get('limit') ?? 500);
      if (limit > 1000) return answer(400, { code: -1130, msg: "Data sent for parameter 'limit' is not valid." });
      const endTime = Number(url.searchParams.get('endTime') ?? Infinity);
      const rows = served(url.searchParams.get('symbol') ?? '')
        .filter(from(Number(url.searchParams.get('startTime'))))
        .filter((c) => c.minute.getTime() <= endTime);
      return answer(
        200,
        rows
          .slice(0, limit)
          .map((c) => [
            c.minute.getTime(),
            c.open,
            c.high,
            c.low,
            c.close,
            c.volume,
            c.minute.getTime() + 59_999,
            '0',
            1,
            '0',
            '0',
            '0',
          ]),
      );
    }
    if (kind === 'okx' && url.pathname === '/api/v5/market/history-candles') {
      const before = Number(url.searchParams.get('after'));
      const after = Number(url.searchParams.get('before') ?? -Infinity);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      if (limit > 300) return answer(200, { code: '51000', msg: 'Parameter limit error', data: [] });
      const rows = served(url.searchParams.get('instId') ?? '')
        .filter((c) => c.minute.getTime() < before && c.minute.getTime() > after)
        .slice(-limit)
        .reverse();
      return answer(200, {
        code: '0',
        msg: '',
        data: rows.map((c) => [String(c.minute.getTime()), c.open, c.high, c.low, c.close, c.volume, '0', '0', '1']),
      });
    }
    if (kind === 'kraken' && url.pathname === '/0/public/OHLC') {
      const pair = url.searchParams.get('pair') ?? '';
      const symbol = [...standIn.candles.keys()].find((key) => key.replace('/', '') === pair);
      if (!symbol) return answer(200, { error: ['EQuery:Unknown asset pair'] });
      const since = Number(url.searchParams.get('since')) * 1000;
      const rows = served(symbol).filter((c) => c.minute.getTime() > since);
      return answer(200, {
        error: [],
        result: {
          [pair]: rows.map((c) => [c.minute.getTime() / 1000, c.open, c.high, c.low, c.close, c.close, c.volume, 1]),
          last: 0,
        },
      });
    }
    answer(404, { error: 'not found' });
  };
  const server: Server = createServer((request, response) => {
    const at = performance.now();
    const window = standIn.rateLimit;
    const recent = window ? standIn.requests.filter((earlier) => earlier.at > at - window.perMs) : [];
    const refusable =
      standIn.refuse > 0 && (standIn.refuseOnly === null || (request.url ?? '').includes(standIn.refuseOnly));
    const refused = refusable || (window !== null && recent.length >= window.requests);
    if (refusable) standIn.refuse--;
    standIn.requests.push({ url: request.url ?? '/', at, refused });
    const retryAfter = window && recent.length ? Math.max(1, Math.ceil((recent[0]!.at + window.perMs - at) / 1000)) : 1;
    const reply = () => (refused ? rateLimitAnswer(kind, response, retryAfter) : rest(request, response));
    if (standIn.latencyMs > 0) setTimeout(reply, standIn.latencyMs);
    else reply();
  });
  const sockets = new WebSocketServer({ server });
  const subscriptions = new Map<WebSocket, Set<string>>();
  let connections = 0;
  let pings = 0;
  let nextId = 1;

  const send = (socket: WebSocket, frame: string) => {
    if (!standIn.silent && socket.readyState === socket.OPEN) socket.send(frame);
  };

  sockets.on('connection', (socket, request) => {
    connections++;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const symbols = new Set<string>();
    subscriptions.set(socket, symbols);
    socket.on('close', () => subscriptions.delete(socket));
    if (kind === 'binance') {
      // The combined stream: /stream?streams=btcusdt@trade/ethusdt@trade (symbols lower case).
      if (url.pathname !== '/stream') return socket.close(1008, 'unknown path');
      for (const name of (url.searchParams.get('streams') ?? '').split('/'))
        if (name.endsWith('@trade')) symbols.add(name.slice(0, -6).toUpperCase());
      // Subscribed by its URL, Binance answers nothing: closing at once is all there is to it.
      if (standIn.acksThenCloses) socket.close(1000);
      return;
    }
    if (kind === 'okx') {
      if (url.pathname !== '/ws/v5/public') return socket.close(1008, 'unknown path');
      socket.on('message', (data) => {
        const text = data.toString();
        if (text === 'ping') {
          pings++;
          return send(socket, 'pong');
        }
        const message = JSON.parse(text) as { op?: string; args?: { channel: string; instId: string }[] };
        if (message.op !== 'subscribe' || !Array.isArray(message.args))
          return send(socket, JSON.stringify({ event: 'error', code: '60012', msg: `Invalid request: ${text}` }));
        for (const arg of message.args) {
          if (arg.channel !== 'trades') continue;
          symbols.add(arg.instId);
          send(socket, JSON.stringify({ event: 'subscribe', arg, connId: 'a4d3ae55' }));
        }
        if (standIn.acksThenCloses) socket.close(1000);
      });
      return;
    }
    if (url.pathname !== '/v2') return socket.close(1008, 'unknown path');
    // Kraken v2 greets each connection with the system status.
    send(
      socket,
      JSON.stringify({
        channel: 'status',
        type: 'update',
        data: [{ api_version: 'v2', connection_id: connections, system: 'online', version: '2.0.10' }],
      }),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        method?: string;
        params?: { channel?: string; symbol?: string[] };
      };
      if (message.method === 'ping') {
        pings++;
        return send(
          socket,
          JSON.stringify({ method: 'pong', time_in: new Date().toISOString(), time_out: new Date().toISOString() }),
        );
      }
      if (message.method !== 'subscribe' || message.params?.channel !== 'trade')
        return send(socket, JSON.stringify({ method: message.method, success: false, error: 'Invalid request' }));
      for (const symbol of message.params.symbol ?? []) {
        symbols.add(symbol);
        send(
          socket,
          JSON.stringify({
            method: 'subscribe',
            result: { channel: 'trade', symbol, snapshot: false },
            success: true,
            time_in: new Date().toISOString(),
            time_out: new Date().toISOString(),
          }),
        );
      }
      if (standIn.acksThenCloses) socket.close(1000);
    });
  });
  // Kraken's heartbeat, about once a second; Binance's protocol ping (every 20 s there, each second here).
  const heartbeat = setInterval(() => {
    for (const socket of subscriptions.keys()) {
      if (kind === 'kraken') send(socket, JSON.stringify({ channel: 'heartbeat' }));
      if (kind === 'binance' && !standIn.silent && socket.readyState === socket.OPEN) socket.ping();
    }
  }, 1_000);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn: StandIn = {
    kind,
    endpoints: { socket: `ws://127.0.0.1:${port}`, rest: `http://127.0.0.1:${port}` },
    subscribed: () => [...new Set([...subscriptions.values()].flatMap((set) => [...set]))],
    get connections() {
      return connections;
    },
    get open() {
      return subscriptions.size;
    },
    silent: false,
    acksThenCloses: false,
    get pings() {
      return pings;
    },
    candles: new Map(),
    requests: [],
    latencyMs: 0,
    rateLimit: null,
    refuse: 0,
    refuseOnly: null,
    keeps: null,
    trade(symbol, price, { quantity = '0.5', at = new Date(), id = String(nextId++) } = {}) {
      const frame =
        kind === 'binance'
          ? {
              stream: `${symbol.toLowerCase()}@trade`,
              data: {
                e: 'trade',
                E: at.getTime(),
                s: symbol,
                t: Number(id),
                p: price,
                q: quantity,
                T: at.getTime(),
                m: true,
                M: true,
              },
            }
          : kind === 'okx'
            ? {
                arg: { channel: 'trades', instId: symbol },
                data: [{ instId: symbol, tradeId: id, px: price, sz: quantity, side: 'buy', ts: String(at.getTime()) }],
              }
            : {
                channel: 'trade',
                type: 'update',
                data: [
                  {
                    symbol,
                    side: 'buy',
                    price: Number(price),
                    qty: Number(quantity),
                    ord_type: 'market',
                    trade_id: Number(id),
                    timestamp: at.toISOString(),
                  },
                ],
              };
      for (const [socket, symbols] of subscriptions) if (symbols.has(symbol)) send(socket, JSON.stringify(frame));
      return id;
    },
    raw(frame) {
      for (const socket of subscriptions.keys()) send(socket, frame);
    },
    notice() {
      if (kind !== 'okx') throw new Error(`${kind} sends no notice`);
      const frame = {
        event: 'notice',
        code: '64008',
        msg: 'The connection will soon be closed for a service upgrade. Please reconnect.',
        connId: 'a4d3ae55',
      };
      for (const socket of subscriptions.keys()) send(socket, JSON.stringify(frame));
    },
    dropConnections() {
      for (const socket of subscriptions.keys()) socket.terminate();
    },
    async close() {
      clearInterval(heartbeat);
      standIn.dropConnections();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}

export const STAND_IN_KINDS = ['binance', 'okx', 'kraken'] as const satisfies readonly StandInKind[];

/** One stand-in of each exchange the index reads by default. */
export const startStandIns = () => Promise.all(STAND_IN_KINDS.map((kind) => startStandIn(kind)));

/** A server's variables that put it on the index, reading these stand-ins (or any endpoints named so). */
export function standInEnv(stands: readonly Pick<StandIn, 'kind' | 'endpoints'>[]): Record<string, string> {
  return Object.fromEntries([
    ['PRICE_FEED', 'index'],
    ...stands.flatMap(({ kind, endpoints }) => [
      [`EXCHANGE_${kind.toUpperCase()}_WS`, endpoints.socket],
      [`EXCHANGE_${kind.toUpperCase()}_REST`, endpoints.rest],
    ]),
  ]);
}

const BTC_SYMBOLS: Record<StandInKind, string> = { binance: 'BTCUSDT', okx: 'BTC-USDT', kraken: 'BTC/USDT' };
/** Each exchange's own BTC price: their median, the index price, is OKX's 97,190.83. */
export const BTC_PRICES: Record<StandInKind, string> = { binance: '97190.10', okx: '97190.83', kraken: '97192.00' };

/**
 * The stand-ins trade BTC, each at its price, every `everyMs` real milliseconds until stopped, timed
 * on `now` (a test server's market clock, as real exchanges time trades on theirs).
 */
export function tradeBtc(
  stands: readonly StandIn[],
  {
    now = () => new Date(),
    everyMs = 50,
    prices = BTC_PRICES,
  }: { now?: () => Date; everyMs?: number; prices?: Partial<Record<StandInKind, string>> } = {},
): { stop(): Promise<void> } {
  let trading = true;
  const trades = (async () => {
    while (trading) {
      const at = now();
      for (const stand of stands)
        stand.trade(BTC_SYMBOLS[stand.kind], prices[stand.kind] ?? BTC_PRICES[stand.kind], { at });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      trading = false;
      await trades;
    },
  };
}
