// What the metrics cost a request: the same app built twice on one database, with the metrics (every
// request counted and timed, every database statement timed) and without them (AppOptions.metrics
// false, the statement timing off while it is measured), loaded in turns with autocannon (50
// connections, loopback) in one-second rounds, alternating, so both are measured under the same
// load of a shared machine; besides the throughput, this process's CPU time a request (the server's
// and the load generator's, which is the same for both apps), steadier on a busy machine. One cheap
// call answered from memory (the largest share the metrics can take) and one logged-in call that
// reads the database. Also the size of one /metrics answer.
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { type Database } from '../../src/server/db/connection.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { httpDuration, httpRequests, observeQuery, timing } from '../../src/server/observability/metrics.ts';
import { demoMarket, onEachDatabase } from './databases.ts';
import { testAppOptions, testServices } from '../server/test-app.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
const TOKEN = 'bench-metrics-token';

/** Requests a second, and this process's CPU time a request (server and load generator: the same for both apps). */
async function measure(url: string, headers: Record<string, string>, seconds: number) {
  const cpu = process.cpuUsage();
  // The load comes from a worker thread, as from another client: the server keeps its event loop.
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, workers: 1 });
  const used = process.cpuUsage(cpu);
  return {
    rate: result.requests.average,
    cpuPerRequest: (used.user + used.system) / Math.max(1, result.requests.total),
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** This process's CPU time a request over `count` requests through app.inject (no socket, no load generator). */
async function injectCpu(app: FastifyInstance, url: string, headers: Record<string, string>, count: number) {
  const cpu = process.cpuUsage();
  for (let n = 0; n < count; n++) await app.inject({ method: 'GET', url, headers });
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function run(label: string, database: Database) {
  const market = await demoMarket(database);
  const limits = {
    addressRateLimitPerMinute: 10_000_000,
    accountRateLimitPerMinute: 10_000_000,
    authRateLimitPerMinute: 10_000_000,
  };
  const services = testServices({
    db: database.db,
    clock: systemClock,
    market,
    sender: { send: async () => {} },
    changes: database.changes(),
  });
  const apps: Record<'on' | 'off', FastifyInstance> = {
    on: await buildApp(services, testAppOptions({ ...limits, metricsToken: TOKEN })),
    off: await buildApp(services, testAppOptions({ ...limits, metrics: false })),
  };
  const urls = {
    on: await apps.on.listen({ port: 0, host: '127.0.0.1' }),
    off: await apps.off.listen({ port: 0, host: '127.0.0.1' }),
  };
  const login = await fetch(`${urls.off}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password }),
  }).then((response) => response.json() as Promise<{ data: { token: string } }>);

  console.log(`\nMetrics cost, ${label} (autocannon, ${SECONDS} s each, ${CONNECTIONS} connections, loopback)`);
  for (const [name, path, headers] of [
    ['GET /api/coin/lists (from memory)', '/api/coin/lists', { lang: 'en' }],
    ['GET /api/users/balances (database)', '/api/users/balances', { lang: 'en', token: login.data.token }],
  ] as const) {
    // Warmed up, both.
    for (const side of ['on', 'off'] as const) {
      timing.queries = side === 'on';
      await measure(`${urls[side]}${path}`, headers, 1);
    }
    // Rounds of one second each, in the order on-off, off-on, …: a machine whose load drifts weighs on both alike.
    const rounds = Math.max(4, SECONDS);
    const figures = {
      on: [] as Awaited<ReturnType<typeof measure>>[],
      off: [] as Awaited<ReturnType<typeof measure>>[],
    };
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        timing.queries = side === 'on';
        figures[side].push(await measure(`${urls[side]}${path}`, headers, 1));
      }
    // The same in-process, without sockets: CPU time a request, which a busy machine disturbs far less than throughput.
    const injected = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < 2 * rounds; round++)
      for (const side of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        timing.queries = side === 'on';
        injected[side].push(await injectCpu(apps[side], path, headers, 300));
      }
    timing.queries = true;
    const rate = (side: 'on' | 'off') => figures[side].reduce((sum, one) => sum + one.rate, 0) / rounds;
    const cpu = (side: 'on' | 'off') => median(figures[side].map((one) => one.cpuPerRequest));
    const costs = figures.on.map((on, round) => (1 - on.rate / figures.off[round]!.rate) * 100);
    console.log(`  ${name}`);
    for (const side of ['off', 'on'] as const)
      console.log(
        `    metrics ${side.padEnd(3)} ${String(Math.round(rate(side))).padStart(6)} req/s, ` +
          `CPU ${cpu(side).toFixed(0)} µs a request (median of ${rounds}), p99 ${Math.max(...figures[side].map((one) => one.p99))} ms, ` +
          `errors ${figures[side].reduce((sum, one) => sum + one.errors, 0)}`,
      );
    console.log(
      `    cost of the metrics: ${(cpu('on') - cpu('off')).toFixed(1)} µs of CPU a request ` +
        `(${(((cpu('on') - cpu('off')) / cpu('off')) * 100).toFixed(1)} %); throughput ${(
          (1 - rate('on') / rate('off')) *
          100
        ).toFixed(1)} % lower (median of the rounds' pairs: ${median(costs).toFixed(1)} %)`,
    );
    const [on, off] = [median(injected.on), median(injected.off)];
    console.log(
      `    in-process (app.inject, no sockets): ${off.toFixed(1)} µs of CPU a request without, ${on.toFixed(1)} µs with: ` +
        `${(on - off).toFixed(1)} µs (${(((on - off) / off) * 100).toFixed(1)} %)`,
    );
  }
  // The instruments alone, a million times: what one request's counting and one statement's timing take.
  const counted = httpRequests.labels('/bench', 'GET', '200');
  const timed = httpDuration.labels('/bench', 'GET');
  let cpu = process.cpuUsage();
  for (let n = 0; n < 1_000_000; n++) {
    counted.inc();
    timed.observe(0.001);
  }
  let used = process.cpuUsage(cpu);
  const perRequest = (used.user + used.system) / 1_000_000;
  cpu = process.cpuUsage();
  for (let n = 0; n < 1_000_000; n++) observeQuery(performance.now(), false);
  used = process.cpuUsage(cpu);
  console.log(
    `  the instruments alone: ${perRequest.toFixed(2)} µs a request (count and histogram), ` +
      `${((used.user + used.system) / 1_000_000).toFixed(2)} µs a database statement`,
  );
  const scrape = await fetch(`${urls.on}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await scrape.text();
  console.log(
    `  one /metrics answer: ${(Buffer.byteLength(body) / 1024).toFixed(1)} KB, ${body.split('\n').filter((l) => l && !l.startsWith('#')).length} samples`,
  );
  await market.stop();
  await apps.on.close();
  await apps.off.close();
  await database.close();
}

export async function metricsBench() {
  await onEachDatabase(run);
}
