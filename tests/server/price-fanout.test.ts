// The stream's fan-out without sockets: each step is framed once and those same bytes reach every
// live client once, in order; a client still being resent what it missed gets the live steps after
// that, none twice; heartbeats reach every client every 5 s, a tenth of them at a time, unless a step just did; a
// client that stops reading is cut off; a step reaches a few hundred clients at a time, the event loop let go in
// between.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { STREAM_HEARTBEAT_MS, STREAM_STALL_MS, type TickEvent } from '../../src/api-contract/markets.ts';
import type { Market } from '../../src/server/market/market.ts';
import {
  HEARTBEAT_QUIET_MS,
  MAX_UNREAD_BYTES,
  WRITES_PER_TURN,
  priceFanout,
} from '../../src/server/http/price-fanout.ts';

type Listener = (events: TickEvent[], json: string) => void;

function fakeMarket() {
  const listeners = new Set<Listener>();
  const market = {
    subscribe: (listener: Listener) => (listeners.add(listener), () => listeners.delete(listener)),
    onHalts: () => () => {},
  } as unknown as Market;
  const publish = (second: number) => {
    const events = ['BTC', 'ETH'].map((code) => ({
      code,
      price: String(100 + second),
      at: new Date(second * 1000).toISOString(),
    }));
    for (const listener of listeners) listener(events, JSON.stringify(events));
  };
  return { market, publish, listeners };
}

/**
 * A chunked response whose socket keeps what is written to it. Its reader takes everything at once
 * unless `reading` is false: then all it was written stays unread in the socket.
 */
function fakeResponse({ reading = true } = {}) {
  const written: Buffer[] = [];
  const socket = {
    write: (bytes: Buffer) => written.push(bytes),
    get writableLength() {
      return reading ? 0 : written.reduce((sum, bytes) => sum + bytes.length, 0);
    },
  };
  const state = { destroyed: false };
  const out = {
    chunkedEncoding: true,
    socket,
    destroy: () => void (state.destroyed = true),
  } as unknown as ServerResponse;
  const text = () => written.map((bytes) => bytes.toString());
  return {
    out,
    written,
    text,
    state,
    ids: () => text().flatMap((chunk) => [...chunk.matchAll(/id: (\d+)\n/g)].map((match) => Number(match[1]) / 1000)),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('writes one framed step, the very same bytes, to every live client, once and in order', () => {
  const { market, publish, listeners } = fakeMarket();
  const fanout = priceFanout(market);
  const responses = Array.from({ length: 50 }, fakeResponse);
  for (const response of responses) fanout.release(fanout.join(response.out, null));
  for (const second of [1, 2, 3]) publish(second);
  for (const response of responses) {
    expect(response.ids()).toEqual([1, 2, 3]);
    response.written.forEach((bytes, i) => expect(bytes).toBe(responses[0]!.written[i])); // one Buffer shared by all
  }
  // A chunk of the chunked response: its size in hex, the event, CRLF.
  const [first] = responses[0]!.text();
  const event = `id: 1000\nevent: ticks\ndata: ${JSON.stringify([
    { code: 'BTC', price: '101', at: '1970-01-01T00:00:01.000Z' },
    { code: 'ETH', price: '101', at: '1970-01-01T00:00:01.000Z' },
  ])}\n\n`;
  expect(first).toBe(`${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`);

  fanout.stop();
  expect(listeners.size).toBe(0);
});

it('holds live steps while a client is resent what it missed, then sends only those it has not had', () => {
  const { market, publish } = fakeMarket();
  const fanout = priceFanout(market);
  const response = fakeResponse();
  const client = fanout.join(response.out, 1000);
  publish(2);
  publish(3);
  expect(response.written).toEqual([]); // held
  client.sentThrough = 2000; // the replay found step 2 in the database
  fanout.release(client);
  publish(4);
  publish(4); // published twice (out of order or repeated): sent once
  expect(response.ids()).toEqual([3, 4]);

  // A client gone is written nothing more.
  fanout.leave(client);
  publish(5);
  expect(response.ids()).toEqual([3, 4]);
  expect(fanout.size()).toBe(0);
  fanout.stop();
});

it('sends every client a heartbeat every 5 s, the first within 5 s of joining, a tenth of the clients at a time', () => {
  const { market } = fakeMarket();
  const fanout = priceFanout(market);
  const responses: ReturnType<typeof fakeResponse>[] = [];
  const joined: number[] = [];
  // 100 clients joining over 5 s.
  for (let i = 0; i < 100; i++) {
    const response = fakeResponse();
    fanout.release(fanout.join(response.out, null));
    responses.push(response);
    joined.push(Date.now());
    vi.advanceTimersByTime(50);
  }
  const beats = (response: ReturnType<typeof fakeResponse>) =>
    response.text().filter((chunk) => chunk.includes('event: heartbeat')).length;
  const start = Date.now();
  let most = 0;
  for (let elapsed = 0; elapsed < 3 * STREAM_HEARTBEAT_MS; elapsed += STREAM_HEARTBEAT_MS / 10) {
    const before = responses.map(beats);
    vi.advanceTimersByTime(STREAM_HEARTBEAT_MS / 10);
    most = Math.max(most, responses.filter((response, i) => beats(response) > before[i]!).length);
  }
  expect(most).toBeLessThanOrEqual(20); // spread, never all at once
  for (const [i, response] of responses.entries()) {
    // 15 s after the last one joined: three each, the first no later than 5 s after joining.
    const count = beats(response);
    expect(count).toBeGreaterThanOrEqual(
      Math.floor((start + 3 * STREAM_HEARTBEAT_MS - joined[i]!) / STREAM_HEARTBEAT_MS),
    );
    expect(count).toBeLessThanOrEqual(Math.ceil((start + 3 * STREAM_HEARTBEAT_MS - joined[i]!) / STREAM_HEARTBEAT_MS));
  }
  fanout.stop();
});

it('sends no heartbeat to a client sent a step in the last HEARTBEAT_QUIET_MS; once steps stop, one comes within 1.5 × STREAM_HEARTBEAT_MS', () => {
  const { market, publish } = fakeMarket();
  const fanout = priceFanout(market);
  const responses = Array.from({ length: 20 }, fakeResponse);
  for (const response of responses) fanout.release(fanout.join(response.out, null));
  const beats = (response: ReturnType<typeof fakeResponse>) =>
    response.text().filter((chunk) => chunk.includes('event: heartbeat')).length;
  // A step a second for 30 s, as the feed records them: every client gets every step and no heartbeat.
  for (let second = 1; second <= 30; second++) {
    publish(second);
    vi.advanceTimersByTime(1_000);
  }
  for (const response of responses) {
    expect(response.ids()).toHaveLength(30);
    expect(beats(response)).toBe(0);
  }
  // The feed stops: each client hears a heartbeat no later than 1.5 × STREAM_HEARTBEAT_MS after the last step, then
  // one every STREAM_HEARTBEAT_MS, so none goes silent for its STREAM_STALL_MS.
  const lastStep = Date.now() - 1_000;
  const firstBeat = new Map<ReturnType<typeof fakeResponse>, number>();
  for (let elapsed = 0; elapsed < 3 * STREAM_HEARTBEAT_MS; elapsed += STREAM_HEARTBEAT_MS / 10) {
    vi.advanceTimersByTime(STREAM_HEARTBEAT_MS / 10);
    for (const response of responses)
      if (beats(response) > 0 && !firstBeat.has(response)) firstBeat.set(response, Date.now());
  }
  expect(HEARTBEAT_QUIET_MS).toBe(STREAM_HEARTBEAT_MS / 2);
  for (const response of responses) {
    expect(firstBeat.get(response)! - lastStep).toBeLessThanOrEqual(1.5 * STREAM_HEARTBEAT_MS);
    expect(firstBeat.get(response)! - lastStep).toBeGreaterThanOrEqual(HEARTBEAT_QUIET_MS);
  }
  expect(STREAM_STALL_MS).toBeGreaterThan(1.5 * STREAM_HEARTBEAT_MS);
  fanout.stop();
});

it('keeps the heartbeats coming when the wall clock is set back (an NTP step, a resumed machine)', () => {
  const { market } = fakeMarket();
  const fanout = priceFanout(market);
  const response = fakeResponse();
  fanout.release(fanout.join(response.out, null));
  const beats = () => response.text().filter((chunk) => chunk.includes('event: heartbeat')).length;
  vi.advanceTimersByTime(STREAM_HEARTBEAT_MS);
  expect(beats()).toBe(1);
  // The wall clock steps a minute back; the heartbeats keep their pace, one every STREAM_HEARTBEAT_MS.
  vi.setSystemTime(Date.now() - 60_000);
  vi.advanceTimersByTime(3 * STREAM_HEARTBEAT_MS);
  expect(beats()).toBe(4);
  fanout.stop();
});

it('cuts off a client that has left more than MAX_UNREAD_BYTES unread; the others go on', () => {
  const { market, publish } = fakeMarket();
  const fanout = priceFanout(market);
  const reader = fakeResponse();
  const sleeper = fakeResponse({ reading: false });
  fanout.release(fanout.join(reader.out, null));
  fanout.release(fanout.join(sleeper.out, null));
  const stepBytes = () => sleeper.written.reduce((sum, bytes) => sum + bytes.length, 0) / sleeper.written.length;
  publish(1);
  const steps = Math.ceil(MAX_UNREAD_BYTES / stepBytes()) + 1;
  for (let second = 2; second <= steps + 1; second++) publish(second);
  expect(sleeper.state.destroyed).toBe(true);
  expect(reader.state.destroyed).toBe(false);
  expect(fanout.size()).toBe(1);
  const sleeperIds = sleeper.ids().length;
  publish(steps + 2);
  vi.advanceTimersByTime(STREAM_HEARTBEAT_MS);
  // Written nothing more once cut off; the reader has every step.
  expect(sleeper.ids()).toHaveLength(sleeperIds);
  expect(reader.ids()).toHaveLength(steps + 2);
  fanout.stop();
});

it('writes a step to WRITES_PER_TURN clients at a time, letting the event loop go in between; each gets every step once, in order', async () => {
  vi.useRealTimers();
  const { market, publish } = fakeMarket();
  const fanout = priceFanout(market);
  const responses = Array.from({ length: 2.5 * WRITES_PER_TURN }, fakeResponse);
  for (const response of responses) fanout.release(fanout.join(response.out, null));
  publish(1);
  publish(2); // before the first has reached everyone
  const reached = (steps: number) => responses.filter((response) => response.ids().length >= steps).length;
  expect(reached(1)).toBe(WRITES_PER_TURN); // the first turn, at once
  // 2,500 writes, 500 a turn: four more turns, each after the event loop has run what was waiting (here: this test).
  let turns = 0;
  while (reached(2) < responses.length && turns < 10) {
    await new Promise(setImmediate);
    turns++;
  }
  expect(turns).toBe(4);
  for (const response of responses) expect(response.ids()).toEqual([1, 2]);
  fanout.stop();
});
