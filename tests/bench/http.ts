// Server throughput on loopback (autocannon, 50 connections, 8 s per call): a bare Fastify app
// answering a small JSON, measured in the same run as the yardstick, next to the public reads and
// the logged-in reads, on the embedded database and on PostgreSQL (BENCH_DATABASE_URL, an empty
// database, or else a throwaway cluster like the server tests'). Each call is measured in two
// halves, each right after half a measure of the bare app: on a shared machine the load drifts
// within seconds, and the percentage compares figures taken under the same load. Last, a bare Fastify sending the
// very bytes /users/info answers: the floor no app sending that answer can pass.
import { calibrationText } from '../machine-calibration.ts';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { type Database } from '../../src/server/db/connection.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { demoMarket, onEachDatabase } from './databases.ts';
import { testAppOptions, testServices } from '../server/test-app.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 8);

async function measure(url: string, headers: Record<string, string> = {}, seconds = SECONDS) {
  // The load comes from a worker thread, as from another client: the server keeps its event loop.
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, workers: 1 });
  return { rate: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const line = (name: string, { rate, p99, errors }: { rate: number; p99: number; errors: number }) =>
  `  ${name.padEnd(36)} ${String(Math.round(rate)).padStart(6)} req/s, p99 ${String(p99).padStart(3)} ms, errors ${errors}`;

/** The yardstick: what Fastify itself answers on this machine, now. */
async function bareFastify() {
  const app = Fastify();
  app.get('/', async () => ({ ret: 1, msg: 'Success', data: { ok: true } }));
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
}

/** Headers Node writes itself, and those that change from answer to answer (set again on each): not replayed. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'x-request-id']);

/**
 * The floor under a call: a bare Fastify sending the bytes `url` answered (its headers and body, a fresh request id
 * each time), doing nothing else. What separates the call from this is the app's own work; what separates this from
 * the bare app is the size of what goes out (the socket write is most of a small answer's cost on loopback).
 */
async function sameBytesAs(url: string, headers: Record<string, string>) {
  const sample = await fetch(url, { headers });
  const body = await sample.text();
  const replayed = Object.fromEntries([...sample.headers].filter(([name]) => !OWN_HEADERS.has(name)));
  const app = Fastify();
  app.get('/', (_request, reply) => {
    void reply.headers(replayed).header('x-request-id', randomUUID()).send(body);
  });
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
}

/** A call next to the bare app: two halves, each right after half a measure of the bare app. */
async function compare(name: string, url: string, headers: Record<string, string>, bareUrl: string) {
  // Warmed up first, as the bare app was by its own measure: the JIT's first second is not the call's.
  await measure(url, headers, 1);
  const call = { rate: 0, p99: 0, errors: 0 };
  let bare = 0;
  for (let half = 0; half < 2; half++) {
    bare += (await measure(bareUrl, {}, SECONDS / 2)).rate / 2;
    const part = await measure(url, headers, SECONDS / 2);
    call.rate += part.rate / 2;
    call.p99 = Math.max(call.p99, part.p99);
    call.errors += part.errors;
  }
  console.log(line(name, call));
  console.log(
    `  ${''.padEnd(36)} ${Math.round((call.rate / bare) * 100)} % of bare Fastify (${Math.round(bare)} req/s meanwhile)`,
  );
}

async function run(label: string, database: Database) {
  const market = await demoMarket(database);
  const app = await buildApp(
    testServices({
      db: database.db,
      clock: systemClock,
      market,
      sender: { send: async () => {} },
      changes: database.changes(),
    }),
    testAppOptions({
      addressRateLimitPerMinute: 10_000_000,
      accountRateLimitPerMinute: 10_000_000,
      authRateLimitPerMinute: 10_000_000,
    }),
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password }),
  }).then((response) => response.json() as Promise<{ data: { token: string } }>);
  const token = { token: login.data.token, lang: 'en' };

  console.log(
    `\nServer throughput, ${label} (autocannon, ${SECONDS} s, ${CONNECTIONS} connections, loopback; ${calibrationText()})`,
  );
  const bare = await bareFastify();
  console.log(line('bare Fastify (one route, small JSON)', await measure(bare.url)));
  for (const [name, path, headers] of [
    ['GET /api/other/config', '/api/other/config?act=system', { lang: 'en' }],
    ['GET /api/content/slide', '/api/content/slide?position=home', { lang: 'en' }],
    ['GET /api/coin/lists', '/api/coin/lists', { lang: 'en' }],
    ['GET /api/coin/option/products', '/api/coin/option/products', { lang: 'en' }],
    ['GET /api/third/currency/rate', '/api/third/currency/rate?code=THB', { lang: 'en' }],
    ['GET /api/users/info', '/api/users/info', token],
    ['GET /api/users/balances', '/api/users/balances', token],
  ] as const) {
    await compare(name, `${url}${path}`, headers, bare.url);
  }
  const floor = await sameBytesAs(`${url}/api/users/info`, token);
  await compare("bare Fastify sending /users/info's bytes", floor.url, {}, bare.url);
  await floor.close();
  await bare.close();
  await market.stop();
  await app.close();
  await database.close();
}

export async function httpBench() {
  await onEachDatabase(run);
}
