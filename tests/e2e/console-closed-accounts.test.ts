// A former customer asks support where their money went: on a phone-sized console, a reviewer searches the mobile
// number the customer gives (written as the customer says it) and finds the closed account, marked closed, with the
// day it closed (UTC) and the 0.77 USDT its closure ended; its page opens read only with the closure's facts, and the
// review queues list its withdrawal under the username it had, tagged closed. The account is made, funded, emptied
// and closed through the calls a customer makes, on the test's own server (its authenticator follows real time). On the
// same phone, a withdrawal in review with its customer's history beside it fits without sideways scrolling.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { callApi } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { enrolOperator, firstSignIn, opsOn } from './console-kit.ts';
import { seededDataDir } from './own-server.ts';
import { canonicalMobile } from '../../src/server/domain/phone-numbers.ts';

const PHONE = `061${String(Date.now()).slice(-7)}`;
/** The number of a second customer, one withdrawing. */
const OTHER_PHONE = `062${String(Date.now()).slice(-7)}`;
const EMAIL = `former.${randomBytes(3).toString('hex')}@example.com`;
const PASSWORD = 'leaving123';
const PAYPASS = '135790';
const PHONE_SIZE = { width: 390, height: 844 };

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-closed-'));
let server: ServerProcess;
let browser: Browser;
let ops: ReturnType<typeof opsOn>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const dataDir = seededDataDir(work);
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: { DATA_DIR: dataDir, WEB_ROOT: inject('webRoot'), AUTH_RATE_LIMIT: '1000', PAYEE_COOLING_HOURS: '0' },
    }),
    launch(),
  ]);
  ops = opsOn({ dataDir });
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const call = <T = unknown>(path: string, form: Record<string, string>, token?: string, method?: 'GET' | 'POST') =>
  callApi<T>(path, { base: server.base, form, token, method });

/** The verification code this server's development transport logged for `target`. */
async function codeFor(target: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const match = [...readFileSync(server.logFile, 'utf8').matchAll(/verification code for (\S+) \(\w+\): (\d{6})/g)]
      .filter((found) => found[1] === target)
      .at(-1);
    if (match) return match[2]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code was sent to ${target}`);
}

/** Asserts a call succeeded and answers its data. */
function ok<T>(answer: { ret: number; msg: string; data: T }, what: string): T {
  expect(answer.ret, `${what}: ${answer.msg}`).toBe(1);
  return answer.data;
}

/** A customer registered with mobile number `phone` who recharges `recharge` USDT and asks to withdraw `amount` of it
 * to a bank card saved in the name `payee`. Answers the customer's token and the withdrawal's id. */
async function withdrawingCustomer(
  phone: string,
  { recharge, payee, amount }: { recharge: string; payee: string; amount: string },
): Promise<{ token: string; withdrawal: number }> {
  ok(await call('/users/sms', { userphone: phone }, undefined, 'GET'), 'code');
  const form = {
    mode: 'phone',
    phone,
    code: await codeFor(canonicalMobile(phone)!),
    password: PASSWORD,
    paypass: PAYPASS,
  };
  const { token } = ok(await call<{ token: string }>('/users/register', { ...form, currency: 'THB' }), 'register');
  const channels = ok(
    await call<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, token, 'GET'),
    'channels',
  );
  const usdt = channels.lists.find((channel) => channel.kind === 'crypto' && channel.currency === 'USDT')!;
  const hash = randomBytes(32).toString('hex');
  const sent = ok(
    await call<{ id: number }>(
      '/pay/submit',
      { kind: 'crypto', channel_id: String(usdt.id), amount: recharge, hash },
      token,
    ),
    'recharge',
  );
  expect(await ops('recharge', 'approve', String(sent.id))).toContain('approved');
  const card = {
    real_name: payee,
    ifsc: 'KASI0001234',
    bank_code: 'KBANK',
    bank_number: `12${phone.slice(-8)}`,
    phone,
    email: 'payee@example.com',
  };
  ok(await call('/users/bank/add', card, token), 'bank card');
  const cards = ok(await call<{ lists: { id: number }[] }>('/users/bank', {}, token, 'GET'), 'cards');
  const withdrawal = { target: 'bank', target_id: String(cards.lists[0]!.id), amount, paypass: PAYPASS };
  const extract = ok(await call<{ id: number }>('/users/extract', withdrawal, token), 'withdrawal');
  return { token, withdrawal: extract.id };
}

/** A customer with a mobile number and an e-mail address who recharges 10.87 USDT, withdraws 10 (its fee 0.10) and
 * closes with the 0.77 USDT left, below the withdrawal minimum, ending with the account. Answers the closure's time. */
async function closedCustomer(): Promise<string> {
  const { token, withdrawal } = await withdrawingCustomer(PHONE, {
    recharge: '10.87',
    payee: 'Somchai Jaidee',
    amount: '10',
  });
  ok(await call('/users/email/get', { email: EMAIL }, undefined, 'GET'), 'e-mail code');
  ok(await call('/users/edit', { email: EMAIL, code: await codeFor(EMAIL), password: PASSWORD }, token), 'e-mail');
  expect(await ops('withdrawal', 'approve', String(withdrawal))).toMatch(/approved|paid/i);
  const closing = { secret_kind: 'login', secret: PASSWORD, amounts: 'USDT:0.77' };
  return ok(await call<{ closed_at: string }>('/users/close', closing, token), 'close').closed_at;
}

async function consolePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE_SIZE, locale: 'en-US', baseURL: server.base });
  contexts.push(context);
  return context.newPage();
}

it('finds a closed account by the mobile number it had, says it is closed and what ended, and opens it read only', async () => {
  const closedAt = await closedCustomer();
  const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(closedAt));
  const reviewer = await enrolOperator(ops, 'rhea', 'reviewer');
  const page = await consolePage();
  await firstSignIn(page, reviewer, 'a long console passphrase');
  await page.getByRole('link', { name: 'Customers' }).click();

  // The number as the customer says it: its leading 0 and spaces.
  await page
    .getByPlaceholder('Username, mobile number or e-mail')
    .fill(`${PHONE.slice(0, 3)} ${PHONE.slice(3, 6)} ${PHONE.slice(6)}`);
  await page.getByRole('button', { name: 'Search' }).click();
  const phone = canonicalMobile(PHONE)!;
  const row = page.locator('.console-table tbody tr');
  await expect.poll(() => row.count()).toBe(1);
  const cells = await row.locator('td').allInnerTexts();
  expect(cells[0]).toBe(`${phone}Closed\nClosed on ${day} (UTC)\nEnded with the closure: 0.77 USDT`);
  expect(cells.slice(1, 3)).toEqual([phone, EMAIL]);
  await screenshot(page, 'console-closed-customer-found-390');

  // By the e-mail address in capitals too: the same account.
  await page.getByPlaceholder('Username, mobile number or e-mail').fill(EMAIL.toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  // The rows before the search may already show it: wait for the search's own answer, one row.
  await expect.poll(async () => [await row.count(), await row.locator('td').nth(2).innerText()]).toEqual([1, EMAIL]);

  await row.getByRole('link', { name: phone }).click();
  const closure = page.getByTestId('customer-closure');
  await closure.getByRole('heading', { name: 'Account closed' }).waitFor();
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`${phone}Closed`);
  const facts = await closure.locator('.console-facts').innerText();
  expect(facts).toContain(`Closed on ${day} (UTC)`);
  expect(facts).toContain(`E-mail\n${EMAIL}`);
  expect(facts).toContain('0.77 USDT — Small balance ended with the account');
  expect(await page.getByTestId('ledger').textContent()).toContain('Small balance ended with the account');
  // Read only: nothing on the page changes the account.
  expect(await page.locator('.console-main').getByRole('button').count()).toBe(0);
  await screenshot(page, 'console-closed-customer-390');
  await screenshot(page, 'console-closed-customer-390-full', { fullPage: true });

  // The review queues list its reviewed withdrawal under the username it had, tagged closed, found by its number.
  await page.getByRole('link', { name: 'Review queues' }).click();
  await page.getByRole('tab', { name: /^Withdrawals/ }).click();
  await page.getByLabel('Show reviewed too').check();
  await page.getByPlaceholder('Order number, username, mobile number or e-mail').fill(PHONE);
  await page.getByRole('button', { name: 'Search' }).click();
  const item = page.locator('.console-queue tbody tr');
  // The unfiltered queue may list it first already: wait for the search's answer, this one row alone.
  await expect
    .poll(async () => [await item.count(), await item.locator('td').nth(1).innerText()])
    .toEqual([1, `${phone}Closed`]);
  await screenshot(page, 'console-closed-customer-queue-390');

  // Its page names the customer the same way, with a link to the closed account's page.
  await item.getByRole('link', { name: 'Open' }).click();
  const customerFact = page.locator('.console-facts').getByRole('link', { name: phone });
  await expect
    .poll(async () => (await customerFact.count()) && customerFact.locator('..').innerText())
    .toMatch(/ \(#\d+\)Closed$/);
  expect(await customerFact.innerText()).toMatch(new RegExp(`^\\${phone} \\(#\\d+\\)$`));
  await screenshot(page, 'console-closed-customer-withdrawal-390');
});

it('a withdrawal with its customer’s history fits a 390 px phone: nothing scrolls the page sideways', async () => {
  await withdrawingCustomer(OTHER_PHONE, { recharge: '500', payee: 'محمد عبد الله', amount: '100' });
  const reviewer = await enrolOperator(ops, 'reva', 'reviewer');
  const page = await consolePage();
  await firstSignIn(page, reviewer, 'a long console passphrase');
  await page.getByRole('tab', { name: /^Withdrawals/ }).click();
  await page.locator('.console-queue tbody tr').first().getByRole('link', { name: 'Open' }).click();
  const history = page.getByTestId('balance-history');
  await history.waitFor();
  // The freeze's two moves, the widest change the list shows.
  expect(await history.locator('tbody tr').first().innerText()).toMatch(/101\.00 · \+101\.00 \(frozen\)/);
  const width = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  await screenshot(page, 'console-phone-withdrawal-390', { fullPage: true });
  expect(width.scroll).toBeLessThanOrEqual(width.client);
});

it('the header’s language select shows its whole name on a 390 px phone, in every language of the console', async () => {
  const reviewer = await enrolOperator(ops, 'lena', 'reviewer');
  const page = await consolePage();
  await firstSignIn(page, reviewer, 'a long console passphrase');
  const select = page.locator('.console-top select');
  for (const [value, name] of [
    ['en', 'English'],
    ['zh', '中文'],
    ['th', 'ไทย'],
  ] as const) {
    await select.selectOption(value);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(value);
    // The chosen name drawn whole: the select as wide as it is on its own, unsqueezed (a squeezed select clips its
    // text and keeps scrollWidth equal to clientWidth, so that pair cannot tell).
    const fit = await select.evaluate((element: HTMLSelectElement) => {
      const alone = element.cloneNode(true) as HTMLSelectElement;
      alone.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0; flex: none';
      document.body.append(alone);
      const needed = alone.getBoundingClientRect().width;
      alone.remove();
      return {
        shown: element.selectedOptions[0]?.textContent,
        width: element.getBoundingClientRect().width,
        needed,
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
      };
    });
    await screenshot(page, `console-header-language-${value}-390`);
    expect(fit.shown).toBe(name);
    expect(fit.width, value).toBeGreaterThanOrEqual(fit.needed - 0.5);
    expect(fit.page, value).toBeLessThanOrEqual(fit.viewport);
  }
});
