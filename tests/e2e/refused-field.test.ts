// A server's refusal of one field lands under that field, tried as a new user would on a phone (390×844): a withdrawal
// sent with a wrong payment password says "The payment password is wrong!" under the password (the input marked
// invalid and described by it, the focus on it), keeps the amount and the password typed, and the text goes as the
// password is edited. Once in Arabic, right to left. A wrong old login password on the password page is said under it
// the same way, and the toast of the form's earlier check (nothing typed) is not left beside it.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fieldState, phonePageForFile, screenshot } from './browser.ts';
import { fundedUser, KASIKORNBANK } from './funded-user.ts';
import { callApi, chooseLanguage, logIn, markAllRead } from './pwa.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `065${String(Date.now()).slice(-7)}`;
const password = 'field123';
const paypass = '135790';
let token: string;

beforeAll(async () => {
  token = await fundedUser(phone, password, paypass, '150');
  const card = await callApi('/users/bank/add', {
    token,
    form: {
      real_name: 'Somchai Jaidee',
      ...KASIKORNBANK,
      bank_number: '907315264802',
      phone: '0812345678',
      email: 'somchai@example.com',
    },
  });
  expect(card).toMatchObject({ ret: 1 });
  // The notices of the recharge and the card are read, so no message covers the withdrawal page.
  await markAllRead(phone, password);
  await logIn(page, phone, password);
});

const amountBox = () => page.locator('input[name="amount"]');
const passwordBox = () => page.locator('input[name="paypass"]');

/** Fills the open withdrawal form with 20 USDT and the payment password `typed`, sends it and confirms it. */
async function sendWithdrawal(typed: string): Promise<void> {
  await amountBox().fill('20');
  await passwordBox().fill(typed);
  await page.locator('form button[type="submit"]').click();
  const confirm = page.getByRole('alertdialog');
  await confirm.locator('button:not([data-dismiss])').last().click();
  await confirm.waitFor({ state: 'detached' });
}

/** Opens the withdrawal page and sends a withdrawal of 20 USDT with the payment password `typed`, confirmed. */
async function withdrawWith(typed: string): Promise<void> {
  await page.goto('/#/pages/Withdraw/Withdraw');
  await page.locator('.funds-rule').waitFor();
  await sendWithdrawal(typed);
}

/** The text the payment password's input is described by, and whether it is marked invalid and has the focus. */
const passwordState = () => fieldState(passwordBox());

it('a wrong payment password is said under the password, with everything typed kept, until it is edited', async () => {
  await withdrawWith('999999');
  await expect.poll(passwordState).toEqual({ invalid: 'true', said: 'The payment password is wrong!', focused: true });
  // Under the password field, not apart from the form: the text sits in the field's own block.
  const field = page.locator('.field', { has: passwordBox() });
  expect(await field.locator('.error-text').textContent()).toBe('The payment password is wrong!');
  expect(await amountBox().inputValue()).toBe('20');
  expect(await passwordBox().inputValue()).toBe('999999');
  expect(page.url()).toMatch(/#\/pages\/Withdraw\/Withdraw$/);
  await screenshot(page, 'refused-field-withdraw-password');

  await passwordBox().press('Backspace');
  await expect.poll(passwordState).toEqual({ invalid: null, said: '', focused: true });
  expect(await field.locator('.error-text').count()).toBe(0);
});

it('a bank card deleted on another device is said under the payee, and the cards left are read again', async () => {
  const cardForm = {
    real_name: 'Somchai Jaidee',
    ...KASIKORNBANK,
    phone: '0812345678',
    email: 'somchai@example.com',
  };
  const second = await callApi('/users/bank/add', { token, form: { ...cardForm, bank_number: '907315264819' } });
  expect(second).toMatchObject({ ret: 1 });
  // Its notice read, so no message covers the form (here, nor in the next test).
  await markAllRead(phone, password);
  const cards = await callApi<{ lists: { id: number }[] }>('/users/bank', { method: 'GET', token });
  const [first] = cards.data.lists.filter((card) => card.id !== (second.data as { id: number }).id);
  await page.goto('/#/pages/Withdraw/Withdraw');
  await page.locator('.funds-rule').waitFor();
  // The form shows the card it chose before it is deleted elsewhere.
  const picker = page.locator('.funds-payee-cell');
  await expect.poll(() => picker.textContent()).toContain('4802');
  expect(await callApi('/users/bank/del', { method: 'GET', token, form: { id: String(first!.id) } })).toMatchObject({
    ret: 1,
  });

  await sendWithdrawal(paypass);
  const payeeState = () =>
    picker.evaluate((box: HTMLElement) => ({
      said: document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
      focused: document.activeElement === box,
      shows: box.textContent,
    }));
  // Under the payee, not a toast; the picker now shows the card left (its number ends 4819), the amount kept.
  await expect.poll(payeeState).toEqual({
    said: 'The bank card or wallet does not exist!',
    focused: true,
    shows: expect.stringContaining('4819'),
  });
  expect(await page.locator('.toast').count()).toBe(0);
  expect(await amountBox().inputValue()).toBe('20');
  await screenshot(page, 'refused-field-withdraw-payee');
});

it('a wrong old login password is said under it, the toast of the form’s earlier check gone', async () => {
  await page.goto(`/#${ROUTES.password}`);
  const oldBox = page.getByLabel('Old password');
  await oldBox.waitFor();
  // Sent empty: the form's own check says so in a toast.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.locator('.toast').textContent()).toBe('Please enter the old password!');
  await oldBox.fill('wrongpass1');
  await page.getByLabel('New password', { exact: true }).fill('newpass123');
  await page.getByLabel('Repeat new password').fill('newpass123');
  await page.getByRole('button', { name: 'Save' }).click();
  // Under the old password, not a toast: the earlier check's toast is gone too, and everything typed stays.
  await expect
    .poll(() => fieldState(oldBox))
    .toEqual({ invalid: 'true', said: 'The old password is wrong!', focused: true });
  expect(await page.locator('.toast').count()).toBe(0);
  expect(await page.locator('.field', { has: oldBox }).locator('.error-text').textContent()).toBe(
    'The old password is wrong!',
  );
  expect(await oldBox.inputValue()).toBe('wrongpass1');
  expect(await page.getByLabel('Repeat new password').inputValue()).toBe('newpass123');
  expect(page.url()).toMatch(/#\/pages\/mine\/setting\/password$/);
  await page.getByText('Loading...').waitFor({ state: 'hidden' });
  await screenshot(page, 'refused-field-old-password');
});

it('in Arabic, right to left, the refusal is under the password too', async () => {
  await chooseLanguage(page, /العربية/);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await withdrawWith('999998');
  await expect.poll(passwordState).toMatchObject({ invalid: 'true', focused: true });
  const said = (await passwordState()).said;
  expect(said).toMatch(/[\u0600-\u06ff]/);
  const field = page.locator('.field', { has: passwordBox() });
  expect(await field.locator('.error-text').textContent()).toBe(said);
  // Laid out under the box, from the right edge as the field's label is.
  const [box, text, label] = await Promise.all(
    [field.locator('.field-box'), field.locator('.error-text'), field.locator('label')].map((item) =>
      item.boundingBox(),
    ),
  );
  expect(text!.y).toBeGreaterThanOrEqual(box!.y + box!.height - 1);
  expect(Math.abs(text!.x + text!.width - (label!.x + label!.width))).toBeLessThan(2);
  await screenshot(page, 'refused-field-withdraw-password-ar');
});
