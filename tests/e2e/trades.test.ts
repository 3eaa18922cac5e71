// The trade history on a phone in Bangkok: three market orders fill on the live (simulated) feed, the page lists
// them with their realised results, the pair filter keeps one pair's fills, and Download CSV gives a file whose
// header names the time zone and the fee rule, whose columns are the ones stated, one row per fill of the filter —
// and whose customer cell, a nickname starting with "=", is defused with an apostrophe. The server's clock runs
// faster than the browser's here, so the period is taken from the days the fills carry.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, phoneContext, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, logIn } from './pwa.ts';
import { filledMarketOrder } from './order-form.ts';

const phone = `065${String(Date.now() + 11).slice(-7)}`;
const password = 'trade123';
const paypass = '246810';
const BANGKOK = 'Asia/Bangkok';
const NICKNAME = '=SUM(1+2)';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let from: string;
let to: string;

const bangkokDay = (at: string) => new Date(at).toLocaleDateString('en-CA', { timeZone: BANGKOK });

interface Order {
  id: number;
  status: string;
  code: string;
  filled_at: string | null;
}

/** Places a market order and waits until the feed's next tick has filled it (filledMarketOrder). */
const filled = (token: string, form: Record<string, string>) =>
  filledMarketOrder<Order>({ token, form: { type: 'market', ...form } });

beforeAll(async () => {
  browser = await launch();
  context = await phoneContext(browser, { timezoneId: BANGKOK, acceptDownloads: true });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

/** The cells of the file (every field quoted, comma separated, CRLF lines, a BOM first). */
function cells(csv: string): string[][] {
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  return csv
    .slice(1)
    .split('\r\n')
    .filter((line, index, lines) => index < lines.length - 1 || line !== '')
    .map((line) =>
      line === '' ? [] : [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((match) => match[1]!.replace(/""/g, '"')),
    );
}

it('lists the fills of the period with their realised results, and filters them by pair', async () => {
  const token = await fundedUser(phone, password, paypass, '300');
  expect((await callApi('/users/edit', { token, form: { nickname: NICKNAME } })).ret).toBe(1);
  const orders = [
    await filled(token, { code: 'ETH', side: 'buy', quantity: '0.02' }),
    await filled(token, { code: 'DOGE', side: 'buy', quantity: '100' }),
    await filled(token, { code: 'ETH', side: 'sell', quantity: '0.01' }),
  ];
  const days = orders.map((order) => bangkokDay(order.filled_at!)).sort();
  [from, to] = [days[0]!, days.at(-1)!];
  await logIn(page, phone, password);

  await page.goto('/#/pages/contracts/orderList');
  await page.getByRole('link', { name: 'Trade history' }).click();
  await page.getByLabel('First day').fill(from);
  await page.getByLabel('Last day').fill(to);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect.poll(() => page.locator('.tr-fill').count()).toBe(3);
  await expect.poll(() => page.locator('.tr-results tbody tr').count()).toBe(2);
  expect(await page.locator('.tr-results tbody th').allTextContents()).toEqual(['DOGE/USDT', 'ETH/USDT']);
  await shot('trades-01-history');

  await page.getByRole('group', { name: 'Pair' }).getByRole('button', { name: 'ETH/USDT' }).click();
  await expect.poll(() => page.locator('.tr-fill').count()).toBe(2);
  expect(await page.locator('.tr-fill .tr-pair').allTextContents()).toEqual(['ETH/USDT', 'ETH/USDT']);
  await expect.poll(() => page.locator('.tr-results tbody th').allTextContents()).toEqual(['ETH/USDT']);
  await shot('trades-02-filtered');
});

it('downloads the filtered fills as a CSV file with its stated columns and a defused formula cell', async () => {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`trades-${from}-${to}.csv`);
  const rows = cells(await readFile(await file.path(), 'utf8'));
  expect(rows.slice(0, 10)).toEqual([
    ['Coinvest trade history'],
    ['Language', 'English (en)'],
    ['Time zone', BANGKOK],
    ['Number format', '-1234.50000000'],
    // The nickname starts with "=": a spreadsheet would run it, so it is written as text behind an apostrophe.
    ['Customer', `'${NICKNAME}`],
    ['Period', from, to],
    ['Pair', 'ETH/USDT'],
    ['Side', 'Buy and sell'],
    ['Generated at', expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)],
    ['Fees', expect.stringContaining("A buy's fee is part of its cost")],
  ]);
  expect(rows[11]).toEqual([
    'Time',
    'Pair',
    'Side',
    'Type',
    'Price (USDT)',
    'Quantity',
    'Fee',
    'Fee asset',
    'Total (USDT)',
    'Spent',
    'Spent asset',
    'Received',
    'Received asset',
    'Tick price',
    'Tick time',
    'Order',
  ]);
  const fills = rows.slice(12);
  expect(fills.map((row) => [row[1], row[2], row[3], row[5], row[7]])).toEqual([
    ['ETH/USDT', 'Sell', 'Market', '0.01000000', 'USDT'],
    ['ETH/USDT', 'Buy', 'Market', '0.02000000', 'ETH'],
  ]);
  for (const row of fills) {
    expect(row).toHaveLength(16);
    expect(row[4]).toMatch(/^\d+\.\d{8}$/);
    expect(row[0]!.slice(0, 10) >= from && row[0]!.slice(0, 10) <= to).toBe(true);
  }
  // No text cell of the file starts with a character a spreadsheet would run (numbers are written as numbers).
  for (const cell of rows.flat()) if (!/^-?\d+\.\d{8}$/.test(cell)) expect(cell).not.toMatch(/^[=+\-@]/);
  await expect.poll(() => page.getByRole('status').textContent()).toBe(`Downloaded trades-${from}-${to}.csv`);
  await shot('trades-03-downloaded');
});
