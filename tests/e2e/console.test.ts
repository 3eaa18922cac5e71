// The operator console in Chromium: a reviewer's day. Operators are made with the real
// command (`ops operator add`, its first password and otpauth:// URI read from what it prints), sign
// in with the authenticator's code computed from that URI, change the first password, approve a
// recharge (the customer's balance shows it), reject a withdrawal with a reason (the funds come back,
// the customer's record says why), and a withdrawal above FOUR_EYES_USDT is paid only after a second
// reviewer approves. Then a session the server ends goes back to sign-in with its reason (how long a session may go
// unused is the server suite's, on its test clock: tests/server/console-sign-in.test.ts), the console speaks Chinese
// and Thai with the server's refusals in the same language, and the customer app's build carries none of the console.
// Its own server at real speed: the authenticator follows real time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it, onTestFinished } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { callApi, controlledByServiceWorker, receiptPng, testPng } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { CONSOLE_LONG_TIME, enrolOperator, firstSignIn as firstSignInAs, opsOn, type Operator } from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { chatHistory, sendChatMessage, type ChatMessage } from '../../src/api-contract/service-chat.ts';
import { seededDataDir } from './own-server.ts';

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };
const NEW_PASSWORD = 'a long console passphrase';

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-'));
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

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
        // Above 100 USDT a withdrawal needs two reviewers.
        FOUR_EYES_USDT: '100',
      },
    }),
    launch(),
  ]);
});

afterEach(async ({ task }) => {
  if (page && task.result?.errors?.length)
    await screenshot(page, `console-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const ops = opsOn({ dataDir: join(work, 'data') });
const enrol = (name: string, role: string) => enrolOperator(ops, name, role);

/**
 * A console page in a context of its own, closed when the test that opened it has ended (after a failure's
 * screenshot): no later test looks at it, and an open page keeps asking for what it shows. `forFile`: the first
 * reviewer's page, which the tests after the first go on with, stays until the file ends.
 */
async function consolePage(viewport = DESKTOP, { forFile = false } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', baseURL: server.base });
  if (forFile) contexts.push(context);
  else onTestFinished(() => context.close());
  return context.newPage();
}

const firstSignIn = (page: Page, operator: Operator, landing?: string) =>
  firstSignInAs(page, operator, NEW_PASSWORD, landing);

// ---- The customer's side, from Node through the customer API -----------------------------------

let customerToken = '';
const customer = <T>(path: string, form: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') =>
  callApi<T>(path, { base: server.base, token: customerToken, form, method });
const usdt = async () =>
  (await customer<{ lists: { asset: string; available: string }[] }>('/users/balances', {}, 'GET')).data.lists.find(
    (row) => row.asset === 'USDT',
  )?.available ?? '0';
let cardId = '';
async function withdrawal(amount: string): Promise<number> {
  const answer = await customer<{ id: number; status: string }>('/users/extract', {
    target: 'bank',
    target_id: cardId,
    amount,
    paypass: DEMO_ACCOUNT.paypass,
  });
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1, data: { status: 'review' } });
  return answer.data.id;
}

let reviewer1: Operator;
let reviewer2: Operator;
let page: Page;

it('a reviewer signs in with the authenticator code, must change the first password, and sees the queues', async () => {
  [reviewer1, reviewer2] = [await enrol('reviewer1', 'reviewer'), await enrol('reviewer2', 'reviewer')];
  page = await consolePage(DESKTOP, { forFile: true });
  await page.goto('/console/');
  await page.getByRole('heading', { name: 'Coinvest console' }).waitFor();
  // A wrong password: the server's refusal, shown as it answered.
  await page.getByLabel('Operator name').fill('reviewer1');
  await page.getByLabel('Password').fill('not the password');
  await page.getByLabel('Authenticator code').fill('123456');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The operator name or the password is wrong!');
  await firstSignIn(page, reviewer1);
  await page.getByRole('heading', { name: 'Review queues' }).waitFor();
  await expect.poll(() => page.getByRole('tab', { name: /Recharges/ }).textContent()).toBe('Recharges 0');
});

it('approves a recharge with its details beside it; the customer’s balance shows it', async () => {
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  customerToken = login.data.token;
  const before = await usdt();
  const channels = await customer<{ lists: { id: number; kind: string; currency: string; address: string }[] }>(
    '/pay/lists',
    {},
    'GET',
  );
  const channel = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const sent = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(channel.id),
    amount: '90',
    hash: randomBytes(32).toString('hex'),
  });
  expect(sent.ret).toBe(1);

  // The live count: the queue page asks again every 10 s.
  await expect
    .poll(() => page.getByRole('tab', { name: /Recharges/ }).textContent(), { timeout: 15_000 })
    .toBe('Recharges 1');
  await page
    .getByRole('row', { name: new RegExp(sent.data.order_no) })
    .getByRole('link', { name: 'Open' })
    .click();
  await page.getByRole('heading', { name: `Recharge ${sent.data.order_no}` }).waitFor();
  await page.getByText('A crypto recharge has no receipt: check the hash.').waitFor();
  // Where the transfer must have gone: the customer's own deposit address, the one their app showed them.
  expect(
    await page
      .locator('.console-facts > div', { has: page.locator('dt', { hasText: /^Paid to \(deposit address\)$/ }) })
      .locator('dd')
      .textContent(),
  ).toBe(channel.address);
  // The page is settled once it says the item is claimed for this reviewer (the claim is asked after the record).
  await page.getByTestId('claim-mine').waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the operator's name and role wrap: the name stays whole and the dot between them on its line.
  const whoLines = await page.locator('.console-who').evaluate((who) => {
    const text = who.textContent ?? '';
    const walker = document.createTreeWalker(who, NodeFilter.SHOW_TEXT);
    const tops: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      for (let at = 0; at < (node.textContent ?? '').length; at++) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        // A space at a line's end may have no box: NaN keeps the indexes those of the text.
        tops.push(Math.round(range.getClientRects()[0]?.top ?? NaN));
      }
    const dot = text.indexOf('·');
    // The name on one line, whole (the dot after it, behind a no-break space).
    const nameWhole = tops.slice(0, dot - 1).every((top) => top === tops[0]);
    return { dotWithName: tops[dot] === tops[dot - 2], nameWhole, text };
  });
  expect(whoLines, whoLines.text).toMatchObject({ dotWithName: true, nameWhole: true });
  await screenshot(page, 'console-00-recharge-390');
  await page.setViewportSize(DESKTOP);
  await page.getByRole('button', { name: 'Approve and credit' }).click();
  await page.locator('.console-page-head').getByText('Approved', { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: 'Approve and credit' }).count()).toBe(0);
  expect(new Big(await usdt()).minus(before).toString()).toBe('90');
});

it('opens a bank recharge’s receipt picture with the console’s token, and rejects it with a reason', async () => {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(receiptPng(96))], { type: 'image/png' }), 'receipt.png');
  const upload = await fetch(`${server.base}/api/users/upload`, {
    method: 'POST',
    headers: { token: customerToken, lang: 'en' },
    body: form,
  });
  const proof = ((await upload.json()) as { data: { url: string } }).data.url;
  const channels = await customer<{ lists: { id: number; kind: string }[] }>('/pay/lists', {}, 'GET');
  const bank = channels.data.lists.find((row) => row.kind === 'bank')!;
  const sent = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'bank',
    channel_id: String(bank.id),
    amount: '3380',
    proof,
  });
  expect(sent.ret, sent.msg).toBe(1);

  await page.goto(`/console/#/recharge/${sent.data.id}`);
  const receipt = page.getByRole('img', { name: `Receipt of ${sent.data.order_no}` });
  await expect.poll(() => receipt.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(96);
  await page.getByRole('button', { name: 'Reject…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject with a reason' });
  await dialog.getByLabel('Reason (the customer sees it)').fill('The receipt does not show the amount');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await page.locator('.console-page-head').getByText('Rejected', { exact: true }).waitFor();
  const record = await customer<{ status: string; reason: string }>('/pay/info', { id: String(sent.data.id) }, 'GET');
  expect(record.data).toMatchObject({ reason: 'The receipt does not show the amount' });
});

it('rejects a withdrawal: a reason is required, the funds come back and the customer’s record shows the reason', async () => {
  const card = await customer<{ id: number }>('/users/bank/add', {
    real_name: 'Somchai Jaidee',
    ifsc: 'KASI0001234',
    bank_code: 'KBANK',
    bank_number: String(100_000_000_000 + randomBytes(4).readUInt32BE()),
    phone: '0812345678',
    email: 'somchai@example.com',
  });
  expect(card.ret, card.msg).toBe(1);
  cardId = String(card.data.id);
  const before = await usdt();
  const id = await withdrawal('60');
  expect(new Big(await usdt()).lt(before)).toBe(true);

  await page.goto(`/console/#/withdrawal/${id}`);
  await page.getByRole('heading', { name: /^Withdrawal / }).waitFor();
  await page.getByRole('button', { name: 'Reject…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject with a reason' });
  // No reason, no rejection: the console's own check, in the server's words.
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect
    .poll(() => dialog.getByRole('alert').textContent())
    .toBe('A rejection needs a reason the customer will see!');
  expect((await customer<{ status: string }>('/users/extract/info', { id: String(id) }, 'GET')).data.status).toBe(
    'review',
  );
  await dialog.getByLabel('Reason (the customer sees it)').fill('The account name does not match yours');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('.console-page-head').getByText('Rejected', { exact: true }).waitFor();

  expect(await usdt()).toBe(before);
  const record = await customer<{ status: string; reason: string }>('/users/extract/info', { id: String(id) }, 'GET');
  expect(record.data).toMatchObject({ status: 'fail', reason: 'The account name does not match yours' });
});

it('a withdrawal above the four-eyes amount is paid only when a second reviewer approves it', async () => {
  const id = await withdrawal('150');
  await page.goto('/console/#/queues');
  await page.getByRole('tab', { name: /Withdrawals/ }).click();
  const row = page.getByRole('row').filter({ hasText: 'Four eyes 0/2' });
  await row.waitFor();
  await screenshot(page, 'console-01-queues-1280');
  await page.setViewportSize(TABLET);
  await screenshot(page, 'console-02-queues-820');
  await page.setViewportSize(DESKTOP);
  await row.getByRole('link', { name: 'Open' }).click();

  const fourEyes = page.getByTestId('four-eyes');
  await expect
    .poll(() => fourEyes.textContent())
    .toBe('Four eyes: this amount needs the approvals of two different reviewers. None yet.');
  // Beside it: the customer's deposits (the recharge above), withdrawals (the rejected one) and sign-ins.
  await page.getByRole('heading', { name: 'Recent sign-ins' }).waitFor();
  expect(await page.locator('.console-beside').textContent()).toContain('90');
  await page.getByTestId('claim-mine').waitFor();
  await page.getByRole('button', { name: 'Approve (first of two)' }).click();
  await expect
    .poll(() => fourEyes.textContent())
    .toMatch(new RegExp(`^Four eyes \\(1 of 2\\): approved by reviewer1 on ${CONSOLE_LONG_TIME}\\.$`));
  expect((await customer<{ status: string }>('/users/extract/info', { id: String(id) }, 'GET')).data.status).toBe(
    'review',
  );
  await screenshot(page, 'console-03-withdrawal-1280');
  await page.setViewportSize(TABLET);
  await screenshot(page, 'console-04-withdrawal-820');
  // The same reviewer cannot be the second pair of eyes: the console says so instead of offering the button (the
  // server refuses it too: tests/server/console-reviews.test.ts).
  await expect
    .poll(() => page.getByTestId('approve-blocked').textContent())
    .toBe('Approved by you (1 of 2) — waiting for a second operator');
  expect(await page.getByRole('button', { name: 'Approve and pay out' }).count()).toBe(0);

  const second = await consolePage(TABLET);
  await firstSignIn(second, reviewer2);
  await second.goto(`/console/#/withdrawal/${id}`);
  await expect
    .poll(() => second.getByTestId('four-eyes').textContent())
    .toMatch(new RegExp(`^Four eyes \\(1 of 2\\): approved by reviewer1 on ${CONSOLE_LONG_TIME}\\.$`));
  await second.getByTestId('claim-mine').waitFor();
  await second.getByRole('button', { name: 'Approve and pay out' }).click();
  await second.locator('.console-page-head').getByText('Approved', { exact: true }).waitFor();
  await expect
    .poll(() => second.getByTestId('four-eyes').textContent())
    .toMatch(
      new RegExp(
        `^Four eyes \\(2 of 2\\): approved by reviewer1 on ${CONSOLE_LONG_TIME} and by reviewer2 on ${CONSOLE_LONG_TIME}\\.$`,
      ),
    );
  expect((await customer<{ status: string }>('/users/extract/info', { id: String(id) }, 'GET')).data.status).toBe(
    'success',
  );
});

it('a recharge above the four-eyes amount is credited only when a second approver approves it', async () => {
  const channels = await customer<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, 'GET');
  const channel = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const sent = await customer<{ id: number; order_no: string }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(channel.id),
    amount: '250',
    hash: randomBytes(32).toString('hex'),
  });
  expect(sent.ret).toBe(1);
  const before = await usdt();
  await page.setViewportSize(DESKTOP);
  await page.goto(`/console/#/recharge/${sent.data.id}`);
  const fourEyes = page.getByTestId('four-eyes');
  await expect
    .poll(() => fourEyes.textContent())
    .toBe('Four eyes: this amount needs the approvals of two different reviewers. None yet.');
  await page.getByTestId('claim-mine').waitFor();
  // The first approval credits nothing: it takes no block height or remark.
  expect(await page.getByLabel('Remark (optional)').count()).toBe(0);
  await page.getByRole('button', { name: 'Approve (first of two)' }).click();
  await expect
    .poll(() => fourEyes.textContent())
    .toMatch(new RegExp(`^Four eyes \\(1 of 2\\): approved by reviewer1 on ${CONSOLE_LONG_TIME}\\.$`));
  await expect
    .poll(() => page.getByTestId('approve-blocked').textContent())
    .toBe('Approved by you (1 of 2) — waiting for a second operator');
  expect(await usdt()).toBe(before);
  await screenshot(page, 'console-05-recharge-first-of-two-1280');

  // The queue says who gave the first approval.
  await page.goto('/console/#/queues');
  await page.getByRole('tab', { name: /Recharges/ }).click();
  const row = page.getByRole('row').filter({ hasText: sent.data.order_no });
  await expect.poll(() => row.locator('.console-tag').textContent()).toBe('Four eyes 1/2, approved by reviewer1');
  await screenshot(page, 'console-06-queue-first-of-two-1280');

  // The operator command is the second pair of eyes ('ops'): the recharge is credited.
  expect(await ops('recharge', 'approve', String(sent.data.id))).toContain('approved');
  expect(new Big(await usdt()).minus(before).toString()).toBe('250');
});

it('speaks Chinese and Thai: its own words and the server’s refusals in the chosen language', async () => {
  const visitor = await consolePage();
  await visitor.goto('/console/');
  await visitor.getByLabel('Language').selectOption('zh');
  await visitor.getByRole('heading', { name: 'Coinvest 管理台' }).waitFor();
  await visitor.getByLabel('操作员名称').fill('reviewer1');
  await visitor.getByLabel('密码').fill('not the password');
  await visitor.getByLabel('身份验证器验证码').fill('123456');
  await visitor.getByRole('button', { name: '登录' }).or(visitor.locator('button[type="submit"]')).first().click();
  const refusal = await visitor.getByRole('alert').textContent();
  expect(refusal).toMatch(/[\u4e00-\u9fff]/);
  expect(refusal).not.toMatch(/[a-z]{3}/i);
  await visitor.getByLabel('语言').selectOption('th');
  await visitor.getByRole('heading', { name: 'คอนโซล Coinvest' }).waitFor();
  // The Chinese refusal goes with the Chinese page: no line in another language under the Thai form.
  expect(await visitor.getByRole('alert').count()).toBe(0);
  await screenshot(visitor, 'console-05-sign-in-th');
});

it('a session the server ended: the next call goes back to sign-in with the server’s message', async () => {
  const reviewer3 = await enrol('reviewer3', 'reviewer');
  const reviewer3Page = await consolePage(TABLET);
  await firstSignIn(reviewer3Page, reviewer3);
  await reviewer3Page.getByRole('link', { name: 'Customers' }).click();
  await reviewer3Page.getByPlaceholder('Username, mobile number or e-mail').fill('dem');
  await reviewer3Page.getByRole('button', { name: 'Search' }).click();
  await reviewer3Page.getByRole('link', { name: 'demo' }).click();
  // Read only: balances, ledger and orders, no control that changes them.
  await reviewer3Page.getByRole('heading', { name: 'Balances' }).waitFor();
  expect(await reviewer3Page.getByTestId('ledger').textContent()).toContain('500');
  // Statuses in the operator's words, not the server's codes ("none / none").
  const status = '(Not certified|Waiting|Approved|Rejected)';
  expect(
    await reviewer3Page
      .locator('.console-facts > div', { has: reviewer3Page.locator('dt', { hasText: /^Certification$/ }) })
      .locator('dd')
      .textContent(),
  ).toMatch(new RegExp(`^${status} / ${status}$`));
  expect(await reviewer3Page.locator('.console-main').getByRole('button').count()).toBe(0);
  await screenshot(reviewer3Page, 'console-06-customer-820');
  await reviewer3Page.getByRole('link', { name: 'Customers' }).first().click();
  // The server ends the session while the page is open (as it does one unused past CONSOLE_IDLE_MINUTES, the same
  // answer): its operator is disabled.
  expect(await ops('operator', 'disable', 'reviewer3')).toMatch(/^Operator reviewer3 disabled at /);
  // The next call is the search tapped now, or, on a loaded machine, the list's own read of the page just opened when
  // it went out after the operator was disabled: whichever it is, its answer takes the page to sign-in. The tap is not
  // waited for once sign-in shows (its button is gone then).
  const signIn = reviewer3Page.getByLabel('Authenticator code');
  await Promise.race([
    reviewer3Page
      .getByRole('button', { name: 'Search' })
      .click()
      .catch(() => signIn.waitFor()),
    signIn.waitFor(),
  ]);
  await expect
    .poll(() => reviewer3Page.getByRole('status').textContent())
    .toBe('Your login has expired, please log in again!');
  await signIn.waitFor();
});

it('an admin adds an operator (the first password and the QR code shown once), who signs in with them; disables them; searches the audit log', async () => {
  const root = await enrol('root', 'admin');
  const admin = await consolePage();
  await firstSignIn(admin, root, 'Operators');
  await admin.getByPlaceholder("New operator's name").fill('reviewer4');
  expect(await admin.getByLabel('Role').locator('option').allTextContents()).toEqual(['Reviewer', 'Content', 'Admin']);
  await admin.getByLabel('Role').selectOption('reviewer');
  await admin.getByRole('button', { name: 'Add operator' }).click();
  const enrolment = admin.locator('.console-enrolment');
  await enrolment.getByRole('heading', { name: 'reviewer4 is added' }).waitFor();
  expect(
    await enrolment.getByRole('img', { name: 'QR code of the authenticator enrolment' }).locator('svg').count(),
  ).toBe(1);
  const reviewer4 = {
    name: 'reviewer4',
    password: (await enrolment.locator('p code').textContent())!,
    uri: (await enrolment.locator('code.console-uri').textContent())!,
  };
  expect(reviewer4.uri).toMatch(/^otpauth:\/\/totp\//);
  await screenshot(admin, 'console-07-operator-added-1280');
  // What the console showed is enough to sign in: the first password and the authenticator's enrolment.
  const reviewer4Page = await consolePage(TABLET);
  await firstSignIn(reviewer4Page, reviewer4);

  await enrolment.getByRole('button', { name: 'Done' }).click();
  admin.once('dialog', (dialog) => void dialog.accept());
  await admin
    .getByRole('row', { name: /reviewer4/ })
    .getByRole('button', { name: 'Disable' })
    .click();
  await admin
    .getByRole('row', { name: /reviewer4/ })
    .getByText(/^Disabled /)
    .waitFor();
  // Reviewer4's session ended with the account: its next call (Customers lists the numbers to settle as it opens) goes
  // back to sign-in.
  await reviewer4Page.getByRole('link', { name: 'Customers' }).click();
  await reviewer4Page.getByLabel('Authenticator code').waitFor();

  await admin.getByRole('link', { name: 'Audit log' }).click();
  await admin.getByLabel('Operator').fill('reviewer1');
  await admin.getByLabel('Action').fill('withdrawal.reject');
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => admin.locator('.console-muted').first().textContent()).toBe('Entries: 1 · page 1 of 1');
  const entry = admin.locator('.console-audit tbody tr');
  expect(await entry.count()).toBe(1);
  expect(await entry.textContent()).toContain('The account name does not match yours');
  await screenshot(admin, 'console-08-audit-1280');
});

it('a content operator edits the scroll notice side by side, one language at a time', async () => {
  const erin = await enrol('erin', 'content');
  const content = await consolePage();
  await firstSignIn(content, erin, 'Content');
  await content.getByRole('tab', { name: 'Scroll notice' }).click();
  await content.getByRole('list', { name: 'Items' }).getByRole('button').first().click();
  const thai = content.getByRole('article', { name: 'ไทย' });
  await thai.waitFor();
  expect(await content.getByRole('article').count()).toBe(6);
  const notice = `ประกาศทดสอบ ${randomBytes(3).toString('hex')}`;
  await thai.getByLabel('Text').fill(notice);
  await thai.getByRole('button', { name: 'Save ไทย' }).click();
  await expect.poll(() => thai.locator('header').textContent()).toBe('ไทยWritten');
  await screenshot(content, 'console-09-content-1280');
  await content.reload();
  await content.getByRole('list', { name: 'Items' }).getByRole('button').first().click();
  await expect.poll(() => content.getByRole('article', { name: 'ไทย' }).getByLabel('Text').inputValue()).toBe(notice);
});

it('a content operator sets the check-in ladder and publishes a blind box prize table: refusals are the server’s, customers see what was saved', async () => {
  const rhea = await enrol('rhea', 'content');
  const rewards = await consolePage();
  await firstSignIn(rewards, rhea, 'Content');
  await rewards.getByRole('navigation').getByRole('link', { name: 'Rewards' }).click();
  // The ladder: letters are the server's refusal; a number is saved and is what a customer's next check-in pays.
  const ladder = rewards.getByRole('list', { name: 'Check-in ladder' });
  await ladder.getByLabel('Day 1', { exact: true }).fill('x');
  await rewards.getByRole('button', { name: 'Save the ladder' }).click();
  await expect
    .poll(() => rewards.getByRole('alert').textContent())
    .toBe('A ladder is 1 to 31 whole numbers of points from 1 to 1000000, separated by commas: 5,5,10,10,15,20,30.');
  await ladder.getByLabel('Day 1', { exact: true }).fill('3');
  await rewards.getByRole('button', { name: 'Save the ladder' }).click();
  await expect.poll(() => rewards.getByRole('status').textContent()).toBe('Saved. It pays from the next check-in on.');
  await screenshot(rewards, 'console-30-rewards-ladder-1280');
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  const calendar = await callApi<{ ladder: string[] }>('/task/signin', {
    base: server.base,
    token: login.data.token,
    method: 'GET',
  });
  expect(calendar.data.ladder).toEqual(['3', '5', '10', '10', '15', '20', '30']);

  // The blind box: odds computed as the table is written; odds not summing to 100 % are refused; a table that does is
  // published.
  await rewards.getByRole('tab', { name: 'Welfare tasks' }).click();
  await rewards.getByRole('row', { name: 'First option placed' }).waitFor();
  await screenshot(rewards, 'console-31-rewards-welfare-1280');
  await rewards.getByRole('tab', { name: 'Blind box' }).click();
  await rewards.getByRole('table', { name: 'Prizes in force' }).waitFor();
  await screenshot(rewards, 'console-32-rewards-blindbox-1280');
  const grand = rewards.getByRole('row', { name: 'Prize 1' });
  const thanks = rewards.getByRole('row', { name: 'Prize 6' });
  await grand.getByLabel('Weight (per million)').fill('2000');
  expect(await grand.getByRole('cell').nth(5).textContent()).toBe('0.2%');
  await rewards.getByRole('button', { name: 'Publish this table' }).click();
  await expect
    .poll(() => rewards.getByRole('alert').textContent())
    .toBe('The weights sum to 1001000, not 1000000 (100 %): nothing changed.');
  await thanks.getByLabel('Weight (per million)').fill('439000');
  await expect
    .poll(() => rewards.getByRole('note').textContent())
    .toMatch(
      /^Weights sum to 1,000,000 of 1,000,000 \(100%\)\. Expected value of a draw: 0\.39 USDT \+ 30\.00 POINT\.$/,
    );
  await rewards.getByRole('button', { name: 'Publish this table' }).click();
  await expect
    .poll(() => rewards.getByRole('status').textContent())
    .toBe('Published. It applies to seeds committed from now on.');
  await expect
    .poll(() =>
      rewards
        .getByRole('table', { name: 'Prizes in force' })
        .getByRole('row', { name: 'Grand prize' })
        .getByRole('cell')
        .nth(3)
        .textContent(),
    )
    .toBe('0.2%');
  await screenshot(rewards, 'console-33-rewards-published-1280');
  const info = await callApi<{ prizes: { name: string; odds: string }[]; table_current: boolean }>('/blindbox/info', {
    base: server.base,
    token: login.data.token,
    method: 'GET',
  });
  expect(info.data.table_current).toBe(true);
  expect(info.data.prizes.map((prize) => prize.odds)).toEqual(['0.2%', '0.9%', '10%', '5%', '40%', '43.9%']);
});

it('an admin edits an option product’s yield in place: a bad value is said by its field and sends nothing, a good one is saved and customers see it', async () => {
  const yieldOf5Minutes = async () => {
    const products = await callApi<{ lists: { minutes: number; yield_rate: string }[] }>('/coin/option/products', {
      base: server.base,
      form: { code: 'ETH' },
      method: 'GET',
    });
    return products.data.lists.find((product) => product.minutes === 5)?.yield_rate;
  };
  const before = await yieldOf5Minutes();
  const ada = await enrol('ada', 'admin');
  const admin = await consolePage();
  await firstSignIn(admin, ada, 'Operators');
  await admin.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
  await admin.getByLabel('Coin').selectOption('ETH');
  const row = admin.getByRole('row', { name: 'ETH, 5 min' });
  // "85" meant as 85 % would pay 85 times the stake: refused by the field, in the operator's words, before sending.
  await row.getByLabel('Yield on a win').fill('85');
  await row.getByRole('button', { name: 'Save ETH, 5 min' }).click();
  await expect
    .poll(() => admin.getByRole('alert').textContent())
    .toBe('Yield on a win: Enter a fraction of the stake above 0 and at most 1, with up to 4 decimals (85 % is 0.85).');
  expect(await yieldOf5Minutes()).toBe(before);
  // "0,85" reads as 0.85 or as 85: said by the field too.
  await row.getByLabel('Yield on a win').fill('0,85');
  await row.getByRole('button', { name: 'Save ETH, 5 min' }).click();
  await expect
    .poll(() => admin.getByRole('alert').textContent())
    .toMatch(/^Yield on a win: This number can be read two ways\. Write it as in /);
  await row.getByLabel('Yield on a win').fill('0.87');
  await row.getByRole('button', { name: 'Save ETH, 5 min' }).click();
  await expect
    .poll(() => admin.getByRole('status').textContent())
    .toBe('Saved. Orders already placed keep their terms.');
  expect(await row.getByLabel('Yield on a win').inputValue()).toBe('0.87');
  await screenshot(admin, 'console-10-products-1280');
  expect(await yieldOf5Minutes()).toBe('0.87');
});

it('a customer’s chat message answered from the inbox', async () => {
  // The customer writes from the app: a picture and words, through the chat's own calls.
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  const token = login.data.token;
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(testPng(96))], { type: 'image/png' }), 'screen.png');
  const upload = await fetch(`${server.base}/api/users/upload`, {
    method: 'POST',
    headers: { token, lang: 'en' },
    body: form,
  });
  const picture = ((await upload.json()) as { data: { url: string } }).data.url;
  const question = 'My withdrawal has not arrived yet. Can you check it?';
  const sent = await callApi<ChatMessage>(sendChatMessage.path, {
    base: server.base,
    token,
    form: { body: question, picture },
  });
  expect(sent, sent.msg).toMatchObject({ ret: 1, data: { author: 'customer', body: question } });

  const fiona = await enrol('fiona', 'reviewer');
  const inbox = await consolePage();
  await firstSignIn(inbox, fiona);
  // The queues say it waits, and so does the navigation.
  await expect
    .poll(() => inbox.locator('.console-service-waiting').textContent())
    .toBe('1 customer conversation waits for an answer. Open the inbox →');
  const navItem = inbox.getByRole('navigation').getByRole('link', { name: /^Inbox/ });
  await expect.poll(() => navItem.textContent()).toBe('Inbox1');

  // A canned reply, written once for the whole team.
  await navItem.click();
  await inbox.getByRole('link', { name: 'Canned replies' }).click();
  const answer =
    'Your withdrawal left us this morning: banks take up to one hour. Write again if it has not arrived by then.';
  await inbox.getByLabel('Title (only the team sees it)').fill('Withdrawal on its way');
  await inbox.getByLabel('Answer (the customer reads it)').fill(answer);
  await inbox.getByRole('button', { name: 'Add canned reply' }).click();
  await inbox.getByRole('list', { name: 'Canned replies' }).getByText('Withdrawal on its way').waitFor();
  await screenshot(inbox, 'console-23-canned-replies-1280');
  await inbox.getByRole('link', { name: 'Inbox' }).first().click();

  // Waiting: the customer's words, nobody has it yet.
  await inbox.getByRole('tab', { name: /Waiting/ }).click();
  const conversations = inbox.getByRole('list', { name: 'Conversations' });
  const row = conversations.getByRole('link', { name: /demo/ });
  await expect
    .poll(() => row.textContent())
    .toMatch(/^demo.*My withdrawal has not arrived yet\. Can you check it\?UnassignedWaits for an answer$/);
  await row.click();
  await inbox.getByRole('heading', { name: /^demo/ }).waitFor();
  const shown = inbox.getByRole('img', { name: 'Picture from demo' });
  await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(96);
  expect(await inbox.getByRole('link', { name: 'Customer record' }).getAttribute('href')).toMatch(/#\/customer\/\d+$/);

  // The canned reply fills the box; Ctrl+Enter sends it.
  await inbox.getByLabel('Canned reply', { exact: true }).selectOption({ label: 'Withdrawal on its way' });
  const box = inbox.getByLabel('Answer', { exact: true });
  expect(await box.inputValue()).toBe(answer);
  await screenshot(inbox, 'console-20-inbox-1280');
  await box.press('Control+Enter');
  await inbox.locator('.console-bubble-operator').getByText(answer).waitFor();
  expect(await inbox.locator('.console-bubble-operator .console-bubble-meta').textContent()).toMatch(/^fiona · /);
  expect(await box.inputValue()).toBe('');
  await expect.poll(() => inbox.locator('.console-conversation-state').textContent()).toBe('Assigned to fiona');
  // Answered: out of the Waiting view (fiona's now).
  await expect.poll(() => conversations.getByRole('link', { name: /demo/ }).count()).toBe(0);
  await inbox.getByText('No conversation here.').waitFor();
  await inbox.setViewportSize(TABLET);
  await screenshot(inbox, 'console-21-inbox-820');
  await inbox.getByRole('link', { name: '← Inbox' }).click();
  await inbox.getByRole('tab', { name: 'Mine' }).click();
  await conversations.getByRole('link', { name: /demo/ }).waitFor();
  await screenshot(inbox, 'console-22-inbox-list-820');

  // The customer reads the answer in the app: one unread message of the service team.
  const history = await callApi<{ messages: ChatMessage[]; unread: number }>(chatHistory.path, {
    base: server.base,
    token,
    method: 'GET',
  });
  expect(history.data.unread).toBe(1);
  expect(history.data.messages.map(({ author, body }) => ({ author, body }))).toEqual([
    { author: 'customer', body: question },
    { author: 'operator', body: answer },
  ]);
});

// ---- The customer app carries none of it -----------------------------------------------------

/** Strings only the console's code has: its session key, a console call's path, its layout's class. */
const CONSOLE_MARKERS = ['coinvest.console.token', '/console/sign-in', 'console-frame'];

it('the customer app’s build has no console module, and its service worker keeps none of the console', async () => {
  const root = inject('webRoot');
  const consoleFiles = readdirSync(join(root, 'console', 'assets')).filter((file) => /\.(js|css)$/.test(file));
  const consoleCode = consoleFiles
    .map((file) => readFileSync(join(root, 'console', 'assets', file), 'utf8'))
    .join('\n');
  // The markers are real: the console's own build has each of them.
  for (const marker of CONSOLE_MARKERS) expect(consoleCode, marker).toContain(marker);

  const appFiles = readdirSync(join(root, 'assets')).filter((file) => /\.(js|css)$/.test(file));
  expect(appFiles.length).toBeGreaterThan(20);
  const appCode = [
    readFileSync(join(root, 'index.html'), 'utf8'),
    readFileSync(join(root, 'sw.js'), 'utf8'),
    ...appFiles.map((file) => readFileSync(join(root, 'assets', file), 'utf8')),
  ];
  for (const marker of CONSOLE_MARKERS) expect(appCode.filter((code) => code.includes(marker)).length, marker).toBe(0);
  // The precache list names files of the app only.
  const precached = [...readFileSync(join(root, 'sw.js'), 'utf8').matchAll(/"url":"([^"]+)"/g)].map(
    (match) => match[1]!,
  );
  expect(precached).toContain('index.html');
  expect(
    precached.filter((url) => url.startsWith('console/') || consoleFiles.some((file) => url.endsWith(file))),
  ).toEqual([]);

  // In a browser where the app's worker runs, /console/ and its files come from the network, and no cache keeps them.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'en-US',
    baseURL: server.base,
  });
  contexts.push(phone);
  const app = await phone.newPage();
  await app.goto('/');
  await controlledByServiceWorker(app);
  const fromWorker: string[] = [];
  app.on('response', (response) => void (response.fromServiceWorker() && fromWorker.push(response.url())));
  const navigation = await app.goto('/console/');
  expect(navigation?.fromServiceWorker()).toBe(false);
  await app.getByRole('heading', { name: 'Coinvest console' }).waitFor();
  expect(fromWorker.filter((url) => url.includes('/console/'))).toEqual([]);
  const cached = await app.evaluate(async () =>
    (
      await Promise.all(
        (await caches.keys()).map(async (name) =>
          (await (await caches.open(name)).keys()).map((request) => request.url),
        ),
      )
    ).flat(),
  );
  expect(cached.length).toBeGreaterThan(20);
  expect(cached.filter((url) => url.includes('/console/'))).toEqual([]);
});
