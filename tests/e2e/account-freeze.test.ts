// Freezing one's own account on a phone, in English and in Arabic (right to left): Settings → Freeze my account opens
// the Devices page at its card, which says what a freeze does; freezing takes the payment password, signs this device
// out and brings the login back, which returns to the card; frozen, orders are refused; unfreezing takes the payment
// password and shows when it takes effect, counting down, with the way to keep it frozen.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { callApi, homeSettled, markAllRead, registerUser } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

/** The Devices page at its Freeze my account card, where Settings → Freeze my account leads. */
const FREEZE = `${ROUTES.devices}?freeze=1`;

let browser: Browser;
const watch = watchPagesOnFailure();
beforeAll(async () => void (browser = await launch()));
afterAll(() => browser?.close());

const password = 'frozen1234';
const paypass = '135792';
const FROZEN_REFUSAL =
  'Your account is frozen: no order, withdrawal or payee change is accepted until you unfreeze it in Settings.';
const countdown = (page: Page) => page.locator('.account-freeze-countdown');

/**
 * In the page: whether the text of `element` (one text node) is drawn in reading order left to right, its first
 * character left of its last (a DOM Range's rectangles, as the text's bidi runs lay them out).
 */
function drawnLeftToRight(element: Element): boolean {
  const node = document.createTreeWalker(element, NodeFilter.SHOW_TEXT).nextNode();
  const length = node?.textContent?.length ?? 0;
  if (!node || length < 2) return false;
  const rectOf = (at: number) => {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect();
  };
  return rectOf(0).right <= rectOf(length - 1).left;
}

async function signInHere(page: Page, phone: string): Promise<void> {
  await page.getByLabel('Username, mobile number or e-mail').fill(phone);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
}

it('freezes with the payment password, signs out, and unfreezes in 24 hours, in English', async () => {
  const phone = `064${String(Date.now()).slice(-7)}`;
  await registerUser(phone, password, paypass);
  const page = watch(await (await phoneContext(browser)).newPage(), 'en');
  await page.goto('/#/pages/login/login');
  await signInHere(page, phone);
  await homeSettled(page);
  await page.goto(`/#${ROUTES.settings}`);
  await page.getByText('Freeze my account').click();
  await expect.poll(() => decodeURIComponent(page.url())).toContain(FREEZE);
  const card = page.getByTestId('account-freeze');
  await expect.poll(() => card.getByRole('listitem').count()).toBe(5);
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'account-freeze-en');

  await card.getByRole('button', { name: 'Freeze my account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Freeze your account now?');
  await dialog.getByLabel('Transaction password').fill(paypass);
  await screenshot(page, 'account-freeze-confirm-en');
  await dialog.getByRole('button', { name: 'Freeze now' }).click();

  // Signed out: the login, which comes back to the freeze page.
  await page.getByLabel('Username, mobile number or e-mail').waitFor();
  expect(decodeURIComponent(page.url())).toContain(`from=${FREEZE}`);
  await markAllRead(phone, password);
  await signInHere(page, phone);
  const frozen = page.locator('.account-freeze-state');
  await expect.poll(() => frozen.textContent()).toMatch(/^Your account is frozen since .+\.$/);

  // Frozen, an order is refused.
  const login = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  expect(await callApi('/yuebao/transfer/in', { token: login.data.token, form: { amount: '10' } })).toMatchObject({
    ret: 0,
    msg: FROZEN_REFUSAL,
  });

  await page.getByRole('button', { name: 'Unfreeze' }).click();
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Unfreeze your account?');
  await dialog.getByLabel('Transaction password').fill(paypass);
  await dialog.getByRole('button', { name: 'Unfreeze in 24 h' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => countdown(page).textContent()).toMatch(/^Unfreezes at .+ \(in (24 h 0|23 h \d+) min\)\.$/);
  await markAllRead(phone, password);
  await page.locator('.mask').waitFor({ state: 'detached' });
  // The freeze's toast has left (it stays a few seconds, past the sign-in).
  await page.locator('.toast').waitFor({ state: 'detached' });
  await screenshot(page, 'account-freeze-countdown-en');

  await page.getByRole('button', { name: 'Keep it frozen' }).click();
  await expect.poll(() => countdown(page).count()).toBe(0);
  expect(await frozen.textContent()).toMatch(/^Your account is frozen since/);
});

it('shows the page, the frozen state and the countdown right to left in Arabic', async () => {
  const phone = `065${String(Date.now()).slice(-7)}`;
  await registerUser(phone, password, paypass);
  const context = await phoneContext(browser, { locale: 'ar-EG' });
  const page = watch(await context.newPage(), 'ar');
  const signIn = async () =>
    (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  await openSignedIn(page, await signIn(), `/#${FREEZE}`);
  const card = page.getByTestId('account-freeze');
  await expect.poll(() => card.getByRole('button').textContent()).toBe('تجميد حسابي');
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'account-freeze-ar');

  // Settings, where the card is reached from, shows the mobile number as it is dialled, "+66 65…" read left to right.
  await page.goto(`/#${ROUTES.settings}`);
  const number = page.locator('.cell', { hasText: 'رقم الهاتف' }).locator('.cell-value');
  await expect.poll(() => number.textContent()).toBe(`+66 ${phone.slice(1)}`);
  expect(await number.evaluate(drawnLeftToRight)).toBe(true);
  await screenshot(page, 'account-freeze-ar-settings');

  // Frozen from elsewhere: this device's session ended; signed in again, the page says so and unfreezes.
  expect(await callApi('/users/freeze/on', { token: await signIn(), form: { paypass } })).toMatchObject({
    ret: 1,
    data: { frozen: true },
  });
  await markAllRead(phone, password);
  await openSignedIn(page, await signIn(), `/#${FREEZE}`);
  await expect.poll(() => page.locator('.account-freeze-state').textContent()).toMatch(/^حسابك مجمّد منذ .+\.$/);
  await card.getByRole('button', { name: 'إلغاء التجميد' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.locator('input[name=paypass]').fill(paypass);
  await dialog.getByRole('button', { name: 'إلغاء التجميد خلال 24 س' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => countdown(page).textContent()).toMatch(/^يُلغى التجميد في .+ \(بعد (24 س 0|23 س \d+) د\)\.$/);
  await markAllRead(phone, password);
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'account-freeze-countdown-ar');
  await context.close();
});
