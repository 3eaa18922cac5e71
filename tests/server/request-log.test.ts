// The server's request log at the default level: one line per answered request, with what was
// asked, the status and the time taken (a second line per request cost more than a cached answer).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/http/app.ts';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';

let h: Harness;
const lines: Record<string, unknown>[] = [];
/** The server logging at `level` into `lines`. */
const logged = (level: string) =>
  buildApp(
    testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
    testAppOptions({
      logger: {
        level,
        stream: new Writable({
          write(chunk, _encoding, done) {
            lines.push(JSON.parse(String(chunk)));
            done();
          },
        }),
      },
    }),
  );
let info: FastifyInstance;
let debug: FastifyInstance;

beforeAll(async () => {
  h = await startHarness();
  [info, debug] = [await logged('info'), await logged('debug')];
});
afterAll(async () => {
  await Promise.all([info.close(), debug.close()]);
  await h.close();
});

it('logs one line per request at info: the method, the path, the status and the time', async () => {
  lines.length = 0;
  await info.inject({ url: '/api/other/config?act=system', headers: { lang: 'en' } });
  await info.inject({ url: '/api/no/such/call', headers: { lang: 'en' } });
  const requests = lines.filter((line) => line.req || line.res);
  expect(requests).toHaveLength(2);
  expect(requests[0]).toMatchObject({
    level: 30,
    msg: 'request completed',
    req: { method: 'GET', url: '/api/other/config?act=system' },
    res: { statusCode: 200 },
  });
  expect(requests[0]!.responseTime).toEqual(expect.any(Number));
  expect(requests[1]).toMatchObject({
    msg: 'request completed',
    req: { url: '/api/no/such/call' },
    res: { statusCode: 404 },
  });
  expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
});

it('logs each request on its arrival too at debug', async () => {
  lines.length = 0;
  await debug.inject({ url: '/api/other/config?act=system', headers: { lang: 'en' } });
  expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  expect(lines[0]).toMatchObject({ level: 20, req: { method: 'GET', url: '/api/other/config?act=system' } });
});
