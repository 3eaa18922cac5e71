// What a first visit downloads, counted on the wire (target: ≤ 300 KB in total, the page plus
// what the service worker's install fetches). A proxy between Chromium and the server counts every
// byte the server sends and gives each response to the request it answers (Chromium sends one
// request at a time on an HTTP/1.1 connection). The files the worker fetches once the first screen
// is idle (the manifest's `later` entries and the other languages' texts, sw/sw.ts) are counted
// apart. Measured logged out on the login page (a new user's first open) and signed in on Home.
import { readFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { storeSession } from '../e2e/stored-session.ts';
import { appFilesCached } from '../e2e/app-files.ts';
import { startServer } from './lighthouse.ts';

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TARGET_KB = 300;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Counted {
  path: string;
  bytes: number;
}

/** A TCP proxy to `port` that records, per request, the bytes of its answer (headers and body as sent). */
async function countingProxy(port: number): Promise<{ server: Server; port: number; answers: Counted[] }> {
  const answers: Counted[] = [];
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    let current: Counted | null = null;
    client.on('data', (chunk: Buffer) => {
      const line = /^(?:GET|POST|HEAD|PUT|DELETE|OPTIONS) (\S+) HTTP\/1\.1\r\n/.exec(
        chunk.subarray(0, 2048).toString('latin1'),
      );
      if (line) answers.push((current = { path: line[1]!, bytes: 0 }));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (current) current.bytes += chunk.length;
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port, answers };
}

/** The worker's manifest entries fetched after the first screen when the app is in `locale` (sw.js as built). */
function laterFiles(webRoot: string, locale: string): Set<string> {
  const worker = readFileSync(join(webRoot, 'sw.js'), 'utf8');
  const entries = [...worker.matchAll(/\{[^{}]*"url":"[^"]+"[^{}]*\}/g)].map(
    (match) => JSON.parse(match[0]) as { url: string; later?: boolean; locale?: string },
  );
  return new Set(
    entries.filter((entry) => entry.later || (entry.locale && entry.locale !== locale)).map((entry) => `/${entry.url}`),
  );
}

export async function firstVisitBench() {
  const webRoot = process.env.WEB_ROOT || 'dist';
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: CHROME_FLAGS,
  });
  try {
    console.log(
      `\nFirst visit on the wire (target ≤ ${TARGET_KB} KB: the page and the service worker's install; the idle work apart)`,
    );
    // The browser speaks en-US: the app starts in English.
    const later = laterFiles(webRoot, 'en');
    for (const signedIn of [false, true]) {
      const proxy = await countingProxy(Number(new URL(server.origin).port));
      const origin = `http://127.0.0.1:${proxy.port}`;
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        locale: 'en-US',
      });
      const page = await context.newPage();
      let route: string = ROUTES.login;
      if (signedIn) {
        const answer = (await (
          await fetch(`${server.origin}/api/users/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password }),
          })
        ).json()) as { data: { token: string } };
        await page.goto(`${origin}/favicon.svg`);
        await storeSession(page, answer.data.token);
        route = ROUTES.home;
      }
      const counted = proxy.answers.length;
      const started = Date.now();
      await page.goto(`${origin}/#${route}`);
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 60_000 });
      const activeAfter = Date.now() - started;
      const deadline = Date.now() + 120_000;
      while (!(await appFilesCached(page).catch(() => false)) && Date.now() < deadline) await page.waitForTimeout(250);
      const allAfter = Date.now() - started;
      const answers = proxy.answers.slice(counted);
      const isLater = (answer: Counted) => later.has(answer.path);
      const first = answers.filter((answer) => !isLater(answer));
      const idle = answers.filter(isLater);
      const sum = (list: Counted[]) => list.reduce((total, answer) => total + answer.bytes, 0);
      const firstBytes = sum(first);
      console.log(
        `  ${signedIn ? 'Home, signed in' : 'Login, new visitor'}: first visit ${kb(firstBytes)} in ${first.length} answers` +
          ` (${firstBytes <= TARGET_KB * 1024 ? 'within' : 'OVER'} ${TARGET_KB} KB); worker active after ${(activeAfter / 1000).toFixed(1)} s;` +
          ` the idle work ${kb(sum(idle))} in ${idle.length} files, every file kept after ${(allAfter / 1000).toFixed(1)} s`,
      );
      const largest = first.toSorted((a, b) => b.bytes - a.bytes).slice(0, 5);
      console.log(
        `    largest: ${largest.map((answer) => `${answer.path.replace(/\?.*$/, '').slice(0, 40)} ${kb(answer.bytes)}`).join(', ')}`,
      );
      await context.close();
      proxy.server.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
