// A phone on a slow, flaky connection, tried as a new user would: 400 ms of latency and about 50 KB/s each way through
// the DevTools protocol, and the connection dropped and back. The service worker is blocked, so each page's code comes
// from the network as on a first visit before the worker has kept it.
import type { CDPSession, Page } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { phoneContext, launch, screenshot, watchPagesOnFailure } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, registerUser } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

const SLOW = { offline: false, latency: 400, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };
const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

const watch = watchPagesOnFailure();
let context: BrowserContext;
let page: Page;
let network: CDPSession;
/** Errors the page did not catch (an unhandled rejection among them). */
const uncaught: string[] = [];

beforeAll(async () => {
  const phone = `065${String(Date.now()).slice(-7)}`;
  await registerUser(phone, 'slowphone1', '135790');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'slowphone1' },
  });
  await callApi('/users/message/reader', { token: data.token, form: { ids: 'all' } });
  context = await phoneContext(await launch(), { serviceWorkers: 'block' });
  page = watch(await context.newPage());
  page.on('pageerror', (error) => uncaught.push(error.message));
  network = await context.newCDPSession(page);
  await network.send('Network.enable');
  await network.send('Network.emulateNetworkConditions', SLOW);
  await openSignedIn(page, data.token, '/#/pages/index/index');
  await page.locator('.home-balance-amount').filter({ hasText: /\d/ }).waitFor();
});
afterAll(() => context?.close());

/**
 * A new customer with 50 USDT and one unread message (the notice of a withdrawal address added): the startup message
 * of their next app start. Resolves with their token.
 */
async function customerWithNotice(phone: string, password: string): Promise<string> {
  const token = await fundedUser(phone, password, '135790', '50');
  const wallet = { alias: 'Cold', currency: 'USDT', chain: 'TRC20', address: 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp' };
  expect(await callApi('/users/wallet/add', { token, form: wallet })).toMatchObject({ ret: 1 });
  return token;
}

/** A frame and a task of the page's own: what an answer or a closed dialog sets off has rendered by then. */
const frameAndTask = (on: Page) =>
  on.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

const tab = (name: string) => page.locator('.tabbar').getByRole('link', { name });
const loadFailed = () => page.getByRole('alert').filter({ hasText: 'The page failed to load' });

it('a tab that failed to load offline shows its page when opened again once back online', async () => {
  // The keyboard focus module is asked for at the first page change, key press or focus: none yet.
  const focusModule = (request: { url(): string }) => /\/keyboard-focus-[^/]*\.js$/.test(request.url());
  expect(await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/\/keyboard-focus-[^/]*\.js$/)]),
  );
  await network.send('Network.emulateNetworkConditions', OFFLINE);
  const focusFailed = page.waitForEvent('requestfailed', focusModule);
  await tab('Mine').click();
  await loadFailed().waitFor();
  // Its code cannot come offline either, and the app throws nothing for it, nor for the keys pressed after (before:
  // an uncaught "Failed to fetch dynamically imported module" at each page change, key press and focus).
  await focusFailed;
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  // A task of the page's own after those: an error they left uncaught has been reported by then.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(uncaught).toEqual([]);

  await network.send('Network.emulateNetworkConditions', SLOW);
  await tab('Home').click();
  await page.locator('.home-balance-amount').filter({ hasText: /\d/ }).waitFor();
  await tab('Mine').click();
  // The page itself, not the load-failed screen kept from the failure (before: kept until the app was reloaded).
  const minePage = page.getByText('Total assets (est. USDT)');
  await minePage.or(loadFailed()).waitFor();
  expect(await loadFailed().count()).toBe(0);
  await minePage.waitFor();
}, 120_000);

it('the startup message waits for a confirmation opened before its check answered, and opens once it closes', async () => {
  // On a slow network the check for an unread message can answer after the customer has opened an order's
  // confirmation: its message (here the notice of a withdrawal address added) must not open over the question.
  const token = await customerWithNotice(`066${String(Date.now()).slice(-7)}`, 'slowphone2');
  const other = await phoneContext(await launch(), { serviceWorkers: 'block' });
  try {
    let answerCheck!: () => void;
    const checkHeld = new Promise<void>((resolve) => (answerCheck = resolve));
    await other.route('**/api/users/message/unread', async (route) => {
      await checkHeld;
      await route.continue();
    });
    // Whether two modal dialogs were ever open at once.
    await other.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelectorAll('[aria-modal="true"]').length > 1)
          (window as { modalsAtOnce?: boolean }).modalsAtOnce = true;
      }).observe(document, { childList: true, subtree: true, attributes: true });
    });
    const phone = watch(await other.newPage(), 'startup-message');
    await openSignedIn(phone, token, '/#/pages/Option/Option');
    await phone.getByRole('radio', { name: /^1\b/ }).first().click();
    await phone.getByLabel('Amount (USDT)').fill('10');
    await phone.getByRole('button', { name: 'Buy up' }).click();
    const confirmation = phone.getByRole('alertdialog').filter({ has: phone.getByRole('button', { name: 'Confirm' }) });
    await confirmation.waitFor();

    const dialogCode = phone.waitForResponse((response) => /\/FirstUnreadDialog-[^/]*\.js$/.test(response.url()));
    answerCheck();
    await dialogCode;
    // A frame and a task of the page's own after the dialog's code came: a dialog it would open is open by then.
    await frameAndTask(phone);
    expect(await phone.locator('[aria-modal="true"]').count()).toBe(1);

    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await confirmation.waitFor({ state: 'detached' });
    // The message opens now, over the page alone.
    await phone.locator('[aria-modal="true"]').waitFor();
    expect(await phone.evaluate(() => (window as { modalsAtOnce?: boolean }).modalsAtOnce ?? false)).toBe(false);
    await screenshot(phone, 'startup-message-after-confirmation');
  } finally {
    await other.close();
  }
}, 120_000);

it('the startup message shown with the first page, once closed, does not open again', async () => {
  // The check answered before the first page's code came: its message opens with the first page. Closing it must be
  // the end of it (the check's own wait for open dialogs once counted this one and opened it again).
  const token = await customerWithNotice(`09${String(Date.now()).slice(-8)}`, 'slowphone3');
  const other = await phoneContext(await launch(), { serviceWorkers: 'block' });
  try {
    const phone = watch(await other.newPage(), 'startup-message-once');
    let checkAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (checkAnswered = resolve));
    phone.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/users/message/unread') checkAnswered();
    });
    await other.route(/\/assets\/HomePage-[^/]*\.js$/, async (route) => {
      await answered;
      await route.continue();
    });
    await openSignedIn(phone, token, '/#/pages/index/index');
    const notice = phone.getByRole('alertdialog').filter({ hasText: 'New withdrawal address added' });
    await notice.getByRole('button', { name: 'OK' }).click();
    await notice.waitFor({ state: 'detached' });
    await phone.locator('.home-balance-amount').filter({ hasText: /\d/ }).waitFor();
    // A frame and a task of the page's own after it closed: a dialog opened again is open by then.
    await frameAndTask(phone);
    expect(await phone.locator('[aria-modal="true"]').count()).toBe(0);
  } finally {
    await other.close();
  }
}, 120_000);

it('the update checker whose code cannot come offline throws nothing', async () => {
  const phone = `09${String(Date.now()).slice(-8)}`;
  await registerUser(phone, 'slowphone3', '135790');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'slowphone3' },
  });
  const other = watch(await context.newPage(), 'update-offline');
  const errors: string[] = [];
  other.on('pageerror', (error) => errors.push(error.message));
  // Its chunk fails as it does when the phone went offline before the first screen was idle.
  const updateChunk = /\/assets\/update-[^/]*\.js$/;
  await other.route(updateChunk, (route) => route.abort('internetdisconnected'));
  const failed = other.waitForEvent('requestfailed', (request) => updateChunk.test(request.url()));
  await openSignedIn(other, data.token, '/#/pages/index/index');
  await failed;
  await frameAndTask(other);
  expect(errors).toEqual([]);
  await other.close();
});
