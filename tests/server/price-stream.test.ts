// The live price stream (our addition, declared in the API contract): server-sent events over a real
// socket. A client first hears which coins are halted, then gets a snapshot of the latest prices,
// then one `ticks` event per step (and a `halts` event whenever a halt begins or ends).
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { sql } from 'drizzle-orm';
import { PRICE_STREAM_PATH, STREAM_HEARTBEAT_MS, type TickEvent } from '../../src/api-contract/markets.ts';
import { LISTED_COINS } from '../../src/server/db/seed-markets.ts';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await startHarness();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => h.close());

interface ServerEvent {
  event: string;
  data: string;
  id?: string;
}

/** Opens the stream and reads it event by event, as an EventSource would. */
async function openStream(options: { lastEventId?: string; query?: string } = {}) {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(`${base}/api${PRICE_STREAM_PATH}${options.query ?? ''}`, {
    signal: abort.signal,
    headers,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queue: ServerEvent[] = [];
  async function next(timeoutMs = 5000): Promise<ServerEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const shifted = queue.shift();
      if (shifted) return shifted;
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = block.split('\n').filter((line) => line && !line.startsWith(':'));
        const event = fields.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
        const data = fields
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        const id = fields.find((line) => line.startsWith('id: '))?.slice(4);
        if (fields.some((line) => line.startsWith('data: ')))
          queue.push(id === undefined ? { event, data } : { event, data, id });
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event arrived in time');
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left)),
      ]);
      if (chunk === 'timeout') throw new Error('no event arrived in time');
      if (chunk.done) throw new Error('the stream ended');
      buffer += chunk.value;
    }
  }
  // The first event says which coins are halted now, before any price.
  const opening = await next();
  expect(opening.event).toBe('halts');
  return { response, next, close: () => abort.abort(), halted: JSON.parse(opening.data) as string[] };
}

const codes = LISTED_COINS.map((coin) => coin.code);

it('sends a snapshot first, then one ticks event with the 10 prices of each step', async () => {
  const stream = await openStream();
  try {
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Nothing recorded yet: the snapshot is empty.
    expect(await stream.next()).toEqual({ event: 'ticks', data: '[]' });

    h.clock.advance(1000);
    await h.tick();
    const step = await stream.next();
    expect(step.event).toBe('ticks');
    const ticks = JSON.parse(step.data) as TickEvent[];
    expect(ticks).toHaveLength(10);
    expect(ticks.map((tick) => tick.code)).toEqual(codes);
    expect(ticks.every((tick) => tick.at === h.clock.now().toISOString())).toBe(true);
    // The step's id is its recorded time: the same in every server process.
    expect(step.id).toBe(String(h.clock.now().getTime()));
    expect(ticks.every((tick) => /^\d+\.\d+$/.test(tick.price) && Number(tick.price) > 0)).toBe(true);
    // The stream says what the market recorded: the same prices the calls quote.
    for (const tick of ticks) expect(tick.price).toBe((await h.market.quote(tick.code))!.price);

    // A hand-recorded tick of one coin is one event with one price.
    h.clock.advance(1000);
    await h.market.record([{ coin: 'ETH', at: h.clock.now(), price: '3456.78', volume: '1' }]);
    expect(JSON.parse((await stream.next()).data)).toEqual([
      { code: 'ETH', price: '3456.78', at: h.clock.now().toISOString() },
    ]);
  } finally {
    stream.close();
  }
});

it("a later app's snapshot holds the latest price of every coin, and every open app gets each step", async () => {
  const first = await openStream();
  const second = await openStream();
  try {
    const opening = await first.next();
    const snapshot = JSON.parse(opening.data) as TickEvent[];
    // Named by its newest step, so a reconnect resumes after it.
    expect(opening.id).toBe(String(Math.max(...snapshot.map((tick) => Date.parse(tick.at)))));
    expect(JSON.parse((await second.next()).data)).toEqual(snapshot);
    expect(snapshot.map((tick) => tick.code).sort()).toEqual([...codes].sort());
    for (const tick of snapshot) {
      const quote = (await h.market.quote(tick.code))!;
      expect(tick).toEqual({ code: tick.code, price: quote.price, at: quote.at.toISOString() });
    }
    expect(snapshot.find((tick) => tick.code === 'ETH')!.price).toBe('3456.78');

    h.clock.advance(1000);
    await h.tick();
    const [a, b] = [await first.next(), await second.next()];
    expect(a).toEqual(b);
    expect(JSON.parse(a.data)).toHaveLength(10);
  } finally {
    first.close();
    second.close();
  }
  // A closed stream is let go: the next step still records without failing.
  h.clock.advance(1000);
  await expect(h.tick()).resolves.toBeUndefined();
});

/** Reads `ticks` events (skipping heartbeats) until one with the given id, returning all of them. */
async function ticksThrough(stream: Awaited<ReturnType<typeof openStream>>, lastId: string) {
  const got: ServerEvent[] = [];
  for (;;) {
    const event = await stream.next();
    if (event.event !== 'ticks') continue;
    got.push(event);
    if (event.id === lastId) return got;
  }
}

it('a client reconnecting with Last-Event-ID gets every step recorded meanwhile once, in order, then the live ones', async () => {
  const first = await openStream();
  const opening = await first.next();
  first.close();

  // Five steps while the client is away.
  const missed: string[] = [];
  for (let step = 0; step < 5; step++) {
    h.clock.advance(1000);
    await h.tick();
    missed.push(String(h.clock.now().getTime()));
  }
  for (const resume of [{ lastEventId: opening.id }, { query: `?last=${opening.id}` }]) {
    const again = await openStream(resume);
    try {
      const resent = await ticksThrough(again, missed.at(-1)!);
      expect(resent.map((event) => event.id)).toEqual(missed);
      for (const event of resent) {
        const ticks = JSON.parse(event.data) as TickEvent[];
        expect(ticks.map((tick) => tick.code)).toEqual(codes);
        expect(ticks.every((tick) => String(Date.parse(tick.at)) === event.id)).toBe(true);
      }
      // Then live, without a repeat.
      h.clock.advance(1000);
      await h.tick();
      const live = await ticksThrough(again, String(h.clock.now().getTime()));
      expect(live).toHaveLength(1);
      missed.push(live[0]!.id!);
    } finally {
      again.close();
    }
  }
});

it('steps recorded while the missed ones are being resent are neither lost nor sent twice', async () => {
  const opening = await (async () => {
    const stream = await openStream();
    const event = await stream.next();
    stream.close();
    return event;
  })();
  for (let step = 0; step < 3; step++) {
    h.clock.advance(1000);
    await h.tick();
  }
  const again = await openStream({ lastEventId: opening.id });
  try {
    // Steps race the replay.
    for (let step = 0; step < 3; step++) {
      h.clock.advance(1000);
      await h.tick();
    }
    const got = await ticksThrough(again, String(h.clock.now().getTime()));
    const ids = got.map((event) => Number(event.id));
    expect(ids).toHaveLength(6);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(6);
  } finally {
    again.close();
  }
});

it('a client away longer than the replay window gets a reset with the latest prices instead of an endless replay', async () => {
  const stream = await openStream();
  const opening = await stream.next();
  stream.close();
  // 3,700 one-coin steps recorded while away (written directly: the feed would take an hour).
  const from = h.clock.now().getTime();
  await h.database.db.execute(sql`insert into price_ticks (coin, at, price)
    select 'BTC', to_timestamp((${from}::bigint + g * 1000) / 1000.0), 50000 + g from generate_series(1, 3700) g`);
  h.clock.advance(3_701_000);
  await h.tick();
  const again = await openStream({ lastEventId: opening.id });
  try {
    let ticks = 0;
    let event = await again.next();
    while (event.event === 'ticks') {
      ticks += 1;
      event = await again.next();
    }
    expect(ticks).toBe(3600);
    expect(event.event).toBe('reset');
    expect(event.id).toBe(String(h.clock.now().getTime()));
    expect((JSON.parse(event.data) as TickEvent[]).map((tick) => tick.code).sort()).toEqual([...codes].sort());
    // And live from there.
    h.clock.advance(1000);
    await h.tick();
    const live = await ticksThrough(again, String(h.clock.now().getTime()));
    expect(live).toHaveLength(1);
  } finally {
    again.close();
  }
});

it('sends a heartbeat, so a client can tell a silent connection from a quiet market', async () => {
  const stream = await openStream();
  try {
    await stream.next();
    // On a quiet market (no step is recorded here) the next event is a heartbeat. Its pace, the first within
    // STREAM_HEARTBEAT_MS of joining, is shown on fake timers in price-fanout.test.ts.
    const beat = await stream.next(STREAM_HEARTBEAT_MS + 2000);
    expect(beat.event).toBe('heartbeat');
  } finally {
    stream.close();
  }
}, 15_000);

it('every open stream gets each step once and in order, the same bytes as every other stream', async () => {
  const streams = await Promise.all(Array.from({ length: 12 }, () => openStream()));
  try {
    for (const stream of streams) await stream.next(); // the snapshot
    const recorded: string[] = [];
    for (let step = 0; step < 4; step++) {
      h.clock.advance(1000);
      await h.tick();
      recorded.push(String(h.clock.now().getTime()));
    }
    const got = await Promise.all(streams.map((stream) => ticksThrough(stream, recorded.at(-1)!)));
    for (const events of got) {
      expect(events.map((event) => event.id)).toEqual(recorded);
      expect(events).toEqual(got[0]);
    }
  } finally {
    for (const stream of streams) stream.close();
  }
});

it('an HTTP/1.0 client (no chunked encoding) gets the same events, unframed', async () => {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
  socket.write(`GET /api${PRICE_STREAM_PATH} HTTP/1.0\r\naccept: text/event-stream\r\n\r\n`);
  const until = async (done: () => boolean) => {
    for (const deadline = Date.now() + 5000; !done(); await new Promise((resolve) => setTimeout(resolve, 10)))
      if (Date.now() > deadline) throw new Error(`not in time: ${text}`);
  };
  try {
    await until(() => text.includes('event: ticks'));
    h.clock.advance(1000);
    await h.tick();
    const id = String(h.clock.now().getTime());
    await until(() => text.includes(`id: ${id}\n`));
    const [head, body] = text.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).not.toMatch(/transfer-encoding/i);
    // Nothing but events: no chunk sizes between them.
    expect(
      body
        .split('\n\n')
        .filter(Boolean)
        .every((block) => /^(retry|id|event): /.test(block)),
    ).toBe(true);
    expect(body).toMatch(new RegExp(`id: ${id}\\nevent: ticks\\ndata: \\[.+\\]\\n\\n$`));
  } finally {
    socket.destroy();
  }
});

it('says which coins are halted on connecting, and tells every open stream when a halt begins or ends', async () => {
  const stream = await openStream();
  try {
    expect(stream.halted).toEqual([]);
    expect((await stream.next()).event).toBe('ticks'); // the snapshot
    const second = (offset: number) => new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000 + offset);
    await h.market.record([], ['ETH', 'BTC']);
    expect(await stream.next()).toEqual({ event: 'halts', data: '["BTC","ETH"]' });
    const later = await openStream();
    expect(later.halted).toEqual(['BTC', 'ETH']);
    expect((await later.next()).event).toBe('ticks'); // the snapshot
    // The same halts again: nothing new to say.
    await h.market.record([{ coin: 'DOGE', at: second(1000), price: '0.385', volume: '1' }], ['ETH', 'BTC']);
    expect((await stream.next()).event).toBe('ticks');
    await h.market.record([], []);
    expect(await stream.next()).toEqual({ event: 'halts', data: '[]' });
    expect((await later.next()).event).toBe('ticks');
    expect(await later.next()).toEqual({ event: 'halts', data: '[]' });
    later.close();
  } finally {
    await h.market.record([], []);
    stream.close();
  }
});

it('HEAD answers with the stream headers and closes, holding no stream open', async () => {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`HEAD /api${PRICE_STREAM_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
  try {
    await Promise.race([
      closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`still open: ${text}`)), 5000)),
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toMatch(/content-type: text\/event-stream/i);
    expect(text.split('\r\n\r\n')[1]).toBe('');
  } finally {
    socket.destroy();
  }
});

it('takes a Last-Event-ID outside the calendar (before 2000, after 2199) as none: a snapshot, not a failed read', async () => {
  await h.tick();
  for (const lastEventId of ['999999999999999', '1']) {
    const stream = await openStream({ lastEventId });
    try {
      const first = await stream.next();
      const snapshot = JSON.parse(first.data) as TickEvent[];
      expect(snapshot.map((tick) => tick.code).sort(), lastEventId).toEqual([...codes].sort());
      expect(first.id).toBe(String(Math.max(...snapshot.map((tick) => Date.parse(tick.at)))));
    } finally {
      stream.close();
    }
  }
});
