// Money in and out as a person would move it: a new user recharges 150 USDT by a crypto transfer
// (the QR page, the hash), the operator approves it with the real operator command, the balance,
// the record and the VIP level follow. Then a withdrawal to a bank card bound on the way (the no-bank-card
// prompt): the quote before sending, a wrong payment password that moves nothing, the request held
// in review, the operator's rejection with its reason, and the funds back in the account details.
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { operator, rowId } from './operator.ts';
import { callApi, goOffline, goOnline, logIn, registerUser } from './pwa.ts';
import { RECHARGE_CHANNELS } from '../../src/server/db/seed-funds.ts';
import { depositAddressOf } from '../../src/server/domain/deposit-addresses.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'funds123';
const paypass = '246810';
const hash = randomBytes(32).toString('hex'); // 64 letters and digits, as a TRC20 TxID
/** The customer's own USDT (TRC20) deposit address: under the seeded channel's key, at their customer id. */
let ownAddress = '';

const toast = () => page.getByRole('alert').textContent();
/** The text of the row of a details card (dl.detail-rows) labelled `label`. */
const row = (label: string | RegExp) =>
  page
    .locator('.detail-rows > div', { has: page.locator('dt', { hasText: label }) })
    .locator('dd .money-amount')
    .first();
const available = () => row('Available').textContent();
/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

// Every step below starts from a new user signed in on this phone, with nothing in the account.
beforeAll(async () => {
  await registerUser(phone, password, paypass);
  const { data: session } = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  const { data: me } = await callApi<{ id: number }>('/users/info', { method: 'GET', token: session.token });
  ownAddress = depositAddressOf('TRC20', RECHARGE_CHANNELS.find((channel) => channel.chain === 'TRC20')!.xpub!, me.id);
  await logIn(page, phone, password);
  // expect.poll belongs to tests: the same check, within the same 10 s.
  await page.waitForFunction(() => document.querySelector('.home-balance-amount')?.textContent === '0.00', undefined, {
    timeout: 10_000,
  });
});

it('recharges 150 USDT by a TRC20 transfer: QR code and address, amount and hash, then pending', async () => {
  await page.locator('.home-entries').getByRole('link', { name: 'Recharge' }).click();
  await page.waitForURL(/#\/pages\/Recharge\/Recharge$/);
  await page.getByRole('link', { name: /USDT \(TRC20\)/ }).click();
  await page.waitForURL(/#\/pages\/Recharge\/qrpay\?id=\d+/);

  const qr = page.getByRole('img', { name: 'QR code of the deposit address' });
  await qr.waitFor();
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // Their own address, which no other customer is shown, not the channel's shared one.
  expect(await page.locator('.funds-address').textContent()).toBe(ownAddress);
  expect(ownAddress).not.toBe(RECHARGE_CHANNELS.find((channel) => channel.chain === 'TRC20')!.address);
  await shot('funds-01-recharge-qr');

  await page.getByLabel('Amount sent (USDT)').fill('150');
  await expect.poll(() => page.locator('.funds-preview .money-amount').textContent()).toBe('150.00 USDT');
  await page.getByLabel('Transaction hash').fill(hash);
  await shot('funds-02-recharge-filled');
  await page.getByRole('button', { name: 'Submit' }).click();

  await page.waitForURL(/#\/pages\/Recharge\/orderDetails\?id=\d+/);
  await expect.poll(toast).toBe('Submitted successfully, please wait for the review!');
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('Pending review');
  expect(await row('Actual amount').textContent()).toBe('150.00 USDT');
  expect(await page.locator('.detail-rows .funds-mono', { hasText: hash }).count()).toBe(1);
  await shot('funds-03-recharge-pending');
});

it('the operator approves the recharge: credited, listed as completed, balance 150.00 and VIP 1', async () => {
  const id = rowId(await operator('recharges'), hash);
  expect(await operator('recharge', 'approve', id)).toMatch(
    new RegExp(`^Recharge ${id} .* approved: 150 USDT credited`),
  );

  await page.reload();
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('Credited');
  expect(await page.locator('.funds-summary-amount .money-amount').textContent()).toBe('150.00 USDT');
  await page.getByText('Credited to your balance').waitFor();
  await shot('funds-04-recharge-credited');

  await page.goto('/#/pages/Recharge/record');
  await page.getByRole('button', { name: 'Completed' }).click();
  const listed = page.locator('.record-list li', { hasText: 'USDT (TRC20)' });
  await expect.poll(() => listed.count()).toBe(1);
  expect(await listed.locator('.status-badge').textContent()).toBe('Credited');
  expect(await listed.locator('.money-amount').allTextContents()).toEqual(['150.00 USDT', '150.00 USDT']);
  await page.getByRole('button', { name: 'Unfinished' }).click();
  await page.getByText('No recharges yet').waitFor();
  await page.getByRole('button', { name: 'Completed' }).click();
  await listed.waitFor();
  await shot('funds-05-recharge-record');

  await page.goto('/#/pages/index/index');
  await expect.poll(() => page.locator('.home-balance-amount').textContent()).toBe('150.00');

  await page.goto('/#/pages/mine/vipLevel');
  await expect.poll(() => page.locator('.vip-card-level').textContent()).toBe('VIP 1');
  expect(await page.locator('.vip-card-amount .money-amount').textContent()).toBe('150.00 USDT');
  await shot('funds-06-vip');
  await page.goto('/#/pages/mine/mine');
  await expect
    .poll(() => page.locator('.cell', { hasText: 'VIP level' }).locator('.cell-value').textContent())
    .toBe('VIP 1');
});

it('withdraw first asks for a bank card; the card is bound from the prompt and the way leads back', async () => {
  await page.locator('.mine-money').getByRole('link', { name: 'Withdraw' }).click();
  await page.waitForURL(/#\/pages\/Withdraw\/Withdraw$/);
  const prompt = page.getByRole('alertdialog');
  await expect
    .poll(() => prompt.locator('p').textContent())
    .toBe('You have not bound bank card, please bind bank card first!');
  await shot('funds-07-withdraw-no-card');
  await prompt.getByRole('button', { name: 'Bind card' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/tradeAccount/);

  await page.getByLabel('Real name').fill('Somchai Jaidee');
  await page.getByLabel('IFSC code').fill('kasi0001234');
  await page.getByLabel('Bank', { exact: true }).click();
  const sheet = page.getByRole('dialog');
  await sheet.getByRole('menuitemradio', { name: /KBANK/ }).click();
  await sheet.waitFor({ state: 'detached' });
  expect(await page.locator('.payout-picker-value').textContent()).toBe('KBANK Kasikornbank');
  await page.getByLabel('Bank account number').fill('1234567890');
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByLabel('E-mail').fill('somchai@example.com');
  expect(await page.getByLabel('IFSC code').inputValue()).toBe('KASI0001234');
  await shot('funds-08-bank-card-form');
  await page.getByRole('button', { name: 'Save bank card' }).click();

  await page.waitForURL(/#\/pages\/Withdraw\/Withdraw$/);
  await expect.poll(toast).toBe('Saved successfully!');
  await expect
    .poll(() => page.locator('.funds-payee-cell .funds-payee').textContent())
    .toBe('Kasikornbank •••• 7890Somchai Jaidee');
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await expect.poll(available).toBe('150.00 USDT');
});

it('shows the fee, total and amount received before sending; a wrong payment password moves nothing', async () => {
  await page.getByLabel('Amount (USDT)').fill('50');
  await expect.poll(() => row('Fee (1%)').textContent()).toBe('0.50 USDT');
  expect(await row('Total deducted').textContent()).toBe('50.50 USDT');
  expect(await row('You receive').textContent()).toBe('50.00 USDT');
  await page.getByLabel('Transaction password').fill('999999');
  await shot('funds-09-withdraw-quote');

  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('heading', { name: 'Confirm the withdrawal' }).waitFor();
  expect(await confirm.locator('.money-amount').allTextContents()).toEqual([
    '50.00 USDT',
    '0.50 USDT',
    '50.50 USDT',
    '50.00 USDT',
  ]);
  await shot('funds-10-withdraw-confirm');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(toast).toBe('The payment password is wrong!');
  await confirm.waitFor({ state: 'detached' });
  await shot('funds-10b-withdraw-wrong-password');
  expect(page.url()).toMatch(/#\/pages\/Withdraw\/Withdraw$/);

  // Nothing was held: a fresh look still shows the whole balance, and no withdrawal was recorded.
  await page.reload();
  // At this start the app shows the newest unread message: the notice of the card bound above.
  const notice = page.getByRole('alertdialog').filter({ hasText: 'New withdrawal address added' });
  await expect
    .poll(() => notice.textContent())
    .toContain(
      'Kasikornbank •••• 7890 was added to your account. If you did not add it, delete it at once and change your passwords.',
    );
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect.poll(available).toBe('150.00 USDT');
  await page.goto('/#/pages/Withdraw/record');
  await page.getByText('No withdrawals yet').waitFor();
});

let withdrawalUrl = '';

it('the right payment password sends it: in review, 50.50 held, 99.50 left', async () => {
  await page.goto('/#/pages/Withdraw/Withdraw');
  await expect.poll(available).toBe('150.00 USDT');
  await page.getByLabel('Amount (USDT)').fill('50');
  await page.getByLabel('Transaction password').fill(paypass);
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();

  await page.waitForURL(/#\/pages\/Withdraw\/orderDetails\?id=\d+/);
  withdrawalUrl = page.url();
  await expect.poll(toast).toBe('Submitted successfully, please wait for the review!');
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('In review');
  expect(await page.locator('.funds-summary-amount .money-amount').textContent()).toBe('50.00 USDT');
  await page.getByText('The total is held from your balance until the review.').waitFor();
  expect(await row(/^Fee$/).textContent()).toBe('0.50 USDT');
  expect(await row('Total deducted').textContent()).toBe('50.50 USDT');
  expect(await page.locator('.detail-rows > div', { hasText: 'Account number' }).locator('dd').textContent()).toBe(
    '•••• 7890',
  );
  expect(await page.locator('.funds-summary').textContent()).toMatch(/To be paid out as [\d,]+\.\d{2} THB/);
  await shot('funds-11-withdraw-review');

  await page.goto('/#/pages/Withdraw/Withdraw');
  await expect.poll(available).toBe('99.50 USDT');
  await shot('funds-12-withdraw-after');
});

it('the operator rejects it with a reason: failed, the reason shown, 150.00 back, both moves in the account details', async () => {
  const id = rowId(await operator('withdrawals'), phone);
  expect(await operator('withdrawal', 'reject', id, 'Account name does not match')).toMatch(
    /rejected: "Account name does not match"\. 50\.5 USDT returned/,
  );

  await page.goto(withdrawalUrl);
  await page.reload();
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('Failed');
  const reason = page.locator('.funds-summary .funds-reason');
  expect(await reason.textContent()).toBe(
    'The withdrawal failedAccount name does not matchThe funds have been returned to your balance.',
  );
  await shot('funds-13-withdraw-failed');

  await page.goto('/#/pages/Withdraw/Withdraw');
  await expect.poll(available).toBe('150.00 USDT');

  await page.goto('/#/pages/Withdraw/record');
  const listed = page.locator('.record-list li');
  await expect.poll(() => listed.count()).toBe(1);
  expect(await listed.locator('.status-badge').textContent()).toBe('Failed');

  await page.goto('/#/pages/accountDetails/accountDetails');
  const entries = page.locator('.funds-entry');
  await expect.poll(() => entries.count()).toBe(3);
  const shown = await entries.evaluateAll((items) =>
    items.map((item) => [
      item.querySelector('.record-row-title')?.textContent,
      item.querySelector('.money-amount')?.textContent,
    ]),
  );
  expect(shown).toEqual([
    ['Withdrawal returned', '+50.50 USDT'],
    ['Withdrawal', '−50.50 USDT'],
    ['Recharge', '+150.00 USDT'],
  ]);
  await shot('funds-14-account-details');
  await page.getByRole('button', { name: 'Withdrawal', exact: true }).click();
  await expect.poll(() => entries.count()).toBe(2);
  await page.getByRole('button', { name: 'Recharge', exact: true }).click();
  await expect.poll(() => entries.count()).toBe(1);
});

it('offline, the account details and the failed withdrawal still open from the cache, marked "Offline — as of"', async () => {
  // Both were read online above (network first, kept in this user's own cache).
  await page.goto(withdrawalUrl);
  await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('Failed');
  await goOffline(page.context());
  try {
    await page.goto('/#/pages/accountDetails/accountDetails');
    await page.reload();
    await expect.poll(() => page.locator('.funds-entry').count()).toBe(3);
    await expect
      .poll(() => page.locator('.offline-note').textContent())
      .toMatch(/^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/);
    await shot('funds-15-account-details-offline');
    await page.goto(withdrawalUrl);
    await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('Failed');
    expect(await page.locator('.funds-summary .funds-reason').textContent()).toContain('Account name does not match');
  } finally {
    await goOnline(page.context());
  }
});

it('the withdrawal record shows every amount and fee of one asset with the same decimals, as do its details', async () => {
  const login = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  expect(login.ret, login.msg).toBe(1);
  const token = login.data.token;
  const cards = await callApi<{ lists: { id: number }[] }>('/users/bank', { method: 'GET', token });
  const card = String(cards.data.lists[0]!.id);
  // 99.5 USDT pays a fee of 0.995 (1 %): three decimals, where the others have two or none.
  for (const amount of ['20', '99.5']) {
    const sent = await callApi('/users/extract', { token, form: { target: 'bank', target_id: card, amount, paypass } });
    expect(sent.ret, sent.msg).toBe(1);
  }
  await page.goto('/#/pages/Withdraw/record');
  await page.reload();
  const listed = page.locator('.record-list li');
  await expect.poll(() => listed.count()).toBe(3);
  const amounts = await listed.evaluateAll((items) =>
    items.map((item) => [...item.querySelectorAll('.money-amount')].map((money) => money.textContent)),
  );
  // Newest first: [amount, fee] of each.
  expect(amounts).toEqual([
    ['99.500 USDT', '0.995 USDT'],
    ['20.000 USDT', '0.200 USDT'],
    ['50.000 USDT', '0.500 USDT'],
  ]);
  await shot('funds-16-withdraw-record-decimals');

  await listed.first().click();
  await page.waitForURL(/#\/pages\/Withdraw\/orderDetails\?id=\d+/);
  await expect.poll(() => row(/^Fee$/).textContent()).toBe('0.995 USDT');
  expect(await row(/^Amount$/).textContent()).toBe('99.500 USDT');
  expect(await row('Total deducted').textContent()).toBe('100.495 USDT');
  expect(await row('Actual amount').textContent()).toBe('99.500 USDT');
  await shot('funds-17-withdraw-details-decimals');
});
