// New withdrawal addresses wait, as a customer meets it on a server with the
// default configuration (24 h cooling-off): a bank card just added shows when it becomes usable, a
// withdrawal to it is refused with the reason before anything is sent, and the owner's inbox has
// the notice of the addition.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { callApi, logIn, markAllRead } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { seededDataDir } from './own-server.ts';

const work = mkdtempSync(join(tmpdir(), 'coinvest-cooling-'));
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const watch = watchPagesOnFailure('payee-cooling-');

beforeAll(async () => {
  // No PAYEE_COOLING_HOURS: the default is what is tested.
  [server, browser] = await Promise.all([
    startServer({ work, env: { DATA_DIR: seededDataDir(work), WEB_ROOT: inject('webRoot'), LOG_LEVEL: 'warn' } }),
    launch(),
  ]);
  context = await phoneContext(browser, { baseURL: server.base });
  page = watch(await context.newPage());
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

it('a bank card just added says from when withdrawals to it are possible, and a withdrawal to it is refused with the reason', async () => {
  const base = server.base;
  const login = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
    base,
  });
  const card = await callApi<{ cooling_seconds: number }>('/users/bank/add', {
    token: login.data.token,
    base,
    form: {
      real_name: 'Somchai Jaidee',
      ifsc: 'KASI0001234',
      bank_code: 'KBANK',
      bank_number: '907315264801',
      phone: '0812345678',
      email: 'somchai@example.com',
    },
  });
  expect(card).toMatchObject({ ret: 1, data: { cooling_seconds: 24 * 3600 } });
  // The notice of the addition is the newest message; read, so it does not cover the pages below.
  const inbox = await callApi<{ lists: { title: string; content: string }[] }>('/users/message', {
    token: login.data.token,
    base,
    form: { page: '1' },
  });
  expect(inbox, JSON.stringify(inbox)).toMatchObject({ ret: 1 });
  expect(inbox.data.lists[0]).toMatchObject({
    title: 'New withdrawal address added',
    content: expect.stringContaining('Kasikornbank •••• 4801 was added to your account.'),
  });
  await markAllRead('demo', 'demo1234', base);

  await logIn(page, 'demo', 'demo1234');
  await page.goto('/#/pages/Withdraw/Withdraw');
  const note = page.locator('.payee-cooling');
  await expect
    .poll(() => note.textContent())
    .toMatch(/^For your safety, withdrawals to it are possible from .+ \(in 2[34] h \d+ min\)\.$/);
  await page.getByLabel('Amount (USDT)').fill('10');
  await page.getByLabel('Transaction password').fill('123456');
  await screenshot(page, 'payee-cooling-withdraw');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toBe(
      'For your safety, a newly added bank card or wallet can receive withdrawals 24 hours after it was added. Please try again later.',
    );
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  const records = await callApi<{ lists: unknown[] }>('/users/extract/record', {
    method: 'GET',
    token: login.data.token,
    base,
    form: { status: 'all', page: '1' },
  });
  expect(records.data.lists).toEqual([]);

  // The bank card page says it on the card too.
  await page.goto('/#/pages/mine/setting/tradeAccount');
  await expect
    .poll(() => page.locator('.payout-bankcard .payee-cooling').textContent())
    .toMatch(/^For your safety, withdrawals to it are possible from .+ \(in 2[34] h \d+ min\)\.$/);
  await screenshot(page, 'payee-cooling-bank-card');
});
