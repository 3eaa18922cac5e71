// One exchange's trade stream against a local stand-in speaking that exchange's documented protocol,
// on timings shrunk for the test: an exchange that answers and then closes is retried at the pace of
// the backoff, not hammered, and logged once; a connection that delivers trades for a while starts
// the backoff over; each exchange's keepalive comes well before its silence limit, so a quiet but
// healthy connection is kept; OKX's notice of a service upgrade opens a new connection before the
// old one goes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STAND_IN_KINDS, startStandIn, type StandIn, type StandInKind } from './exchange-standins.ts';
import { binance } from '../../src/server/market/exchanges/binance.ts';
import { okx } from '../../src/server/market/exchanges/okx.ts';
import { kraken } from '../../src/server/market/exchanges/kraken.ts';
import { streamTrades, type ExchangeStream, type StreamOptions } from '../../src/server/market/exchanges/connection.ts';
import type { Exchange } from '../../src/server/market/exchanges/exchange.ts';

const makers: Record<StandInKind, (endpoints?: StandIn['endpoints']) => Exchange> = { binance, okx, kraken };
const BTC: Record<StandInKind, string> = { binance: 'BTCUSDT', okx: 'BTC-USDT', kraken: 'BTC/USDT' };
const stands = {} as Record<StandInKind, StandIn>;

beforeAll(async () => {
  for (const kind of STAND_IN_KINDS) stands[kind] = await startStandIn(kind);
});
afterAll(async () => {
  await Promise.all(Object.values(stands).map((stand) => stand.close()));
});

let streams: ExchangeStream[] = [];
let lines: string[] = [];
afterEach(async () => {
  await Promise.all(streams.map((stream) => stream.close()));
  streams = [];
  for (const stand of Object.values(stands)) {
    stand.acksThenCloses = false;
    stand.silent = false;
  }
});

function open(kind: StandInKind, options: Omit<StreamOptions, 'onTrade' | 'log'> = {}): ExchangeStream {
  lines = [];
  const stream = streamTrades(makers[kind](stands[kind].endpoints), [BTC[kind]], {
    onTrade: () => {},
    log: (line) => lines.push(line),
    ...options,
  });
  streams.push(stream);
  return stream;
}

async function until(condition: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The real backoff (0.5 s doubling to 30 s) and a minute, both 100 times shorter. Loopback connects
 * in a millisecond or two, which does not shrink: it only makes the attempts fewer.
 */
const SCALE = 100;
const MINUTE = 60_000 / SCALE;
const BACKOFF = { firstDelayMs: 500 / SCALE, maxDelayMs: 30_000 / SCALE, healthyMs: 10_000 / SCALE };

describe('an exchange that answers, then closes', () => {
  it.each(STAND_IN_KINDS)(
    '%s: is retried at the pace of the backoff, a handful of times a minute, and the trouble is logged once',
    async (kind) => {
      const stand = stands[kind];
      stand.acksThenCloses = true;
      const before = stand.connections;
      const started = Date.now();
      open(kind, BACKOFF);
      // The backoff's first waits (0.5, 1, 2 … 16 s, each at least half that) take more than a quarter
      // of a minute: seven tries cannot come sooner.
      await until(() => stand.connections - before >= 7);
      expect(Date.now() - started).toBeGreaterThanOrEqual(
        (0.5 * (500 + 1_000 + 2_000 + 4_000 + 8_000 + 16_000)) / SCALE,
      );
      // From then on every wait is the longest, 30 s give or take half: four tries in a minute at most.
      const steady = Date.now();
      const counted = stand.connections;
      await until(() => stand.connections - counted >= 4);
      // (Less the few milliseconds the wait for the seventh may have seen it late.)
      expect(Date.now() - steady).toBeGreaterThanOrEqual(MINUTE - 10);
      // Within the real minute: one line for the closes, one at most for the connections (Binance answers nothing).
      expect(lines.filter((line) => / disconnected /.test(line))).toHaveLength(1);
      expect(lines.filter((line) => / connected, /.test(line)).length).toBeLessThanOrEqual(1);
    },
  );

  it('starts the backoff over once a connection has delivered trades for a while', async () => {
    const stand = stands.okx;
    stand.acksThenCloses = true;
    const before = stand.connections;
    // Retries 1 ms apart at first: ten failures in a row bring the wait to a second or more.
    const stream = open('okx', { firstDelayMs: 1, maxDelayMs: 60_000, healthyMs: 100 });
    await until(() => stand.connections - before >= 11);
    stand.acksThenCloses = false;
    await until(() => stream.connected());
    // Trades for longer than the healthy period, and until ten have arrived (a busy machine delivers fewer a second).
    const trading = Date.now();
    while (Date.now() - trading < 300 || stream.counts.trades < 10) {
      stand.trade('BTC-USDT', '100');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const connects = stream.counts.connects;
    stand.dropConnections();
    await until(() => stream.counts.connects > connects);
    // The wait chosen before reconnecting: the first delay (1 ms) ±50 %. Without the new start it would be 2^10 ms or
    // more, less half. (The wait chosen, not the time the reconnection took: a busy machine stretches the latter.)
    expect(stream.lastRetryMs()).toBeLessThanOrEqual(1.5);
  });
});

describe('keepalive before the watchdog', () => {
  it.each(STAND_IN_KINDS)(
    '%s: the exchange’s documented keepalive comes at least twice within its silence limit',
    (kind) => {
      const { keepalive, silenceMs } = makers[kind]();
      expect(keepalive.everyMs * 2).toBeLessThanOrEqual(silenceMs);
    },
  );

  it('keeps what each exchange documents: OKX pings within 30 s, Binance pings every 20 s and waits a minute, Kraken beats every second', () => {
    expect(okx().keepalive).toEqual({ everyMs: expect.any(Number), frame: 'ping' });
    expect(okx().keepalive.everyMs).toBeLessThan(30_000);
    expect(okx().silenceMs).toBeLessThan(30_000);
    expect(binance().keepalive).toEqual({ everyMs: 20_000, frame: null });
    expect(binance().silenceMs).toBeLessThan(60_000);
    expect(kraken().keepalive).toEqual({ everyMs: 1_000, frame: null });
  });

  /** OKX's timings 250 times shorter: a ping each 40 ms, dead after 100 ms of silence. */
  const okxShrunk = { keepaliveMs: okx().keepalive.everyMs / 250, silenceMs: okx().silenceMs / 250 };

  it('keeps a quiet but healthy OKX connection: its pings are answered, it is never taken for dead', async () => {
    const stand = stands.okx;
    const stream = open('okx', okxShrunk);
    await until(() => stream.connected());
    const pings = stand.pings;
    // Twenty-five pings answered, no trade: ten silence limits without a trade.
    await until(() => stand.pings - pings >= 25);
    expect(stream.counts).toMatchObject({ connects: 1, trades: 0, garbage: 0 });
    expect(lines.filter((line) => /silent/.test(line))).toEqual([]);
  });

  it('does not take a busy process for a dead exchange: a stall of the event loop longer than the silence limit is forgiven', async () => {
    const stand = stands.okx;
    const stream = open('okx', okxShrunk);
    await until(() => stream.connected());
    // The process does nothing else for four silence limits: the pongs wait unread in the socket.
    const busyUntil = Date.now() + okxShrunk.silenceMs * 4;
    while (Date.now() < busyUntil);
    const pings = stand.pings;
    await until(() => stand.pings - pings >= 10);
    expect(stream.counts.connects).toBe(1);
    expect(lines.filter((line) => /silent/.test(line))).toEqual([]);
  });

  it('still cuts a connection that stays silent after such a stall', async () => {
    const stand = stands.okx;
    const stream = open('okx', { ...okxShrunk, firstDelayMs: 5 });
    await until(() => stream.connected());
    stand.silent = true;
    const busyUntil = Date.now() + okxShrunk.silenceMs * 4;
    while (Date.now() < busyUntil);
    await until(() => lines.some((line) => /^OKX: silent for \d+ s; reconnecting/.test(line)));
  });

  it('cuts that connection when the keepalive comes after the silence limit (the old 20 s ping against 15 s)', async () => {
    const stream = open('okx', { keepaliveMs: 20_000 / 250, silenceMs: 15_000 / 250, firstDelayMs: 5 });
    await until(() => stream.counts.connects >= 2);
    expect(lines.some((line) => /^OKX: silent for \d+ s; reconnecting/.test(line))).toBe(true);
  });
});

describe('OKX’s notice of a service upgrade', () => {
  it('opens a new connection and then lets the announced one go, delivering trades throughout; the notice is no garbage', async () => {
    const stand = stands.okx;
    const before = stand.connections;
    const received: string[] = [];
    lines = [];
    const stream = streamTrades(okx(stand.endpoints), ['BTC-USDT'], {
      onTrade: (_, trade) => received.push(trade.price),
      log: (line) => lines.push(line),
      firstDelayMs: 5,
    });
    streams.push(stream);
    await until(() => stream.connected() && stand.subscribed().includes('BTC-USDT'));
    stand.notice();
    // The announced connection still serves until its successor is subscribed.
    expect(stream.connected()).toBe(true);
    await until(() => stand.connections - before === 2 && stand.open === 1);
    expect(stream.connected()).toBe(true);
    stand.trade('BTC-USDT', '101');
    await until(() => received.includes('101'));
    expect(stream.counts).toMatchObject({ connects: 2, garbage: 0, trades: 1 });
    expect(lines).toContain(
      'OKX: notice 64008 ("The connection will soon be closed for a service upgrade. Please reconnect."); opening a new connection',
    );
  });
});
