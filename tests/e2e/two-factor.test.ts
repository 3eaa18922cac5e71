// Two-factor authentication as a customer turns it on: Settings → the page, the
// QR code and the key, the first code (computed here from the key on the page, as the phone's app
// would), the ten recovery codes shown once; then the withdraw page asks for a code and a
// withdrawal goes through with one, and the anti-phishing code takes one too. Its own server at real
// speed: the shared end-to-end server's clock runs 20× faster (CLOCK_SPEED), and an authenticator app
// follows real time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot } from './browser.ts';
import { callApi, homeSettled, logIn, markAllRead } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { seededDataDir } from './own-server.ts';

const work = mkdtempSync(join(tmpdir(), 'coinvest-two-factor-'));
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: inject('webRoot'), LOG_LEVEL: 'warn', PAYEE_COOLING_HOURS: '0' },
    }),
    launch(),
  ]);
  context = await phoneContext(browser, { baseURL: server.base });
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const toast = () => page.getByRole('alert').textContent();
/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}
/** The code the app shows `ahead` steps from now for the key as the page shows it ("ABCD EFGH …"). */
const appCode = (key: string, ahead = 0) => totpAt(base32Decode(key), totpStep(new Date()) + ahead);

let key = '';
let recoveryCodes: string[] = [];

it('Settings says it is off; the page explains it, and "Set up" shows the QR code and the key', async () => {
  const base = server.base;
  const login = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
    base,
  });
  // A bank card bound before two-factor is on, so the withdraw page has a payee.
  const card = await callApi('/users/bank/add', {
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
  expect(card, JSON.stringify(card)).toMatchObject({ ret: 1 });
  await logIn(page, 'demo', 'demo1234');
  // Read: the notices (the card added, the new sign-ins) would cover the pages below.
  await markAllRead('demo', 'demo1234', base);
  await page.goto('/#/pages/mine/setting');
  await page.reload();
  const cell = page.getByRole('link', { name: /Two-factor authentication/ });
  await expect.poll(() => cell.textContent()).toBe('Two-factor authenticationOff');
  await shot('two-factor-01-settings');
  await cell.click();
  await page.waitForURL(/#\/pages\/mine\/setting\/twoFactor$/);
  await page.getByText('Two-factor authentication is off').waitFor();
  await shot('two-factor-02-off');

  await page.getByRole('button', { name: 'Set up' }).click();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  key = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
  expect(key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  await shot('two-factor-03-setup');
});

it('a wrong first code is refused; the right one and the login password turn it on and show ten recovery codes once', async () => {
  const right = appCode(key);
  await page.getByLabel('Login password').fill('demo1234');
  await page.getByLabel('Code from the app').fill(String((Number(right) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(toast).toBe('The authenticator code is wrong!');
  await shot('two-factor-04-wrong-code');

  await page.getByLabel('Code from the app').fill(appCode(key));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
  const codes = await page.locator('.two-factor-code-list li').allTextContents();
  recoveryCodes = codes;
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  await shot('two-factor-05-recovery-codes');

  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('Two-factor authentication is on').waitFor();
  await expect.poll(() => page.locator('.two-factor-status').textContent()).toContain('Recovery codes left: 10');
  expect(await page.locator('.two-factor-code-list').count()).toBe(0);
  await shot('two-factor-06-on');
});

it('the withdraw page then asks for the authenticator code, and a withdrawal goes through with one', async () => {
  await page.goto('/#/pages/Withdraw/Withdraw');
  const field = page.getByLabel('Authenticator code');
  await field.waitFor();
  await page.getByLabel('Amount (USDT)').fill('10');
  await page.getByLabel('Transaction password').fill('123456');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect.poll(toast).toBe('Please enter the code from your authenticator app!');
  expect(await page.getByRole('alertdialog').count()).toBe(0);

  // The confirmation used this step's code: the app's next one (within the window) is fresh.
  await field.fill(appCode(key, 1));
  await shot('two-factor-07-withdraw-code');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(/#\/pages\/Withdraw\/orderDetails\?id=\d+/);
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('In review');
  await shot('two-factor-08-withdrawn');
});

it('setting the anti-phishing code asks for a code too (a recovery code here); the notice of it shows the code', async () => {
  await page.goto('/#/pages/mine/setting/antiPhishing');
  const field = page.getByLabel('Anti-phishing code');
  await field.waitFor();
  await page.getByLabel('Authenticator code').waitFor();
  await field.fill('Demo heron 7');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(toast).toBe('Please enter the code from your authenticator app!');
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[2]!);
  await shot('two-factor-09-anti-phishing');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(toast).toBe('Your anti-phishing code is saved.');
  await expect.poll(() => page.locator('.anti-phishing-code').textContent()).toBe('Demo heron 7');

  // Read here, so the notice of two-factor is still the first unread one at the next sign-in.
  await page.goto('/#/pages/index/msgList');
  await page.locator('.msg-row', { hasText: 'Anti-phishing code set' }).click();
  const notice = page.getByRole('alertdialog');
  await expect.poll(() => notice.locator('.anti-phishing-code').textContent()).toBe('Demo heron 7');
  await notice.getByRole('button', { name: 'Close' }).click();
});

it('signing in again on this phone asks for a code once (a recovery code here); the next sign-in remembers the phone', async () => {
  const logOut = async () => {
    await page.goto('/#/pages/mine/setting');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/#\/pages\/login\/login/);
  };
  const submitLogin = async () => {
    await page.getByLabel('Username, mobile number or e-mail').fill('demo');
    await page.getByLabel('Password', { exact: true }).fill('demo1234');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Log in' }).click();
  };
  await logOut();
  await submitLogin();
  await expect.poll(toast).toBe('Please enter the code from your authenticator app!');
  await page.getByLabel('Authenticator code').waitFor();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  // The one the anti-phishing code took: told it was used, so another is taken.
  await page.getByLabel('Recovery code').fill(recoveryCodes[2]!);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect
    .poll(toast)
    .toBe('This recovery code has already been used: each recovery code works once. Please enter another one!');
  await page.getByLabel('Recovery code').fill(recoveryCodes[1]!);
  await shot('two-factor-10-login-code');
  await page.getByRole('button', { name: 'Log in' }).click();
  await homeSettled(page);
  // The notice left when two-factor was turned on greets the sign-in.
  const notice = page.getByRole('alertdialog');
  await expect.poll(() => notice.getByRole('heading').textContent()).toBe('Two-factor authentication turned on');
  await notice.getByRole('button', { name: 'OK' }).click();

  await logOut();
  await submitLogin();
  await homeSettled(page);
  expect(await page.getByLabel('Authenticator code').count()).toBe(0);
});

it('a lost phone: a recovery code and the login password turn it off, and the withdraw page asks for no code', async () => {
  await page.goto('/#/pages/mine/setting/twoFactor');
  await page.getByRole('button', { name: 'Turn off' }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!.toLowerCase());
  await page.getByLabel('Login password').fill('demo1234');
  await shot('two-factor-11-turn-off');
  await page.getByRole('button', { name: 'Turn off' }).click();
  await page.getByText('Two-factor authentication is off').waitFor();

  await page.goto('/#/pages/Withdraw/Withdraw');
  await page.getByLabel('Transaction password').waitFor();
  expect(await page.getByLabel('Authenticator code').count()).toBe(0);
});
