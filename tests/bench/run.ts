// `npm run bench`: bundle sizes from the build, and server throughput on loopback (autocannon).
// Figures are printed; the targets live in the issues' notes, not in timed tests.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { openDatabase, migratedSnapshot } from '../../src/server/db/connection.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { seedDemo, DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { systemClock } from '../../src/server/http/context.ts';

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
  const app = await buildApp(
    { db: database.db, clock: systemClock, sender: { send: async () => {} } },
    { rateLimitPerMinute: 10_000_000, authRateLimitPerMinute: 10_000_000 },
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

bundleSizes();
await throughput();
