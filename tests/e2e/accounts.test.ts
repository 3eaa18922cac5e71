// A new user, as a person would: register with the code from the outbox, log in, reach a guarded
// page through `from`, edit the profile, switch to Arabic (right to left) and back, change the mobile
// number (with the login password), log out.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { codeSentTo, phonePageForFile, sameTarget, screenshot } from './browser.ts';
import { homeSettled, logOutFromSettings } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'newuser123';

const hash = () => page.evaluate(() => decodeURIComponent(location.hash));

it('sends an anonymous visitor of a guarded page to login, remembering where they were', async () => {
  await page.goto('/#/pages/mine/setting');
  await page.waitForURL(/#\/pages\/login\/login/);
  expect(await hash()).toBe('#/pages/login/login?from=/pages/mine/setting');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Please enter your username and password first!');
  await screenshot(page, '01-login');
});

it('registers a new user with the code from the outbox', async () => {
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL(/#\/pages\/login\/regist/);
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The verification code has been sent!');
  await expect.poll(() => page.getByRole('button', { name: /Resend in \d+s/ }).count()).toBe(1);
  await page.getByLabel('Verification code').fill(await codeSentTo(phone));
  await page.getByLabel('Login password').fill('short');
  await page.getByLabel('Payment password').fill('123456');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toBe('The login password must be 6-12 letters or numbers!');
  await page.getByLabel('Login password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toBe('Please make sure to read the agreement and try again!');
  await screenshot(page, '02-register');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await homeSettled(page);
  // On startup the new user's first unread message (the welcome) opens at once; OK marks it read.
  const welcome = page.getByRole('alertdialog');
  await welcome.getByRole('button', { name: 'OK' }).click();
  await welcome.waitFor({ state: 'detached' });
  await expect.poll(() => page.getByRole('heading', { name: `Hello, ${sameTarget(phone)}` }).count()).toBe(1);
  await screenshot(page, '03-home');
});

it('logs out, and logs back in through a guarded route', async () => {
  await logOutFromSettings(page);

  await page.goto('/#/pages/mine/setting/nickname');
  await page.waitForURL(/from=/);
  await page.getByLabel('Username, mobile number or e-mail').fill(phone);
  await page.getByLabel('Password').fill('wrongpass1');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong username or password!');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/nickname/);
});

it('edits the nickname', async () => {
  const field = page.getByRole('textbox');
  await field.fill('Trader Ann');
  await screenshot(page, '04-nickname');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting$/);
  await expect.poll(() => page.getByText('Trader Ann').count()).toBeGreaterThan(0);
  await screenshot(page, '05-settings');
});

it('switches to Arabic, laid out right to left, and back to English', async () => {
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await expect
    .poll(() => page.evaluate(() => [document.documentElement.dir, document.documentElement.lang].join()))
    .toBe('rtl,ar');
  await page.waitForSelector('.navbar h1');
  expect(await page.locator('.navbar h1').textContent()).not.toBe('Settings');
  await screenshot(page, '06-settings-arabic');
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Trader Ann').first().waitFor();
  await screenshot(page, '07-mine-arabic');
  await page.goto('/#/pages/mine/setting');
  await page.locator('.cell', { hasText: 'العربية' }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /English/ }).click()]);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');
  await expect.poll(() => page.locator('.navbar h1').textContent()).toBe('Settings');
});

it('changes the mobile number only with the login password, not with the session alone', async () => {
  const newPhone = `09${String(Date.now()).slice(-8)}`;
  await page.goto('/#/pages/mine/setting/phone');
  await page.getByLabel('New mobile number').fill(newPhone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('The verification code has been sent!');
  await page.getByLabel('Verification code').fill(await codeSentTo(newPhone));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Please enter your login password!');
  await page.getByLabel('Login password').fill('wrongpass1');
  await page.getByRole('button', { name: 'Save' }).click();
  // The refusal is about the password: it shows under that field, which it describes, with the focus on it.
  const passwordBox = page.getByLabel('Login password');
  await expect
    .poll(() =>
      passwordBox.evaluate((box) => box.getAttribute('aria-invalid') === 'true' && box === document.activeElement),
    )
    .toBe(true);
  const describedBy = (await passwordBox.getAttribute('aria-describedby')) ?? '';
  expect(await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).toBe(
    'The login password is wrong!',
  );
  // The form's earlier toast ("Please enter your login password!") is not left beside it.
  expect(await page.locator('.toast').count()).toBe(0);
  await page.getByText('Loading...').waitFor({ state: 'hidden' });
  await screenshot(page, '07a-phone-password');
  await page.getByLabel('Login password').fill(password);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting$/);
});

it('logs out: the token is gone from the device and guarded pages need a login again', async () => {
  await page.getByRole('button', { name: 'Log out' }).press('Enter');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/#\/pages\/login\/login/);
  // Logout answers at once on screen; the server call and the IndexedDB write follow.
  const storedSession = () =>
    page.evaluate(
      () =>
        new Promise<unknown>((resolve, reject) => {
          const open = indexedDB.open('coinvest');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const read = open.result.transaction('state').objectStore('state').get('session');
            read.onsuccess = () => resolve(read.result ?? null);
            read.onerror = () => reject(read.error);
          };
        }),
    );
  await expect
    .poll(async () => {
      const stored = (await storedSession()) as { token: unknown } | null;
      return stored === null || stored.token === null;
    })
    .toBe(true);
  await page.goto('/#/pages/mine/setting');
  await page.waitForURL(/#\/pages\/login\/login\?from=/);
  await screenshot(page, '08-logged-out');
});

it('shows a real not-found page with a way home for an unknown path', async () => {
  await page.goto('/#/pages/nowhere/at-all');
  await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
  await screenshot(page, '09-not-found');
  await page.getByRole('link', { name: 'Back to home' }).click();
  await page.waitForURL(/#\/pages\/(index\/index|login\/login)/);
});
