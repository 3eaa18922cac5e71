// Updates: a second build with another build id is deployed under the
// same origin; the waiting worker raises the update dialog ("Later" puts it off until the next
// start), accepting reloads into the new version. The startup check of `v` in appurl_android raises
// the same dialog, forced; in the Android shell its button opens the download link.
// This file runs its own server whose web root the test swaps between the two builds.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, nextFrame, phoneContext } from './browser.ts';
import { controlledByServiceWorker } from './pwa.ts';
import { APP_VERSION } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { LATER_PRECACHE } from '../../src/api-contract/offline-cache.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { SECOND_BUILD_ID, SECOND_BUILD_WAIT_MS, secondBuild } from './second-build.ts';
import { seededDataDir } from './own-server.ts';

const NEW_BUILD = SECOND_BUILD_ID;
const work = mkdtempSync(join(tmpdir(), 'coinvest-update-'));
const webRoot = join(work, 'web');
/** The second build (second-build.ts), made once per run. */
let second = '';
let server: ServerProcess | undefined;
let base = '';
let browser: Browser;

/** Puts a build in the web root the server serves (it reads files from disk on every request). */
function deploy(build: string): void {
  rmSync(webRoot, { recursive: true, force: true });
  cpSync(build, webRoot, { recursive: true });
}

beforeAll(async () => {
  deploy(inject('webRoot'));
  // The second version (the same code, another build id, in its own folder) is made meanwhile.
  [second, server, browser] = await Promise.all([
    secondBuild(),
    startServer({
      work,
      name: 'update test server',
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: webRoot, AUTH_RATE_LIMIT: '1000' },
    }),
    launch(),
  ]);
  base = server.base;
}, SECOND_BUILD_WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const phone = (options: { userAgent?: string; serviceWorkers?: 'allow' | 'block' } = {}) =>
  phoneContext(browser, { baseURL: base, ...options });

const shot = (page: Page, name: string) => page.screenshot({ path: join(inject('artifacts'), `${name}.png`) });
const buildOnPage = (page: Page) => page.evaluate(() => document.documentElement.dataset.build);
const updateDialog = (page: Page) => page.locator('.update-dialog');

it('a new version waits for consent: "Later" puts it off, accepting reloads into the new version', async () => {
  const context = await phone();
  try {
    const page = await context.newPage();
    await page.goto('/#/pages/mine/mine');
    await controlledByServiceWorker(page);
    const firstBuild = await buildOnPage(page);
    expect(firstBuild).toBeTruthy();
    expect(firstBuild).not.toBe(NEW_BUILD);
    await expect.poll(() => page.locator('.app-build').textContent()).toBe(`Coinvest ${APP_VERSION} · ${firstBuild}`);

    deploy(second);
    // The browser looks for a new worker on navigations and from time to time; ask now, in the
    // same page session that installed the first worker (the case that needs the manual reload).
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await updateDialog(page).waitFor({ timeout: 30_000 });
    expect(await updateDialog(page).getAttribute('data-forced')).toBe('false');
    await shot(page, '30-update-dialog');
    await updateDialog(page).locator('[data-action="later"]').click();
    expect(await updateDialog(page).count()).toBe(0);
    expect(await buildOnPage(page)).toBe(firstBuild);

    // The next start asks again (the new worker is still waiting); accepting reloads into it.
    await page.reload();
    await updateDialog(page).waitFor({ timeout: 30_000 });
    expect(await buildOnPage(page)).toBe(firstBuild);
    await Promise.all([
      page.waitForEvent('load', { timeout: 30_000 }),
      updateDialog(page).locator('[data-action="update"]').click(),
    ]);
    await expect.poll(() => buildOnPage(page)).toBe(NEW_BUILD);
    await expect.poll(() => page.locator('.app-build').textContent()).toBe(`Coinvest ${APP_VERSION} · ${NEW_BUILD}`);
    expect(await updateDialog(page).count()).toBe(0);
    // The old version's files are gone: the new install's cache and the later files' cache (sw/sw.ts)
    // hold files of the new build only.
    const cachedFiles = () =>
      page.evaluate(async () => {
        const found: Record<string, string[]> = {};
        for (const name of (await caches.keys()).filter((key) => key.startsWith('workbox-precache')))
          found[name.startsWith('workbox-precache-v2') ? 'install' : name] = (
            await (await caches.open(name)).keys()
          ).map((request) => new URL(request.url).pathname);
        return found;
      });
    // (The new worker's activation clears them: it may still be at it when the page has reloaded.)
    await expect.poll(async () => Object.keys(await cachedFiles()).sort()).toEqual(['install', LATER_PRECACHE]);
    await expect
      .poll(async () =>
        Object.values(await cachedFiles())
          .flat()
          .filter((path) => !existsSync(join(second, path))),
      )
      .toEqual([]);
    const shell = await page.evaluate(async () => {
      const cache = await caches.open((await caches.keys()).find((name) => name.startsWith('workbox-precache-v2'))!);
      const index = await cache.match('index.html', { ignoreSearch: true });
      return index ? await index.text() : '';
    });
    expect(shell).toContain('<div id="root">');
    await shot(page, '31-updated');
  } finally {
    await context.close();
  }
});

/** Answers the system config with an appurl_android that announces version `v`. */
const announce = (context: BrowserContext, v: number) =>
  context.route('**/api/other/config*', (route) =>
    route.fulfill({
      json: {
        ret: 1,
        msg: '',
        data: { scroll_notice: '', service_url: '', appurl_android: `/downloads/coinvest.apk?v=${v}` },
      },
    }),
  );

it('a newer v in appurl_android raises the same dialog, forced: no dismiss, and updating reloads', async () => {
  const context = await phone();
  try {
    await announce(context, APP_VERSION + 1);
    const page = await context.newPage();
    await page.goto('/#/pages/mine/mine');
    await updateDialog(page).waitFor({ timeout: 30_000 });
    expect(await updateDialog(page).getAttribute('data-forced')).toBe('true');
    expect(await updateDialog(page).textContent()).toContain(texts.updateToLatest.message);
    expect(await updateDialog(page).locator('[data-action="later"]').count()).toBe(0);
    await shot(page, '32-forced-update');
    await Promise.all([page.waitForEvent('load'), updateDialog(page).locator('[data-action="update"]').click()]);
    // The server still announces a newer version: the dialog comes back.
    await updateDialog(page).waitFor({ timeout: 30_000 });
  } finally {
    await context.close();
  }
});

it('the same version in appurl_android raises nothing', async () => {
  const context = await phone({ serviceWorkers: 'block' });
  try {
    await announce(context, APP_VERSION);
    const page = await context.newPage();
    const checked = page.waitForResponse(/\/api\/other\/config/);
    await page.goto('/#/pages/mine/mine');
    // The answer is what would raise the dialog: once the page has handled it and painted, none is there.
    await (await checked).finished();
    await nextFrame(page);
    expect(await updateDialog(page).count()).toBe(0);
  } finally {
    await context.close();
  }
});

it('in the Android shell the forced dialog opens the download link (the service worker lets it through)', async () => {
  const context = await phone({
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/140 Mobile CoinvestAndroid/101',
  });
  try {
    await announce(context, APP_VERSION + 5);
    await context.route('**/downloads/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'the new app' }),
    );
    const page = await context.newPage();
    await page.goto('/#/pages/mine/mine');
    // The worker's part is its handling of navigations, there once it controls the page (its install kept the app
    // shell); the app's other files it keeps after that are the first test's.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await updateDialog(page).waitFor({ timeout: 30_000 });
    const download = page.waitForRequest(
      (request) => request.url().includes('/downloads/') && request.isNavigationRequest(),
    );
    await updateDialog(page).locator('[data-action="update"]').click();
    expect((await download).url()).toBe(`${base}/downloads/coinvest.apk?v=${APP_VERSION + 5}`);
    // The download itself arrives, not the app shell the worker hands to the app's own navigations.
    await expect.poll(() => page.locator('body').textContent()).toBe('the new app');
  } finally {
    await context.close();
  }
});
