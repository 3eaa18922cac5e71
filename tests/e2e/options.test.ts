// The trading core as a person would use it: log in as the demo user, watch the price move on
// Markets, open a chart, buy a 1-minute option, watch its countdown, see it settle (the test
// server's clock runs 20× faster) and the balance change by exactly the settled amount.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { logIn, markAllRead } from './pwa.ts';
import { demoAccountForFile } from './demo-account.ts';
import { placeInForm } from './order-form.ts';

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => (page = opened));

/** "10,008.00" → 10008 (cents are enough for these checks). */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

// Signed in as the demo user, with no startup message (the first unread one) over the pages under test.
beforeAll(async () => {
  await markAllRead('demo', 'demo1234');
  await logIn(page, 'demo', 'demo1234');
});

it('shows live, simulated prices on Markets', async () => {
  // The tab: Home's shortcuts have a Markets link too.
  await page.locator('.tabbar').getByRole('link', { name: 'Markets' }).click();
  await page.waitForURL(/coinList\/index/);
  const btc = page.locator('.market-row', { hasText: 'BTC' }).locator('.market-price');
  await btc.waitFor();
  expect(await page.locator('.simulated-badge').count()).toBeGreaterThan(0);
  const first = await btc.textContent();
  await expect.poll(() => btc.textContent(), { timeout: 15_000 }).not.toBe(first);
  await screenshot(page, '10-markets');
});

/** Pixels of the chart's canvas in the candles' colours and in the crosshair's dark boxes. */
const chartPixels = (chart: ReturnType<Page['locator']>) =>
  chart.evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const counts = { up: 0, down: 0, crosshair: 0 };
    for (let at = 0; at < data.length; at += 4) {
      const rgb = (data[at]! << 16) | (data[at + 1]! << 8) | data[at + 2]!;
      if (rgb === 0x12a150) counts.up++;
      else if (rgb === 0xe5484d) counts.down++;
      else if (rgb === 0x14181f) counts.crosshair++;
    }
    return counts;
  });

it('opens a coin chart: candles drawn, a drag shows older ones, pointing picks one', async () => {
  await page.locator('.market-row', { hasText: 'ETH' }).click();
  await page.waitForURL(/coinList\/detail\?code=ETH/);
  const chart = page.locator('.kline-chart canvas').first();
  await chart.waitFor({ timeout: 15_000 });
  await expect
    .poll(async () => (await chartPixels(chart)).up + (await chartPixels(chart)).down, { timeout: 15_000 })
    .toBeGreaterThan(0);
  // Vertical drags on the chart scroll the page; the chart takes horizontal ones.
  expect(await chart.evaluate((canvas) => getComputedStyle(canvas).touchAction)).toBe('pan-y');
  await screenshot(page, '11-chart');

  const shown = async () => (await chart.getAttribute('data-shown'))!.split('-').map(Number) as [number, number];
  // The test server's history starts with it; its clock gives a new candle every 3 s.
  await expect.poll(async () => (await shown())[1], { timeout: 30_000 }).toBeGreaterThan(2);
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
  await expect.poll(async () => (await chartPixels(chart)).crosshair).toBeGreaterThan(0);
  const [, newest] = await shown();
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5 + 60, box.y + box.height * 0.4, { steps: 6 });
  await page.mouse.up();
  // 60 px at 6 px a candle: the newest in view ten candles back, or as far back as there are. Once
  // dragged, a candle arriving keeps the same ones in view; one may arrive between reading the
  // newest and the press (a candle every 3 s here), while the view still follows the latest.
  await expect.poll(async () => (await shown())[1]).toBeLessThanOrEqual(Math.max(2, newest + 1 - 10));
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height + 40);
  await expect.poll(async () => (await chartPixels(chart)).crosshair).toBe(0);
});

it('buys a 1-minute option, counts down, settles, and moves the balance by the settled amount', async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  const available = page.locator('.opt-amount-notes .opt-num').first();
  await expect.poll(async () => amountOf(await available.textContent())).toBeGreaterThan(10);
  const before = amountOf(await available.textContent());

  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('0.5');
  await page.getByRole('button', { name: 'Buy up' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The minimum purchase amount is: 1 USDT!');

  await page.getByLabel('Amount (USDT)').fill('10');
  await placeInForm(
    page,
    async () => {
      await page.getByRole('button', { name: 'Buy up' }).click();
      await page.getByRole('alertdialog').waitFor();
      await screenshot(page, '12-option-confirm');
    },
    { toast: 'Successful transaction!' },
  );
  // The first order on this device offers notifications: not now, as a customer may answer.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
  await expect.poll(async () => amountOf(await available.textContent())).toBeCloseTo(before - 10, 2);
  await page.locator('.opt-order [role="timer"]').first().waitFor();
  await screenshot(page, '13-option-pending');

  // One simulated minute is three real seconds here; settlement follows the next tick.
  await page.getByRole('button', { name: /Purchase record/ }).click();
  const settled = page.locator('.opt-order', { has: page.locator('.opt-profit') }).first();
  await settled.waitFor({ timeout: 30_000 });
  const profit = amountOf(await settled.locator('.opt-profit').textContent());
  expect([8, 0, -10]).toContain(profit); // win pays 10 × 1.8, a tie returns 10, a loss keeps 0
  await expect.poll(async () => amountOf(await available.textContent())).toBeCloseTo(before + profit, 2);
  await screenshot(page, '14-option-settled');

  await settled.click();
  await page.waitForURL(/orderRecord\?id=\d+/);
  await expect.poll(() => page.getByText(/Settled at the recorded price of/).count()).toBe(1);
  await screenshot(page, '15-option-record');
});

it('shows a new option as "Opening…" until the first price recorded after it, then that price and when it was recorded', async () => {
  await page.goto('/#/pages/Option/Option?code=ETH');
  await page.getByRole('button', { name: /Pending orders/ }).click();
  // The answers about single orders wait at a gate, so the screen is seen before the start price reaches it.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await page.route(/\/api\/coin\/order\/info/, async (route) => {
    await gate;
    await route.continue().catch(() => undefined);
  });
  try {
    // A 15-minute option: 45 s of real time on the run's 20× clock. A 1-minute one (3 s) could open and settle while
    // the gate below held its answers on a busy machine, and then never show its countdown in the pending list.
    await page.getByRole('radio', { name: /^15\b/ }).first().click();
    await page.getByLabel('Amount (USDT)').fill('5');
    await placeInForm(page, () => page.getByRole('button', { name: 'Buy short' }).click(), {
      toast: 'Successful transaction!',
    });
    const card = page.locator('.opt-order').first();
    await expect.poll(() => card.getByRole('status').first().textContent()).toBe('Opening…');
    await expect.poll(() => card.locator('[role="timer"]').count()).toBe(0);
    await screenshot(page, '16-option-opening');
  } finally {
    open();
    await page.unroute(/\/api\/coin\/order\/info/);
  }
  // The next tick gives the start price; the countdown starts from its time.
  const card = page.locator('.opt-order').first();
  await card.locator('[role="timer"]').waitFor();
  expect(await card.getByRole('status').count()).toBe(0);
  const startPrice = card
    .locator('.opt-order-grid > div', { has: page.getByText('Start price', { exact: true }) })
    .locator('.opt-num');
  expect(amountOf(await startPrice.textContent())).toBeGreaterThan(0);

  // On the order's own page and across its reload: the start price with the time it was recorded, after the order.
  const link = await card.getAttribute('href');
  expect(link).toMatch(/orderRecord\?id=\d+/);
  await page.goto(`/${link}`);
  await page.reload();
  await expect.poll(() => page.getByText(/^Recorded at /).count()).toBe(1);
  await screenshot(page, '17-option-opened');
});
