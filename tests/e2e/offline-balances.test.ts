// The available balance offline, as a customer reopening the app without a network meets it: Home and Options show the
// last figure the device kept, marked "Offline — as of" the time it was read, as Contracts and Mine do; never a dash
// while a figure was kept, and never as if it were current. No toast nags about a read that failed meanwhile, not
// even once the device lost its kept answers while the figure is on screen: Options' orders, which the device does not
// keep, say where the list would be that they need a connection.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PARTITION_PREFIX } from '../../src/api-contract/offline-cache.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { texts } from '../../src/api-contract/texts.ts';
import {
  firstScreenSettled,
  phonePageForFile,
  recordToasts,
  screenshot,
  toastsShown,
  watchRequests,
} from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { controlledByServiceWorker } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `064${String(Date.now()).slice(-7)}`;
const OFFLINE_NOTE = /^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/;

/** Each screen's available USDT and where it is shown. */
const SCREENS = [
  { name: 'home', route: ROUTES.home, figure: '.home-balance-amount' },
  { name: 'options', route: ROUTES.option, figure: '.opt-amount-notes .muted' },
] as const;

/** Opens `route` with a reload, as a customer reopening the app, and waits until its first screen has settled. */
async function open(route: string): Promise<void> {
  await page.goto(`/#${route}`);
  const requests = watchRequests(page);
  await page.reload();
  await firstScreenSettled(page, requests).finally(() => requests.stop());
}

it('offline, Home and Options show the available balance kept on the device, marked "Offline — as of"', async () => {
  const token = await fundedUser(phone, 'offbal123', '135790', '1000');
  await recordToasts(page);
  await openSignedIn(page, token, `/#${ROUTES.home}`);
  await controlledByServiceWorker(page);
  // Online: the server's figure, unmarked.
  for (const screen of SCREENS) {
    await open(screen.route);
    await expect.poll(() => page.locator(screen.figure).textContent()).toContain('1,000.00');
    expect(await page.locator('.offline-note').count(), screen.name).toBe(0);
  }
  await page.context().setOffline(true);
  try {
    for (const screen of SCREENS) {
      await open(screen.route);
      // The kept figure, not a dash, and the marker saying since when.
      await expect.poll(() => page.locator(screen.figure).textContent(), { timeout: 10_000 }).toContain('1,000.00');
      await expect.poll(() => page.locator('.offline-note').first().textContent()).toMatch(OFFLINE_NOTE);
      await screenshot(page, `offline-balance-${screen.name}`);
      expect(await toastsShown(page), screen.name).toEqual([]);
    }
    // Options' pending orders, not kept on the device, say in their place why they are not shown.
    const orders = page.locator('#option-orders .empty');
    await expect.poll(() => orders.textContent()).toBe(`${texts.offline.message}Try again`);
    await orders.scrollIntoViewIfNeeded();
    await screenshot(page, 'offline-balance-options-orders');

    // The device's kept answers gone (the browser cleared its storage) while the kept figure is on screen: the reads
    // of Home and Options, back to each in the app, fail and say nothing over the figure, as Mine does.
    await page.evaluate(async (prefix) => {
      for (const name of await caches.keys()) if (name.startsWith(prefix)) await caches.delete(name);
    }, PARTITION_PREFIX);
    for (const screen of [...SCREENS, SCREENS[1]]) {
      const requests = watchRequests(page);
      await page.evaluate((hash) => (location.hash = hash), `#${screen.route}`);
      await expect.poll(() => page.locator(screen.figure).textContent()).toContain('1,000.00');
      await requests.settled().finally(() => requests.stop());
      await expect.poll(() => page.locator('.offline-note').first().textContent()).toMatch(OFFLINE_NOTE);
      expect(await toastsShown(page), `${screen.name}, its read failed`).toEqual([]);
    }
  } finally {
    await page.context().setOffline(false);
  }
  // Back online the server's figure comes, and the marker goes.
  await open(ROUTES.home);
  await expect.poll(() => page.locator('.offline-note').count(), { timeout: 20_000 }).toBe(0);
  // Nothing kept any more (cleared above): the figure is the network's, which may come a frame after its answer.
  await expect.poll(() => page.locator('.home-balance-amount').textContent()).toContain('1,000.00');
});
