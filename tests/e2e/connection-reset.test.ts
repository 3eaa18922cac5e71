// Dropped connections while the phone keeps its network (navigator.onLine stays true), at 390×844: the connection is
// reset under every attempt of a list's read, so the read fails and the app takes the network for gone. Then the
// connection holds, and the network answers (the price stream's next step): the app must say online again at once,
// not keep refusing an order with "You are offline", and the failed list is read again by itself, with no tap on
// "Try again".
import { expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { controlledByServiceWorker, logIn } from './pwa.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { MAX_ATTEMPTS } from '../../src/api-contract/constants.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'resets123';
/** Requests whose connection is reset before the rest go through: every attempt of one call. */
const RESETS = MAX_ATTEMPTS;

it('reset connections leave the app saying it is offline only until the network answers again', async () => {
  await fundedUser(phone, password, '135791', '100');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  await page.goto('/#/pages/Option/Option?code=ETH');
  const price = page.locator('.opt-quote .opt-price');
  await page.getByRole('button', { name: /Pending orders/ }).waitFor();

  // The failure is seen when it is shown: the price stream's next step (or heartbeat) may end it a moment later, since
  // the failed list is then read again by itself, so a later look could miss it.
  await page.evaluate(() => {
    const seen = () =>
      [...document.querySelectorAll('button')].some((button) => button.textContent?.trim() === 'Try again');
    new MutationObserver((_, observer) => {
      if (!seen()) return;
      document.body.dataset.failureShown = 'yes';
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  // The next RESETS requests of the record list's read have their connection reset (as many as one call's attempts;
  // the call stops sooner once the app takes the network for gone). Other calls, the price stream among them, go
  // through: a reset of theirs would leave the list's read to succeed and nothing to see.
  let resets = 0;
  const reset = async (route: Route) => {
    if (new URL(route.request().url()).searchParams.get('status') !== 'history' || resets >= RESETS)
      return route.fallback();
    resets += 1;
    await route.abort('connectionreset');
  };
  const orderLists = (url: URL) => url.pathname === '/api/coin/order/lists';
  await page.context().route(orderLists, reset);
  await page.getByRole('button', { name: /Purchase record/ }).click();
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  // The read has failed in the list's place, with a way to try again.
  await expect.poll(() => page.evaluate(() => document.body.dataset.failureShown)).toBe('yes');
  expect(resets).toBeGreaterThan(0);

  // The network answers: the price stream's next step arrives.
  const shown = await price.textContent();
  await expect.poll(() => price.textContent()).not.toBe(shown);
  await page.getByText('No purchase records yet').waitFor({ timeout: 15_000 });
  expect(await page.getByText(texts.offline.message).count()).toBe(0);
  await screenshot(page, 'connection-reset-list');

  // An order is not refused as offline: its confirmation opens.
  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('5');
  await page.getByRole('button', { name: 'Buy up' }).click();
  const confirmation = page.getByRole('alertdialog');
  await confirmation.getByRole('button', { name: 'Confirm' }).waitFor();
  expect(await page.getByText(texts.offline.message).count()).toBe(0);
  await screenshot(page, 'connection-reset-order');
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await page.context().unroute(orderLists, reset);
});
