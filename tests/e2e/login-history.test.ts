// The sign-in history as a customer meets it: a wrong password from a laptop the account never used (a call from Node
// with a Firefox on Windows User-Agent) is refused as ever and leaves the owner one security notice; Settings →
// Sign-in history on this phone lists it as a failed attempt beside the sign-ins, in English and in Arabic (right to
// left).
import { randomUUID } from 'node:crypto';
import { expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOCALE_NAMES } from '../../src/api-contract/constants.ts';
import { phonePageForFile, screenshot } from './browser.ts';
import { callApi, logIn, markAllRead, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'history123';

/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

it('shows a wrong password from a new laptop as a failed attempt, and its notice reaches the owner', async () => {
  await registerUser(phone, password, '975310');
  const response = await fetch(`${inject('baseUrl')}/api/users/login`, {
    method: 'POST',
    headers: {
      'user-agent': FIREFOX_WINDOWS,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': randomUUID(),
      lang: 'en',
    },
    body: new URLSearchParams({ username: phone, password: 'wrong9876' }),
  });
  // The caller is told only what a wrong password is always told.
  expect(await response.json()).toEqual({ ret: 0, msg: 'Wrong username or password!', data: null });
  const { data } = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  const inbox = await callApi<{ lists: { title: string; content: string }[] }>('/users/message', {
    token: data.token,
    form: { page: '1' },
  });
  expect(inbox.data.lists[0]).toMatchObject({
    title: 'Failed sign-in attempt',
    content: expect.stringMatching(/^Someone tried to sign in to your account on Firefox, Windows from \S+ at \d{4}-/),
  });
  await markAllRead(phone, password);

  await logIn(page, phone, password);
  await page.goto('/#/pages/mine/setting');
  await page.getByRole('link', { name: 'Sign-in history' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/devices\?view=history$/);
  const rows = page.locator('.login-item');
  // This phone's sign-in, three from Node (marking messages read twice, reading the inbox), the failed one,
  // registering.
  await expect.poll(() => rows.count()).toBe(6);
  const first = rows.first();
  expect(await first.locator('.device-name').textContent()).toBe('Signed in');
  expect(await first.locator('.device-badge').textContent()).toBe('Password');
  expect(await first.locator('.login-device').textContent()).toBe('Chrome, Linux');
  const failed = rows.filter({ hasText: 'Failed attempt' });
  expect(await failed.count()).toBe(1);
  expect(await failed.locator('.login-device').textContent()).toBe('Firefox, Windows');
  // No address-to-country table is configured: the place is unknown, the address partly hidden.
  expect(await failed.locator('.login-place').textContent()).toMatch(/^Unknown place · (?:127\.0\.0\.•••|0:0:0:…)$/);
  expect(await rows.last().locator('.device-badge').textContent()).toBe('Code');
  await shot('login-history-en');
});

it('reads right to left in Arabic', async () => {
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Language', { exact: true }).click();
  await page.getByText(LOCALE_NAMES.ar, { exact: true }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.goto('/#/pages/mine/setting/devices?view=history');
  const failed = page.locator('.login-item[data-failed]');
  await expect.poll(() => failed.locator('.device-name').textContent()).toBe('محاولة فاشلة');
  expect(await failed.locator('.login-device').textContent()).toBe('Firefox, Windows');
  expect(await page.locator('.login-item').count()).toBe(6);
  await shot('login-history-ar');
});
