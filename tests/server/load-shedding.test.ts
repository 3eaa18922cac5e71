// More calls than a process can serve: it works on a limited number at once, lets the next wait in turn for a
// bounded time, and answers the rest at once "busy" (503, Retry-After, the envelope's translated text) before any
// work, so it keeps answering in time what it can instead of working on calls whose clients have gone.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import {
  BUSY_RETRY_AFTER_S,
  DEFAULT_SHEDDING,
  shedLoad,
  type SheddingState,
} from '../../src/server/http/load-shedding.ts';
import { loadConfig } from '../../src/server/config.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';
import { registry } from '../../src/server/observability/metrics.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { sql } from 'drizzle-orm';

describe('the limit itself', () => {
  let app: FastifyInstance;
  let state: SheddingState;
  let base: string;
  /** The calls the handler has begun, by their number. */
  let begun: number[];
  /** Lets the handler of call n answer. */
  let gates: Map<number, () => void>;
  /** The limit's clock: moved by the test. */
  let clock = 0;

  beforeAll(async () => {
    app = Fastify();
    state = shedLoad(
      app,
      { maxInFlight: 2, maxWaiting: 2, maxWaitMs: 1_000 },
      (_request, reply) => {
        void reply.code(503).send({ ret: 0, msg: 'busy', data: null });
      },
      () => clock,
    );
    app.get('/api/work', async (request) => {
      const n = Number((request.query as { n: string }).n);
      begun.push(n);
      await new Promise<void>((resolve) => gates.set(n, resolve));
      return { ret: 1, msg: '', data: n };
    });
    app.get(`/api${PRICE_STREAM_PATH}`, async () => ({ ret: 1, msg: '', data: 'stream' }));
    app.get('/readyz', async () => 'ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());
  afterEach(async () => {
    // Whatever a test left working is let go, so the next starts with every turn free.
    await expect
      .poll(() => {
        for (const open of gates.values()) open();
        return state.inFlight() + state.waiting();
      })
      .toBe(0);
  });

  /** From a fresh start, calls 1 and 2 take the two turns: answers them, still open. */
  async function bothTurnsTaken() {
    begun = [];
    gates = new Map();
    clock = 0;
    const working = [ask(1), ask(2)];
    await expect.poll(() => begun).toEqual([1, 2]);
    return working;
  }

  const ask = (n: number, signal?: AbortSignal) =>
    fetch(`${base}/api/work?n=${n}`, { signal }).then(async (answer) => ({
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      body: (await answer.json()) as { data: unknown; msg: string },
    }));

  it('works on two at once, lets two wait in order, and answers the fifth busy at once', async () => {
    const first = await bothTurnsTaken();
    const waiting = [ask(3), ask(4)];
    await expect.poll(() => state.waiting()).toBe(2);
    // Nothing of the fifth is worked on: it is answered while the four are still open.
    expect(await ask(5)).toEqual({
      status: 503,
      retryAfter: String(BUSY_RETRY_AFTER_S),
      body: { ret: 0, msg: 'busy', data: null },
    });
    expect(begun).toEqual([1, 2]);
    // A turn comes free: the first waiting call takes it, then the next.
    gates.get(1)!();
    expect((await first[0]!).body.data).toBe(1);
    await expect.poll(() => begun).toEqual([1, 2, 3]);
    gates.get(2)!();
    await expect.poll(() => begun).toEqual([1, 2, 3, 4]);
    gates.get(3)!();
    gates.get(4)!();
    expect((await Promise.all([first[1]!, ...waiting])).map((answer) => answer.body.data)).toEqual([2, 3, 4]);
  });

  it('answers busy a call that waited longer than the limit, even while no turn comes free', async () => {
    const working = await bothTurnsTaken();
    const late = ask(3);
    await expect.poll(() => state.waiting()).toBe(1);
    clock = 1_001;
    expect((await late).status).toBe(503);
    expect(state.waiting()).toBe(0);
    gates.get(1)!();
    gates.get(2)!();
    expect((await Promise.all(working)).map((answer) => answer.status)).toEqual([200, 200]);
    expect(begun).toEqual([1, 2]);
  });

  it('drops a waiting call whose client went away, without working on it', async () => {
    const working = await bothTurnsTaken();
    const leaving = new AbortController();
    const gone = ask(3, leaving.signal).catch((error: Error) => error.name);
    const staying = ask(4);
    await expect.poll(() => state.waiting()).toBe(2);
    leaving.abort();
    expect(await gone).toBe('AbortError');
    // The process sees the connection close: one call is still waiting.
    await expect.poll(() => state.waiting()).toBe(1);
    gates.get(1)!();
    // The turn goes past the call that left to the one still waiting.
    await expect.poll(() => begun).toEqual([1, 2, 4]);
    gates.get(2)!();
    gates.get(4)!();
    expect((await Promise.all([...working, staying])).map((answer) => answer.body.data)).toEqual([1, 2, 4]);
    expect(begun).not.toContain(3);
  });

  it('counts neither the price stream nor what is not the API', async () => {
    const working = await bothTurnsTaken();
    const full = [ask(3), ask(4)];
    await expect.poll(() => state.waiting()).toBe(2);
    expect((await fetch(`${base}/api${PRICE_STREAM_PATH}`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    for (const open of gates.values()) open();
    await expect.poll(() => begun.length).toBe(4);
    for (const open of gates.values()) open();
    expect((await Promise.all([...working, ...full])).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });
});

describe('in the app', () => {
  let h: Harness;

  beforeAll(async () => {
    // No turn at all and no room to wait: every API call is answered busy.
    h = await startHarness({ shedding: { maxInFlight: 0, maxWaiting: 0, maxWaitMs: 1_000 } });
  });
  afterAll(() => h.close());

  const userCount = async () =>
    rowsOf<{ n: number }>(await h.database.db.execute(sql`select count(*)::int as n from users`))[0]!.n;

  it('answers busy in the caller’s language with the envelope, changing nothing, and counts it in the metrics', async () => {
    const usersBefore = await userCount();
    const shedBefore = (await registry.getSingleMetric('coinvest_http_calls_shed_total')!.get()).values[0]?.value ?? 0;
    const answer = await h.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { lang: 'zh', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=13800000000&password=abc12345&paypass=123456',
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_S));
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.json()).toEqual({ ret: 0, msg: '服务正忙，请稍后再试！', data: null });
    const english = await h.app.inject({ method: 'GET', url: '/api/coin/lists', headers: { lang: 'en' } });
    expect(english.json().msg).toBe('The service is busy right now, please try again in a moment!');
    const shedAfter = (await registry.getSingleMetric('coinvest_http_calls_shed_total')!.get()).values[0]!.value;
    expect(shedAfter - shedBefore).toBe(2);
    expect(await userCount()).toBe(usersBefore);
  });
});

// The listener's 'close' is what frees a turn: a server that never closes its answers would hold turns for ever.
it('frees the turn of an answer that failed', async () => {
  const app = Fastify();
  const state = shedLoad(app, { maxInFlight: 1, maxWaiting: 0, maxWaitMs: 1_000 }, (_request, reply) => {
    void reply.code(503).send('busy');
  });
  app.get('/api/fails', async () => {
    throw new Error('broken');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/api/fails`)).status).toBe(500);
    await expect.poll(() => state.inFlight()).toBe(0);
    expect((await fetch(`${base}/api/fails`)).status).toBe(500);
  } finally {
    await app.close();
  }
});

it('is set by CALLS_AT_ONCE, CALLS_WAITING and CALL_WAIT_MS, off with CALLS_AT_ONCE=0, the defaults otherwise', () => {
  expect(loadConfig({}).shedding).toEqual(DEFAULT_SHEDDING);
  expect(loadConfig({ CALLS_AT_ONCE: '8', CALLS_WAITING: '100', CALL_WAIT_MS: '3000' }).shedding).toEqual({
    maxInFlight: 8,
    maxWaiting: 100,
    maxWaitMs: 3000,
  });
  expect(loadConfig({ CALLS_AT_ONCE: '0' }).shedding).toBe(false);
  expect(loadConfig({ CALLS_AT_ONCE: 'many', CALL_WAIT_MS: '-1' }).shedding).toEqual(DEFAULT_SHEDDING);
});
