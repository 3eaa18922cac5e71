// Devices and sessions as a customer meets them: signed in on a laptop (a call
// from Node with a Firefox on Windows User-Agent) and on this phone, the owner is told of each new
// device; Settings → Devices lists both, this phone marked; ending the laptop's session there makes
// its token useless at once, and "End all other sessions" leaves only this phone; a remembered device whose session
// ended stays listed until it is forgotten alone.
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { nextFrame, phonePageForFile, screenshot } from './browser.ts';
import { callApi, logIn, registerUser } from './pwa.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'device123';
let laptop = '';

interface Message {
  title: string;
  content: string;
}

/** A sign-in from another device: the app's call, with that device's User-Agent (and its code or device token). */
async function logInWith(
  userAgent: string,
  more: { otp?: string; device?: string } = {},
): Promise<{ ret: number; msg: string; data: { token: string; device: string } | null }> {
  const response = await fetch(`${inject('baseUrl')}/api/users/login`, {
    method: 'POST',
    headers: {
      'user-agent': userAgent,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': randomUUID(),
      lang: 'en',
    },
    body: new URLSearchParams({ username: phone, password, ...more }),
  });
  return (await response.json()) as { ret: number; msg: string; data: { token: string; device: string } | null };
}

/**
 * The authenticator step of the server's time, read from its latest price: the shared server's clock runs faster than
 * real time (CLOCK_SPEED), and a step of the feed is at most a few server seconds old (a step either side is accepted).
 */
async function serverStep(): Promise<number> {
  const quote = await callApi<{ at: string }>('/coin/data/rate', { method: 'GET', form: { code: 'BTC' } });
  return totpStep(new Date(quote.data.at));
}

/** A sign-in from another device that succeeds: its session's token. */
async function logInAs(userAgent: string): Promise<string> {
  const answer = await logInWith(userAgent);
  expect(answer.ret).toBe(1);
  return answer.data!.token;
}

beforeAll(async () => {
  await registerUser(phone, password, '246810');
  laptop = await logInAs(FIREFOX_WINDOWS);
  const inbox = await callApi<{ lists: Message[] }>('/users/message', { token: laptop, form: { page: '1' } });
  expect(inbox.data.lists[0]).toMatchObject({
    title: 'New sign-in',
    content: expect.stringMatching(/^New sign-in on Firefox, Windows from \S+ at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./),
  });
  expect((await callApi('/users/message/reader', { token: laptop, form: { ids: 'all' } })).ret).toBe(1);
});

it('lists the laptop and this phone, ends the laptop’s session there, and its token is refused at once', async () => {
  // The unread check after signing in is what would open a message: once its answer is handled and painted, none is
  // open.
  const unreadChecked = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/users/message/unread',
  );
  await logIn(page, phone, password);
  // This phone is the browser the customer registered with (the test's Node calls say so): no new-device message opens.
  await (await unreadChecked).finished();
  await nextFrame(page);
  expect(await page.getByRole('alertdialog').count()).toBe(0);

  await page.goto('/#/pages/mine/setting');
  await page.getByRole('link', { name: 'Devices' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/devices$/);
  const rows = page.locator('.device-item');
  // Registered and marked read from Node (as this browser), the laptop, and this phone.
  await expect.poll(() => rows.count()).toBe(4);
  const first = rows.first();
  expect(await first.locator('.device-name').textContent()).toBe('Chrome, Linux');
  expect(await first.locator('.device-badge').textContent()).toBe('This device');
  expect(await first.getByRole('button').count()).toBe(0);
  const laptopRow = rows.filter({ hasText: 'Firefox, Windows' });
  expect(await laptopRow.count()).toBe(1);
  // Where it came from, partly hidden (the test's calls come from this machine: 127.0.0.••• or ::1's first groups).
  expect(await laptopRow.locator('.device-address').textContent()).toMatch(/^(?:127\.0\.0\.•••|0:0:0:…)$/);
  expect(await laptopRow.locator('.device-time').allTextContents()).toEqual([
    expect.stringMatching(/^Signed in \S/),
    expect.stringMatching(/^Last seen \S/),
  ]);
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'sessions-devices');

  expect((await callApi('/users/info', { method: 'GET', token: laptop })).ret).toBe(1);
  await laptopRow.getByRole('button', { name: 'End' }).click();
  const confirm = page.getByRole('alertdialog');
  expect(await confirm.textContent()).toContain(
    'End the session on Firefox, Windows? That device will have to log in again and, with two-factor authentication ' +
      'on, enter a code: it is no longer remembered.',
  );
  await screenshot(page, 'sessions-end-confirm');
  await confirm.getByRole('button', { name: 'End' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The session has ended.');
  await expect.poll(() => rows.count()).toBe(3);
  expect(await callApi('/users/info', { method: 'GET', token: laptop })).toEqual({
    ret: -1,
    msg: 'Your login has expired, please log in again!',
    data: null,
  });
});

it('ends all the other sessions and keeps this phone signed in', async () => {
  await page.getByRole('button', { name: 'End all other sessions' }).click();
  const confirm = page.getByRole('alertdialog');
  expect(await confirm.textContent()).toContain(
    'Every device except this one will have to log in again, and, with two-factor authentication on, enter a code',
  );
  await confirm.getByRole('button', { name: 'End all' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('All other sessions have ended.');
  const rows = page.locator('.device-item');
  await expect.poll(() => rows.count()).toBe(1);
  expect(await page.getByRole('button', { name: 'End all other sessions' }).count()).toBe(0);

  // This phone still works: a reload reads the list from the server again.
  await page.reload();
  await expect.poll(() => rows.count()).toBe(1);
  expect(await rows.first().locator('.device-badge').textContent()).toBe('This device');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'sessions-only-this-device');
});

it('keeps a remembered device whose session ended, and forgets it alone', async () => {
  // Two-factor turned on from an iPhone; then the laptop signs in with a code (now remembered) and logs out.
  const iphone = await logInAs(SAFARI_IOS);
  const setup = await callApi<{ secret: string }>('/users/two-factor/setup', { token: iphone });
  const secret = base32Decode(setup.data.secret);
  const confirmedAt = await serverStep();
  const confirmed = await callApi('/users/two-factor/confirm', {
    token: iphone,
    form: { code: totpAt(secret, confirmedAt), password },
  });
  expect(confirmed.ret, JSON.stringify(confirmed)).toBe(1);
  // The laptop's code is of a later step than the one the confirmation used up.
  let step = confirmedAt;
  await expect.poll(async () => (step = await serverStep())).toBeGreaterThan(confirmedAt);
  const signedIn = await logInWith(FIREFOX_WINDOWS, { otp: totpAt(secret, step) });
  expect(signedIn.ret, JSON.stringify(signedIn)).toBe(1);
  const { token, device } = signedIn.data as { token: string; device: string };
  expect((await callApi('/users/logout', { token })).ret).toBe(1);
  expect((await callApi('/users/message/reader', { token: iphone, form: { ids: 'all' } })).ret).toBe(1);

  await page.reload();
  const rows = page.locator('.device-item');
  await expect.poll(() => rows.count()).toBe(3);
  const laptopRow = rows.filter({ hasText: 'Firefox, Windows' });
  expect(await laptopRow.locator('.device-time').last().textContent()).toBe(
    'Session ended, device still remembered: it can log in with the password alone.',
  );
  // The words above the list are true of it too.
  expect(await page.locator('.sessions-page .form-note').textContent()).toBe(
    'These devices are signed in to your account, or were and are still remembered by it. If you do not recognise ' +
      'one, end its session or forget it, and change your login password.',
  );
  await laptopRow.scrollIntoViewIfNeeded();
  await screenshot(page, 'sessions-ended-remembered');
  await laptopRow.getByRole('button', { name: 'Forget' }).click();
  const confirm = page.getByRole('alertdialog');
  expect(await confirm.textContent()).toContain(
    'Forget Firefox, Windows? Its session has already ended; at its next log-in it will have to enter a code from ' +
      'your authenticator app.',
  );
  await confirm.getByRole('button', { name: 'Forget' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The device has been forgotten.');
  await expect.poll(() => rows.count()).toBe(2);
  // The laptop's token no longer spares it the code.
  expect(await logInWith(FIREFOX_WINDOWS, { device })).toEqual({
    ret: 0,
    msg: 'Please enter the code from your authenticator app!',
    data: null,
    field: 'otp',
  });
});
