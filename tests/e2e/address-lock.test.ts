// The withdrawal address lock and payee labels as a customer meets them on a phone: the switch on the bank card
// page turns the lock on at once; asking to turn it off takes the payment password and shows when it takes effect,
// counting down, with the way to keep it on; a bank card is added with a label and a wallet renamed, and the labels
// show in the lists and in the withdrawal's choice of destination.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { callApi, logIn, markAllRead, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `063${String(Date.now()).slice(-7)}`;
const password = 'locked1234';
const paypass = '246813';

const lockSwitch = () => page.getByRole('switch', { name: 'Withdrawal address lock' });

it('turns the lock on, asks to turn it off with the payment password and shows the countdown, then keeps it on', async () => {
  await registerUser(phone, password, paypass);
  await logIn(page, phone, password);
  await page.goto('/#/pages/mine/setting/tradeAccount');
  await expect.poll(() => lockSwitch().getAttribute('aria-checked')).toBe('false');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'address-lock-off');
  await lockSwitch().click();
  await expect.poll(() => lockSwitch().getAttribute('aria-checked')).toBe('true');
  await expect
    .poll(() => page.locator('.address-lock-note').textContent())
    .toBe('On: withdrawals go only to your saved bank cards and wallets, 24 hours after each was added.');

  // Turning off asks for the payment password (no two-factor here); a wrong one changes nothing.
  await lockSwitch().click();
  const dialog = page.getByRole('alertdialog');
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Turn off the address lock?');
  await dialog.getByLabel('Transaction password').fill('000000');
  await dialog.getByRole('button', { name: 'Turn off in 24 h' }).click();
  // Said under the password it is about, in the dialog, not as a toast apart from it.
  await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('The payment password is wrong!');
  // (The toast of the lock turned on may still be showing: none says the password's refusal.)
  expect(await page.locator('.toast', { hasText: /password/i }).count()).toBe(0);
  await dialog.getByLabel('Transaction password').fill(paypass);
  await screenshot(page, 'address-lock-turn-off');
  await dialog.getByRole('button', { name: 'Turn off in 24 h' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  const countdown = page.locator('.address-lock-countdown');
  await expect.poll(() => countdown.textContent()).toMatch(/^Turns off at .+ \(in (24 h 0|23 h \d+) min\)\.$/);
  // Still on until then, and the switch waits for the countdown or a "keep it on".
  expect(await lockSwitch().getAttribute('aria-checked')).toBe('true');
  expect(await lockSwitch().isDisabled()).toBe(true);
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'address-lock-countdown');

  const login = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  const lock = await callApi<{ on: boolean; off_seconds: number }>('/users/address-lock', {
    method: 'GET',
    token: login.data.token,
  });
  expect(lock.data).toMatchObject({ on: true, off_seconds: expect.any(Number) });
  expect(lock.data.off_seconds).toBeGreaterThan(23 * 3600);

  await page.getByRole('button', { name: 'Keep it on' }).click();
  await expect.poll(() => countdown.count()).toBe(0);
  expect(await lockSwitch().getAttribute('aria-checked')).toBe('true');
  await markAllRead(phone, password);
});

it('adds a bank card with a label, renames a wallet, and shows both labels where the destination is chosen', async () => {
  await page.goto('/#/pages/mine/setting/tradeAccount');
  await page.getByLabel('Real name').fill('Somchai Jaidee');
  await page.getByLabel('IFSC code').fill('KASI0001234');
  await page.getByRole('button', { name: 'Bank', exact: true }).click();
  await page.getByRole('dialog').getByText('KBANK').click();
  await page.getByLabel('Bank account number').fill('907315264802');
  await page.getByLabel('Mobile number').fill('0812345678');
  await page.getByLabel('E-mail').fill('somchai@example.com');
  // Markup is refused on the device, before anything is sent.
  await page.getByLabel('Label (optional)').fill('<b>Rent</b>');
  await page.getByRole('button', { name: 'Save bank card' }).click();
  await expect
    .poll(() => page.locator('.toast').textContent())
    .toBe('A label is at most 30 characters, without < > or control characters!');
  await page.getByLabel('Label (optional)').fill('Rent');
  await page.getByRole('button', { name: 'Save bank card' }).click();
  await expect.poll(() => page.locator('.payout-bankcard .payout-label').textContent()).toBe('Rent');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'address-lock-bank-card-label');

  // A wallet, renamed from its list.
  const login = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  const added = await callApi('/users/wallet/add', {
    token: login.data.token,
    form: { alias: 'My TRON', currency: 'USDT', chain: 'TRC20', address: 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp' },
  });
  expect(added).toMatchObject({ ret: 1 });
  await page.goto('/#/pages/mine/walletList');
  await page.getByRole('button', { name: 'Edit label' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel('Your name for this payee').fill('Cold storage');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.locator('.payout-wallet-alias').textContent()).toBe('Cold storage');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'address-lock-wallet-label');

  // The withdrawal's destination names the card by its label.
  await page.goto('/#/pages/Withdraw/Withdraw');
  const label = page.locator('.funds-payee-label').first();
  await expect.poll(() => label.textContent()).toBe('Rent');
  // The page's own styles are in (the payee's lines stacked), and nothing loads over it.
  const payee = page.locator('.funds-payee').first();
  await expect.poll(() => payee.evaluate((node) => getComputedStyle(node).flexDirection)).toBe('column');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'address-lock-withdraw-destination');
});
