// Any path of the static files, however long or strange, gets a page or the 404 envelope: a name
// longer than the file system allows (ENAMETOOLONG), an escaped slash, a NUL byte or `..` segments
// never answer 500 nor a file outside the build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/http/app.ts';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';

let harness: Harness;
let outside: string;
let root: string;
let app: FastifyInstance;
const APP_PAGE = '<!doctype html><title>app</title>';
const CONSOLE_PAGE = '<!doctype html><title>console</title>';

beforeAll(async () => {
  harness = await startHarness();
  // The build in a folder of its own, beside a file it must never serve.
  outside = mkdtempSync(join(tmpdir(), 'coinvest-hostile-'));
  root = join(outside, 'dist');
  mkdirSync(join(root, 'assets'), { recursive: true });
  mkdirSync(join(root, 'console', 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), APP_PAGE);
  writeFileSync(join(root, 'assets', 'index-AbC123.js'), 'console.log(1);');
  writeFileSync(join(root, 'console', 'index.html'), CONSOLE_PAGE);
  writeFileSync(join(root, 'console', 'assets', 'console-AbC123.js'), 'console.log(2);');
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  app = await buildApp(
    testServices({
      db: harness.database.db,
      clock: harness.clock,
      sender: { send: async () => {} },
      market: harness.market,
    }),
    testAppOptions({ webRoot: root }),
  );
});

afterAll(async () => {
  await app.close();
  await harness.close();
  rmSync(outside, { recursive: true, force: true });
});

const long = 'a'.repeat(300);
const hostile = [
  `/${long}`,
  `/${long}.js`,
  `/assets/${long}`,
  `/assets/${'b'.repeat(5000)}.js`,
  `/${'c/'.repeat(2000)}x`,
  `/console/${long}`,
  `/console/${'d'.repeat(255)}`,
  `/console/assets/${long}.js`,
  `/console/${'e/'.repeat(2000)}x`,
  '/console/..%2Fsecret.txt',
  '/console/..%2F..%2F..%2Fetc%2Fpasswd',
  '/console/%2E%2E/%2E%2E/secret.txt',
  '/console/..%2F..%2Fsecret.txt',
  '/..%2Fsecret.txt',
  '/assets/..%2F..%2F..%2Fsecret.txt',
  '/console/a%00b',
  '/console/index.html%00.js',
  '/assets/..%2F..%2Fsecret.txt',
  '/assets/%00',
  '/a%00b',
  '/..%2F..%2Fetc%2Fpasswd',
  `/%2F${long}`,
  '/console/%2F%2F',
  '/console/%',
];

it('answers every hostile static path with a page or the 404 envelope, never 500 nor a file outside', async () => {
  for (const url of hostile) {
    const answer = await app.inject({ url, headers: { lang: 'en' } });
    expect(answer.statusCode, url).not.toBeGreaterThanOrEqual(500);
    expect(answer.body, url).not.toContain('outside');
    expect(answer.body, url).not.toContain('root:');
    if (answer.statusCode === 200) expect([APP_PAGE, CONSOLE_PAGE], url).toContain(answer.body);
    else {
      // A path that is not valid percent-encoding is a bad request (400); any other is not found.
      expect([400, 404], url).toContain(answer.statusCode);
      expect(answer.json(), url).toMatchObject({ ret: 0, data: null });
    }
  }
});

it('still serves the console page for a long route under /console/ and its files', async () => {
  const page = await app.inject({ url: `/console/${long}` });
  expect(page.statusCode).toBe(200);
  expect(page.body).toBe(CONSOLE_PAGE);
  const script = await app.inject({ url: '/console/assets/console-AbC123.js' });
  expect(script.statusCode).toBe(200);
  expect(script.body).toBe('console.log(2);');
  const missing = await app.inject({ url: `/assets/${long}.js`, headers: { lang: 'en' } });
  expect(missing.statusCode).toBe(404);
  expect(missing.json()).toMatchObject({ ret: 0 });
});
