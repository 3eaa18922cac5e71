// A settled option's ticks as a customer reads them on a phone: an option bought and settled (the test
// server's clock runs 20× faster), its details show the recorded ticks around its start and its end on
// a small chart and in a list, the deciding tick of each marked and equal to the order's start and end
// price; and again offline, from what was kept.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, controlledByServiceWorker, goOffline, goOnline, logIn } from './pwa.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import { optionSettledOnPage } from './order-form.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'ticks123';
/** "97,190.10" → 97190.1. */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

/** The deciding rows of both windows, and each window's count of ticks and whether its chart has pixels drawn. */
const shown = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.ticks-card [data-window]')].map((window) => {
      const canvas = window.querySelector('canvas');
      const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      return {
        window: window.dataset.window,
        ticks: window.querySelectorAll('li').length,
        deciding: [...window.querySelectorAll('li[data-deciding]')].map(
          (row) => row.querySelector('strong')?.textContent,
        ),
        drawn: [...pixels].some((value, at) => at % 4 === 3 && value > 0),
      };
    }),
  );

it('shows a settled option the ticks around its start and end, the deciding ones marked, online and offline', async () => {
  const token = await fundedUser(phone, password, '135791', '100');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);

  const products = await callApi<{ lists: { id: number; minutes: number }[] }>('/coin/option/products', {
    method: 'GET',
    form: { code: 'BTC' },
  });
  const product = products.data.lists.find((p) => p.minutes === 1)!;
  // The details page asks for the order again once it is due; one simulated minute is three real seconds.
  const placed = await optionSettledOnPage<OptionOrder>(page, {
    token,
    form: { code: 'BTC', direction: 'up', product_id: String(product.id), amount: '10' },
  });
  const card = page.locator('.ticks-card');
  await card.waitFor();
  await expect.poll(async () => (await shown()).map(({ deciding }) => deciding.length)).toEqual([1, 1]);

  const order = (
    await callApi<OptionOrder>('/coin/order/info', { method: 'GET', token, form: { id: String(placed.id) } })
  ).data;
  const windows = await shown();
  expect(windows.map(({ window }) => window)).toEqual(['start', 'end']);
  // The marked ticks are the order's start and end prices, with ticks either side of them.
  expect(amountOf(windows[0]!.deciding[0]!)).toBe(Number(order.start_price));
  expect(amountOf(windows[1]!.deciding[0]!)).toBe(Number(order.end_price));
  for (const window of windows) {
    expect(window.ticks).toBeGreaterThan(1);
    expect(window.drawn).toBe(true);
  }
  await expect.poll(() => card.getByText('Deciding tick').count()).toBe(2);
  await card
    .locator('h3')
    .first()
    .evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'ticks-online');
  await card.locator('[data-window="end"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'ticks-online-end');

  // Offline: away and back in the app, the details are still on the device and the ticks come from what was kept.
  await goOffline(page.context());
  try {
    await page.evaluate((route) => (location.hash = `#${route}`), ROUTES.option);
    await page.waitForURL(/Option\/Option/);
    await page.goBack();
    await page.waitForURL(/orderRecord\?id=/);
    await expect
      .poll(async () => (await shown()).map(({ deciding }) => deciding))
      .toEqual(windows.map((w) => w.deciding));
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'ticks-offline');
  } finally {
    await goOnline(page.context());
  }
});
