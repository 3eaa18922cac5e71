// Small balances converted to USDT when one is worth less than 0.00000001 USDT after the fee, as a customer meets it
// on a phone (390×844): the dialog says in words, before the confirmation, that converting it gives nothing, and the
// result says it brought nothing, in English and in Arabic (right to left, every amount inside the words left to
// right). Such an amount never comes from trading here (a fill's leftovers are worth more), so this file runs a server
// of its own in development mode on a fresh database, where the operator command credits test balances; the
// conversion of a 100 % sell's leftover is the contracts journey's (contracts.test.ts). The conversion's details then
// name it beside its side and type, on one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { logIn, markAllRead, chooseLanguage } from './pwa.ts';
import { operatorOn } from './operator.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';

const work = mkdtempSync(join(tmpdir(), 'coinvest-small-balances-e2e-'));
const dataDir = join(work, 'data');
const operator = operatorOn(dataDir);
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const watch = watchPagesOnFailure('small-balances-');

beforeAll(async () => {
  server = await startServer({
    work,
    name: 'small balances server',
    env: { NODE_ENV: 'development', DATA_DIR: dataDir, WEB_ROOT: inject('webRoot') },
  });
  await markAllRead('demo', 'demo1234', server.base);
  browser = await launch();
  context = await phoneContext(browser, { baseURL: server.base });
  page = watch(await context.newPage());
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Opens the contracts page and the conversion's dialog (the card's one button, in any language). */
async function openConversion(): Promise<Locator> {
  await page.goto('/#/pages/contracts/contracts?code=BTC');
  await page.locator('.ct-small-balances button').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  return dialog;
}

/** Each row of the dialog's list: what is converted, and what it brings. */
const rowsOf = (dialog: Locator) =>
  dialog
    .locator('dl > div')
    .evaluateAll((rows) => rows.map((row) => [row.children[0]!.textContent, row.children[1]!.textContent]));

it('says before and after that 0.00000002 TRX brings nothing, beside a BTC leftover that brings USDT', async () => {
  await logIn(page, 'demo', 'demo1234');
  // 0.00000002 TRX at about 0.2 USDT is worth 0.000000004 USDT; 0.000005 BTC (under the 0.00001 step) about 0.5.
  await operator('credit', 'demo', 'TRX', '0.00000002');
  await operator('credit', 'demo', 'BTC', '0.000005');
  const dialog = await openConversion();
  await expect
    .poll(() => rowsOf(dialog))
    .toEqual([
      ['0.000005 BTC', expect.stringMatching(/^≈ 0\.\d+ USDT$/)],
      ['0.00000002 TRX', 'Worth less than 0.00000001 USDT after the fee: converting it gives you nothing'],
      ['Estimated total', expect.stringMatching(/^≈ 0\.\d+ USDT$/)],
    ]);
  await screenshot(page, 'small-balances-01-nothing');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

it('says it in Arabic, right to left, each amount left to right, then converts', async () => {
  await chooseLanguage(page, /العربية/);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  const dialog = await openConversion();
  const trx = dialog.locator('dl > div').nth(1);
  await expect.poll(() => trx.locator('dd').textContent()).toMatch(/^قيمتها بعد الرسوم أقل من 0\.00000001 USDT/);
  expect(await trx.locator('dd [dir="ltr"]').textContent()).toBe('0.00000001 USDT');
  expect(await trx.locator('dt').getAttribute('dir')).toBe('ltr');
  await screenshot(page, 'small-balances-02-nothing-arabic');

  await dialog.getByRole('button', { name: 'تحويل', exact: true }).click();
  const results = page.locator('.ct-small-results li');
  await expect.poll(() => results.count(), { timeout: 30_000 }).toBe(2);
  await expect.poll(() => results.nth(1).textContent()).toMatch(/^تم تحويل 0\.00000002 TRX: /);
  expect(await results.nth(1).locator('[dir="ltr"]').allTextContents()).toEqual(['0.00000002 TRX', '0.00000001 USDT']);
  expect(await results.nth(0).locator('[dir="ltr"]').allTextContents()).toEqual([
    '0.000005 BTC',
    expect.stringMatching(/^0\.\d+ USDT$/),
    expect.stringMatching(/^[\d,.]+$/),
  ]);
  await screenshot(page, 'small-balances-03-nothing-arabic-converted');
  await page.getByRole('alertdialog').getByRole('button', { name: 'موافق' }).click();
});

it('in English, an amount that brings nothing alone: the total and the result say nothing is received', async () => {
  await chooseLanguage(page, /English/);
  await operator('credit', 'demo', 'TRX', '0.00000002');
  const dialog = await openConversion();
  await expect
    .poll(() => rowsOf(dialog))
    .toEqual([
      ['0.00000002 TRX', 'Worth less than 0.00000001 USDT after the fee: converting it gives you nothing'],
      ['Estimated total', 'You receive nothing'],
    ]);
  await dialog.getByRole('button', { name: 'Convert', exact: true }).click();
  await expect
    .poll(() => page.locator('.ct-small-results').textContent(), { timeout: 30_000 })
    .toBe('0.00000002 TRX converted: worth less than 0.00000001 USDT after the fee, it brought nothing.');
  expect(await page.getByRole('alertdialog').textContent()).toContain('Received in total: nothing');
  await screenshot(page, 'small-balances-04-nothing-converted');
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  expect(await page.locator('.ct-small-balances').count()).toBe(0);
});

it("the conversion's details say it on the same line as the side and type", async () => {
  await page.goto('/#/pages/contracts/orderList');
  await page.getByRole('button', { name: 'History' }).click();
  await page
    .locator('.ct-order', { has: page.locator('.ct-dust-tag') })
    .first()
    .locator('.ct-order-open')
    .click();
  const row = page.getByRole('alertdialog').locator('.ct-details dd', { has: page.locator('.ct-dust-tag') });
  await row.waitFor();
  expect(await row.textContent()).toBe('Sell · MarketSmall balance conversion');
  const tag = (await row.locator('.ct-tag').boundingBox())!;
  const conversion = (await row.locator('.ct-dust-tag').boundingBox())!;
  // One line: the two overlap from top to bottom, the conversion's tag after the side and type.
  expect(conversion.y).toBeLessThan(tag.y + tag.height);
  expect(tag.y).toBeLessThan(conversion.y + conversion.height);
  expect(conversion.x).toBeGreaterThan(tag.x + tag.width);
  await screenshot(page, 'small-balances-05-conversion-details');
});
