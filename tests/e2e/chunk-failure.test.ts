// Route chunks that fail (after 120 s at most: PAGE_LOAD_TIMEOUT_MS). A page left open across a deploy asks for a route
// chunk the new build no longer has: it reloads once, into the new version. A chunk that never
// arrives shows the load-failed text with a button to try again, never a blank screen (and no reload loop).
// The service worker is blocked here: under its control every chunk of the old version is served
// from its precache until the user accepts the update, so a chunk only goes missing in a browser
// the worker does not (yet) control — the first visit, or a browser without one.
// This file runs its own server whose web root the test swaps between two builds (as update.test.ts).
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, nextFrame, phoneContext } from './browser.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { SECOND_BUILD_ID, SECOND_BUILD_WAIT_MS, secondBuild } from './second-build.ts';
import { seededDataDir } from './own-server.ts';

const NEW_BUILD = SECOND_BUILD_ID;
const work = mkdtempSync(join(tmpdir(), 'coinvest-chunk-'));
const webRoot = join(work, 'web');
const second = join(work, 'dist-second');
let server: ServerProcess | undefined;
let base = '';
let browser: Browser;

/** Puts a build in the web root the server serves: the old version's files are gone, as after a deploy. */
function deploy(build: string): void {
  rmSync(webRoot, { recursive: true, force: true });
  cpSync(build, webRoot, { recursive: true });
}

/** The register page's chunk in a build (assets/RegisterPage-<hash>.js). */
const registerChunk = (build: string) =>
  readdirSync(join(build, 'assets')).find((name) => /^RegisterPage-[\w-]+\.js$/.test(name));

/**
 * The second build as a deploy that changed the register page: chunks are named by their content,
 * so only a changed page gets a new name and the old name is gone. The same code built twice names
 * it alike, so the change is made here: the chunk gets a new name everywhere it is referred to (and
 * the precompressed copies the server prefers are made again).
 */
function changeRegisterPage(build: string): void {
  const old = registerChunk(build)!;
  const renamed = old.replace(/-[\w-]+\.js$/, '-e2eDeploy.js');
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  renameSync(join(build, 'assets', old), join(build, 'assets', renamed));
  for (const file of files(build)) {
    if (!/\.(js|mjs|html|json|webmanifest)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    const changed = file.endsWith(renamed) || text.includes(old);
    if (text.includes(old)) writeFileSync(file, text.replaceAll(old, renamed));
    if (!changed) continue;
    const bytes = readFileSync(file);
    rmSync(`${file.replace(renamed, old)}.br`, { force: true });
    rmSync(`${file.replace(renamed, old)}.gz`, { force: true });
    writeFileSync(`${file}.br`, brotliCompressSync(bytes));
    writeFileSync(`${file}.gz`, gzipSync(bytes));
  }
}

beforeAll(async () => {
  deploy(inject('webRoot'));
  const [built, started, launched] = await Promise.all([
    secondBuild(),
    startServer({
      work,
      name: 'chunk test server',
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: webRoot, AUTH_RATE_LIMIT: '1000' },
    }),
    launch(),
  ]);
  [server, base, browser] = [started, started.base, launched];
  // The run's second build (second-build.ts), copied: this file changes its copy.
  cpSync(built, second, { recursive: true });
  changeRegisterPage(second);
}, SECOND_BUILD_WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const phone = () => phoneContext(browser, { baseURL: base, serviceWorkers: 'block' });
const buildOnPage = (page: Page) => page.evaluate(() => document.documentElement.dataset.build);
const shot = (page: Page, name: string) => page.screenshot({ path: join(inject('artifacts'), `${name}.png`) });

it('a chunk missing after a deploy reloads the open page once, into the new version', async () => {
  const oldChunk = registerChunk(inject('webRoot'));
  expect(oldChunk).toBeTruthy();
  // The new build has no file of that name.
  expect(existsSync(join(second, 'assets', oldChunk!))).toBe(false);

  const context = await phone();
  try {
    const page = await context.newPage();
    await page.goto('/#/pages/login/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const oldBuild = await buildOnPage(page);
    expect(oldBuild).not.toBe(NEW_BUILD);

    deploy(second);
    let loads = 0;
    page.on('load', () => (loads += 1));
    const missing = page.waitForResponse((response) => response.url().endsWith(`/assets/${oldChunk}`));
    // In-app navigation to a page whose code the old version has not loaded yet.
    await page.evaluate(() => (location.hash = '#/pages/login/regist'));
    expect((await missing).status()).toBe(404);
    await expect.poll(() => buildOnPage(page), { timeout: 20_000 }).toBe(NEW_BUILD);
    await page.getByRole('button', { name: 'Register' }).waitFor();
    expect(page.url()).toMatch(/#\/pages\/login\/regist$/);
    // Exactly one reload, and none after it: only a page's code failing to arrive reloads, and the new
    // version's page has arrived and shows, so once that is painted the count is final.
    await nextFrame(page);
    expect(loads).toBe(1);
    expect(await page.getByText(texts.pageLoadFailed.message).count()).toBe(0);
    await shot(page, 'chunk-reloaded-into-new-version');
  } finally {
    await context.close();
    deploy(inject('webRoot'));
  }
});

it('a chunk that never arrives shows the load-failed text with a way to try again, after one reload at most', async () => {
  const context = await phone();
  try {
    // The register page's code never arrives: the connection drops each time it is asked for.
    const lost = (route: { abort: (code: string) => Promise<void> }) => route.abort('connectionreset');
    await context.route('**/assets/RegisterPage-*.js', lost);
    const page = await context.newPage();
    await page.goto('/#/pages/login/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.evaluate(() => (location.hash = '#/pages/login/regist'));
    await page.getByText(texts.pageLoadFailed.message).waitFor({ timeout: 20_000 });
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    await shot(page, 'chunk-never-arrives');
    // Showing the failure is the app's answer instead of another reload: once it is painted, no reload is on its way.
    await nextFrame(page);
    expect(loads).toBeLessThanOrEqual(1); // the one reload in case a deploy moved it; no loop
    expect(await page.getByText(texts.pageLoadFailed.message).count()).toBe(1);

    // The connection recovers: Try again opens the page.
    await context.unroute('**/assets/RegisterPage-*.js', lost);
    await retry.click();
    await page.getByRole('button', { name: 'Register' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText(texts.pageLoadFailed.message).count()).toBe(0);
  } finally {
    await context.close();
  }
});
