// The practice account as a customer uses it on a phone: switch the trading screens to Practice, see the 10,000
// virtual USDT, buy a 1-minute option with it (the test server's clock runs 20× faster), see it labelled Practice
// while pending, settled and on its own page, see the practice balance move by the settled amount while the real
// money stays what it was, reset the practice account from Mine, and switch back to Real. Offline, the practice
// balance is shown from what was kept, as real balances are; in Arabic the switch reads right to left.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { placeInForm } from './order-form.ts';
import { controlledByServiceWorker, logIn } from './pwa.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `08${String(Date.now() + 7).slice(-8)}`;
const password = 'practice1';
/** "10,008.00" → 10008. */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

const switchTo = (name: 'Real' | 'Practice') =>
  page.locator('.account-switch').getByRole('radio', { name, exact: true }).click();
/** The practice USDT in the violet strip under the switch. */
const strip = () => page.locator('.account-note strong');
const available = () => page.locator('.opt-amount-notes .opt-num').first();

it('trades an option with the practice account, leaves real money alone, resets and switches back', async () => {
  await fundedUser(phone, password, '246810', '100');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);

  // Real first: the real balance, no strip.
  await page.goto(`/#${ROUTES.option}?code=BTC`);
  await expect.poll(async () => amountOf(await available().textContent())).toBe(100);
  expect(await page.locator('.account-bar.practising').count()).toBe(0);

  await switchTo('Practice');
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(10000);
  await expect.poll(async () => amountOf(await available().textContent())).toBe(10000);
  await page.evaluate(() => scrollTo(0, 0));
  await screenshot(page, 'practice-01-switch');

  // A 1-minute option with virtual money: the confirmation and the pending order say Practice.
  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('10');
  const dialog = page.getByRole('alertdialog');
  await placeInForm(
    page,
    async () => {
      await page.getByRole('button', { name: 'Buy up' }).click();
      await expect.poll(() => dialog.locator('.practice-tag').textContent()).toBe('Practice');
    },
    { toast: 'Successful transaction!' },
  );
  // The first order on this device offers notifications: not now.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
  await expect.poll(async () => amountOf(await available().textContent())).toBe(9990);
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(9990);
  const pending = page.locator('.opt-order').first();
  await pending.locator('[role="timer"]').waitFor({ timeout: 30_000 });
  expect(await pending.locator('.practice-tag').textContent()).toBe('Practice');
  await screenshot(page, 'practice-02-trading');

  // One simulated minute is three real seconds here; the settled order is in the record, labelled Practice.
  await page.getByRole('button', { name: /Purchase record/ }).click();
  const settled = page.locator('.opt-order', { has: page.locator('.opt-profit') }).first();
  await settled.waitFor({ timeout: 30_000 });
  expect(await settled.locator('.practice-tag').textContent()).toBe('Practice');
  const profit = amountOf(await settled.locator('.opt-profit').textContent());
  expect([8, 0, -10]).toContain(profit); // a win pays 10 × 1.8, a tie returns 10, a loss keeps nothing
  await expect.poll(async () => amountOf(await available().textContent())).toBe(10000 + profit);
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(10000 + profit);
  await screenshot(page, 'practice-03-settled');

  await settled.click();
  await page.waitForURL(/orderRecord\?id=\d+/);
  await expect.poll(() => page.locator('.opt-summary .practice-tag').textContent()).toBe('Practice');

  // Mine: the practice balance beside the real total, which did not move.
  await page.goto(`/#${ROUTES.mine}`);
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(10000 + profit);
  await expect.poll(async () => amountOf(await page.locator('.total-assets-amount').textContent())).toBe(100);
  await page.locator('.mine-practice').evaluate((card) => card.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'practice-04-mine-balance');

  // Offline, a reload shows the practice balance from what was kept on the device (the service worker's cache).
  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect.poll(async () => amountOf(await strip().textContent()), { timeout: 15_000 }).toBe(10000 + profit);
  } finally {
    await page.context().setOffline(false);
  }
  await page.reload();
  await expect.poll(async () => amountOf(await page.locator('.total-assets-amount').textContent())).toBe(100);

  // Reset, after a confirmation: 10,000 again.
  await page.getByRole('button', { name: 'Reset to 10,000.00 USDT' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset', exact: true }).waitFor();
  await screenshot(page, 'practice-04-reset');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset', exact: true }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Practice account reset to 10,000.00 USDT');
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(10000);
  expect(amountOf(await page.locator('.total-assets-amount').textContent())).toBe(100);

  // Contracts trade with the same practice account: its USDT to buy with.
  await page.goto(`/#${ROUTES.contracts}?code=BTC`);
  await expect.poll(async () => amountOf(await page.locator('.ct-available .opt-num').textContent())).toBe(10000);
  await screenshot(page, 'practice-05-contracts');
  await page.goto(`/#${ROUTES.mine}`);

  // Back to Real: the strip goes, the options page spends and lists real money again.
  await switchTo('Real');
  await expect.poll(() => page.locator('.account-bar.practising').count()).toBe(0);
  await screenshot(page, 'practice-06-mine-real');
  await page.goto(`/#${ROUTES.option}?code=BTC`);
  await expect.poll(async () => amountOf(await available().textContent())).toBe(100);
  await page.getByRole('button', { name: /Purchase record/ }).click();
  await page.getByText('No purchase records yet').waitFor();

  // A practice fill's notification links to the contract orders with account=practice: they open switched to it,
  // and a switch made there stays.
  await page.goto(`/#${ROUTES.contractOrders}?code=BTC&account=practice`);
  await page.locator('.account-bar.practising').waitFor();
  await switchTo('Real');
  await expect.poll(() => page.locator('.account-bar.practising').count()).toBe(0);
});

it('reads right to left in Arabic, the switch and its strip included', async () => {
  await page.goto(`/#${ROUTES.mine}`);
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.locator('.account-switch').getByRole('radio').nth(1).click();
  await expect.poll(async () => amountOf(await strip().textContent())).toBe(10000);
  await page.locator('.mine-practice').evaluate((card) => card.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'practice-07-mine-arabic');
  await page.goto(`/#${ROUTES.option}?code=BTC`);
  await expect.poll(async () => amountOf(await available().textContent())).toBe(10000);
  await screenshot(page, 'practice-08-option-arabic');
});
