// One exchange's trade stream, kept alive on the real internet: it subscribes on open, keeps a quiet
// connection talking as the exchange documents (its keepalive), takes one silent past the exchange's
// limit for dead, reconnects with jittered exponential backoff (after an error, a close, or the
// exchange's scheduled disconnect) that starts over only once a connection has proved healthy by
// delivering trades for a while, opens a new connection before an announced close, drops repeated,
// out-of-order and future-stamped trades and malformed frames (logged, at most once a minute per
// kind), and never throws into the server. What it keeps is bounded: the last trade time per symbol
// and the ids of the last trades per symbol.
import WebSocket from 'ws';
import type { Exchange, ExchangeTrade } from './exchange.ts';

export interface StreamOptions {
  /** Gets each new trade, in order per symbol. */
  onTrade: (exchange: string, trade: ExchangeTrade) => void;
  log: (line: string) => void;
  /** Our time in epoch ms, which trade stamps are held against: the clock the index prices on. */
  now?: () => number;
  /** The exchange's keepalive interval and silence limit, overridden (tests shrink them). */
  keepaliveMs?: number;
  silenceMs?: number;
  /** Backoff: the first retry after about this, doubling to `maxDelayMs`, each delay jittered ±50 %. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A connection that has been up this long and delivers a trade has recovered: the backoff starts over. */
  healthyMs?: number;
}

export interface ExchangeStream {
  readonly exchange: string;
  /** Open now (subscribed and heard from since the last reconnect). */
  connected(): boolean;
  /** Counts since start, for the log and the tests; `skew`: trades dropped for a stamp too far ahead of our clock. */
  readonly counts: { connects: number; trades: number; repeats: number; garbage: number; skew: number };
  /** The wait the backoff chose before the latest reconnection (its jitter included), in ms; null before the first. */
  lastRetryMs(): number | null;
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

/**
 * How far ahead of our clock an exchange may stamp a trade. Both clocks follow true time within
 * milliseconds (NTP) and a trade reaches us after it happened, so a stamp seconds ahead is a wrong
 * clock; taken, it would outrank every honest trade after it and stay "fresh" for as long as it is
 * ahead. Well under the index's 5 s freshness, so a stamp let through stretches a price little.
 */
export const MAX_AHEAD_MS = 2_000;

/** Until a connection has delivered trades this long, closing is a failed attempt and the backoff keeps growing. */
const HEALTHY_MS = 10_000;

/** Repeated trouble of one kind is logged once a minute at most, with how often it happened meanwhile. */
const COMPLAINT_EVERY_MS = 60_000;

export function streamTrades(exchange: Exchange, symbols: readonly string[], options: StreamOptions): ExchangeStream {
  const {
    onTrade,
    log,
    now = Date.now,
    keepaliveMs = exchange.keepalive.everyMs,
    silenceMs = exchange.silenceMs,
    firstDelayMs = 500,
    maxDelayMs = 30_000,
    healthyMs = HEALTHY_MS,
  } = options;
  const counts = { connects: 0, trades: 0, repeats: 0, garbage: 0, skew: 0 };
  let lastRetryMs: number | null = null;
  /** The symbols asked for: a trade of any other is not this stream's. */
  const wanted = new Set(symbols);
  /** Per symbol, the time the last trade taken is held at: its stamp, or our clock when the stamp was ahead of it. */
  const lastAt = new Map<string, number>();
  const seenIds = new Map<string, Set<string>>();
  const complaints = new Map<string, { at: number; since: number }>();
  /** Connections that delivered a frame other than garbage: subscribed and alive. */
  const heard = new WeakSet<WebSocket>();
  let socket: WebSocket | null = null;
  /** A connection the exchange announced it will close, read until its successor is heard. */
  let retiring: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const complain = (kind: string, line: string) => {
    const at = Date.now();
    const last = complaints.get(kind);
    if (last && at - last.at < COMPLAINT_EVERY_MS) {
      last.since++;
      return;
    }
    complaints.set(kind, { at, since: 0 });
    log(`${exchange.label}: ${line}${last?.since ? ` (${last.since} more since the last report)` : ''}`);
  };

  /** Takes a trade unless it is a repeat, older than the last taken, or stamped too far ahead; true when taken. */
  function accept(trade: ExchangeTrade): boolean {
    const at = trade.at.getTime();
    const ourTime = now();
    if (at - ourTime > MAX_AHEAD_MS) {
      counts.skew++;
      complain('skew', `dropped a trade stamped ${((at - ourTime) / 1000).toFixed(1)} s ahead of our clock`);
      return false;
    }
    const ids = seenIds.get(trade.symbol) ?? new Set<string>();
    seenIds.set(trade.symbol, ids);
    if (ids.has(trade.id)) {
      counts.repeats++;
      return false;
    }
    ids.add(trade.id);
    if (ids.size > REMEMBERED_IDS) ids.delete(ids.values().next().value!);
    // An older trade than one already taken cannot be the last price.
    if (at < (lastAt.get(trade.symbol) ?? 0)) {
      counts.repeats++;
      return false;
    }
    // Held at our clock at most: a stamp slightly ahead must not outrank the trades after it.
    lastAt.set(trade.symbol, Math.min(at, ourTime));
    counts.trades++;
    onTrade(exchange.name, trade);
    return true;
  }

  function reconnectLater() {
    if (closed) return;
    clearTimeout(retry);
    const base = Math.min(maxDelayMs, firstDelayMs * 2 ** attempt);
    attempt = Math.min(attempt + 1, 20);
    lastRetryMs = base * (0.5 + Math.random());
    retry = setTimeout(connect, lastRetryMs);
  }

  function connect() {
    if (closed) return;
    let opened: WebSocket;
    try {
      opened = new WebSocket(exchange.socketUrl(symbols), SOCKET_OPTIONS);
    } catch (error) {
      complain('connect', `cannot connect (${(error as Error).message}); retrying`);
      reconnectLater();
      return;
    }
    socket = opened;
    let openedAt = Date.now();
    let lastFrameAt = Date.now();
    let keepalive: ReturnType<typeof setInterval> | undefined;
    const alive = () => (lastFrameAt = Date.now());

    opened.on('open', () => {
      counts.connects++;
      openedAt = Date.now();
      for (const frame of exchange.subscriptions(symbols)) opened.send(frame);
      const { frame } = exchange.keepalive;
      if (frame !== null)
        keepalive = setInterval(() => opened.readyState === WebSocket.OPEN && opened.send(frame), keepaliveMs);
    });
    opened.on('message', (data, isBinary) => {
      alive();
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
      if (frame.kind === 'reconnect') {
        complain('notice', `${frame.why}; opening a new connection`);
        replace(opened);
        return;
      }
      if (!heard.has(opened)) {
        heard.add(opened);
        complain('connected', `connected, ${symbols.length} symbols`);
        // Its successor is subscribed: the connection announced to close has nothing more to give.
        if (opened === socket && retiring) {
          retiring.terminate();
          retiring = null;
        }
      }
      if (frame.kind !== 'trades') return;
      if (frame.malformed) {
        counts.garbage += frame.malformed.count;
        complain(
          'garbage',
          `dropped a malformed frame (${frame.malformed.why}; kept the ${frame.trades.length} trades beside it)`,
        );
      }
      let took = false;
      for (const trade of frame.trades) if (wanted.has(trade.symbol) && accept(trade)) took = true;
      // Only market data after a while up proves the exchange serves us: acks alone do not.
      if (took && attempt > 0 && Date.now() - openedAt >= healthyMs) attempt = 0;
    });
    // A protocol ping (Binance's) is answered by the ws library; any frame at all proves life.
    opened.on('ping', alive);
    opened.on('pong', alive);
    opened.on('error', (error) => complain('error', `connection error (${error.message}); reconnecting`));
    opened.on('close', (code) => {
      clearInterval(keepalive);
      clearInterval(watchdog);
      if (opened === retiring) retiring = null;
      if (socket !== opened) return;
      socket = null;
      if (closed) return;
      complain('close', `disconnected (code ${code}); reconnecting`);
      reconnectLater();
    });
    // Silence is counted only while this process was listening: when the check itself comes late
    // (a long garbage collection, a busy event loop), the frames may be waiting unread in the socket,
    // so the time the process was away is not held against the exchange.
    const checkEveryMs = Math.min(1_000, Math.max(10, silenceMs / 4));
    let checkedAt = Date.now();
    const watchdog = setInterval(() => {
      const at = Date.now();
      const away = at - checkedAt - checkEveryMs;
      checkedAt = at;
      if (away > checkEveryMs) {
        lastFrameAt = Math.min(at, lastFrameAt + away);
        return;
      }
      if (at - lastFrameAt <= silenceMs) return;
      complain('silent', `silent for ${Math.round((at - lastFrameAt) / 1000)} s; reconnecting`);
      opened.terminate();
    }, checkEveryMs);
  }

  /**
   * The exchange announced that `announced` will close: it is read on while a successor connects
   * (after the backoff's wait, so an exchange announcing on every connection is not hammered).
   */
  function replace(announced: WebSocket) {
    if (announced !== socket || closed) return;
    retiring?.terminate();
    retiring = announced;
    socket = null;
    reconnectLater();
  }

  connect();
  return {
    exchange: exchange.name,
    counts,
    lastRetryMs: () => lastRetryMs,
    connected: () => [socket, retiring].some((open) => open && heard.has(open) && open.readyState === WebSocket.OPEN),
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = [socket, retiring].filter(
        (one): one is WebSocket => one !== null && one.readyState !== WebSocket.CLOSED,
      );
      socket = null;
      retiring = null;
      await Promise.all(
        open.map(
          (one) =>
            new Promise<void>((resolve) => {
              one.once('close', () => resolve());
              one.terminate();
            }),
        ),
      );
    },
  };
}
