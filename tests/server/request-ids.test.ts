// Every answer carries an x-request-id and every log line of that request carries the same id (`reqId`), so support
// finds a customer's failed call in the log: calls, refusals, 404s, crashes, malformed paths, static files and the
// price stream. A trusted proxy's well-formed id is kept; a malformed one, or a client's own without a proxy, is not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, type AppOptions } from '../../src/server/http/app.ts';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';

let h: Harness;
let root: string;
const lines: Record<string, unknown>[] = [];
const apps: FastifyInstance[] = [];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A server of the harness's services logging into `lines`, with a call that crashes. */
async function serve(options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = await buildApp(
    testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
    testAppOptions({
      webRoot: root,
      logger: {
        level: 'info',
        stream: new Writable({
          write(chunk, _encoding, done) {
            lines.push(JSON.parse(String(chunk)));
            done();
          },
        }),
      },
      ...options,
    }),
  );
  app.get('/api/test/crash', async () => {
    throw new Error('a crash for the test');
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  h = await startHarness();
  root = mkdtempSync(join(tmpdir(), 'coinvest-request-ids-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

it('is on every kind of answer, and a different one on each', async () => {
  const app = await serve();
  const answers = [
    await app.inject({ url: '/api/other/config?act=system', headers: { lang: 'en' } }),
    await app.inject({ url: '/api/no/such/call', headers: { lang: 'en' } }),
    await app.inject({ url: '/api/users/info', headers: { lang: 'en', token: 'not a session' } }),
    await app.inject({ url: '/api/test/crash', headers: { lang: 'en' } }),
    await app.inject({ url: '/api/%zz', headers: { lang: 'en' } }),
    await app.inject({ url: '/index.html' }),
    await app.inject({ url: '/no-such-file.js' }),
    await app.inject({ method: 'HEAD', url: '/api/coin/stream' }),
  ];
  expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 200, 500, 400, 200, 404, 200]);
  const ids = answers.map((answer) => answer.headers['x-request-id']);
  for (const id of ids) expect(id).toMatch(UUID);
  expect(new Set(ids).size).toBe(ids.length);
});

it('is on an answer of the rate limits too', async () => {
  const app = await serve({ addressRateLimitPerMinute: 2 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const answer = await app.inject({ url: '/api/other/config?act=system', headers: { lang: 'en' } });
    statuses.push(answer.statusCode);
    expect(answer.headers['x-request-id']).toMatch(UUID);
  }
  expect(statuses).toContain(429);
});

it('is on the live price stream, whose headers are written past Fastify', async () => {
  const app = await serve();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const request = get({ port, host: '127.0.0.1', path: '/api/coin/stream' }, (response) => {
      resolve(response.headers);
      request.destroy();
    });
    request.on('error', reject);
  });
  expect(headers['content-type']).toMatch(/^text\/event-stream/);
  expect(headers['x-request-id']).toMatch(UUID);
});

it('names every log line of its request, the crash’s error included', async () => {
  const app = await serve();
  lines.length = 0;
  const crash = await app.inject({ url: '/api/test/crash', headers: { lang: 'en' } });
  const id = crash.headers['x-request-id'];
  const logged = lines.filter((line) => line.reqId === id);
  expect(logged.map((line) => line.msg)).toEqual(['a crash for the test', 'request completed']);
  expect(logged[0]).toMatchObject({ level: 50, err: { message: 'a crash for the test' } });
  expect(lines.every((line) => line.reqId === id)).toBe(true);
});

it('keeps a trusted proxy’s well-formed id, in the answer and the log; replaces a malformed one', async () => {
  const app = await serve({ trustProxyHops: 1 });
  const given = 'lb-7f3a9c2e-0001-Request';
  lines.length = 0;
  const answer = await app.inject({ url: '/api/no/such/call', headers: { lang: 'en', 'x-request-id': given } });
  expect(answer.headers['x-request-id']).toBe(given);
  expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({
    reqId: given,
    res: { statusCode: 404 },
  });

  for (const malformed of ['has space', 'a'.repeat(65), 'semi;colon', '', '../../etc', 'ünïcode']) {
    const replaced = await app.inject({ url: '/api/other/config?act=system', headers: { 'x-request-id': malformed } });
    expect(replaced.headers['x-request-id'], malformed).toMatch(UUID);
  }
  const longest = 'b'.repeat(64);
  expect((await app.inject({ url: '/index.html', headers: { 'x-request-id': longest } })).headers['x-request-id']).toBe(
    longest,
  );
});

it('does not believe a client’s own id when no proxy is trusted', async () => {
  const app = await serve();
  const answer = await app.inject({ url: '/api/other/config?act=system', headers: { 'x-request-id': 'spoofed-id-1' } });
  expect(answer.headers['x-request-id']).toMatch(UUID);
});
