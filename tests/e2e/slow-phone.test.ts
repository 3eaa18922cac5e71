// A phone on a slow, flaky connection, tried as a new user would: 400 ms of latency and about 50 KB/s each way through
// the DevTools protocol, and the connection dropped and back. The service worker is blocked, so each page's code comes
// from the network as on a first visit before the worker has kept it.
import type { CDPSession, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { phoneContext, launch, watchPagesOnFailure } from './browser.ts';
import { callApi, registerUser } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

const SLOW = { offline: false, latency: 400, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };
const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

const watch = watchPagesOnFailure();
let page: Page;
let network: CDPSession;

beforeAll(async () => {
  const phone = `065${String(Date.now()).slice(-7)}`;
  await registerUser(phone, 'slowphone1', '135790');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'slowphone1' },
  });
  await callApi('/users/message/reader', { token: data.token, form: { ids: 'all' } });
  const context = await phoneContext(await launch(), { serviceWorkers: 'block' });
  page = watch(await context.newPage());
  network = await context.newCDPSession(page);
  await network.send('Network.enable');
  await network.send('Network.emulateNetworkConditions', SLOW);
  await openSignedIn(page, data.token, '/#/pages/index/index');
  await page.locator('.home-balance-amount').filter({ hasText: /\d/ }).waitFor();
});

const tab = (name: string) => page.locator('.tabbar').getByRole('link', { name });
const loadFailed = () => page.getByRole('alert').filter({ hasText: 'The page failed to load' });

it('a tab that failed to load offline shows its page when opened again once back online', async () => {
  await network.send('Network.emulateNetworkConditions', OFFLINE);
  await tab('Mine').click();
  await loadFailed().waitFor();

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
