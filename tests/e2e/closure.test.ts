// My data and closing the account as a customer meets them on a phone, in English and in Arabic (right to left):
// Settings opens the page; "Download my data" hands over a ZIP of JSON and CSV files (with the document pictures when
// ticked), and offline says it needs a connection; closing is confirmed by a dialog and the login password, signs the
// phone out, and the account then signs in no more. A wrong password is said under its box (English and Arabic), never
// as a toast. A customer left with 0.77 USDT, below the 10 USDT withdrawal minimum, sees it listed as ending with the
// account and closes only after agreeing to it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { strFromU8, unzipSync } from 'fflate';
import {
  fieldState,
  launch,
  phoneContext,
  recordToasts,
  screenshot,
  toastSeen,
  toastsShown,
  watchPagesOnFailure,
} from './browser.ts';
import { callApi, logIn, registerUser } from './pwa.ts';
import { addBankCard, fundedUser } from './funded-user.ts';
import { operator } from './operator.ts';
import { openSignedIn } from './stored-session.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

let browser: Browser;
const watch = watchPagesOnFailure();
beforeAll(async () => void (browser = await launch()));
afterAll(() => browser?.close());

const stamp = String(Date.now()).slice(-7);
const password = 'leaving123';
const paypass = '135790';

/** The page settled: no loading mask over it. */
const settled = (page: Page) => page.locator('.mask').waitFor({ state: 'detached' });

it('takes the data, offline says why not, then closes the account with the login password (English)', async () => {
  const phone = `064${stamp}`;
  await registerUser(phone, password, paypass);
  const context: BrowserContext = await phoneContext(browser);
  const page = watch(await context.newPage(), 'en');
  await recordToasts(page);
  await logIn(page, phone, password);
  await page.goto(`/#${ROUTES.settings}`);
  await page.getByText('My data and closing the account').click();
  await expect.poll(() => page.getByRole('heading', { name: 'Take your data' }).count()).toBe(1);
  await settled(page);
  await screenshot(page, 'closure-en');
  await screenshot(page, 'closure-en-full', { fullPage: true });

  // The archive, with the document pictures asked for.
  await page.getByRole('checkbox', { name: 'Include the pictures of my identity documents' }).check();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^account-data-\d{4}-\d\d-\d\d\.zip$/);
  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['README.txt', 'profile.json', 'ledger.csv']));
  expect(JSON.parse(strFromU8(files['profile.json']!))[0].username).toMatch(/^\+66/);
  await toastSeen(page, 'Your data is downloaded.', 10_000);

  // Offline: a clear message, nothing sent.
  await context.setOffline(true);
  try {
    await page.getByRole('button', { name: 'Download my data' }).click();
    await toastSeen(page, 'You are offline. Taking your data needs a connection: try again once online.', 10_000);
    await screenshot(page, 'closure-en-offline');
  } finally {
    await context.setOffline(false);
  }

  // Nothing typed: the page says so in a toast of its own, in place of the offline one.
  await page.getByRole('button', { name: 'Close my account' }).click();
  await toastSeen(page, 'Please enter the password!', 10_000);
  // A wrong password is refused after the dialog, which takes that toast away; the right one closes.
  const field = page.getByLabel('Login password', { exact: true }).last();
  await field.fill('wrong1234');
  await page.getByRole('button', { name: 'Close my account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Close your account?');
  await dialog.getByRole('button', { name: 'Close it' }).click();
  // Said under the password it is about (which it describes, the focus on it), never as a toast; the typing kept.
  await expect
    .poll(() => fieldState(field))
    .toEqual({ invalid: 'true', said: 'The login password is wrong!', focused: true });
  expect(await field.inputValue()).toBe('wrong1234');
  expect(await page.locator('.toast').count()).toBe(0);
  expect(await toastsShown(page)).not.toContain('The login password is wrong!');
  await screenshot(page, 'closure-en-wrong-password');
  await field.fill(password);
  await page.getByRole('button', { name: 'Close my account' }).click();
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Close your account?');
  await screenshot(page, 'closure-en-confirm');
  await dialog.getByRole('button', { name: 'Close it' }).click();
  await toastSeen(page, 'Your account is closed.', 10_000);
  await page.waitForURL(/#\/pages\/login\/login/);

  // The account signs in no more: the same answer as an unknown account.
  const again = await callApi('/users/login', { form: { username: phone, password } });
  const unknown = await callApi('/users/login', { form: { username: `065${stamp}`, password } });
  expect(again).toEqual(unknown);
  expect(again.ret).toBe(0);
  await context.close();
});

it('shows the page right to left in Arabic and closes with the payment password', async () => {
  const phone = `066${stamp}`;
  await registerUser(phone, password, paypass);
  const login = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  const context = await phoneContext(browser, { locale: 'ar-EG' });
  const page = watch(await context.newPage(), 'ar');
  await recordToasts(page);
  await openSignedIn(page, login.data.token, `/#${ROUTES.closeAccount}`);
  await expect.poll(() => page.getByRole('heading', { name: 'خذ بياناتك' }).count()).toBe(1);
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await settled(page);
  await screenshot(page, 'closure-ar');
  await screenshot(page, 'closure-ar-full', { fullPage: true });

  await page.getByRole('button', { name: 'كلمة مرور الدفع' }).click();
  const field = page.getByLabel('كلمة مرور الدفع').last();
  const dialog = page.getByRole('alertdialog');
  // A wrong payment password: said under it in Arabic, laid out from the right edge as its label, not as a toast.
  await field.fill('999999');
  await page.getByRole('button', { name: 'إغلاق حسابي' }).click();
  await dialog.getByRole('button', { name: 'أغلقه' }).click();
  await expect
    .poll(() => fieldState(field))
    .toEqual({ invalid: 'true', said: 'كلمة مرور الدفع غير صحيحة!', focused: true });
  expect(await page.locator('.toast').count()).toBe(0);
  expect(await toastsShown(page)).not.toContain('كلمة مرور الدفع غير صحيحة!');
  const block = page.locator('.field', { has: field });
  const [box, text, label] = await Promise.all(
    [block.locator('.field-box'), block.locator('.error-text'), block.locator('label')].map((item) =>
      item.boundingBox(),
    ),
  );
  expect(text!.y).toBeGreaterThanOrEqual(box!.y + box!.height - 1);
  expect(Math.abs(text!.x + text!.width - (label!.x + label!.width))).toBeLessThan(2);
  await screenshot(page, 'closure-ar-wrong-paypass');

  await field.fill(paypass);
  await page.getByRole('button', { name: 'إغلاق حسابي' }).click();
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('إغلاق حسابك؟');
  await screenshot(page, 'closure-ar-confirm');
  await dialog.getByRole('button', { name: 'أغلقه' }).click();
  await toastSeen(page, 'تم إغلاق حسابك.', 10_000);
  await page.waitForURL(/#\/pages\/login\/login/);
  expect((await callApi('/users/info', { method: 'GET', token: login.data.token })).ret).toBe(-1);
  await context.close();
});

it('lists 0.77 USDT left below the withdrawal minimum and closes only with the customer’s consent to it', async () => {
  // 10.87 USDT recharged, 10 withdrawn and paid out (its fee 0.10): 0.77 is left, which cannot be withdrawn.
  const phone = `063${stamp}`;
  const token = await fundedUser(phone, password, paypass, '10.87');
  await addBankCard(phone, token);
  const cards = await callApi<{ lists: { id: number }[] }>('/users/bank', { method: 'GET', token });
  const sent = await callApi<{ id: number }>('/users/extract', {
    token,
    form: { target: 'bank', target_id: String(cards.data.lists[0]!.id), amount: '10', paypass },
  });
  expect(sent.ret).toBe(1);
  expect(await operator('withdrawal', 'approve', String(sent.data.id))).toMatch(/approved|paid/i);
  // The notice of the card added is read: it would open over the page at start.
  expect((await callApi('/users/message/reader', { token, form: { ids: 'all' } })).ret).toBe(1);

  const context = await phoneContext(browser);
  const page = watch(await context.newPage(), 'en');
  await recordToasts(page);
  await openSignedIn(page, token, `/#${ROUTES.closeAccount}`);
  const listed = page.locator('.closure-ending-balances');
  await expect
    .poll(() => listed.locator('li').allTextContents())
    .toEqual(['0.77000000 USDT — below the 10 USDT withdrawal minimum']);
  expect(await listed.textContent()).toContain(
    'These amounts cannot be withdrawn or sold. They end with the account and are not paid out:',
  );
  await settled(page);
  await screenshot(page, 'closure-en-ending', { fullPage: true });

  // Without the consent the button does not work; with it, the dialog states the amount once more and closing ends it.
  await page.getByLabel('Login password', { exact: true }).last().fill(password);
  const closeButton = page.getByRole('button', { name: 'Close my account' });
  expect(await closeButton.isDisabled()).toBe(true);
  await page
    .getByRole('checkbox', { name: 'I agree that these amounts end with my account and are not paid out.' })
    .check();
  await closeButton.click();
  const dialog = page.getByRole('alertdialog');
  await expect
    .poll(() => dialog.locator('.closure-ending-list').textContent())
    .toBe('Ending with the account, not paid out:0.77000000 USDT — below the 10 USDT withdrawal minimum');
  await dialog.getByRole('button', { name: 'Close it' }).click();
  await toastSeen(page, 'Your account is closed.', 10_000);
  await page.waitForURL(/#\/pages\/login\/login/);
  expect((await callApi('/users/info', { method: 'GET', token })).ret).toBe(-1);
  await context.close();
});
