// The anti-phishing code as a customer sets it, on a phone: Settings says none is set; its page explains
// it, refuses markup before sending anything, and saves a phrase; Settings says it is set; the security
// notice of it shows the code apart at the top, and the list's preview leaves it out. In Arabic, the code
// changed: the notice of the change opens at the next start, right to left, with the new code on top.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOCALE_NAMES } from '../../src/api-contract/constants.ts';
import { phonePageForFile, screenshot } from './browser.ts';
import { logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const phone = `08${String(Date.now() + 11).slice(-8)}`;
const password = 'heron1234';
const toast = () => page.getByRole('alert').textContent();

/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

it('sets the code in Settings and finds it at the top of the security notice', async () => {
  await registerUser(phone, password, '135246');
  await logIn(page, phone, password);

  await page.goto('/#/pages/mine/setting');
  const cell = page.getByRole('link', { name: /Anti-phishing code/ });
  await expect.poll(() => cell.textContent()).toBe('Anti-phishing codeNot set');
  await shot('anti-phishing-01-settings');
  await cell.click();
  await page.waitForURL(/#\/pages\/mine\/setting\/antiPhishing$/);
  const field = page.getByLabel('Anti-phishing code');
  await field.waitFor();
  expect(await page.locator('.anti-phishing-badge').count()).toBe(0);
  await shot('anti-phishing-02-empty');

  // Markup is refused on the phone by the API contract's own rule.
  await field.fill('<b>Heron</b>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(toast)
    .toBe('The anti-phishing code must be 4-20 letters or digits, with single spaces between words!');
  await field.fill('Blue heron 42');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(toast).toBe('Your anti-phishing code is saved.');
  const badge = page.locator('.anti-phishing-badge');
  await expect.poll(() => badge.textContent()).toBe('Your anti-phishing code: Blue heron 42');
  expect(await page.getByRole('button', { name: 'Change' }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(1);
  await page.getByRole('alert').waitFor({ state: 'detached' });
  await shot('anti-phishing-03-set');

  await page.goto('/#/pages/mine/setting');
  await expect.poll(() => cell.textContent()).toBe('Anti-phishing codeSet');

  await page.goto('/#/pages/index/msgList');
  const row = page.locator('.msg-row').first();
  await expect.poll(() => row.locator('.msg-title').textContent()).toBe('Anti-phishing code set');
  // The list shows what the notice says; the code stands only in the open notice.
  expect(await row.locator('.msg-preview').textContent()).toMatch(/^A new anti-phishing code was set for your/);
  await shot('anti-phishing-04-messages');
  await row.click();
  const notice = page.getByRole('alertdialog');
  await expect
    .poll(() => notice.locator('.anti-phishing-badge').textContent())
    .toBe('Your anti-phishing code: Blue heron 42');
  expect(await notice.locator('.msg-reader-content').textContent()).toMatch(
    /^A new anti-phishing code was set for your account at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
  );
  await shot('anti-phishing-05-notice');
  await notice.getByRole('button', { name: 'Close' }).click();
});

it('in Arabic, a changed code is on top of the notice that opens at the next start', async () => {
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Language', { exact: true }).click();
  await page.getByText(LOCALE_NAMES.ar, { exact: true }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');

  await page.goto('/#/pages/mine/setting/antiPhishing');
  const badge = page.locator('.anti-phishing-badge');
  await expect.poll(() => badge.locator('.anti-phishing-code').textContent()).toBe('Blue heron 42');
  await page.locator('.anti-phishing-page .btn.secondary').click();
  await page.locator('input[name="phrase"]').fill('صقر الصحراء ٧');
  await page.locator('.anti-phishing-page button[type="submit"]').click();
  await expect.poll(() => badge.locator('.anti-phishing-code').textContent()).toBe('صقر الصحراء ٧');
  await page.getByRole('alert').waitFor({ state: 'detached' });
  await shot('anti-phishing-06-set-ar');

  // The next start opens the first unread message: the notice of the change, written in Arabic.
  await page.goto('/#/pages/index/index');
  await page.reload();
  const notice = page.getByRole('alertdialog');
  await expect.poll(() => notice.locator('.anti-phishing-code').textContent()).toBe('صقر الصحراء ٧');
  expect(await notice.locator('.anti-phishing-label').textContent()).toMatch(/[\u0600-\u06FF]/);
  expect(await notice.locator('.msg-reader-content').textContent()).toMatch(/[\u0600-\u06FF]/);
  await shot('anti-phishing-07-notice-ar');
});
