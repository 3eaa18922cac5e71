// `npm run bench [bundle|http|settlement|entry|stream|matching|triggers|earn|index|first-visit|static|lighthouse|h2|
// metrics|liabilities]`: bundle sizes from the build, server throughput on loopback (autocannon, next to a bare Fastify
// app), settlement throughput, the time from an option's acceptance to its start price, the live-price fan-out lag,
// contract matching with a deep book and with 1,000 waiting triggers, the day-end earn jobs, the market index's cost
// and lag, what a first visit downloads, the server's CPU for each hashed file it serves, Lighthouse scores of the main
// pages (Chromium), and LCP of a phone's first open of Options over HTTP/1.1 and HTTP/2, what the metrics cost a
// request, and the proof of liabilities' tree of 1,000,000 customers.
// `npm run bench -- capacity [1000,2000,…]`: how many simulated customers the server holds (capacity.ts), and
// `capacity-hosts [1000,…]` the same through HAProxy in front of one host and of two (capacity-hosts.ts); only when
// named, since they load the whole machine for several minutes.
// Figures are printed, not asserted: a bench with a target states it in its own header, and no timed test fails on it.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { settlementBench } from './settlement.ts';
import { streamBench } from './stream.ts';
import { matchingBench } from './matching.ts';
import { triggersBench } from './triggers.ts';
import { earnBench } from './earn.ts';
import { httpBench } from './http.ts';
import { lighthouseBench } from './lighthouse.ts';
import { indexBench } from './index.ts';
import { h2Bench } from './h2.ts';
import { firstVisitBench } from './first-visit.ts';
import { entryBench } from './entry.ts';
import { metricsBench } from './metrics.ts';
import { capacityBench } from './capacity.ts';
import { capacityHostsBench } from './capacity-hosts.ts';
import { liabilitiesBench } from './liabilities.ts';
import { staticFilesBench } from './static-files.ts';

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

const only = process.argv[2];
if (!only || only === 'bundle') bundleSizes();
if (!only || only === 'http') await httpBench();
if (!only || only === 'settlement') await settlementBench();
if (!only || only === 'entry') await entryBench();
if (!only || only === 'stream') await streamBench();
if (!only || only === 'matching') await matchingBench();
if (!only || only === 'triggers') await triggersBench();
if (!only || only === 'earn') await earnBench();
if (!only || only === 'index') await indexBench();
if (!only || only === 'first-visit') await firstVisitBench();
if (!only || only === 'static') await staticFilesBench();
if (!only || only === 'lighthouse') await lighthouseBench();
if (!only || only === 'h2') await h2Bench();
if (!only || only === 'metrics') await metricsBench();
if (!only || only === 'liabilities') await liabilitiesBench(process.argv[3] ? Number(process.argv[3]) : undefined);
if (only === 'capacity') await capacityBench(process.argv[3]);
if (only === 'capacity-hosts') await capacityHostsBench(process.argv[3]);
