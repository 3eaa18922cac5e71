// A first visit downloads what a start needs; the other pages and languages follow once the first
// screen is idle. The worker's install keeps the shell, the tab pages, login and the
// active language's texts of those; the app then asks for the rest by itself. After that one visit
// every route opens offline, and so does another language.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { controlledByServiceWorker, logIn, registerUser } from './pwa.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { LATER_PRECACHE } from '../../src/api-contract/offline-cache.ts';
import { LOCALE_NAMES } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'visit1234';

/** The file names (less their hash) each of the worker's two caches holds. */
const cachedFiles = () =>
  page.evaluate(async (later) => {
    const names = async (cacheName: string) =>
      (await (await caches.open(cacheName)).keys()).map((request) =>
        new URL(request.url).pathname.replace(/-[\w-]{8}\.(js|css)$/, ''),
      );
    const install = (await caches.keys()).find((name) => name.startsWith('workbox-precache-v2'));
    return { install: install ? await names(install) : [], later: await names(later) };
  }, LATER_PRECACHE);

/**
 * Opens a route as a person reopening the app there, and says what it showed: its page, or the load failure. A blank
 * page first, so that the route's address starts the app afresh (from the page before, only its hash would change and
 * the app would show it in place, a screen nobody looks at before the start that follows).
 */
async function opens(route: string): Promise<string> {
  await page.goto('about:blank');
  await page.goto(`/#${route}`);
  const failed = page.getByText(texts.pageLoadFailed.message);
  // The app's own page (not the inert first screen of the HTML).
  await page
    .locator('.app:not([inert]) .app-main .page, .app:not([inert]) .app-main .empty')
    .first()
    .waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => !document.querySelector('.page-loading'), undefined, { timeout: 15_000 });
  return (await failed.count()) ? 'failed to load' : 'opened';
}

it('the install keeps what a start needs; the app asks for the rest once its first screen is idle', async () => {
  await registerUser(phone, password, '246802');
  await logIn(page, phone, password);
  // controlledByServiceWorker waits for the app's own ask: nothing in the test asks for the later files.
  await controlledByServiceWorker(page);
  const { install, later } = await cachedFiles();
  expect(install).toContain('/index.html');
  for (const start of ['/assets/shell', '/assets/HomePage', '/assets/LoginPage', '/assets/OptionPage'])
    expect(install, start).toContain(start);
  // Pages a visit does not start on, and every language's texts, are the idle work's.
  for (const page of ['/assets/DiagnosticsPage', '/assets/RechargePage', '/assets/SettingsPage']) {
    expect(install, page).not.toContain(page);
    expect(later, page).toContain(page);
  }
  expect(install.some((file) => file.startsWith('/assets/messages'))).toBe(false);
  expect(later.filter((file) => file.startsWith('/assets/messages')).length).toBeGreaterThan(6 * 7);
});

it('after that one visit, every route opens offline', async () => {
  await page.context().setOffline(true);
  try {
    const outcomes: Record<string, string> = {};
    for (const [name, route] of Object.entries(ROUTES)) outcomes[name] = await opens(route);
    expect(Object.entries(outcomes).filter(([, outcome]) => outcome !== 'opened')).toEqual([]);
  } finally {
    await page.context().setOffline(false);
  }
});

it('offline, another language opens too: its texts were kept with the rest', async () => {
  await page.context().setOffline(true);
  try {
    await opens(ROUTES.mine);
    await page.getByText('Language', { exact: true }).click();
    await page.getByText(LOCALE_NAMES.jp, { exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    for (const route of [ROUTES.mine, ROUTES.settings, ROUTES.diagnostics, ROUTES.accountDetails])
      expect(await opens(route), route).toBe('opened');
    await screenshot(page, 'first-visit-offline-ja-account-details');
    expect(await page.locator('.app-main').textContent()).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  } finally {
    await page.context().setOffline(false);
  }
});
