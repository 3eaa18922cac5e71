// The live price stream (our addition, declared in the contract): server-sent events over a real
// socket. A client first gets a snapshot of the latest prices, then one `ticks` event per step.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PRICE_STREAM_PATH, type TickEvent } from '../../src/contract/markets.ts';
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
}

/** Opens the stream and reads it event by event, as an EventSource would. */
async function openStream() {
  const abort = new AbortController();
  const response = await fetch(`${base}/api${PRICE_STREAM_PATH}`, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
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
        const data = fields.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        if (fields.some((line) => line.startsWith('data: '))) queue.push({ event, data });
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event arrived in time');
      const chunk = await Promise.race([reader.read(), new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left))]);
      if (chunk === 'timeout') throw new Error('no event arrived in time');
      if (chunk.done) throw new Error('the stream ended');
      buffer += chunk.value;
    }
  }
  return { response, next, close: () => abort.abort() };
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
    expect(ticks.every((tick) => /^\d+\.\d+$/.test(tick.price) && Number(tick.price) > 0)).toBe(true);
    // The stream says what the market recorded: the same prices the calls quote.
    for (const tick of ticks) expect(tick.price).toBe((await h.market.quote(tick.code))!.price);

    // A hand-recorded tick of one coin is one event with one price.
    h.clock.advance(1000);
    await h.market.record([{ coin: 'ETH', at: h.clock.now(), price: '3456.78', volume: '1' }]);
    expect(JSON.parse((await stream.next()).data)).toEqual([{ code: 'ETH', price: '3456.78', at: h.clock.now().toISOString() }]);
  } finally {
    stream.close();
  }
});

it("a later app's snapshot holds the latest price of every coin, and every open app gets each step", async () => {
  const first = await openStream();
  const second = await openStream();
  try {
    const snapshot = JSON.parse((await first.next()).data) as TickEvent[];
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
