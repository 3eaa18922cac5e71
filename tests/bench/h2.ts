// HTTP/2 against HTTP/1.1 on a phone: the production server with TLS (the test certificate), a first
// open of Options signed in, cold (a browser just started: no connection, no service worker, empty
// cache) on Lighthouse's mobile "slow 4G" as its DevTools throttling applies it (150 ms RTT → 562.5 ms
// a request, 1.6 Mbps down and 750 Kbps up less 10%, CPU 4× slower) and its 412×823 phone screen.
// Before: Chromium with --disable-http2 (HTTP/1.1, six connections, over the same TLS server);
// after: h2. The largest contentful paint of each run, the median of H2_RUNS (default 5); WEB_ROOT
// another build folder than dist/.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { startServer } from '../server/server-process.ts';
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
const RUNS = Math.max(1, Number(process.env.H2_RUNS ?? 5));
const FIXTURES = join('tests', 'fixtures', 'tls');
/** Lighthouse's mobileSlow4G as DevTools throttling applies it (lantern's DEVTOOLS_*_ADJUSTMENT_FACTOR: 3.75 and 0.9).
 * */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 0.9 * 1024) / 8,
  uploadThroughput: (750 * 0.9 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
/** Lighthouse's mobile screen (a Moto G Power). */
const SCREEN = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** The LCP is taken once no larger paint came for this long after Options showed its coins. */
const SETTLED_MS = 3000;

interface Run {
  lcpMs: number;
  scripts: number;
  protocols: string[];
}

export async function h2Bench() {
  if (!existsSync(CHROME_PATH)) {
    console.log(`\nHTTP/2: skipped, no Chromium at ${CHROME_PATH} (apt-get install -y chromium, or set CHROME_PATH).`);
    return;
  }
  const webRoot = process.env.WEB_ROOT || 'dist';
  if (!existsSync(join(webRoot, 'index.html')))
    execSync(`node_modules/.bin/vite build --outDir ${JSON.stringify(webRoot)}`, { stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'coinvest-h2-bench-'));
  const server = await startServer({
    work,
    tls: true,
    // Limits raised so ten cold loads from one address never meet the rate limiter.
    env: {
      DATA_DIR: join(work, 'data'),
      WEB_ROOT: webRoot,
      TLS_CERT: join(FIXTURES, 'cert.pem'),
      TLS_KEY: join(FIXTURES, 'key.pem'),
      RATE_LIMIT_ADDRESS: '100000',
      RATE_LIMIT_ACCOUNT: '100000',
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const url = `${server.base}/#${ROUTES.option}`;
    console.log(
      `\nHTTP/2 vs HTTP/1.1: a cold first open of Options, signed in, on ${server.base} (slow 4G, CPU ${CPU_SLOWDOWN}×, 412×823; median of ${RUNS})`,
    );
    const modes = [
      { name: 'HTTP/1.1 (--disable-http2)', flags: ['--disable-http2'], runs: [] as Run[] },
      { name: 'HTTP/2', flags: [], runs: [] as Run[] },
    ];
    // Taken in turns, so a machine busier for a while weighs on both alike.
    for (let run = 0; run < RUNS; run++)
      for (const mode of modes)
        mode.runs.push(await coldOpen(server.base, url, mode.flags, join(work, `profile-${run}-${mode.flags.length}`)));
    for (const { name, runs } of modes) {
      const lcps = runs.map((run) => run.lcpMs);
      const median = lcps.toSorted((a, b) => a - b)[Math.floor(lcps.length / 2)]!;
      const protocols = [...new Set(runs.flatMap((run) => run.protocols))].join(', ');
      console.log(
        `  ${name.padEnd(27)} LCP ${Math.round(median)} ms (runs ${lcps.map((ms) => Math.round(ms)).join(' ')})  scripts ${runs.map((run) => run.scripts).join('/')}  over ${protocols}`,
      );
    }
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One measured load in a browser of its own: a first start writes the session the way the app keeps it
 * (IndexedDB, from a page of the origin) and quits; a second start on that profile opens Options.
 */
async function coldOpen(origin: string, url: string, flags: readonly string[], profile: string): Promise<Run> {
  const open = (): Promise<BrowserContext> =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROME_PATH,
      args: [...CHROME_FLAGS, ...flags],
      ignoreHTTPSErrors: true,
      serviceWorkers: 'block',
      locale: 'en-US',
      ...SCREEN,
    });
  const setup = await open();
  try {
    const page = setup.pages()[0] ?? (await setup.newPage());
    const answer = await setup.request.post(`${origin}/api/users/login`, {
      form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
    });
    const token = ((await answer.json()) as { data?: { token?: string } }).data?.token;
    if (!token) throw new Error(`The demo account could not sign in: ${await answer.text()}`);
    // A file of the origin that runs no app code: a page there may open the origin's IndexedDB.
    await page.goto(`${origin}/favicon.svg`);
    await storeSession(page, token);
  } finally {
    await setup.close();
  }

  const context = await open();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let scripts = 0;
    const protocols = new Set<string>();
    cdp.on('Network.responseReceived', (event: { type: string; response: { url: string; protocol?: string } }) => {
      if (!event.response.url.startsWith(origin)) return;
      if (event.response.protocol) protocols.add(event.response.protocol);
      if (event.type === 'Script') scripts++;
    });
    await page.addInitScript(() => {
      const seen = window as unknown as { lcpMs: number; lcpAt: number };
      seen.lcpMs = 0;
      seen.lcpAt = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          seen.lcpMs = entry.startTime;
          seen.lcpAt = performance.now();
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(url);
    await page.locator('.opt-page .opt-coin').first().waitFor({ timeout: 120_000 });
    // Later paints may still be larger (a picture, the chart): wait until none came for a while.
    await page.waitForFunction((quiet) => {
      const seen = window as unknown as { lcpMs: number; lcpAt: number };
      return seen.lcpMs > 0 && performance.now() - seen.lcpAt > quiet;
    }, SETTLED_MS);
    const lcpMs = await page.evaluate(() => (window as unknown as { lcpMs: number }).lcpMs);
    return { lcpMs, scripts, protocols: [...protocols] };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
