// Opened from a phone on the same network, not from localhost (browsers exempt localhost from the
// https rules). Chromium resolves `coinvest.lan` to this machine, so the page is a LAN host:
// - over plain http the app loads and works (no script rewritten to https, writes get their
//   Idempotency-Key without crypto.randomUUID), has no service worker, and says once that offline
//   use needs https;
// - over https from the server's own TLS (TLS_CERT / TLS_KEY) a service worker controls it, so the
//   PWA installs and works offline, and HSTS is sent.
// The first load's bytes on the wire are measured here too (precompressed files).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { firstScreenSettled, nextFrame, phoneContext, screenshot, watchRequests } from './browser.ts';
import { controlledByServiceWorker, logIn, markAllRead } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { seededDataDir } from './own-server.ts';

const HOST = 'coinvest.lan';
const httpPort = new URL(inject('baseUrl')).port;
let browser: Browser;
let tlsServer: ServerProcess | undefined;
let tlsPort = 0;
const work = mkdtempSync(join(tmpdir(), 'coinvest-lan-'));

beforeAll(async () => {
  await markAllRead('demo', 'demo1234');
  const fixtures = join('tests', 'fixtures', 'tls');
  const starting = startServer({
    work,
    name: 'TLS server',
    tls: true,
    env: {
      DATA_DIR: seededDataDir(work),
      WEB_ROOT: inject('webRoot'),
      TLS_CERT: join(fixtures, 'cert.pem'),
      TLS_KEY: join(fixtures, 'key.pem'),
      LOG_LEVEL: 'warn',
    },
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      // The test certificate is self-signed; a phone would trust it once (src/server/OPERATIONS.md, "On a phone").
      '--ignore-certificate-errors',
    ],
  });
  tlsServer = await starting;
  tlsPort = tlsServer.port;
});

afterAll(async () => {
  await browser?.close();
  await tlsServer?.stop();
  rmSync(work, { recursive: true, force: true });
});

const phone = (baseURL: string): Promise<BrowserContext> => phoneContext(browser, { baseURL });

/**
 * Every request that failed, and every console error (a CSP refusal, a script that did not load).
 * Not counted: requests a navigation cancelled, and Chromium's word that it ignores
 * Cross-Origin-Opener-Policy on a plain-http origin (kept: it protects localhost and https).
 */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on(
    'requestfailed',
    (request) =>
      request.failure()?.errorText !== 'net::ERR_ABORTED' &&
      problems.push(`${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on(
    'console',
    (message) =>
      message.type() === 'error' &&
      !message.text().startsWith('The Cross-Origin-Opener-Policy header has been ignored') &&
      problems.push(message.text()),
  );
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Opens `/` in a new page of `context`: the page, its problems so far and the document's headers. */
async function openRoot(
  context: BrowserContext,
): Promise<{ page: Page; problems: string[]; headers: Record<string, string> }> {
  const page = await context.newPage();
  const problems = problemsOf(page);
  const document = page.waitForResponse((response) => new URL(response.url()).pathname === '/');
  await page.goto('/');
  return { page, problems, headers: (await document).headers() };
}

it('over plain http from a LAN address, the app loads, logs in and saves; no service worker; the https notice once', async () => {
  const context = await phone(`http://${HOST}:${httpPort}`);
  try {
    const { page, problems, headers } = await openRoot(context);
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.evaluate(() => ({ secure: isSecureContext, worker: 'serviceWorker' in navigator }))).toEqual({
      secure: false,
      worker: false,
    });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(texts.secureContextNeeded.message);
    await screenshot(page, 'lan-01-http-notice');

    // Writes work without crypto.randomUUID (their Idempotency-Key comes from getRandomValues).
    await logIn(page, 'demo', 'demo1234');
    await page.goto('/#/pages/mine/setting/nickname');
    await page.getByRole('textbox').fill('Lan Ann');
    const saved = page.waitForResponse((response) => response.url().includes('/api/users/edit'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await (await saved).json()).ret).toBe(1);
    expect((await saved).request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);

    // Saved, the app goes back: reloading before it has would reopen the nickname page, which has no tab bar.
    await page.locator('#root > .app:not([inert]) .tabbar').waitFor();
    // Said once: after a reload it stays quiet. The notice is decided just before the start's version check asks
    // for the system config, so once that request has gone and the page has painted, a second notice would show.
    const versionChecked = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/api/other/config' && url.searchParams.get('act') === 'system';
    });
    await page.reload();
    await page.locator('#root > .app:not([inert]) .tabbar').waitFor();
    await versionChecked;
    await nextFrame(page);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

it('over https from the server itself (TLS_CERT / TLS_KEY), a service worker controls the page and HSTS is sent', async () => {
  const context = await phone(`https://${HOST}:${tlsPort}`);
  try {
    const { page, problems, headers } = await openRoot(context);
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await controlledByServiceWorker(page);
    expect(await page.evaluate(() => isSecureContext)).toBe(true);
    await logIn(page, 'demo', 'demo1234');
    await page.locator('.app:not([inert]) .home-page').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'lan-02-https');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

it('over https the page and its scripts come over HTTP/2 (not queued on six HTTP/1.1 connections), and the app renders', async () => {
  const context = await phone(`https://${HOST}:${tlsPort}`);
  try {
    const { page, problems } = await openRoot(context);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const loaded = await page.evaluate(() => ({
      page: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
      scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => ({ path: new URL(entry.name).pathname, protocol: entry.nextHopProtocol })),
    }));
    expect(loaded.page).toBe('h2');
    expect(loaded.scripts.length).toBeGreaterThan(1);
    expect(loaded.scripts.filter((script) => script.protocol !== 'h2')).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

interface LoadedFile {
  path: string;
  wire: number;
  decoded: number;
}

/** The files a first load of home fetches (browser cache off, logged in), with bytes on the wire and unpacked. */
async function firstLoadOfHome(base: string): Promise<LoadedFile[]> {
  const context = await phone(base);
  try {
    await logIn(await context.newPage(), 'demo', 'demo1234');
    const page = await context.newPage();
    const requests = watchRequests(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const wire = new Map<string, number>();
    const decoded = new Map<string, number>();
    const urls = new Map<string, string>();
    cdp.on(
      'Network.responseReceived',
      (event: { requestId: string; response: { url: string } }) => void urls.set(event.requestId, event.response.url),
    );
    cdp.on(
      'Network.dataReceived',
      (event: { requestId: string; dataLength: number }) =>
        void decoded.set(event.requestId, (decoded.get(event.requestId) ?? 0) + event.dataLength),
    );
    cdp.on(
      'Network.loadingFinished',
      (event: { requestId: string; encodedDataLength: number }) =>
        void wire.set(event.requestId, event.encodedDataLength),
    );
    await page.goto('/#/pages/index/index');
    await page.locator('.app:not([inert]) .home-page').waitFor();
    await firstScreenSettled(page, requests);
    return [...urls]
      .filter(([id, url]) => wire.has(id) && !new URL(url).pathname.startsWith('/api/'))
      .map(([id, url]) => ({ path: new URL(url).pathname, wire: wire.get(id)!, decoded: decoded.get(id) ?? 0 }));
  } finally {
    await context.close();
  }
}

it('measures the bytes on the wire of a first load of the home route: gzip over http, brotli over https', async () => {
  const figures: Record<
    string,
    { wireBytes: number; uncompressedBytes: number; entryWire: number; entryUncompressed: number; files: LoadedFile[] }
  > = {};
  for (const [name, base] of [
    ['http (gzip)', `http://${HOST}:${httpPort}`],
    ['https (brotli)', `https://${HOST}:${tlsPort}`],
  ] as const) {
    const files = await firstLoadOfHome(base);
    const total = (key: 'wire' | 'decoded') => files.reduce((sum, file) => sum + file[key], 0);
    // The largest script: the start chunk (the entry itself only imports it).
    const entry = files
      .filter((file) => /\/assets\/[\w.-]+\.js$/.test(file.path))
      .reduce((largest, file) => (file.decoded > largest.decoded ? file : largest));
    // Uncompressed, the entry script alone was ~225 KB on the wire.
    expect(entry.wire, name).toBeLessThan(entry.decoded / 2.5);
    figures[name] = {
      wireBytes: total('wire'),
      uncompressedBytes: total('decoded'),
      entryWire: entry.wire,
      entryUncompressed: entry.decoded,
      files,
    };
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(
      `First load of home over ${name}: ${files.length} files, ${kb(total('wire'))} on the wire (${kb(total('decoded'))} unpacked); largest script ${kb(entry.wire)} of ${kb(entry.decoded)}`,
    );
  }
  expect(figures['https (brotli)']!.entryWire).toBeLessThan(figures['http (gzip)']!.entryWire);
  mkdirSync('test-results', { recursive: true });
  writeFileSync(join('test-results', 'first-load-bytes.json'), JSON.stringify(figures, null, 2));
});
