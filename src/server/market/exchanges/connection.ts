// One exchange's trade stream, kept alive on the real internet: it subscribes on open, sends the
// exchange's keepalive, treats a stream silent for too long as dead, reconnects with jittered
// exponential backoff (after an error, a close, or the exchange's scheduled disconnect), drops
// repeated and out-of-order trades and malformed frames (logged, at most once a minute per kind),
// and never throws into the server. What it keeps is bounded: the last trade per symbol and the ids
// of the last trades per symbol.
import WebSocket from 'ws';
import type { Exchange, ExchangeTrade } from './exchange.ts';

export interface StreamOptions {
  /** Gets each new trade, in order per symbol. */
  onTrade: (exchange: string, trade: ExchangeTrade) => void;
  log: (line: string) => void;
  /** No frame (trade, heartbeat, pong) for this long: the connection is taken for dead. */
  silenceMs?: number;
  /** Backoff: the first retry after about this, doubling to `maxDelayMs`, each delay jittered ±50 %. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

export interface ExchangeStream {
  readonly exchange: string;
  /** Open now (subscribed and heard from since the last reconnect). */
  connected(): boolean;
  /** Counts since start, for the log and the tests. */
  readonly counts: { connects: number; trades: number; repeats: number; garbage: number };
  close(): Promise<void>;
}

/**
 * How the index opens an exchange's socket. No compression offered (frames are small; inflating
 * them costs more CPU than the bytes save on a server's link) and no UTF-8 check of text frames by
 * the socket library (a frame that is not UTF-8 cannot parse into a trade: its text is read with
 * replacement characters and refused as garbage like any other malformed frame). Measured in
 * `npm run bench -- index`.
 */
export const SOCKET_OPTIONS = { handshakeTimeout: 10_000, perMessageDeflate: false, skipUTF8Validation: true } as const;

/** Trade ids remembered per symbol to drop repeats (a reconnect's overlap, a duplicated frame). */
const REMEMBERED_IDS = 512;

export function streamTrades(exchange: Exchange, symbols: readonly string[], options: StreamOptions): ExchangeStream {
  const { onTrade, log, silenceMs = 15_000, firstDelayMs = 500, maxDelayMs = 30_000 } = options;
  const counts = { connects: 0, trades: 0, repeats: 0, garbage: 0 };
  /** The symbols asked for: a trade of any other is not this stream's. */
  const wanted = new Set(symbols);
  const lastAt = new Map<string, number>();
  const seenIds = new Map<string, Set<string>>();
  const lastComplaint = new Map<string, number>();
  let socket: WebSocket | null = null;
  let closed = false;
  let heard = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  let lastFrameAt = 0;

  const complain = (kind: string, line: string) => {
    const now = Date.now();
    if (now - (lastComplaint.get(kind) ?? 0) < 60_000) return;
    lastComplaint.set(kind, now);
    log(`${exchange.label}: ${line}`);
  };

  function accept(trade: ExchangeTrade) {
    const ids = seenIds.get(trade.symbol) ?? new Set<string>();
    seenIds.set(trade.symbol, ids);
    if (ids.has(trade.id)) {
      counts.repeats++;
      return;
    }
    ids.add(trade.id);
    if (ids.size > REMEMBERED_IDS) ids.delete(ids.values().next().value!);
    // An older trade than one already taken cannot be the last price.
    const previous = lastAt.get(trade.symbol) ?? 0;
    if (trade.at.getTime() < previous) {
      counts.repeats++;
      return;
    }
    lastAt.set(trade.symbol, trade.at.getTime());
    counts.trades++;
    onTrade(exchange.name, trade);
  }

  function stopTimers() {
    clearInterval(watchdog);
    clearInterval(keepalive);
  }

  function scheduleReconnect() {
    stopTimers();
    socket = null;
    heard = false;
    if (closed) return;
    const base = Math.min(maxDelayMs, firstDelayMs * 2 ** attempt);
    attempt = Math.min(attempt + 1, 20);
    retry = setTimeout(connect, base * (0.5 + Math.random()));
  }

  function connect() {
    if (closed) return;
    let opened: WebSocket;
    try {
      opened = new WebSocket(exchange.socketUrl(symbols), SOCKET_OPTIONS);
    } catch (error) {
      complain('connect', `cannot connect (${(error as Error).message}); retrying`);
      scheduleReconnect();
      return;
    }
    socket = opened;
    lastFrameAt = Date.now();
    opened.on('open', () => {
      counts.connects++;
      for (const frame of exchange.subscriptions(symbols)) opened.send(frame);
      if (exchange.keepalive) {
        const { everyMs, frame } = exchange.keepalive;
        keepalive = setInterval(() => opened.readyState === WebSocket.OPEN && opened.send(frame), everyMs);
      }
    });
    opened.on('message', (data, isBinary) => {
      lastFrameAt = Date.now();
      if (isBinary) {
        counts.garbage++;
        complain('garbage', 'dropped a binary frame');
        return;
      }
      const frame = exchange.parse(data.toString());
      if (frame.kind === 'garbage') {
        counts.garbage++;
        complain('garbage', `dropped a malformed frame (${frame.why})`);
        return;
      }
      if (!heard) {
        heard = true;
        attempt = 0;
        log(`${exchange.label}: connected, ${symbols.length} symbols`);
      }
      if (frame.kind === 'trades') for (const trade of frame.trades) if (wanted.has(trade.symbol)) accept(trade);
    });
    // A protocol ping (Binance's) is answered by the ws library; any frame at all proves life.
    opened.on('ping', () => (lastFrameAt = Date.now()));
    opened.on('pong', () => (lastFrameAt = Date.now()));
    opened.on('error', (error) => complain('error', `connection error (${error.message}); reconnecting`));
    opened.on('close', (code) => {
      if (socket !== opened) return;
      if (!closed) complain('close', `disconnected (code ${code}); reconnecting`);
      scheduleReconnect();
    });
    watchdog = setInterval(
      () => {
        if (Date.now() - lastFrameAt <= silenceMs) return;
        complain('silent', `silent for ${Math.round((Date.now() - lastFrameAt) / 1000)} s; reconnecting`);
        opened.terminate();
      },
      Math.min(1_000, silenceMs),
    );
  }

  connect();
  return {
    exchange: exchange.name,
    counts,
    connected: () => heard && socket?.readyState === WebSocket.OPEN,
    async close() {
      closed = true;
      clearTimeout(retry);
      stopTimers();
      const open = socket;
      socket = null;
      if (!open || open.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        open.once('close', () => resolve());
        open.terminate();
      });
    },
  };
}
