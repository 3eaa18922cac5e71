// Lighthouse (mobile, simulated throttling) on Home, Markets, Options, Mining, Mine and the login page
// of the built PWA, served as `npm start` serves it; the run with the median performance score of each
// route is printed (LIGHTHOUSE_RUNS, default 3) and its report kept as JSON. Target: ≥ 0.95
// performance and TBT ≤ 200 ms on each. A trivial static page is scored first in the same browser
// with the same settings, and Lighthouse's CPU benchmark index printed beside it: a slow machine (a
// low index, the trivial page's TBT above 0) is told apart from a slow app. LIGHTHOUSE_URL measures a server already
// running instead (its demo account,
// or LIGHTHOUSE_USER / LIGHTHOUSE_PASSWORD); LIGHTHOUSE_PAGES=home,login a part of the pages; WEB_ROOT
// another build folder than dist/. The signed-in pages are measured as a customer who has read their messages
// meets them: an unread one opens in the startup dialog with the first page, and that dialog, larger than any
// page's first screen, becomes the largest paint once the server has answered (LIGHTHOUSE_UNREAD=keep measures that
// start instead). LIGHTHOUSE_TRACE=1 keeps each page's median run's trace beside its report, to open in DevTools'
// Performance panel (what the long tasks did); LIGHTHOUSE_TRACE=all keeps every run's as well.
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse, { type Result } from 'lighthouse';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { freePort } from '../server/postgres.ts';
import { storeSession } from '../e2e/stored-session.ts';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const TARGET = 0.95;
const TBT_TARGET_MS = 200;
const REPORTS = resolve(process.env.LIGHTHOUSE_OUT ?? 'test-results/lighthouse');

/**
 * Home, Markets and Options need a login (PUBLIC_ROUTES): logged out they only redirect to the login
 * page. They are measured as the people who use them meet them: signed in on this device (the
 * session record in IndexedDB), on a cold load (no service worker, empty caches).
 */
const PAGES = [
  { name: 'Home', path: ROUTES.home, signedIn: true },
  { name: 'Markets', path: ROUTES.coinList, signedIn: true },
  { name: 'Options', path: ROUTES.option, signedIn: true },
  { name: 'Mining', path: ROUTES.lockUp, signedIn: true },
  { name: 'Mine', path: ROUTES.mine, signedIn: true },
  { name: 'Login', path: ROUTES.login, signedIn: false },
];

/** The calibration: a page with a heading and a paragraph, no script, served apart. */
const TRIVIAL_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Calibration</title></head><body><h1>Calibration</h1><p>A page with nothing to run.</p></body></html>';

export async function lighthouseBench() {
  if (!existsSync(CHROME_PATH)) {
    console.log(
      `\nLighthouse: skipped, no Chromium at ${CHROME_PATH} (apt-get install -y chromium, or set CHROME_PATH).`,
    );
    return;
  }
  const server = process.env.LIGHTHOUSE_URL
    ? { origin: new URL(process.env.LIGHTHOUSE_URL).origin, stop: async () => {} }
    : await startServer();
  const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const token = await signIn(server.origin);
    mkdirSync(REPORTS, { recursive: true });
    console.log(
      `\nLighthouse on ${server.origin} (mobile, simulated throttling, median of ${RUNS} run${RUNS > 1 ? 's' : ''})`,
    );
    let printedVersion = false;
    await calibrate(chrome);
    const wanted = process.env.LIGHTHOUSE_PAGES?.toLowerCase().split(',');
    for (const page of PAGES.filter((item) => !wanted || wanted.includes(item.name.toLowerCase()))) {
      const runs: Result[] = [];
      const traces = new Map<Result, unknown>();
      for (let run = 0; run < RUNS; run++) {
        // Each run starts from the same device state: nothing stored for the origin but the session, if any.
        await prepareStorage(chrome, server.origin, page.signedIn ? token : null);
        const result = await lighthouse(`${server.origin}/#${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          formFactor: 'mobile',
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
        // A run that failed (no paint, page hung) scores nothing: say why and leave it out of the median.
        if (result.lhr.runtimeError)
          console.log(
            `  ${page.name}: a run failed (${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message})`,
          );
        else {
          runs.push(result.lhr);
          if (process.env.LIGHTHOUSE_TRACE) traces.set(result.lhr, result.artifacts.Trace);
          if (process.env.LIGHTHOUSE_TRACE === 'all')
            writeFileSync(
              join(REPORTS, `${page.name.toLowerCase()}.run-${run + 1}.trace.json`),
              JSON.stringify(result.artifacts.Trace),
            );
        }
      }
      if (runs.length === 0) continue;
      const median = runs.toSorted(
        (a, b) => (a.categories.performance!.score ?? 0) - (b.categories.performance!.score ?? 0),
      )[Math.floor(runs.length / 2)]!;
      const file = join(REPORTS, `${page.name.toLowerCase()}.json`);
      writeFileSync(file, JSON.stringify(median));
      if (traces.has(median))
        writeFileSync(join(REPORTS, `${page.name.toLowerCase()}.trace.json`), JSON.stringify(traces.get(median)));
      if (!printedVersion)
        console.log(
          `  Lighthouse ${median.lighthouseVersion}, ${median.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? ''}`,
        );
      printedVersion = true;
      printRun(page.name, page.signedIn && token ? 'signed in' : 'logged out', median, runs);
    }
    console.log(`  reports (median runs): ${REPORTS}`);
  } finally {
    chrome.kill();
    await server.stop();
  }
}

/** Scores TRIVIAL_PAGE (its own server on loopback) once and prints it with Lighthouse's CPU benchmark index. */
async function calibrate(chrome: LaunchedChrome) {
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(TRIVIAL_PAGE),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await lighthouse(`http://127.0.0.1:${port}/`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'mobile',
    });
    const lhr = result?.lhr;
    if (!lhr || lhr.runtimeError)
      return console.log(`  calibration: the trivial page failed (${lhr?.runtimeError?.message ?? 'no result'})`);
    const ms = (id: string) => `${Math.round(lhr.audits[id]?.numericValue ?? NaN)} ms`;
    console.log(
      `  calibration: a trivial static page scores ${lhr.categories.performance!.score?.toFixed(2)} (TBT ${ms('total-blocking-time')}, FCP ${ms('first-contentful-paint')});` +
        ` CPU benchmark index ${Math.round(lhr.environment.benchmarkIndex)} (Lighthouse calls a machine below ~1000 slow; its 4× CPU slowdown assumes a desktop-class one)`,
    );
  } finally {
    server.close();
  }
}

/** The median run, and every run's score with its largest paint and blocking time (what moves a score between runs). */
function printRun(name: string, who: string, lhr: Result, runs: Result[]) {
  const scores = runs.map((run) => run.categories.performance!.score ?? 0);
  const performance = lhr.categories.performance!;
  const accessibility = lhr.categories.accessibility!;
  const ms = (id: string) => `${Math.round(lhr.audits[id]?.numericValue ?? NaN)} ms`;
  const landed = lhr.finalDisplayedUrl.replace(/^https?:\/\/[^/]+/, '');
  console.log(
    `  ${name.padEnd(8)} (${who}${landed.endsWith((lhr.requestedUrl ?? '').replace(/^https?:\/\/[^/]+/, '')) ? '' : `, landed on ${landed}`})` +
      `  performance ${performance.score?.toFixed(2)} (runs ${scores.map((score) => score.toFixed(2)).join(' ')})  accessibility ${accessibility.score?.toFixed(2)}`,
  );
  console.log(
    `           FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  TBT ${ms('total-blocking-time')}` +
      `  CLS ${(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)}  SI ${ms('speed-index')}`,
  );
  console.log(`           largest paint: ${largestPaint(lhr)}`);
  if (runs.length > 1) {
    const each = runs.map((run) => {
      const ms = (id: string) => Math.round(run.audits[id]?.numericValue ?? NaN);
      const score = (run.categories.performance!.score ?? 0).toFixed(2);
      return `${score} (LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')})`;
    });
    console.log(`           each run: ${each.join(' · ')}`);
  }
  const tbt = lhr.audits['total-blocking-time']?.numericValue ?? NaN;
  if ((performance.score ?? 0) < TARGET || !(tbt <= TBT_TARGET_MS))
    console.log(
      `           below the target (≥ ${TARGET}, TBT ≤ ${TBT_TARGET_MS} ms), failing: ${failing(lhr, 'performance').join(', ')}`,
    );
  if ((accessibility.score ?? 0) < 0.98)
    console.log(`           accessibility, failing: ${failing(lhr, 'accessibility').join(', ')}`);
}

/**
 * What the largest paint was, and whether it came with the HTML: its element's text (or picture) and the time it was
 * seen on this machine, against the first paint's. The same time for both means the first screen from the HTML was it.
 */
function largestPaint(lhr: Result): string {
  type Item = { type?: string; nodeLabel?: string; boundingRect?: { width: number; height: number } };
  const items = (lhr.audits['lcp-breakdown-insight']?.details as { items?: Item[] } | undefined)?.items ?? [];
  const node = items.find((item) => item.type === 'node');
  const label = node?.nodeLabel ?? 'unknown';
  // An element of the screen from the HTML is gone by the end of the run: the app drew its own over it.
  const size = node?.boundingRect?.width
    ? ` ${node.boundingRect.width}×${node.boundingRect.height}`
    : ' (of the screen from the HTML)';
  const metrics = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
  const observed = (name: string) => Math.round(metrics[name] ?? NaN);
  return (
    `"${label.length > 60 ? `${label.slice(0, 57)}…` : label}"${size}, seen at ${observed('observedLargestContentfulPaint')} ms` +
    ` (first paint ${observed('observedFirstContentfulPaint')} ms, unthrottled)`
  );
}

/** The category's audits that did not pass: metrics with their score, insights with their estimated savings. */
function failing(lhr: Result, category: 'performance' | 'accessibility'): string[] {
  return lhr.categories[category]!.auditRefs.flatMap((ref) => {
    const audit = lhr.audits[ref.id]!;
    if (audit.score === null || audit.score >= (ref.group === 'metrics' ? 0.9 : 1)) return [];
    if (
      audit.scoreDisplayMode === 'informative' ||
      audit.scoreDisplayMode === 'notApplicable' ||
      audit.scoreDisplayMode === 'manual'
    )
      return [];
    if (ref.group === 'metrics') return [`${ref.id} ${audit.score.toFixed(2)}`];
    const savings = Object.entries(audit.metricSavings ?? {}).flatMap(([metric, value]) =>
      value ? [`${metric} −${metric === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`}`] : [],
    );
    return [savings.length ? `${ref.id} (${savings.join(', ')})` : ref.id];
  });
}

/**
 * Clears everything the origin stored, then writes the signed-in session the way the app keeps it
 * (IndexedDB 'coinvest', store 'state', key 'session'). Lighthouse's own reset clears the service
 * worker, caches and HTTP cache but keeps IndexedDB, so the session survives into the measured load.
 */
async function prepareStorage(chrome: LaunchedChrome, origin: string, token: string | null) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.send('Network.clearBrowserCache');
    if (token) {
      // A file of the origin that runs no app code: a page there may open the origin's IndexedDB.
      await page.goto(`${origin}/favicon.svg`);
      await storeSession(page, token);
    }
    await page.close();
  } finally {
    await browser.close(); // connected over CDP: disconnects, the browser keeps running
  }
}

/** A token of the demo account (or LIGHTHOUSE_USER); null when the server has no such account. */
async function signIn(origin: string): Promise<string | null> {
  const response = await fetch(`${origin}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: process.env.LIGHTHOUSE_USER ?? DEMO_ACCOUNT.username,
      password: process.env.LIGHTHOUSE_PASSWORD ?? DEMO_ACCOUNT.password,
    }),
  });
  const answer = (await response.json()) as { ret: number; msg: string; data?: { token?: string } };
  if (answer.ret === 1 && answer.data?.token) {
    if (process.env.LIGHTHOUSE_UNREAD === 'keep') console.log('\nLighthouse: the account keeps its unread messages.');
    else
      await fetch(`${origin}/api/users/message/reader`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', token: answer.data.token },
        body: new URLSearchParams({ ids: 'all' }),
      });
    return answer.data.token;
  }
  console.log(
    `\nLighthouse: could not sign in (${answer.msg}); Home, Markets and Options are measured logged out (they show the login page).`,
  );
  return null;
}

/** The server as `npm start` runs it (production, the built PWA, a fresh embedded database). */
export async function startServer(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const webRoot = process.env.WEB_ROOT || 'dist';
  if (!existsSync(join(webRoot, 'index.html')))
    execSync(`node_modules/.bin/vite build --outDir ${JSON.stringify(webRoot)}`, { stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'coinvest-lighthouse-'));
  const port = await freePort();
  let log = '';
  const server: ChildProcess = spawn(process.execPath, ['src/server/main.ts'], {
    // Limits raised so a dozen page loads from one address never meet the rate limiter.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      WEB_ROOT: webRoot,
      RATE_LIMIT_ADDRESS: '100000',
      RATE_LIMIT_ACCOUNT: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const stop = async () => {
    if (server.exitCode === null) {
      const stopped = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await Promise.race([stopped, new Promise((done) => setTimeout(done, 5000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answered = await fetch(`${origin}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { origin, stop };
    if (server.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The server ${server.exitCode !== null ? 'stopped' : 'did not answer in 90 s'}:\n${log}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}
