// `npm run bench [bundle|http|settlement|stream|matching|earn]`: bundle sizes from the build, server
// throughput on loopback (autocannon), settlement throughput, the live-price fan-out lag,
// contract matching with a deep book, and the day-end earn jobs.
// Figures are printed; the targets live in the issues' notes, not in timed tests.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { settlementBench } from './settlement.ts';
import { streamBench } from './stream.ts';
import { matchingBench } from './matching.ts';
import { earnBench } from './earn.ts';
import { openDatabase, migratedSnapshot } from '../../src/server/db/connection.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { seedDemo, DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { systemClock } from '../../src/server/http/context.ts';
import { seedMarkets } from '../../src/server/db/seed-markets.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { createFeed } from '../../src/server/market/feeds.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

function bundleSizes() {
  if (!existsSync('dist/index.html')) execSync('node_modules/.bin/vite build', { stdio: 'inherit' });
  const html = readFileSync('dist/index.html', 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const initialGz = initial.reduce((sum, file) => sum + gz(join('dist', file)), 0);
  const all = readdirSync('dist/assets').filter((file) => file.endsWith('.js'));
  const allGz = all.reduce((sum, file) => sum + gz(join('dist/assets', file)), 0);
  console.log('\nBundle (gzip -9)');
  console.log(`  initial JS (entry + preloads, ${initial.length} files): ${kb(initialGz)}`);
  console.log(`  all JS (${all.length} files): ${kb(allGz)}`);
  for (const file of all.sort()) console.log(`    ${file.padEnd(48)} ${kb(gz(join('dist/assets', file)))}`);
}

async function throughput() {
  const database = await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() });
  await seedDemo(database.db);
  await seedMarkets(database.db, DEMO_ACCOUNT.username, new Date());
  const market = createMarket(database.db, await createFeed(database.db, { name: 'simulator', seed: 1, clock: systemClock, intervalMs: 1000 }), systemClock);
  await market.record([]);
  const app = await buildApp(
    { db: database.db, clock: systemClock, market, sender: { send: async () => {} } },
    { rateLimitPerMinute: 10_000_000, accountRateLimitPerMinute: 10_000_000, authRateLimitPerMinute: 10_000_000 },
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password }),
  }).then((response) => response.json() as Promise<{ data: { token: string } }>);

  console.log('\nServer throughput (autocannon, 10 s, 20 connections, loopback, embedded database)');
  for (const [name, path, headers] of [
    ['GET /api/other/config (public)', '/api/other/config?act=system', {}],
    ['GET /api/users/info (session lookup)', '/api/users/info', { token: login.data.token }],
  ] as const) {
    const result = await autocannon({ url: `${url}${path}`, connections: 20, duration: 10, headers });
    console.log(`  ${name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`);
  }
  await app.close();
  await database.close();
}

const only = process.argv[2];
if (!only || only === 'bundle') bundleSizes();
if (!only || only === 'http') await throughput();
if (!only || only === 'settlement') await settlementBench();
if (!only || only === 'stream') await streamBench();
if (!only || only === 'matching') await matchingBench();
if (!only || only === 'earn') await earnBench();
