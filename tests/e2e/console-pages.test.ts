// The console's pages for a day of volume, in Chromium with the operator in Bangkok: the withdrawal
// page beside the customer's deposits in USDT (a baht deposit at the rate recorded when it was
// reported), the totals and the balance history; the recharge page linking the customer and the same
// history; the audit log with times in the operator's zone, its days filtered in that zone, actions
// found by their start and each change as the fields it changed; a content save confirmed and shown in
// the item list at once. Its own server; operators made with the real command, as in console.test.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { callApi, receiptPng } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import {
  CONSOLE_DESKTOP,
  CONSOLE_NARROW,
  enrolOperator,
  firstSignIn as firstSignInAs,
  opsOn,
  type Operator,
} from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { seededDataDir } from './own-server.ts';

const DESKTOP = CONSOLE_DESKTOP;
const NARROW = CONSOLE_NARROW;
const BANGKOK = 'Asia/Bangkok';
const NEW_PASSWORD = 'a long console passphrase';

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-pages-'));
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: {
        DATA_DIR: seededDataDir(work),
        WEB_ROOT: inject('webRoot'),
        LOG_LEVEL: 'warn',
        PAYEE_COOLING_HOURS: '0',
        AUTH_RATE_LIMIT: '1000',
      },
    }),
    launch(),
  ]);
});

afterEach(async ({ task }) => {
  if (page && task.result?.errors?.length)
    await screenshot(page, `console-pages-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const ops = opsOn({ dataDir: join(work, 'data') });
const enrol = (name: string, role: string) => enrolOperator(ops, name, role);

/** A console tab of an operator whose browser is in `timezoneId`. */
async function consolePage(viewport = DESKTOP, timezoneId = BANGKOK): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId, baseURL: server.base });
  contexts.push(context);
  return context.newPage();
}

const firstSignIn = (tab: Page, operator: Operator, landing: string) =>
  firstSignInAs(tab, operator, NEW_PASSWORD, landing);

/** Screenshots of the page as it is at 1280×800 and at 768 px wide. */
async function bothWidths(tab: Page, name: string) {
  await tab.setViewportSize(DESKTOP);
  await screenshot(tab, `${name}-1280`);
  await tab.setViewportSize(NARROW);
  await screenshot(tab, `${name}-768`);
  await tab.setViewportSize(DESKTOP);
}

// ---- The customer (the demo account), from Node through the customer API -------------------------

let customerToken = '';
const customer = <T>(path: string, form: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') =>
  callApi<T>(path, { base: server.base, token: customerToken, form, method });

const orders = { bahtRecharge: { id: 0, order_no: '' }, withdrawal: 0, rejected: 0 };

it('a customer deposits USDT and baht, saves a card and asks for withdrawals', async () => {
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  customerToken = login.data.token;
  const channels = await customer<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, 'GET');
  const crypto = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const bank = channels.data.lists.find((row) => row.kind === 'bank')!;
  const usdt = await customer<{ id: number }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(crypto.id),
    amount: '500',
    hash: randomBytes(32).toString('hex'),
  });
  expect(usdt.ret, usdt.msg).toBe(1);
  await ops('recharge', 'approve', String(usdt.data.id));

  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(receiptPng(64))], { type: 'image/png' }), 'receipt.png');
  const upload = await fetch(`${server.base}/api/users/upload`, {
    method: 'POST',
    headers: { token: customerToken, lang: 'en' },
    body: form,
  });
  const proof = ((await upload.json()) as { data: { url: string } }).data.url;
  // 3380 baht at the seeded 33.80 baht per USDT: 100 USDT.
  const baht = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'bank',
    channel_id: String(bank.id),
    amount: '3380',
    proof,
  });
  expect(baht.ret, baht.msg).toBe(1);
  await ops('recharge', 'approve', String(baht.data.id));
  orders.bahtRecharge = baht.data;

  const card = await customer<{ id: number }>('/users/bank/add', {
    real_name: 'Somchai Jaidee',
    ifsc: 'KASI0001234',
    bank_code: 'KBANK',
    bank_number: String(100_000_000_000 + randomBytes(4).readUInt32BE()),
    phone: '0812345678',
    email: 'somchai@example.com',
  });
  expect(card.ret, card.msg).toBe(1);
  const withdraw = async (amount: string) => {
    const answer = await customer<{ id: number }>('/users/extract', {
      target: 'bank',
      target_id: String(card.data.id),
      amount,
      paypass: DEMO_ACCOUNT.paypass,
    });
    expect(answer.ret, answer.msg).toBe(1);
    return answer.data.id;
  };
  orders.rejected = await withdraw('20');
  await ops('withdrawal', 'reject', String(orders.rejected), 'The account name does not match yours');
  orders.withdrawal = await withdraw('60');
});

it('the withdrawal page shows the payee’s age, deposits in USDT with totals, and the balance history', async () => {
  const rita = await enrol('rita', 'reviewer');
  page = await consolePage();
  await firstSignIn(page, rita, 'Review queues');
  await page.goto(`/console/#/withdrawal/${orders.withdrawal}`);
  await page.getByRole('heading', { name: /^Withdrawal / }).waitFor();

  const totals = page.getByTestId('usdt-totals');
  await totals.waitFor();
  expect(await totals.locator('dt').allTextContents()).toEqual([
    'Deposits credited',
    'Deposits waiting',
    'Withdrawals paid out',
    'Withdrawals waiting',
    'Credited less paid out',
  ]);
  // Money as the app writes it: one asset's amounts with the same decimals, at least two.
  expect(await totals.locator('dd').allTextContents()).toEqual([
    '600.00 USDT',
    '0.00 USDT',
    '0.00 USDT',
    '60.00 USDT',
    '600.00 USDT',
  ]);
  const deposits = page.getByTestId('deposits').locator('tr');
  expect(await deposits.count()).toBe(2);
  // The baht deposit beside its USDT value at the rate recorded when it was reported.
  expect(await deposits.nth(0).locator('td').nth(1).textContent()).toBe('3,380.00 THB');
  expect(await deposits.nth(0).locator('td').nth(2).textContent()).toBe('100.00 USDT at the rate of 33.8');
  expect(await deposits.nth(1).locator('td').nth(2).textContent()).toBe('500.00 USDT');
  expect(await page.getByTestId('payee-age').textContent()).toMatch(/before this withdrawal · past its cooling-off$/);
  await page.getByRole('img', { name: 'USDT balance after each entry' }).waitFor();
  // The newest posting first: the withdrawal's freeze (60 + 1 % fee) as one line, both its moves, the balance whole.
  const latest = page.getByTestId('balance-history').locator('tbody tr').first();
  expect(await latest.locator('td').nth(1).textContent()).toBe('Withdrawal');
  expect(await latest.locator('td').nth(2).textContent()).toBe('-60.60 · +60.60 (frozen)');
  expect(await latest.locator('td').nth(3).textContent()).toBe('10,600.00 USDT');
  await bothWidths(page, 'console-pages-01-withdrawal');
  // The side column whole, below the fold too.
  await page
    .getByTestId('customer-history')
    .screenshot({ path: join(inject('artifacts'), 'console-pages-01-history.png') });
});

it('the recharge page links the customer and shows the same history', async () => {
  await page!.goto(`/console/#/recharge/${orders.bahtRecharge.id}`);
  await page!.getByRole('heading', { name: `Recharge ${orders.bahtRecharge.order_no}` }).waitFor();
  const history = page!.getByRole('region', { name: "The customer's history" });
  await history.getByTestId('usdt-totals').waitFor();
  expect(await history.getByTestId('usdt-totals').locator('dd').first().textContent()).toBe('600.00 USDT');
  expect(await history.getByTestId('withdrawals').locator('tr').count()).toBe(2);
  await bothWidths(page!, 'console-pages-02-recharge');
  await page!.getByRole('link', { name: /^demo \(#\d+\)$/ }).click();
  await page!.getByTestId('ledger').waitFor();
  expect(page!.url()).toMatch(/#\/customer\/\d+$/);

  // The customer page writes money as the withdrawals beside it: grouped, one asset's amounts in a list with the same
  // decimals (at least two), not the server's strings ("3380.00000000", "-60.60000000").
  const cells = (table: string, column: number) =>
    page!
      .getByTestId(table)
      .locator('tbody tr')
      .evaluateAll((rows, at) => rows.map((row) => row.querySelectorAll('td')[at]?.textContent ?? ''), column);
  expect(await cells('recharges', 2)).toEqual(['3,380.00 THB', '500.00 USDT']);
  const ledger = await cells('ledger', 2);
  // The withdrawal's freeze (60 + 1 % fee out of available, into frozen) and the USDT deposit.
  expect(ledger).toEqual(expect.arrayContaining(['-60.60', '60.60', '500.00']));
  for (const amount of ledger) expect(amount).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2,8}$/);
  const ledgerAssets = await cells('ledger', 1);
  // Per asset, one number of decimals down the list.
  const decimalsOf = (asset: string) =>
    new Set(
      ledger
        .filter((_, row) => ledgerAssets[row]!.startsWith(`${asset} `))
        .map((amount) => amount.split('.')[1]!.length),
    );
  expect(decimalsOf('USDT').size).toBe(1);
  await screenshot(page!, 'console-pages-02-customer-amounts-1280', { fullPage: true });
});

/** The audit table's rows: [time, action, target, change]. */
const auditRows = (tab: Page) =>
  tab
    .locator('.console-audit tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [0, 3, 4, 5].map((column) => row.querySelectorAll('td')[column]?.textContent ?? '')),
    );

/** The day and time as "2026-11-27 08:15" in `timeZone`. */
const localTime = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(at);

it('the audit log shows times in the operator’s zone, filters days in that zone and actions by their start, and each change as the fields it changed', async () => {
  const root = await enrol('root', 'admin');
  const admin = await consolePage();
  page = admin;
  await firstSignIn(admin, root, 'Operators');
  await admin.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  expect(await admin.getByTestId('audit-zone').textContent()).toBe('Days and times in your zone: Asia/Bangkok, GMT+7');
  await admin.getByLabel('Action (or its start)').fill('withdrawal');
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => admin.locator('.console-muted').first().textContent()).toBe('Entries: 1 · page 1 of 1');
  const [[time, action, target, change]] = (await auditRows(admin)) as [[string, string, string, string]];
  expect([action, target]).toEqual(['withdrawal.reject', `withdrawal:${orders.rejected}`]);
  // Only what the rejection changed: the status, the reason, the review time.
  expect(change).toContain('status "review" → "fail"');
  expect(change).toContain('reason "" → "The account name does not match yours"');
  expect(change).not.toContain('amount');
  // The time in Bangkok, said so; read back as the instant it names (to the minute).
  const shown = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) \(GMT\+7\)$/.exec(time);
  expect(shown, time).toBeTruthy();
  const at = new Date(`${shown![1]}T${shown![2]}:00+07:00`);
  expect(Math.abs(at.getTime() - Date.now())).toBeLessThan(10 * 60_000);
  await bothWidths(admin, 'console-pages-03-audit');

  // The Bangkok day of the entry finds it; the day before and after do not.
  const bangkokDay = shown![1]!;
  const filterDays = async (tab: Page, day: string) => {
    await tab.getByLabel('First day').fill(day);
    await tab.getByLabel('Last day').fill(day);
    await tab.getByRole('button', { name: 'Search' }).click();
  };
  await filterDays(admin, bangkokDay);
  await expect
    .poll(async () => (await auditRows(admin)).map((row) => row[2]))
    .toEqual([`withdrawal:${orders.rejected}`]);
  const dayAfter = new Date(Date.parse(`${bangkokDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await filterDays(admin, dayAfter);
  await expect.poll(() => admin.locator('.console-muted').first().textContent()).toBe('Entries: 0 · page 1 of 1');

  // An operator whose own day differs from UTC's at the entry's time (west of UTC before 10:00 UTC, east after)
  // finds it under their day, not under UTC's.
  const zone = at.getUTCHours() < 10 ? 'Pacific/Honolulu' : 'Pacific/Kiritimati';
  const [localDay, localClock] = localTime(at, zone).split(' ') as [string, string];
  const utcDay = at.toISOString().slice(0, 10);
  expect(localDay).not.toBe(utcDay);
  const far = await consolePage(DESKTOP, zone);
  await firstSignIn(far, await enrol('rooth', 'admin'), 'Operators');
  await far.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  await far.getByLabel('Action (or its start)').fill('withdrawal.rej');
  await filterDays(far, localDay);
  await expect
    .poll(async () => (await auditRows(far)).map((row) => row[0]))
    .toEqual([`${localDay} ${localClock} (${zone === 'Pacific/Honolulu' ? 'GMT\u221210' : 'GMT+14'})`]);
  await filterDays(far, utcDay);
  await expect.poll(() => far.locator('.console-muted').first().textContent()).toBe('Entries: 0 · page 1 of 1');
});

it('a content save is confirmed beside its version and the item list shows the saved text at once', async () => {
  const erin = await enrol('erin', 'content');
  const content = await consolePage();
  page = content;
  await firstSignIn(content, erin, 'Content');
  await content.getByRole('tab', { name: 'Scroll notice' }).click();
  const items = content.getByRole('list', { name: 'Items' });
  await items.getByRole('button').first().click();
  const english = content.getByRole('article', { name: 'English' });
  await english.waitFor();
  const notice = `Maintenance tonight ${randomBytes(3).toString('hex')}`;
  await english.getByLabel('Text').fill(notice);
  expect(await english.getByRole('status').textContent()).toBe('');
  await english.getByRole('button', { name: 'Save English' }).click();
  await expect.poll(() => english.getByRole('status').textContent()).toBe('Saved');
  await expect.poll(() => items.getByRole('button').first().textContent()).toBe(notice);
  expect(await english.getByLabel('Text').inputValue()).toBe(notice);
  // Another language's save is confirmed beside that version only.
  const thai = content.getByRole('article', { name: 'ไทย' });
  await thai.getByLabel('Text').fill('ปิดปรับปรุงคืนนี้');
  await thai.getByRole('button', { name: 'Save ไทย' }).click();
  await expect.poll(() => thai.getByRole('status').textContent()).toBe('Saved');
  await bothWidths(content, 'console-pages-04-content');
  // A language not written shows the English (what its customers read) as its placeholder; a title holding a
  // zero-width space is refused before it is sent, in the operator's words. (The demo's content is written in every
  // language: a message posted in English alone is not.)
  await ops('message', 'all', 'Maintenance window', 'Trading pauses at 02:00 UTC.');
  await content.getByRole('tab', { name: 'Station messages' }).click();
  await items.getByRole('button', { name: 'Maintenance window' }).click();
  const hindi = content.getByRole('article', { name: 'हिन्दी' });
  await expect.poll(() => hindi.getByLabel('Title').getAttribute('placeholder')).toBe('Maintenance window');
  expect(await hindi.getByLabel('Text').getAttribute('placeholder')).toBe('Trading pauses at 02:00 UTC.');
  // In the Arabic field the English keeps its own direction (isolated), its full stop at its end.
  const arabic = content.getByRole('article', { name: 'العربية' }).getByLabel('Text');
  expect(await arabic.getAttribute('placeholder')).toBe('\u2068Trading pauses at 02:00 UTC.\u2069');
  await hindi.getByLabel('Title').fill('रख\u200Bरखाव');
  await hindi.getByLabel('Text').fill('ट्रेडिंग 02:00 UTC पर रुकेगी।');
  await hindi.getByRole('button', { name: 'Save हिन्दी' }).click();
  await expect
    .poll(() => hindi.getByRole('alert').textContent())
    .toBe('Title: Please remove invisible or direction-changing characters!');
  expect(await hindi.getByRole('status').textContent()).toBe('');
  await screenshot(content, 'console-pages-05-content-name-refused-1280');
  await content.getByRole('tab', { name: 'Scroll notice' }).click();
  await items.getByRole('button').first().click();
  // Typing again takes the confirmation back until the next save.
  await english.getByLabel('Text').fill(`${notice}!`);
  expect(await english.getByRole('status').textContent()).toBe('');
});

it('a crypto recharge is approved with a block height typed in Arabic-Indic digits; the customer reads it as meant', async () => {
  const sam = await enrol('sam', 'reviewer');
  const reviewer = await consolePage();
  page = reviewer;
  await firstSignIn(reviewer, sam, 'Review queues');
  const channels = await customer<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, 'GET');
  const crypto = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const sent = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(crypto.id),
    amount: '25',
    hash: randomBytes(32).toString('hex'),
  });
  expect(sent.ret, sent.msg).toBe(1);
  await reviewer.goto(`/console/#/recharge/${sent.data.id}`);
  await reviewer.getByTestId('claim-mine').waitFor();
  const height = reviewer.getByLabel('Block height (optional)');
  // A hidden character between the digits is still refused, and nothing is credited.
  await height.fill('٨٤٠\u200B١٢٣');
  await reviewer.getByRole('button', { name: 'Approve and credit' }).click();
  await expect
    .poll(() => reviewer.locator('.console-decision').getByRole('alert').textContent())
    .toBe('Please remove invisible or direction-changing characters!');
  await height.fill('٨٤٠١٢٣');
  await screenshot(reviewer, 'console-pages-06-block-height-typed-1280');
  await reviewer.getByRole('button', { name: 'Approve and credit' }).click();
  await reviewer.locator('.console-page-head').getByText('Approved', { exact: true }).waitFor();
  const fact = reviewer.locator('.console-facts > div', { has: reviewer.locator('dt', { hasText: /^Block height$/ }) });
  expect(await fact.locator('dd').textContent()).toBe('840123');
  const details = await customer<{ status: string; block_height: string }>(
    '/pay/info',
    { id: String(sent.data.id) },
    'GET',
  );
  expect(details.data).toMatchObject({ status: 'success', block_height: '840123' });
  await screenshot(reviewer, 'console-pages-07-block-height-approved-1280');
});

it('a withdrawal’s amounts, and the customer’s withdrawals, show one number of decimals per asset', async () => {
  const cards = await customer<{ lists: { id: number }[] }>('/users/bank', {}, 'GET');
  // 99.5 USDT pays a fee of 0.995 (1 %): three decimals beside the 60 and the 20 of before.
  const sent = await customer<{ id: number }>('/users/extract', {
    target: 'bank',
    target_id: String(cards.data.lists[0]!.id),
    amount: '99.5',
    paypass: DEMO_ACCOUNT.paypass,
  });
  expect(sent.ret, sent.msg).toBe(1);
  const reviewer = page!;
  await reviewer.goto(`/console/#/withdrawal/${sent.data.id}`);
  await reviewer.getByTestId('customer-history').waitFor();
  const fact = (label: string) =>
    reviewer
      .locator('.console-facts > div', { has: reviewer.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd')
      .textContent();
  expect([await fact('Amount'), await fact('Fee'), await fact('Frozen in total')]).toEqual([
    '99.500 USDT',
    '0.995 USDT',
    '100.495 USDT',
  ]);
  const listed = (table: string) =>
    reviewer
      .getByTestId(table)
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]?.textContent ?? ''));
  expect(await listed('withdrawals')).toEqual(['99.500 USDT', '60.000 USDT', '20.000 USDT']);
  await screenshot(reviewer, 'console-pages-08-withdrawal-decimals-1280');
});

/** A customer holding much, to the ledger's 8 decimals, in every kind of asset: the balances the demo account's page
 * is shown with below (its own are a few round amounts). */
const LARGE_BALANCES = [
  { asset: 'USDT', available: '123456789012.12345678', frozen: '98765432109.87654321' },
  { asset: 'BTC', available: '1234.56789012', frozen: '0.00012345' },
  { asset: 'ETH', available: '98765.43210987', frozen: '12345.6789' },
  { asset: 'YUEBAO', available: '50000000.5', frozen: '0' },
  { asset: 'REGULAR', available: '7500000.25', frozen: '0' },
  { asset: 'POINT', available: '2500', frozen: '0' },
];

it('the customer page fits a 1280 px window: the balance table is read whole, its headers in view', async () => {
  const reviewer = page!;
  await reviewer.setViewportSize(DESKTOP);
  await reviewer.route('**/api/console/customer?*', async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { data: { balances: unknown[] } };
    answer.data.balances = LARGE_BALANCES;
    await route.fulfill({ response, json: answer });
  });
  await reviewer.getByRole('link', { name: /^demo \(#\d+\)$/ }).click();
  await reviewer.getByTestId('ledger').waitFor();
  const balances = reviewer.getByTestId('balances');
  await balances.waitFor();
  // No sideways scrolling of the page, and the balance table whole inside its box: every column's header in view.
  const page_ = await reviewer.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
  }));
  expect(page_.scroll).toBeLessThanOrEqual(page_.width);
  const box = await balances.evaluate((table) => {
    const frame = table.parentElement!.getBoundingClientRect();
    return {
      table: table.scrollWidth,
      frame: table.parentElement!.clientWidth,
      headersInside: [...table.querySelectorAll('th')].every((th) => {
        const cell = th.getBoundingClientRect();
        return cell.left >= frame.left - 1 && cell.right <= frame.right + 1;
      }),
    };
  });
  expect(box.table).toBeLessThanOrEqual(box.frame);
  expect(box.headersInside).toBe(true);
  expect(await reviewer.getByTestId('withdrawals').locator('tbody tr').first().locator('td').nth(2).textContent()).toBe(
    '99.500 USDT',
  );
  await screenshot(reviewer, 'console-pages-09-customer-1280', { fullPage: true });
});
