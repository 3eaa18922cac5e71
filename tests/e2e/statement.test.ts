// A statement downloaded from the account details on a phone in Bangkok: the CSV file's header (language,
// time zone, number format, asset, period), one row per ledger entry in Bangkok's time with the balance
// after it, and opening + entries = closing. Then offline: the same period downloads again from what the
// app kept, and a period never loaded says it needs a connection. The server's clock runs 20 times faster
// than the browser's here, so the period is taken from the days its entries carry.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Big from 'big.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, phoneContext, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { operator } from './operator.ts';
import { callApi, controlledByServiceWorker, goOffline, goOnline, logIn, runtimeCaches } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

const phone = `064${String(Date.now() + 7).slice(-7)}`;
const password = 'state123';
const paypass = '135790';
const BANGKOK = 'Asia/Bangkok';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
/** The period downloaded: the Bangkok days of the customer's first and last entry. */
let from: string;
let to: string;

const bangkokDay = (at: Date) => at.toLocaleDateString('en-CA', { timeZone: BANGKOK });
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const DAY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

beforeAll(async () => {
  token = await fundedUser(phone, password, paypass, '150');
  // A second recharge of an amount a float cannot hold exactly.
  const channels = await callApi<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {
    method: 'GET',
    token,
  });
  const channel = channels.data.lists.find((item) => item.kind === 'crypto' && item.currency === 'USDT')!;
  const sent = await callApi<{ id: number }>('/pay/submit', {
    token,
    form: { kind: 'crypto', channel_id: String(channel.id), amount: '25.3', hash: randomBytes(32).toString('hex') },
  });
  expect(sent.ret).toBe(1);
  expect(await operator('recharge', 'approve', String(sent.data.id))).toMatch(/approved/);
  const entries = await callApi<{ lists: { created_at: string }[] }>('/users/account/lists', { method: 'GET', token });
  const days = entries.data.lists.map((entry) => bangkokDay(new Date(entry.created_at))).sort();
  [from, to] = [days[0]!, days.at(-1)!];

  browser = await launch();
  context = await phoneContext(browser, { timezoneId: BANGKOK, acceptDownloads: true });
  page = await context.newPage();
  await logIn(page, phone, password);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** A screenshot once the loading mask is gone. */
async function shot(name: string, on = page): Promise<void> {
  await on.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(on, name);
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

/** Taps Download CSV and reads the file the browser received. */
async function download(): Promise<{ name: string; rows: string[][] }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const path = await file.path();
  return { name: file.suggestedFilename(), rows: cells(await readFile(path, 'utf8')) };
}

/** The header, the entries and the closing row of a statement file, checked to add up. */
function expectStatement(rows: string[][]) {
  expect(rows.slice(0, 8)).toEqual([
    ['Coinvest account statement'],
    ['Language', 'English (en)'],
    ['Time zone', BANGKOK],
    ['Number format', '-1234.50000000'],
    ['Asset', 'USDT'],
    ['Period', from, to],
    ['Generated at', expect.stringMatching(DAY_TIME)],
    ['Opening balance', '0.00000000'],
  ]);
  expect(rows[9]).toEqual(['Time', 'Type', 'Amount', 'Balance after', 'Reference']);
  const entries = rows.slice(10, -2);
  expect(entries.map(([, kind, amount, balance]) => [kind, amount, balance])).toEqual([
    ['Recharge', '150.00000000', '150.00000000'],
    ['Recharge', '25.30000000', '175.30000000'],
  ]);
  for (const [time] of entries) {
    expect(time).toMatch(DAY_TIME);
    expect(time!.slice(0, 10) >= from && time!.slice(0, 10) <= to).toBe(true);
  }
  const sum = entries.reduce((total, entry) => total.plus(entry[2]!), new Big(rows[7]![1]!));
  expect(rows.at(-1)).toEqual(['Closing balance', sum.toFixed(8)]);
  expect(rows.at(-1)![1]).toBe('175.30000000');
}

it('downloads a statement of the period as a CSV file whose balances add up', async () => {
  await page.goto('/#/pages/accountDetails/accountDetails');
  await page.locator('.funds-entry').first().waitFor();
  await shot('statement-01-account-details');
  await page.getByRole('button', { name: 'Download a statement' }).click();
  // The form starts at this month's first day and today, on the phone's calendar.
  const today = bangkokDay(new Date());
  await expect.poll(() => page.getByLabel('First day').inputValue()).toBe(`${today.slice(0, 8)}01`);
  expect(await page.getByLabel('Last day').inputValue()).toBe(today);
  expect(await page.getByLabel('Asset').inputValue()).toBe('USDT');
  await page.getByLabel('Last day').fill(to);
  await page.getByLabel('First day').fill(from);
  await shot('statement-02-form');

  const { name, rows } = await download();
  expect(name).toBe(`statement-USDT-${from}-${to}.csv`);
  expectStatement(rows);
  await expect.poll(() => page.getByRole('status').textContent()).toBe(`Downloaded ${name}`);
  await shot('statement-03-downloaded');
});

it('refuses a period whose first day is after its last, before asking', async () => {
  await page.getByLabel('First day').fill('2026-12-31');
  await page.getByLabel('Last day').fill('2026-01-01');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await expect
    .poll(() => page.locator('.statement-panel').getByRole('alert').textContent())
    .toBe('The first day of the period must not be after the last day!');
});

it('offline, downloads the same period again from what the app kept, and says a new one needs a connection', async () => {
  // Once the service worker controls the page, its reads are kept. The first download may have come before
  // the worker took control (on a busy machine it does), so the customer downloads the period once more online,
  // as one does with the app installed, and then offline.
  await controlledByServiceWorker(page);
  await page.reload();
  await page.locator('.funds-entry').first().waitFor();
  await page.getByRole('button', { name: 'Download a statement' }).click();
  await page.getByLabel('Last day').fill(to);
  await page.getByLabel('First day').fill(from);
  expectStatement((await download()).rows);
  // The worker keeps the answer after handing it to the page: go offline once it is in a cache.
  await expect
    .poll(async () =>
      Object.values(await runtimeCaches(page))
        .flat()
        .some(({ url }) => url.includes('/statement')),
    )
    .toBe(true);
  await goOffline(context);
  try {
    await page.reload();
    await page.locator('.funds-entry').first().waitFor();
    await page.getByRole('button', { name: 'Download a statement' }).click();
    await page.getByLabel('Last day').fill(to);
    await page.getByLabel('First day').fill(from);
    const { rows } = await download();
    expectStatement(rows);

    await page.getByLabel('First day').fill(dayBefore(from));
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await expect
      .poll(() => page.locator('.statement-panel').getByRole('alert').textContent())
      .toBe('This period is not on this device yet: downloading its statement needs a connection.');
    await shot('statement-04-offline-not-loaded');
  } finally {
    await goOnline(context);
  }
});

it('reads in Arabic, right to left, and writes the file in Arabic with ASCII digits', async () => {
  const arabic = await phoneContext(browser, { locale: 'ar-EG', timezoneId: BANGKOK, acceptDownloads: true });
  try {
    const other = await arabic.newPage();
    await openSignedIn(other, token, '/#/pages/accountDetails/accountDetails');
    await other.locator('.funds-entry').first().waitFor();
    await other.getByRole('button', { name: 'تنزيل كشف حساب' }).click();
    await other.locator('#statement-to').fill(to);
    await other.locator('#statement-from').fill(from);
    const [file] = await Promise.all([
      other.waitForEvent('download'),
      other.getByRole('button', { name: 'تنزيل CSV' }).click(),
    ]);
    const rows = cells(await readFile(await file.path(), 'utf8'));
    expect(rows.slice(0, 3)).toEqual([['كشف حساب Coinvest'], ['اللغة', 'العربية (ar)'], ['المنطقة الزمنية', BANGKOK]]);
    expect(rows.at(-1)).toEqual(['الرصيد الختامي', '175.30000000']);
    expect(rows.flat().join('')).not.toMatch(/[\u0660-\u0669]/);
    expect(await other.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shot('statement-05-arabic', other);
  } finally {
    await arabic.close();
  }
});
