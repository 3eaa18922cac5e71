// The chart's tools as a customer uses them on a phone: on a coin's chart, switch the time frame,
// add MA and Bollinger bands, change a parameter, reload and find the choices kept on the device;
// on the option page, a pending option's start price is marked on the chart.
import { beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { logIn, markAllRead } from './pwa.ts';
import { demoAccountForFile } from './demo-account.ts';
import { placeInForm } from './order-form.ts';

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => (page = opened));

beforeAll(async () => {
  await markAllRead('demo', 'demo1234');
  await logIn(page, 'demo', 'demo1234');
});

/** Pixels of the canvas in one colour (#rrggbb as a number), below the indicators' names along the top. */
const pixelsOf = (chart: Locator, color: number, below = 40) =>
  chart.evaluate(
    (canvas: HTMLCanvasElement, [rgbWanted, skip]) => {
      const top = Math.round(skip! * devicePixelRatio);
      const { data } = canvas.getContext('2d')!.getImageData(0, top, canvas.width, canvas.height - top);
      let count = 0;
      for (let at = 0; at < data.length; at += 4)
        if (((data[at]! << 16) | (data[at + 1]! << 8) | data[at + 2]!) === rgbWanted) count++;
      return count;
    },
    [color, below],
  );

/** The chart choices as saved in the device's database. */
const saved = () =>
  page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const open = indexedDB.open('coinvest');
        open.onsuccess = () => {
          const request = open.result.transaction('state').objectStore('state').get('chart-settings');
          request.onsuccess = () => resolve(request.result ?? null);
          request.onerror = () => resolve(null);
        };
        open.onerror = () => resolve(null);
      }),
  );

const MA_FIRST = 0xf0b90b;
const BOLL_BAND = 0x8b5cf6;

it('switches the time frame, adds MA and Bollinger bands, changes a parameter, and keeps them after a reload', async () => {
  await page.goto('/#/pages/coinList/detail?code=BTC');
  const chart = page.locator('.kline-chart canvas').first();
  await chart.waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: '15m', exact: true }).click();
  await expect
    .poll(() => page.getByRole('button', { name: '15m', exact: true }).getAttribute('aria-pressed'))
    .toBe('true');
  await page.getByRole('button', { name: '1m', exact: true }).click();
  await page.getByRole('button', { name: 'MA', exact: true }).click();
  await page.getByRole('button', { name: 'BOLL', exact: true }).click();
  // The test server's history is a few minutes long: short periods, so the lines have values.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('MA period 1', { exact: true }).fill('2');
  await page.getByLabel('Bollinger period', { exact: true }).fill('2');
  await expect.poll(() => pixelsOf(chart, MA_FIRST), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(() => pixelsOf(chart, BOLL_BAND), { timeout: 30_000 }).toBeGreaterThan(0);
  await screenshot(page, 'chart-indicators-0');
  await page.getByRole('button', { name: '5m', exact: true }).click();
  await screenshot(page, 'chart-indicators-1');
  await expect.poll(saved).toMatchObject({
    frame: '5m',
    indicators: { ma: { on: true, periods: [2, 25] }, boll: { on: true, period: 2 } },
  });

  await page.reload();
  await chart.waitFor({ timeout: 15_000 });
  await expect
    .poll(() => page.getByRole('button', { name: '5m', exact: true }).getAttribute('aria-pressed'))
    .toBe('true');
  expect(await page.getByRole('button', { name: 'MA', exact: true }).getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByRole('button', { name: 'BOLL', exact: true }).getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByRole('button', { name: 'EMA', exact: true }).getAttribute('aria-pressed')).toBe('false');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  expect(await page.getByLabel('MA period 1', { exact: true }).inputValue()).toBe('2');
  await page.getByRole('button', { name: '1m', exact: true }).click();
  await expect.poll(() => pixelsOf(chart, BOLL_BAND), { timeout: 30_000 }).toBeGreaterThan(0);
  await screenshot(page, 'chart-indicators-2');
});

it("marks a pending option's start price on the option chart", async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  const chart = page.locator('.kline-chart canvas').first();
  await chart.waitFor({ timeout: 15_000 });
  // The longest expiry, so the option stays pending while the chart is looked at.
  await page.getByRole('radiogroup', { name: 'Expiry and yield' }).getByRole('radio').last().click();
  await page.getByLabel('Amount (USDT)').fill('10');
  await placeInForm(page, () => page.getByRole('button', { name: 'Buy up' }).click(), {
    toast: 'Successful transaction!',
  });
  const offer = page.getByRole('alertdialog').getByRole('button', { name: 'Not now' });
  await offer.click({ timeout: 5_000 }).catch(() => undefined);
  await expect.poll(() => chart.getAttribute('data-marker'), { timeout: 20_000 }).toMatch(/^\d/);
  await expect.poll(() => pixelsOf(chart, 0x2563eb, 0)).toBeGreaterThan(0);
  await chart.evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'chart-option-marker');
});
