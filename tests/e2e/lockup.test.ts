// Lock-up mining as a person would use it, on a server whose interest day lasts ~12 s: a visitor
// opens the Mining tab and a product, tries the calculator, taps Subscribe, logs in and comes back to
// the product; subscribes 1,000 USDT after the confirmation; the record shows the order processing,
// then its income paid day by day into USDT, then the order ended with the principal back. The
// operator's `lockup 1 days=2` (set first) makes the product's period two days.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { startEarnServer, type EarnServer } from './earn-server.ts';
import { markAllRead } from './pwa.ts';

// This server's clock runs 7,200× fast (its day-end, settlement and figure jobs every 50 ms, a market step every
// 500 ms) and keeps it busy: on a loaded two-core machine a page can take half a minute to open, so every wait here
// is generous.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(90_000);
  page.setDefaultNavigationTimeout(120_000);
});

let server: EarnServer;
/** The operator command; on a loaded machine the busy server may miss the socket's deadline once: try again. */
async function operator(...args: string[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await server.operator(...args);
    } catch (error) {
      if (attempt === 3)
        throw new Error(
          `ops ${args.join(' ')} failed: ${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`,
          { cause: error },
        );
    }
  }
}
beforeAll(async () => {
  server = await startEarnServer();
  expect(await operator('lockup', '1', 'days=2')).toMatch(/^Lock-up 1 \(Lock-up 7 days, 2 days\)/);
  // No startup message (the first unread one) over the pages under test.
  await markAllRead('demo', 'demo1234', server.baseUrl);
});
afterAll(() => server?.stop());

const open = (route: string) => page.goto(`${server.baseUrl}/#${route}`);
/** Polls until the expectation holds, for as long as this busy server may take to answer. */
const poll = <T>(read: () => Promise<T> | T, timeout = 90_000) => expect.poll(read, { timeout, interval: 250 });
const toast = () => page.getByRole('alert').textContent();
/** The amount in the row labelled `label` of a details card (dl.detail-rows) on screen. */
const row = (label: string | RegExp, scope = page.locator('.page-body')) =>
  scope
    .locator('.detail-rows > div', { has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .first();
const amountIn = (label: string | RegExp) => row(label).locator('.money-amount').textContent();
const available = () => page.locator('.lockup-available .lockup-num').textContent();
const firstOrder = () => page.locator('.lockup-order').first();
/** Checks that the elements of `amounts` show `texts` in that order read from the right, each whole on one line. */
async function rightToLeft(amounts: Locator, texts: string[]): Promise<void> {
  expect(await amounts.allTextContents()).toEqual(texts);
  const boxes = await Promise.all((await amounts.all()).map((amount) => amount.boundingBox()));
  for (let index = 1; index < boxes.length; index++)
    expect(boxes[index]!.x + boxes[index]!.width).toBeLessThanOrEqual(boxes[index - 1]!.x);
}
/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

it('a visitor sees the Mining tab: the products, a login prompt, and the way to liquidity mining', async () => {
  await open('/pages/Lock-up/Lock-up');
  const products = page.locator('.lockup-product');
  await poll(() => products.count()).toBe(4);
  const week = products.filter({ hasText: 'Lock-up 7 days' });
  expect(await week.locator('.lockup-tag').textContent()).toBe('2 days');
  expect(await week.locator('.lockup-rate').textContent()).toBe('0.08%');
  expect(await week.locator('.lockup-rate-side .lockup-num').textContent()).toBe('29.2%');
  expect(await week.locator('.lockup-product-foot').textContent()).toContain('100.00 – 50,000.00 USDT');
  // A product with a quota says what is left of it; one without does not.
  expect(await products.filter({ hasText: 'Lock-up 30 days' }).locator('.lockup-product-foot').textContent()).toContain(
    'Remaining 5,000,000.00 USDT',
  );
  expect(await week.locator('.lockup-product-foot').textContent()).not.toContain('Remaining');
  await page.getByText('Log in to subscribe to a product and follow your locked principal and income.').waitFor();
  expect(await page.getByRole('link', { name: /Flexible: Liquidity mining/ }).getAttribute('href')).toBe(
    '#/pages/Liquidity/Liquidity',
  );
  expect(await page.locator('.tabbar a[aria-current="page"]').textContent()).toBe('Mining');
  await shot('lockup-01-mining-visitor');
});

it('opens a product without a login: its terms and the calculator', async () => {
  await page.locator('.lockup-product', { hasText: 'Lock-up 7 days' }).click();
  await page.waitForURL(/#\/pages\/Lock-up\/productDetails\/productDetails\?id=1$/);
  await poll(() => page.locator('.navbar h1').textContent()).toBe('Lock-up 7 days');
  expect(await row('Period').textContent()).toBe('2 days');
  expect(await row('Early redemption').textContent()).toBe('Not possible');
  await page.getByText(/^No early redemption/).waitFor();

  await page.getByLabel('Amount (USDT)').fill('1234.56');
  await poll(() => amountIn('Income per day')).toBe('0.987648 USDT');
  expect(await amountIn(/^Total income/)).toBe('1.975296 USDT');
  expect(await amountIn('Principal + income')).toBe('1,236.535296 USDT');
  // The first income day is the day after the server's today (this server's days fly by, so both
  // dates are read at once); the principal comes back at the end of the second.
  const dates = () =>
    Promise.all([row('First income day').textContent(), row('End date (principal back)').textContent()]);
  await poll(async () => {
    const [first, end] = await dates();
    return Date.parse(end!) - Date.parse(first!);
  }).toBe(86_400_000);
  await shot('lockup-02-details-visitor');
});

it('Subscribe takes a visitor to log in, and back to the product', async () => {
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.waitForURL(/#\/pages\/login\/login\?from=/);
  expect(decodeURIComponent(page.url())).toContain('from=/pages/Lock-up/productDetails/productDetails?id=1');
  await page.getByLabel('Username, mobile number or e-mail').fill('demo');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/#\/pages\/Lock-up\/productDetails\/productDetails\?id=1$/);
  await poll(available).toBe('10,000.00 USDT');
});

it('checks the amount on the device, then subscribes 1,000 USDT after a confirmation', async () => {
  const amount = page.getByLabel('Amount (USDT)');
  await amount.fill('99.5');
  // The calculator says why, and no income for an order that cannot be placed.
  const refusal = () => page.locator('.lockup-calculator .lockup-problem').textContent();
  await poll(refusal).toBe('The minimum amount is: 100 USDT!');
  expect(await row('Income per day').textContent()).toBe('—');
  await page.locator('.lockup-calculator').scrollIntoViewIfNeeded();
  await shot('lockup-02b-details-refused');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await poll(toast).toBe('The minimum amount is: 100 USDT!');
  await page.getByRole('button', { name: 'All' }).click();
  expect(await amount.inputValue()).toBe('10000');
  await amount.fill('10000.01');
  await poll(refusal).toBe('Insufficient balance!');
  expect(await row('Income per day').textContent()).toBe('—');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await poll(toast).toBe('Insufficient balance!');

  await amount.fill('1000');
  await poll(() => amountIn('Income per day')).toBe('0.80 USDT');
  expect(await amountIn(/^Total income/)).toBe('1.60 USDT');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  expect(await row('Amount', dialog).textContent()).toBe('1,000.00 USDT');
  expect(await row('Period', dialog).textContent()).toBe('2 days');
  expect(await row(/^Total income/, dialog).textContent()).toBe('1.60 USDT');
  await shot('lockup-03-confirm');
  await dialog.getByRole('button', { name: 'Subscribe' }).click();

  await page.waitForURL(/#\/pages\/Lock-up\/record\/record$/);
  await poll(toast).toBe('Successful transaction!');
  await poll(() => firstOrder().locator('.status-badge').textContent()).toBe('Processing');
  expect(await firstOrder().locator('.lockup-amount .money-amount').textContent()).toBe('1,000.00 USDT');
  expect(await firstOrder().locator('.lockup-daily .money-amount').textContent()).toBe('0.80 USDT');
  expect(await firstOrder().locator('.lockup-earned .money-amount').textContent()).toBe('0.00 USDT');
  await shot('lockup-04-record-processing');

  await open('/pages/Lock-up/Lock-up');
  await poll(() => page.locator('.lockup-summary-amount').textContent()).toBe('1,000.00');
  expect(await page.locator('.lockup-summary-grid dd').allTextContents()).toEqual(['0.00', '1']);
  await shot('lockup-05-mining-signed-in');
  await open('/pages/Lock-up/productDetails/productDetails?id=1');
  await poll(available).toBe('9,000.00 USDT');
});

it('income is paid each interest day into USDT; at the end the order ends with the principal back', async () => {
  await open('/pages/Lock-up/record/record');
  const earned = () => firstOrder().locator('.lockup-earned .money-amount').textContent();
  // Days pass every ~12 s: the first income comes at the end of the first day after subscribing.
  await expect
    .poll(async () => (await page.reload(), await firstOrder().waitFor(), earned()), {
      timeout: 180_000,
      interval: 2_000,
    })
    .not.toBe('0.00 USDT');
  const midway = await firstOrder().locator('.status-badge').textContent();
  if (midway === 'Processing') {
    expect(await earned()).toBe('0.80 USDT');
    await shot('lockup-06-record-earning');
  }

  await expect
    .poll(
      async () => (
        await page.reload(),
        await firstOrder().waitFor(),
        firstOrder().locator('.status-badge').textContent()
      ),
      { timeout: 180_000, interval: 2_000 },
    )
    .toBe('Ended');
  expect(await earned()).toBe('1.60 USDT');
  expect(await firstOrder().textContent()).toContain('Principal returned');
  await page.getByRole('button', { name: 'Processing' }).click();
  await page.getByText('No lock-up orders yet').waitFor();
  await page.getByRole('button', { name: 'Ended' }).click();
  await firstOrder().waitFor();
  await shot('lockup-07-record-ended');

  // 10,000 − 1,000 + 0.80 + 0.80 + 1,000: the principal and both days' income are available again.
  await open('/pages/Lock-up/productDetails/productDetails?id=1');
  await poll(available).toBe('10,001.60 USDT');
  await open('/pages/Lock-up/Lock-up');
  await poll(() => page.locator('.lockup-summary-amount').textContent()).toBe('0.00');
  expect(await page.locator('.lockup-summary-grid dd').allTextContents()).toEqual(['1.60', '0']);
});

it('reads right to left in Arabic', async () => {
  await open('/pages/mine/mine');
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await open('/pages/Lock-up/Lock-up');
  await poll(() => page.locator('.lockup-product').count()).toBe(4);
  await shot('lockup-08-mining-arabic');
  // The card's range reads from its minimum on the right: each amount left to right, the range right to left.
  const week = page.locator('.lockup-product').first();
  expect(await week.locator('.lockup-limits').textContent()).toBe('100.00 – 50,000.00 USDT');
  await rightToLeft(week.locator('.lockup-limits .amount-range-num'), ['100.00', '50,000.00']);
  await week.click();
  await page.locator('input[name="amount"]').fill('1000');
  await page.locator('.lockup-calculator .money-amount').first().waitFor();
  await poll(available).toMatch(/USDT$/);
  await shot('lockup-09-details-arabic');
  await rightToLeft(row('لكل اشتراك').locator('.amount-range-num'), ['100.00', '50,000.00']);
  // An amount below the minimum: the refusal in Arabic in place of the income.
  await page.locator('input[name="amount"]').fill('50');
  await poll(() => page.locator('.lockup-calculator .lockup-problem').textContent()).toMatch(/100 USDT/);
  await page.locator('.lockup-calculator').scrollIntoViewIfNeeded();
  await shot('lockup-09b-details-refused-arabic');
  await open('/pages/Lock-up/record/record');
  await firstOrder().waitFor();
  await shot('lockup-10-record-arabic');
});
