// What an operator's Prometheus reads: GET /metrics behind its bearer token (none configured: the
// path does not exist), in a text format promtool accepts without a lint warning, with figures that
// move when things happen (a request under its route pattern, a job run, a queued message, a halt,
// an order not settled, the latest reconciliation); /healthz and /readyz for load balancers, never
// rate-limited, and /readyz 503 once the database is gone. The shipped alert rules pass promtool.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase, startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { customer } from './helpers.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { enqueue } from '../../src/server/domain/delivery.ts';
import { marketHalts, optionOrders, reconciliationRuns } from '../../src/server/db/schema.ts';
import { schedule } from '../../src/server/jobs/schedule.ts';
import { coinRate } from '../../src/api-contract/markets.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { systemClock } from '../../src/server/domain/clock.ts';

const TOKEN = 'test-metrics-token-5f1c';
const PROMTOOL = '/usr/bin/promtool';

let h: Harness;
/** The harness's services with METRICS_TOKEN set, and the address limit at 2 a minute. */
let app: FastifyInstance;
beforeAll(async () => {
  h = await startHarness();
  app = await buildApp(
    testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
    testAppOptions({ metricsToken: TOKEN, addressRateLimitPerMinute: 2, accountRateLimitPerMinute: 2 }),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

const scrape = (authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The metrics text, scraped with the token. */
async function metrics(): Promise<string> {
  const response = await scrape(`Bearer ${TOKEN}`);
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** A sample's value in the text (`name{labels}` exactly as written), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN: the 404 envelope of any unknown path', async () => {
    const metricsPath = await h.app.inject({ method: 'GET', url: '/metrics', headers: { lang: 'en' } });
    const unknown = await h.app.inject({ method: 'GET', url: '/no-such-path', headers: { lang: 'en' } });
    expect(metricsPath.statusCode).toBe(404);
    expect(metricsPath.json()).toEqual(unknown.json());
    expect(metricsPath.json()).toEqual({ ret: 0, msg: 'The requested resource was not found', data: null });
  });

  it('refuses a caller without the token, or with another one: 401', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      'Bearer ',
    ]) {
      const response = await scrape(authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toMatch(/coinvest_/);
    }
  });

  it('serves the Prometheus text format to the bearer of the token, never cached', async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^# HELP coinvest_/m);
    // The scheme's name is case-insensitive.
    expect((await scrape(`bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('counts a request under its route pattern, never its raw URL; every unknown path under one label', async () => {
    const series = 'coinvest_http_requests_total{route="/api/coin/data/rate",method="GET",status="200"}';
    await h.tick();
    const before = sample(await metrics(), series) ?? 0;
    const rate = await h.call(coinRate, { code: 'BTC' });
    expect(rate.ret).toBe(1);
    // The metrics of the harness's own app and of this one are one registry: each request counted once.
    const after = await metrics();
    expect(sample(after, series)).toBe(before + 1);
    expect(after).toMatch(
      /coinvest_http_request_duration_seconds_count\{route="\/api\/coin\/data\/rate",method="GET"\} \d+/,
    );
    const unmatched = 'coinvest_http_requests_total{route="unmatched",method="GET",status="404"}';
    const unmatchedBefore = sample(after, unmatched) ?? 0;
    await app.inject({ method: 'GET', url: '/secret-customer-path-0812345678' });
    await app.inject({ method: 'GET', url: '/another/unknown?phone=0812345678' });
    const text = await metrics();
    expect(sample(text, unmatched)).toBe(unmatchedBefore + 2);
    expect(text).not.toMatch(/0812345678/);
  });

  it('counts each run of a named job, and its failures', async () => {
    let fail = false;
    const job = schedule(
      async () => {
        if (fail) throw new Error('on purpose');
        return 1;
      },
      0,
      () => {},
      { everyMs: 3_600_000, name: 'metrics-test-job' },
    );
    await job.runNow();
    fail = true;
    await job.runNow();
    await job.stop();
    const text = await metrics();
    // The first run started with the job, then two asked for.
    expect(sample(text, 'coinvest_job_runs_total{job="metrics-test-job"}')).toBe(3);
    expect(sample(text, 'coinvest_job_failures_total{job="metrics-test-job"}')).toBe(1);
    expect(sample(text, 'coinvest_job_duration_seconds_count{job="metrics-test-job"}')).toBe(3);
  });

  it('reads the outbox, the halts, the settlement lag and the latest reconciliation at each scrape', async () => {
    const db = h.database.db;
    const empty = await metrics();
    expect(sample(empty, 'coinvest_outbox_queued_messages{channel="email"}')).toBeUndefined();
    expect(sample(empty, 'coinvest_market_halted_coins')).toBe(0);
    expect(sample(empty, 'coinvest_market_coin_halted{coin="BTC"}')).toBe(0);
    expect(sample(empty, 'coinvest_settlement_due_orders')).toBe(0);
    // Before any reconciliation run: no figure at all (an alert on `== 0` stays quiet).
    expect(empty).not.toMatch(/^coinvest_reconciliation_ok /m);

    const message = { channel: 'email' as const, target: 'a@example.com', kind: 'code', language: 'en', body: 'x' };
    await enqueue(db, message, new Date(Date.now() - 60_000));
    await enqueue(db, message);
    const { id } = await customer(h);
    const now = h.clock.now();
    await db.insert(marketHalts).values({ coin: 'ETH', since: now });
    await db.insert(optionOrders).values({
      userId: id,
      coin: 'BTC',
      productId: 1,
      direction: 'up',
      amount: '10',
      minutes: 1,
      yieldRate: '0.8',
      startAt: new Date(now.getTime() - 100_000),
      endAt: new Date(now.getTime() - 40_000),
    });
    await db.insert(reconciliationRuns).values({
      startedAt: new Date('2026-11-22T07:55:00Z'),
      finishedAt: new Date('2026-11-22T07:55:01Z'),
      process: 'test:1',
      ok: false,
      checkedBalances: 12,
      mismatches: [{ what: 'balance' }, { what: 'frozen' }],
    });

    const text = await metrics();
    expect(sample(text, 'coinvest_outbox_queued_messages{channel="email"}')).toBe(2);
    expect(sample(text, 'coinvest_outbox_oldest_overdue_seconds{channel="email"}')).toBeGreaterThanOrEqual(59);
    expect(sample(text, 'coinvest_market_halted_coins')).toBe(1);
    expect(sample(text, 'coinvest_market_coin_halted{coin="ETH"}')).toBe(1);
    expect(sample(text, 'coinvest_market_coin_halted{coin="BTC"}')).toBe(0);
    expect(sample(text, 'coinvest_settlement_due_orders')).toBe(1);
    expect(sample(text, 'coinvest_settlement_oldest_due_age_seconds')).toBe(40);
    expect(sample(text, 'coinvest_reconciliation_ok')).toBe(0);
    expect(sample(text, 'coinvest_reconciliation_mismatches')).toBe(2);
    expect(sample(text, 'coinvest_reconciliation_last_run_timestamp_seconds')).toBe(
      Date.parse('2026-11-22T07:55:00Z') / 1000,
    );
    // The database statements behind all this were timed.
    expect(sample(text, 'coinvest_db_query_duration_seconds_count')).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(PROMTOOL))('passes `promtool check metrics`, lint included', async () => {
    const text = await metrics();
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
    expect(checked.status).toBe(0);
  });
});

describe('/healthz and /readyz', () => {
  it('answer alive and ready, never cached, and are never rate-limited', async () => {
    // The address limit here is 2 calls a minute: five of each still answer.
    // An address of its own: on PostgreSQL the budget of an address is counted in the database, across the apps.
    const remoteAddress = '203.0.113.45';
    for (let n = 0; n < 5; n++) {
      const alive = await app.inject({ method: 'GET', url: '/healthz', remoteAddress });
      expect(alive.statusCode).toBe(200);
      expect(alive.json()).toEqual({ status: 'ok' });
      expect(alive.headers['cache-control']).toBe('no-store');
      const ready = await app.inject({ method: 'GET', url: '/readyz', remoteAddress });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(ready.headers['cache-control']).toBe('no-store');
    }
    const list = () => app.inject({ method: 'GET', url: '/api/coin/lists', remoteAddress });
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(429);
  });

  it('/readyz answers 503 once the database is gone; /healthz still 200', async () => {
    const database = await openTestDatabase();
    const feed = simulatedFeed({ coins: [], seed: 1, clock: systemClock });
    const alone = await buildApp(
      testServices({
        db: database.db,
        clock: systemClock,
        market: createMarket(database.db, feed, systemClock),
        sender: { send: async () => {} },
      }),
      testAppOptions({ metrics: false }),
    );
    try {
      expect((await alone.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await database.close();
      const ready = await alone.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'database unreachable' });
      expect((await alone.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      // Built without metrics (the bench's switch): no /metrics.
      expect((await alone.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await alone.close();
    }
  });
});

it.skipIf(!existsSync(PROMTOOL))('the shipped alert rules pass `promtool check rules`', () => {
  const checked = spawnSync(PROMTOOL, ['check', 'rules', 'src/server/observability/alerts.yml'], { encoding: 'utf8' });
  expect(checked.stdout).toMatch(/SUCCESS: 8 rules found/);
  expect(checked.status).toBe(0);
});
