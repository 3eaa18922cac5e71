// A tab whose page code is not on the phone yet, opened offline, at 390×844: it says the page failed to load, and
// when the network comes back it shows the page by itself, in place: no reload, so an amount typed on another page is
// still there. The service worker is blocked here, as in a browser whose worker has not kept the app's files yet (a
// first visit) or that has none: the page's code can only come from the network.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, phoneContext, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { goOffline, goOnline, logIn } from './pwa.ts';
import { texts } from '../../src/api-contract/texts.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launch();
  context = await phoneContext(browser, { serviceWorkers: 'block' });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'chunks123';

it('a tab whose code failed to load offline loads by itself back online, keeping what was typed elsewhere', async () => {
  await fundedUser(phone, password, '135791', '100');
  await logIn(page, phone, password);
  // An amount typed on the liquidity page: kept in the app's memory only.
  await page.goto('/#/pages/Liquidity/buy');
  const amount = page.getByRole('textbox').first();
  await amount.fill('123');
  let loads = 0;
  page.on('load', () => (loads += 1));

  await goOffline(context);
  // To the Markets tab (the liquidity page has no tab bar: by its address, as a link in the app goes).
  await page.evaluate(() => (location.hash = '#/pages/coinList/index'));
  await page.getByText(texts.pageLoadFailed.message).waitFor();
  await screenshot(page, 'page-code-offline');

  // Back online: the page shows by itself, nobody taps.
  await goOnline(context);
  await page.locator('.market-row', { hasText: 'BTC' }).waitFor();
  expect(await page.getByText(texts.pageLoadFailed.message).count()).toBe(0);
  await screenshot(page, 'page-code-back-online');

  // In place: no reload, and the amount typed before is still there.
  await page.evaluate(() => (location.hash = '#/pages/Liquidity/buy'));
  await expect.poll(() => amount.inputValue()).toBe('123');
  expect(loads).toBe(0);
});
