// The review queues in Chromium, two reviewers in two browser contexts: the queue shows each item's wait, the legend in
// words, and "being reviewed by reviewer1" on the item it has open; reviewer2 opening it is warned and takes it over
// only by asking; a decision lands the reviewer on the next oldest item nobody else holds; a search by order number
// finds one item; and the first approver of a large withdrawal sees that a second operator must approve instead of a
// button the server would refuse. Its own server at real speed (the authenticator follows real time); operators are
// made with `ops operator add` as in console.test.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { callApi } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import {
  CONSOLE_DESKTOP,
  CONSOLE_LONG_TIME,
  CONSOLE_NARROW,
  enrolOperator,
  firstSignIn,
  opsOn,
  type Operator,
} from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { seededDataDir } from './own-server.ts';
import { openSignedIn } from './stored-session.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

const DESKTOP = CONSOLE_DESKTOP;
const NARROW = CONSOLE_NARROW;
const NEW_PASSWORD = 'a long console passphrase';

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-queues-'));
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
let reviewer1Page: Page | undefined;
let reviewer2Page: Page | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: {
        DATA_DIR: seededDataDir(work),
        WEB_ROOT: inject('webRoot'),
        LOG_LEVEL: 'info',
        PAYEE_COOLING_HOURS: '0',
        AUTH_RATE_LIMIT: '1000',
        // Above 100 USDT a withdrawal needs two reviewers.
        FOUR_EYES_USDT: '100',
      },
    }),
    launch(),
  ]);
});

interface LogEntry {
  level: number;
  time: number;
  msg: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}
const logLine = ({ time, msg, req, res, responseTime }: LogEntry) =>
  `  ${new Date(time).toISOString().slice(11, 23)} ${req ? `${req.method} ${req.url} ` : ''}${msg}` +
  (res ? ` ${res.statusCode} in ${Math.round(responseTime ?? 0)} ms` : '');
const watch = watchPagesOnFailure('console-queues-');

afterEach(async ({ task }) => {
  if (!task.result?.errors?.length) return;
  // A decision's error line sits under the form, below the fold: its words, whatever the screenshot holds.
  for (const [who, page] of [
    ['reviewer1', reviewer1Page],
    ['reviewer2', reviewer2Page],
  ] as const) {
    if (page)
      console.log(`${who}'s error lines: ${JSON.stringify(await page.locator('.console-error').allTextContents())}`);
  }
  // The server's own account of the console calls: LOG_LEVEL info logs each request, and its answer under the same id.
  const entries = readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogEntry);
  const consoleCalls = new Set(
    entries.filter((entry) => entry.req?.url?.startsWith('/api/console/')).map((e) => e.reqId),
  );
  const told = entries.filter((entry) => consoleCalls.has(entry.reqId) || entry.level >= 40).slice(-40);
  console.log(`The server's last console calls and warnings:\n${told.map(logLine).join('\n')}`);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const enrol = (name: string) => enrolOperator(opsOn({ dataDir: join(work, 'data') }), name, 'reviewer');

/** A reviewer in a browser context of their own, signed in with the first password and a new one chosen. */
async function reviewerPage(operator: Operator): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', baseURL: server.base });
  contexts.push(context);
  const page = watch(await context.newPage(), operator.name);
  await firstSignIn(page, operator, NEW_PASSWORD);
  await page.getByRole('heading', { name: 'Review queues' }).waitFor();
  return page;
}

// ---- The customer's side, through the customer API -------------------------------------------------------

let customerToken = '';
const customer = <T>(path: string, form: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') =>
  callApi<T>(path, { base: server.base, token: customerToken, form, method });

async function recharge(amount: string) {
  const channels = await customer<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, 'GET');
  const channel = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const sent = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(channel.id),
    amount,
    hash: randomBytes(32).toString('hex'),
  });
  expect(sent.ret, sent.msg).toBe(1);
  return sent.data;
}

const row = (page: Page, orderNo: string) => page.getByRole('row').filter({ hasText: orderNo });

let reviewer1: Operator;
let reviewer2: Operator;
let orders: { id: number; order_no: string }[] = [];

it('shows each item’s wait oldest first with a legend in words, and "being reviewed by reviewer1" on the one it has open', async () => {
  [reviewer1, reviewer2] = [await enrol('reviewer1'), await enrol('reviewer2')];
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  customerToken = login.data.token;
  // At most FOUR_EYES_USDT each: one reviewer's approval credits them.
  orders = [await recharge('11'), await recharge('12'), await recharge('13')];

  reviewer1Page = await reviewerPage(reviewer1);
  reviewer2Page = await reviewerPage(reviewer2);
  // Oldest first, each with its wait; the legend says what "Late" and the claim mark mean.
  const listed = reviewer1Page.locator('.console-queue tbody tr');
  await expect.poll(() => listed.count()).toBe(3);
  for (const [index, order] of orders.entries())
    expect(await listed.nth(index).textContent()).toMatch(new RegExp(`^\\d+ min.*${order.order_no}`));
  expect(await reviewer1Page.getByTestId('queue-legend').textContent()).toBe(
    '⚠ Late waited longer than the target (recharges 15 min, withdrawals 30 min, certifications 1 day) · ' +
      'Being reviewed by … another operator has it open',
  );

  await row(reviewer1Page, orders[0]!.order_no).getByRole('link', { name: 'Open' }).click();
  await reviewer1Page.getByRole('heading', { name: `Recharge ${orders[0]!.order_no}` }).waitFor();
  await reviewer1Page.getByTestId('claim-mine').waitFor();

  // Reviewer2's queue (asked again every 10 s) names reviewer1 on that item, and only that one.
  await expect
    .poll(() => row(reviewer2Page!, orders[0]!.order_no).textContent(), { timeout: 15_000 })
    .toContain('Being reviewed by reviewer1');
  expect(await row(reviewer2Page, orders[1]!.order_no).textContent()).not.toContain('Being reviewed');
  await screenshot(reviewer2Page, 'console-queues-01-1280');
  await reviewer2Page.setViewportSize(NARROW);
  await screenshot(reviewer2Page, 'console-queues-02-768');
  await reviewer2Page.setViewportSize(DESKTOP);
});

it('warns reviewer2 on the item reviewer1 holds; reviewer2 takes it over only by asking, decides, and lands on the next item', async () => {
  const reviewer2View = reviewer2Page!;
  await row(reviewer2View, orders[0]!.order_no).getByRole('link', { name: 'Open' }).click();
  const warning = reviewer2View.getByTestId('claim-warning');
  await expect
    .poll(() => warning.textContent())
    .toMatch(/^⚠ Being reviewed by reviewer1 since .+ Take over from reviewer1$/);
  await screenshot(reviewer2View, 'console-queues-03-warning-1280');
  await reviewer2View.setViewportSize(NARROW);
  await screenshot(reviewer2View, 'console-queues-04-warning-768');
  await reviewer2View.setViewportSize(DESKTOP);
  await reviewer2View.getByRole('button', { name: 'Take over from reviewer1' }).click();
  await reviewer2View.getByTestId('claim-mine').waitFor();
  expect(await warning.count()).toBe(0);

  // Reviewer1's page learns it at its next renewal (every 30 s while it is open) and warns reviewer1 in turn.
  await expect
    .poll(() => reviewer1Page!.getByTestId('claim-warning').textContent(), { timeout: 40_000 })
    .toContain('Being reviewed by reviewer2');

  await reviewer2View.getByRole('button', { name: 'Approve and credit' }).click();
  // The next oldest waiting item nobody else holds, with what was just decided.
  await reviewer2View.getByRole('heading', { name: `Recharge ${orders[1]!.order_no}` }).waitFor();
  expect(await reviewer2View.getByRole('status').textContent()).toBe(`Recharge ${orders[0]!.order_no} approved.`);
  await reviewer2View.getByTestId('claim-mine').waitFor();
  await screenshot(reviewer2View, 'console-queues-05-next-1280');
});

it('finds one item by its order number, and says when the queue is done', async () => {
  const reviewer1View = reviewer1Page!;
  await reviewer1View.getByRole('navigation').getByRole('link', { name: 'Review queues' }).click();
  await reviewer1View.getByPlaceholder('Order number, username, mobile number or e-mail').fill(orders[2]!.order_no);
  await reviewer1View.getByRole('button', { name: 'Search' }).click();
  const listed = reviewer1View.locator('.console-queue tbody tr');
  await expect.poll(() => listed.count()).toBe(1);
  expect(await listed.first().textContent()).toContain(orders[2]!.order_no);
  await reviewer1View.getByRole('button', { name: 'Show all' }).click();
  // The first is decided; the second is reviewer2's.
  await expect.poll(() => listed.count()).toBe(2);
  expect(await row(reviewer1View, orders[1]!.order_no).textContent()).toContain('Being reviewed by reviewer2');

  await row(reviewer1View, orders[2]!.order_no).getByRole('link', { name: 'Open' }).click();
  await reviewer1View.getByRole('heading', { name: `Recharge ${orders[2]!.order_no}` }).waitFor();
  await reviewer1View.getByRole('button', { name: 'Approve and credit' }).click();
  // Reviewer2 holds the only other one: nothing for reviewer1, who stays on what was decided.
  await expect
    .poll(() => reviewer1View.getByRole('status').textContent())
    .toBe(`Recharge ${orders[2]!.order_no} approved. Nothing else in this queue is free to review.`);
  await reviewer1View.locator('.console-page-head').getByText('Approved', { exact: true }).waitFor();
});

/** The demo customer withdraws `amount` USDT to a bank card saved for it (no cooling-off on this server). */
async function withdrawal(amount: string) {
  const card = await customer<{ id: number }>('/users/bank/add', {
    real_name: 'Somchai Jaidee',
    ifsc: 'KASI0001234',
    bank_code: 'KBANK',
    bank_number: String(100_000_000_000 + randomBytes(4).readUInt32BE()),
    phone: '0812345678',
    email: 'somchai@example.com',
  });
  expect(card.ret, card.msg).toBe(1);
  const sent = await customer<{ id: number; order_no: string; status: string }>('/users/extract', {
    target: 'bank',
    target_id: String(card.data.id),
    amount,
    paypass: DEMO_ACCOUNT.paypass,
  });
  expect(sent, JSON.stringify(sent)).toMatchObject({ ret: 1, data: { status: 'review' } });
  return sent;
}

it('the first approver of a large withdrawal sees that a second operator must approve, not a button', async () => {
  const sent = await withdrawal('150');

  const reviewer1View = reviewer1Page!;
  await reviewer1View.goto(`/console/#/withdrawal/${sent.data.id}`);
  await reviewer1View.getByRole('button', { name: 'Approve (first of two)' }).click();
  await expect
    .poll(() => reviewer1View.getByTestId('approve-blocked').textContent())
    .toBe('Approved by you (1 of 2) — waiting for a second operator');
  expect(await reviewer1View.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
  // Rejecting stays possible.
  expect(await reviewer1View.getByRole('button', { name: 'Reject…' }).count()).toBe(1);
  await screenshot(reviewer1View, 'console-queues-06-four-eyes-1280');
  await reviewer1View.setViewportSize(NARROW);
  await screenshot(reviewer1View, 'console-queues-07-four-eyes-768');

  // Free for the second reviewer: not "being reviewed by reviewer1", and their approval pays it.
  const reviewer2View = reviewer2Page!;
  await reviewer2View.goto('/console/#/queues');
  await reviewer2View.getByRole('tab', { name: /Withdrawals/ }).click();
  const waiting = reviewer2View.getByRole('row').filter({ hasText: 'Four eyes 1/2' });
  await waiting.waitFor();
  expect(await waiting.textContent()).not.toContain('Being reviewed');
  await waiting.getByRole('link', { name: 'Open' }).click();
  await reviewer2View.getByRole('button', { name: 'Approve and pay out' }).click();
  await reviewer2View.locator('.console-page-head').getByText('Approved', { exact: true }).waitFor();
});

it('a reviewer approving a withdrawal decided meanwhile is told how, and the page shows it decided', async () => {
  const sent = await withdrawal('50');
  const reviewer1View = reviewer1Page!;
  await reviewer1View.setViewportSize(DESKTOP);
  await reviewer1View.goto(`/console/#/withdrawal/${sent.data.id}`);
  await reviewer1View.getByTestId('claim-mine').waitFor();
  // Another operator rejects it while reviewer1's page still shows it waiting.
  await opsOn({ dataDir: join(work, 'data') })('withdrawal', 'reject', String(sent.data.id), 'Payee name differs');
  await reviewer1View.getByRole('button', { name: 'Approve and pay out' }).click();
  // The refusal names the order as the customer sees it and its state in the console's words; the page reads the
  // withdrawal again: rejected, with its reason, and no decision left to offer.
  await expect
    .poll(() => reviewer1View.getByRole('alert').allTextContents())
    .toEqual([`Withdrawal ${sent.data.order_no} was already reviewed (Rejected).`]);
  await reviewer1View.locator('.console-page-head').getByText('Rejected', { exact: true }).waitFor();
  await reviewer1View.getByText('Payee name differs', { exact: true }).waitFor();
  expect(await reviewer1View.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
  expect(await reviewer1View.getByRole('button', { name: 'Reject…' }).count()).toBe(0);
  await screenshot(reviewer1View, 'console-queues-08-decided-meanwhile-1280');
});

it('a withdrawal held by the customer’s own freeze says so to the reviewer and to the customer', async () => {
  const sent = await withdrawal('40');
  // A large one that has its first approval when the freeze holds it: the hold and that approval are both shown.
  const large = await withdrawal('170');
  const reviewer1View = reviewer1Page!;
  await reviewer1View.goto(`/console/#/withdrawal/${large.data.id}`);
  await reviewer1View.getByRole('button', { name: 'Approve (first of two)' }).click();
  // The console goes on to the next withdrawal waiting (the small one), saying what was recorded.
  await expect
    .poll(() => reviewer1View.getByRole('status').textContent())
    .toBe(`Withdrawal ${large.data.order_no}: your approval is recorded, a second operator must approve.`);
  const frozen = await customer<{ frozen: boolean }>('/users/freeze/on', { paypass: DEMO_ACCOUNT.paypass });
  expect(frozen, JSON.stringify(frozen)).toMatchObject({ ret: 1, data: { frozen: true } });

  // The reviewer sees the freeze before any click, and no approval that the server would refuse (the page read again:
  // the console went on to this withdrawal before the freeze).
  await reviewer1View.goto(`/console/#/withdrawal/${sent.data.id}`);
  await reviewer1View.reload();
  await expect
    .poll(() => reviewer1View.getByTestId('payout-hold').textContent())
    .toMatch(
      /^⚠ Held: the customer froze the account on .+\. It cannot be paid out until the account is unfrozen; it can be rejected, which returns the funds to the customer’s balance\. The customer has not asked to unfreeze it\.$/,
    );
  expect(await reviewer1View.getByTestId('approve-blocked').textContent()).toBe(
    'Payout waits until the customer unfreezes the account',
  );
  expect(await reviewer1View.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
  expect(await reviewer1View.getByRole('button', { name: 'Reject…' }).count()).toBe(1);
  await screenshot(reviewer1View, 'console-queues-09-held-by-freeze-1280');

  // The held large one: the second reviewer and the first approver each see the hold and who approved first, when.
  const approvedAt = new RegExp(`^Four eyes \\(1 of 2\\): approved by reviewer1 on ${CONSOLE_LONG_TIME}\\.$`);
  const reviewer2View = reviewer2Page!;
  await reviewer2View.setViewportSize(DESKTOP);
  await reviewer2View.goto(`/console/#/withdrawal/${large.data.id}`);
  await reviewer2View.getByTestId('payout-hold').waitFor();
  await expect.poll(() => reviewer2View.getByTestId('four-eyes').textContent()).toMatch(approvedAt);
  expect(await reviewer2View.getByTestId('approve-blocked').textContent()).toBe(
    'Payout waits until the customer unfreezes the account',
  );
  await screenshot(reviewer2View, 'console-queues-09b-held-four-eyes-second-1280');
  await reviewer1View.goto(`/console/#/withdrawal/${large.data.id}`);
  await reviewer1View.getByTestId('payout-hold').waitFor();
  await expect.poll(() => reviewer1View.getByTestId('four-eyes').textContent()).toMatch(approvedAt);
  expect(await reviewer1View.getByTestId('approve-blocked').textContent()).toBe(
    'Payout waits until the customer unfreezes the account · Approved by you (1 of 2) — waiting for a second operator',
  );
  await screenshot(reviewer1View, 'console-queues-09c-held-four-eyes-first-1280');

  // The customer (signed in again: freezing ended every session) reads why it waits on its details.
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  // No startup message (the first unread one: the freeze's notice) over the page under test.
  await callApi('/users/message/reader', { token: login.data.token, form: { ids: 'all' }, base: server.base });
  const context = await phoneContext(browser, { baseURL: server.base });
  contexts.push(context);
  const phone = watch(await context.newPage(), 'customer');
  await openSignedIn(phone, login.data.token, `/#${ROUTES.withdrawDetails}?id=${sent.data.id}`);
  const held = phone.getByTestId('withdraw-held');
  await expect
    .poll(() => held.textContent())
    .toMatch(
      /^On hold: your account is frozenFrozen since .+\. This withdrawal waits and is paid out only after you unfreeze your account in Settings; the total stays held from your balance meanwhile\.$/,
    );
  expect(await phone.locator('.funds-summary .status-badge').textContent()).toBe('In review');
  await screenshot(phone, 'console-queues-10-held-customer');
});
