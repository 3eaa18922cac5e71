// The console's House page in Chromium: an admin (made with the operator command) sees what a win of a
// customer's open options would pay against the exposure cap and the house's result per product,
// lowers the per-order cap from the page, and the customer's next order beyond it is refused with
// the customer's text. Its own server at real speed: the authenticator follows real time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { enrolOperator, firstSignIn, opsOn } from './console-kit.ts';
import { callApi } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { seededDataDir } from './own-server.ts';

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };
const NEW_PASSWORD = 'a long console passphrase';

const work = mkdtempSync(join(tmpdir(), 'coinvest-house-'));
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: inject('webRoot'), LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000' },
    }),
    launch(),
  ]);
  context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', baseURL: server.base });
  page = await context.newPage();
});

afterEach(async ({ task }) => {
  if (page && task.result?.errors?.length)
    await screenshot(page, `house-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

let customerToken = '';
/** A customer's option order through the app's call; resolves with the answer. */
async function buy(code: string, direction: 'up' | 'down', amount: string, minutes: number) {
  const products = await callApi<{ lists: { id: number; minutes: number }[] }>('/coin/option/products', {
    base: server.base,
    method: 'GET',
    form: { code },
  });
  const product = products.data.lists.find((row) => row.minutes === minutes)!;
  return callApi<{ id: number }>('/coin/order/add', {
    base: server.base,
    token: customerToken,
    form: { code, direction, amount, product_id: String(product.id) },
  });
}

it('shows an admin the open exposure and the result per product, and a cap lowered there refuses the next order beyond it', async () => {
  const admin = await enrolOperator(opsOn({ dataDir: join(work, 'data') }), 'adam', 'admin');
  customerToken = (
    await callApi<{ token: string }>('/users/login', {
      base: server.base,
      form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
    })
  ).data.token;
  for (const [code, direction, amount, minutes] of [
    ['BTC', 'up', '100', 1],
    ['BTC', 'down', '40', 5],
    ['ETH', 'up', '25', 15],
  ] as const)
    expect(await buy(code, direction, amount, minutes), `${code} ${direction}`).toMatchObject({ ret: 1 });

  // The first sign-in, then the admin's own password, as the console insists.
  await firstSignIn(page, admin, NEW_PASSWORD, 'House');
  await page.getByRole('navigation').getByRole('link', { name: 'House' }).click();

  await page.getByRole('heading', { name: 'House', exact: true }).waitFor();
  expect(await page.getByLabel('Stake per order').inputValue()).toBe('50000');
  // A win of the BTC up order pays 100 × 1.80; the cap is 1,000,000.
  const exposure = page.getByTestId('house-exposure');
  const btcUp = await exposure.getByRole('row', { name: /^BTC Up/ }).textContent();
  expect([btcUp, await exposure.getByRole('row', { name: /^ETH Up/ }).textContent()]).toEqual([
    expect.stringContaining('180.00'),
    expect.stringContaining('47.00'),
  ]);
  expect(btcUp).toContain('1,000,000');
  const result = page.getByTestId('house-result');
  expect(await result.getByRole('row', { name: /^BTC 1 min/ }).textContent()).toContain('100.00');
  expect(await result.locator('tfoot').textContent()).toContain('165.00');
  await screenshot(page, 'house-01-1280');
  await page.setViewportSize(TABLET);
  await screenshot(page, 'house-02-820');
  await page.setViewportSize(DESKTOP);

  // What the operator typed is read back grouped, and a figure that is no cap is refused by field before anything goes.
  expect(await page.locator('.console-cap-read').allTextContents()).toEqual([
    '= 1,000,000 USDT',
    '= 50,000 USDT',
    '= 100,000 USDT',
  ]);
  await page.getByLabel('Stake per order').fill('-5');
  expect(await page.locator('.console-cap-read').nth(1).textContent()).toBe('');
  await page.getByRole('button', { name: 'Save the caps' }).click();
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toBe('Stake per order: enter an amount in USDT above 0, at most 999,999,999,999,999,999.');
  await page.getByLabel('Stake per order').fill('50');
  await page.getByRole('button', { name: 'Save the caps' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  expect(await buy('BTC', 'up', '50.00000001', 1)).toMatchObject({
    ret: 0,
    msg: 'The maximum purchase amount is: 50 USDT!',
  });
  expect(await buy('BTC', 'up', '50', 1)).toMatchObject({ ret: 1 });
  // The caps in force written otherwise (in Thai digits, grouped with cents) are no change: Save stays off.
  await page.getByLabel('Stake per order').fill('๕๐');
  await page.getByLabel('Potential payout per coin and direction').fill('1,000,000.00');
  expect(await page.locator('.console-cap-read').nth(1).textContent()).toBe('= 50 USDT');
  expect(await page.locator('.console-changed').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Save the caps' }).isDisabled()).toBe(true);
});
