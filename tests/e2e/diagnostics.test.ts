// The diagnostics page as QA uses it — opened by tapping the version in Settings, it shows
// the service worker active and controlling, the precache, the runtime caches with their entries,
// the last calls; offline after a reload it still opens and says offline; the report it copies is
// JSON without the token. Opened from Mine, it works logged out too.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneContext, phonePageForFile, screenshot } from './browser.ts';
import { controlledByServiceWorker, logIn, markAllRead, storedToken } from './pwa.ts';
import { APP_VERSION } from '../../src/api-contract/constants.ts';
import { PUBLIC_CACHE, partitionName } from '../../src/api-contract/offline-cache.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { demoAccountForFile } from './demo-account.ts';

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => (page = opened));

/** The value of a row of a diagnostics card, by its label. */
const row = (label: string) =>
  page.locator('.diag-card .detail-rows > div', { has: page.locator('dt', { hasText: label }) }).locator('dd');
const cacheEntries = (name: string) => page.locator(`.diag-cache[data-cache="${name}"] li`);

it('tapping the version in Settings opens the diagnostics: worker, precache, caches and calls', async () => {
  await markAllRead('demo', 'demo1234');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, 'demo', 'demo1234');
  await page.goto('/#/pages/coinList/index');
  await page.locator('.market-row', { hasText: 'BTC' }).locator('.market-price').waitFor();
  await page.goto('/#/pages/index/msgList');
  await page.locator('.msg-list', { hasText: 'Welcome to Coinvest' }).waitFor();

  await page.goto('/#/pages/mine/setting');
  await page.getByRole('link', { name: new RegExp(`Coinvest ${APP_VERSION}`) }).click();
  await page.waitForURL(/#\/pages\/mine\/diagnostics$/);
  await expect.poll(() => page.locator('.navbar h1').textContent()).toBe('Diagnostics');

  await expect.poll(() => row('Active').textContent()).toBe('Activated');
  expect(await row('Controls this page').textContent()).toBe('Yes');
  expect(await row('Supported').textContent()).toBe('Yes');
  expect(await row('Scope').textContent()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(Number(await page.getByTestId('diag-precache').textContent())).toBeGreaterThan(0);
  expect(await row('Online (as the app sees it)').textContent()).toBe('Yes');
  // The page opens the price stream itself, so its state says whether it connects.
  await expect.poll(() => row('Price stream').textContent()).toBe('Live');
  expect(await row('Version').textContent()).toContain(String(APP_VERSION));

  // The public cache holds the coin list; this user's partition their balances and messages (a POST's synthetic key as
  // it is).
  await expect
    .poll(() => cacheEntries(PUBLIC_CACHE).allTextContents())
    .toEqual(expect.arrayContaining([expect.stringMatching(/^\/__offline__\/en\/GET\/api\/coin\/lists.*(ago|now)/)]));
  const partition = await partitionName((await storedToken(page))!);
  const mine = page.locator(`.diag-cache[data-cache="${partition}"]`);
  expect(await mine.locator('h3').textContent()).toContain("This user's answers");
  const keys = (await mine.locator('li code').allTextContents()).sort();
  expect(keys).toHaveLength(3);
  expect(keys[0]).toBe('/__offline__/en/GET/api/users/balances');
  expect(keys[1]).toBe('/__offline__/en/GET/api/users/message/unread');
  expect(keys[2]).toMatch(/^\/__offline__\/en\/POST\/api\/users\/message\?cursor=&status=all/);

  expect(await page.locator('.diag-card', { hasText: 'Outbox' }).textContent()).toContain('Nothing waits to be sent.');

  // The call list: newest first, method and path, no query.
  const calls = await page.locator('.diag-calls li code').allTextContents();
  expect(calls).toContain('GET /coin/lists');
  expect(calls.every((call) => !call.includes('?'))).toBe(true);
  expect(await page.locator('.diag-calls li', { hasText: 'GET /coin/lists' }).first().textContent()).toMatch(
    /HTTP 200 · ret 1 · .*ms · attempts: 1/,
  );

  // The session record is named with its size, the token masked.
  const session = await page
    .locator('.diag-list li', { has: page.locator('code', { hasText: /^session$/ }) })
    .textContent();
  const token = (await storedToken(page))!;
  expect(session).toContain(`${token.slice(0, 4)}…`);
  expect(session).not.toContain(token);
  expect(await page.locator('body').textContent()).not.toContain(token);

  await screenshot(page, '60-diagnostics');
  await page.locator('.diag-card', { hasText: 'Cached answers' }).evaluate((card) => card.scrollIntoView());
  await screenshot(page, '61-diagnostics-caches');
  await page.locator('.diag-calls').evaluate((list) => list.scrollIntoView());
  await screenshot(page, '61-diagnostics-calls');
});

it('the copy button puts the report on the clipboard: JSON, without the token', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy the report (JSON)' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe(texts.copySuccess.message);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const token = (await storedToken(page))!;
  expect(copied).not.toContain(token);
  const report = JSON.parse(copied) as {
    app: { version: number; build: string };
    serviceWorker: { active: string; controlling: boolean };
    caches: {
      precache: { entries: number };
      runtime: { name: string; entries: { key: string; storedAt: string; ageSeconds: number }[] }[];
    };
    deviceRecords: { key: string; token?: string }[];
    network: { online: boolean };
    calls: { method: string; path: string; status: number }[];
  };
  expect(report.app.version).toBe(APP_VERSION);
  expect(report.serviceWorker).toMatchObject({ active: 'activated', controlling: true });
  expect(report.caches.precache.entries).toBeGreaterThan(0);
  const cached = report.caches.runtime
    .find((cache) => cache.name === PUBLIC_CACHE)!
    .entries.find((entry) => entry.key.startsWith('/__offline__/en/GET/api/coin/lists'))!;
  expect(Date.parse(cached.storedAt)).not.toBeNaN();
  expect(cached.ageSeconds).toBeGreaterThanOrEqual(0);
  expect(report.deviceRecords.find((record) => record.key === 'session')!.token).toBe(`${token.slice(0, 4)}…`);
  expect(report.network.online).toBe(true);
  expect(report.calls).toContainEqual(expect.objectContaining({ method: 'GET', path: '/coin/lists', status: 200 }));
});

it("checks for an update (none: this is the latest) and clears this user's cached answers", async () => {
  await page.getByRole('button', { name: 'Check for an update' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('This is the latest version.');
  const partition = await partitionName((await storedToken(page))!);
  expect(await page.locator(`.diag-cache[data-cache="${partition}"]`).count()).toBe(1);
  await page.getByRole('button', { name: "Clear this user's cached answers" }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your cached answers were deleted.');
  expect(await page.locator(`.diag-cache[data-cache="${partition}"]`).count()).toBe(0);
  expect(await page.evaluate(() => caches.keys())).not.toContain(partition);
  expect(await cacheEntries(PUBLIC_CACHE).count()).toBeGreaterThan(0);
});

it('offline, a reload still opens the diagnostics and it says the app is offline', async () => {
  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect.poll(() => page.locator('.navbar h1').textContent()).toBe('Diagnostics');
    await expect.poll(() => row('Online (as the app sees it)').textContent(), { timeout: 15_000 }).toBe('No');
    expect(await row('Controls this page').textContent()).toBe('Yes');
    expect(await row('Price stream').textContent()).toBe('Reconnecting');
    expect(await cacheEntries(PUBLIC_CACHE).count()).toBeGreaterThan(0);
    await screenshot(page, '62-diagnostics-offline');
  } finally {
    await page.context().setOffline(false);
  }
});

it('unregister and reload: the page reloads, and the app registers its worker again', async () => {
  const before = await page.evaluate(() => performance.timeOrigin);
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Unregister and reload' }).click()]);
  expect(await page.evaluate(() => performance.timeOrigin)).not.toBe(before);
  await expect.poll(() => page.locator('.navbar h1').textContent()).toBe('Diagnostics');
  await controlledByServiceWorker(page);
  await expect.poll(() => row('Controls this page').textContent(), { timeout: 15_000 }).toBe('Yes');
  await expect.poll(() => row('Active').textContent()).toBe('Activated');
});

it('logged out, the version line on Mine opens the diagnostics, not the login page', async () => {
  const context = await phoneContext(page.context().browser()!);
  try {
    const guest = await context.newPage();
    await guest.goto('/#/pages/mine/mine');
    await guest.getByRole('link', { name: new RegExp(`Coinvest ${APP_VERSION}`) }).click();
    await guest.waitForURL(/#\/pages\/mine\/diagnostics$/);
    await expect.poll(() => guest.locator('.navbar h1').textContent()).toBe('Diagnostics');
    expect(await guest.getByRole('button', { name: "Clear this user's cached answers" }).isDisabled()).toBe(true);
  } finally {
    await context.close();
  }
});

it('in Arabic the page runs right to left, paths and figures left to right', async () => {
  await page.goto('/#/pages/mine/setting');
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  try {
    await page.goto('/#/pages/mine/diagnostics');
    await page.getByTestId('diag-precache').waitFor();
    expect(await page.locator('.diag-mono').first().getAttribute('dir')).toBe('ltr');
    await screenshot(page, '63-diagnostics-ar');
    await page
      .locator('.diag-cache')
      .first()
      .evaluate((cache) => cache.scrollIntoView());
    await screenshot(page, '64-diagnostics-ar-caches');
  } finally {
    await page.goto('/#/pages/mine/setting');
    await page.locator('.cell', { hasText: 'العربية' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /English/ }).click()]);
  }
});
