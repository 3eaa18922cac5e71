// Every limit a customer can set for themselves, on a phone: a new customer with money first types values the
// dialogs refuse (each with its translated reason, nothing sent), then sets the most staked and the most lost in 24
// hours, 7 days and 30 days, the most open options at once and the reminder, each through its own dialog; after
// every save the page shows the value in force at once (from none, a tightening) and the server says the same. Then
// options of 30 minutes (90 s on the test server's 20× clock, so none settles meanwhile) meet the limit of 25 USDT
// lost in 24 hours, which counts the stakes of open options, and then the most open options at once; each refusal
// shows the server's reason, and the page then agrees with the server on what is open and what is left. The
// time-out has a journey of its own (protection.test.ts).
import Big from 'big.js';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Protection } from '../../src/api-contract/protection-read.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { forgetToasts, phonePageForFile, recordToasts, screenshot, toastSeen } from './browser.ts';
import { placeInForm } from './order-form.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, logIn } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `064${String(Date.now() + 1).slice(-7)}`;
const password = 'settings1234';
let token = '';
/** The changes of a setting the page has sent. */
let changesSent = 0;

/** "1,234.50" → 1234.5 (a balance read off the screen, compared with a whole number). */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
/** A decimal as the page shows an amount below 1,000: '99.5' → '99.50'. */
const shown = (value: string) => new Big(value).toFixed(Math.max(2, value.split('.')[1]?.length ?? 0));

const section = (name: string) => page.getByRole('region', { name });
const rows = (name: string) => section(name).locator('.prot-row');
const dialog = () => page.getByRole('alertdialog');

async function protectionNow(): Promise<Protection> {
  const answer = await callApi<Protection>('/users/protection', { method: 'GET', token });
  expect(answer.ret).toBe(1);
  return answer.data;
}

async function openLimitsPage(): Promise<void> {
  await page.goto(`/#${ROUTES.protection}`);
  await rows('Most staked on options').first().waitFor();
  await page.locator('.mask').waitFor({ state: 'detached' });
}

/** Opens the dialog of the row `row` (its button named from its label), checks its title. */
async function openDialog(row: Locator, label: RegExp, title: string): Promise<void> {
  await row.getByRole('button', { name: label }).click();
  await expect.poll(() => dialog().getByRole('heading').textContent()).toBe(title);
}

/**
 * Does `act` and waits for the toast `text` it shows. The toast before has left the screen first and the record is
 * emptied: a toast the same as the one before then counts too.
 */
async function toastAfter(text: string, act: () => Promise<void>): Promise<void> {
  await page.locator('.toast').waitFor({ state: 'detached' });
  await forgetToasts(page);
  await act();
  await toastSeen(page, text, 10_000);
}

/** Types `value` into the open dialog's field and saves: the dialog says the change is in force now and closes. */
async function save(field: string, value: string): Promise<void> {
  await dialog().getByLabel(field).fill(value);
  await toastAfter('Saved: in force now.', () => dialog().getByRole('button', { name: 'Save' }).click());
  await expect.poll(() => dialog().count()).toBe(0);
}

/** Saves what the open dialog's field holds; `reason` is the toast refusing it, and the dialog stays open. */
async function refused(reason: string): Promise<void> {
  await toastAfter(reason, () => dialog().getByRole('button', { name: 'Save' }).click());
  expect(await dialog().count()).toBe(1);
}

/**
 * Buys an option of `stake` USDT up on BTC with the expiry chosen, the confirmation answered, and sees the toast
 * `answer` (placeInForm: one refused for want of a fresh price is tried again).
 */
async function buy(stake: string, answer = 'Successful transaction!'): Promise<void> {
  await page.getByLabel('Amount (USDT)').fill(stake);
  await placeInForm(page, () => page.getByRole('button', { name: 'Buy up' }).click(), { toast: answer });
}

it('refuses values no limit can have, each with its reason, and sends nothing', async () => {
  token = await fundedUser(phone, password, '246801', '100');
  await recordToasts(page);
  // This customer has answered the offer of notifications on this phone before: no dialog after the first order.
  await page.addInitScript(() => localStorage.setItem('push-offered', new Date().toISOString()));
  page.on('request', (request) => {
    if (request.url().includes('/users/protection/set')) changesSent += 1;
  });
  await logIn(page, phone, password);
  await openLimitsPage();

  const stakeDay = rows('Most staked on options').first();
  await openDialog(stakeDay, /^24 hours/, 'Most staked in 24 hours');
  // No limit of nothing: an empty field and 0 are not limits (removing one has its own button).
  await refused('Please enter a valid amount!');
  await dialog().getByLabel('Limit (USDT)').fill('0');
  await refused('Please enter a valid amount!');
  await screenshot(page, 'protection-settings-0-bad-amount');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog().count()).toBe(0);

  const open = rows('Open options').first();
  await openDialog(open, /^Most at once/, 'Most open options at once');
  // The field takes digits only ("1x01" is 101); 1001 is over the most of 1000.
  await dialog().getByLabel('Options at once').fill('1x01');
  expect(await dialog().getByLabel('Options at once').inputValue()).toBe('101');
  await dialog().getByLabel('Options at once').fill('1001');
  await refused('The most open options must be a whole number from 1 to 1000!');
  await screenshot(page, 'protection-settings-1-bad-open-options');
  await dialog().getByRole('button', { name: 'Cancel' }).click();

  const reminder = rows('Reminder').first();
  await openDialog(reminder, /^Remind me after/, 'Reminder');
  await dialog().getByLabel('Minutes in the app').fill('4');
  await refused('The reminder must be a whole number of minutes from 5 to 1440!');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog().count()).toBe(0);

  // Nothing was sent, nothing changed: the page and the server still say no limit anywhere.
  expect(changesSent).toBe(0);
  expect(await stakeDay.textContent()).toBe('24 hoursNo limitStaked 0.00 USDT');
  expect(await open.textContent()).toBe('Most at onceNo limitOpen now: 0');
  expect(await reminder.locator('.prot-row-value').textContent()).toBe('Off');
  expect(Object.values((await protectionNow()).limits).every((value) => value === '')).toBe(true);
});

it('sets every limit and the reminder; each is in force at once, on the page and on the server', async () => {
  const amounts = [
    {
      region: 'Most staked on options',
      setting: 'stake_day',
      label: '24 hours',
      title: 'Most staked in 24 hours',
      value: '80',
    },
    {
      region: 'Most staked on options',
      setting: 'stake_week',
      label: '7 days',
      title: 'Most staked in 7 days',
      value: '150',
    },
    {
      region: 'Most staked on options',
      setting: 'stake_month',
      label: '30 days',
      title: 'Most staked in 30 days',
      value: '249.5',
    },
    {
      region: 'Most lost on options',
      setting: 'loss_day',
      label: '24 hours',
      title: 'Most lost in 24 hours',
      value: '25',
    },
    {
      region: 'Most lost on options',
      setting: 'loss_week',
      label: '7 days',
      title: 'Most lost in 7 days',
      value: '60',
    },
    {
      region: 'Most lost on options',
      setting: 'loss_month',
      label: '30 days',
      title: 'Most lost in 30 days',
      value: '99.99',
    },
  ] as const;
  for (const [index, { region, setting, label, title, value }] of amounts.entries()) {
    const row = rows(region).nth(index % 3);
    await openDialog(row, new RegExp(`^${label}`), title);
    expect(await dialog().locator('.prot-dialog-now').textContent()).toBe('Now: No limit');
    await save('Limit (USDT)', value);
    const used = region === 'Most staked on options' ? 'Staked' : 'Lost';
    await expect
      .poll(() => row.textContent())
      .toBe(`${label}${shown(value)} USDT${used} 0.00 USDT · ${shown(value)} USDT left`);
    expect(await row.locator('.prot-waiting').count()).toBe(0);
    const answer = await protectionNow();
    expect(answer.limits[setting]).toBe(value);
    expect(answer.left[setting]).toBe(value);
    expect(answer.pending).toEqual([]);
  }

  const open = rows('Open options').first();
  await openDialog(open, /^Most at once/, 'Most open options at once');
  await save('Options at once', '3');
  await expect.poll(() => open.textContent()).toBe('Most at once3Open now: 0 · 3 left');
  const reminder = rows('Reminder').first();
  await openDialog(reminder, /^Remind me after/, 'Reminder');
  expect(await dialog().locator('.prot-dialog-now').textContent()).toBe('Now: Off');
  await save('Minutes in the app', '30');
  await expect.poll(() => reminder.locator('.prot-row-value').textContent()).toBe('30 min in the app');

  const answer = await protectionNow();
  expect(answer.limits).toEqual({
    stake_day: '80',
    stake_week: '150',
    stake_month: '249.5',
    loss_day: '25',
    loss_week: '60',
    loss_month: '99.99',
    max_open_options: '3',
    reminder_minutes: '30',
    timeout_until: '',
  });
  expect(answer.left.open_options).toBe('3');
  expect(answer.pending).toEqual([]);
  expect(changesSent).toBe(8);

  // Opened again, a dialog says what is in force.
  await openDialog(rows('Most lost on options').nth(2), /^30 days/, 'Most lost in 30 days');
  expect(await dialog().locator('.prot-dialog-now').textContent()).toBe('Now: 99.99 USDT');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog().count()).toBe(0);

  // The filled page, top to bottom, once the last toast has left.
  await page.locator('.toast').waitFor({ state: 'detached' });
  await section('Time-out').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'protection-settings-2-stakes');
  await section('Most lost on options').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'protection-settings-3-losses');
  await section('Reminder').evaluate((element) => element.scrollIntoView({ block: 'end' }));
  await screenshot(page, 'protection-settings-4-open-and-reminder');
});

it('meets the loss limit, which counts open stakes, and then the most open options at once', async () => {
  await page.goto(`/#${ROUTES.option}?code=BTC`);
  await page.getByRole('radio', { name: /^30\b/ }).first().click();
  const available = page.locator('.opt-amount-notes .opt-num').first();
  await expect.poll(async () => amountOf(await available.textContent())).toBe(100);
  for (const left of [90, 80]) {
    await buy('10');
    await expect.poll(async () => amountOf(await available.textContent())).toBe(left);
  }
  // 20 USDT at stake in open options: the limit of 25 lost in 24 hours leaves 5 to put at risk.
  await buy('10', 'Your limit of 25 USDT lost in 24 hours leaves 5 USDT that may be put at risk for now!');
  await screenshot(page, 'protection-settings-5-loss-refused');
  expect(amountOf(await available.textContent())).toBe(80);
  // Reaching the limit exactly is allowed: a third option of 5.
  await buy('5');
  await expect.poll(async () => amountOf(await available.textContent())).toBe(75);
  // Three open: a fourth is refused, however small.
  await buy('1', 'You have reached your limit of 3 open options at once!');
  await screenshot(page, 'protection-settings-6-open-options-refused');
  expect(amountOf(await available.textContent())).toBe(75);

  // The server counted three open options of 25 USDT, and the page says what it says.
  const answer = await protectionNow();
  expect(answer.used.stake_day).toBe('25');
  expect(answer.left.stake_day).toBe('55');
  await openLimitsPage();
  const lossDay = rows('Most lost on options').first();
  const open = rows('Open options').first();
  // Both sides read together: an option settling in between changes both.
  await expect
    .poll(async () => {
      const now = await protectionNow();
      return {
        page: [await lossDay.textContent(), await open.textContent()],
        server: [
          `24 hours25.00 USDTLost ${shown(now.used.loss_day)} USDT · ${shown(now.left.loss_day)} USDT left`,
          `Most at once3Open now: ${now.used.open_options} · ${now.left.open_options} left`,
        ],
      };
    })
    .toSatisfy(({ page: onPage, server }) => onPage.join('\n') === server.join('\n'));
  expect(await rows('Most staked on options').first().textContent()).toBe(
    '24 hours80.00 USDTStaked 25.00 USDT · 55.00 USDT left',
  );
  await section('Most lost on options').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.locator('.toast').waitFor({ state: 'detached' });
  await screenshot(page, 'protection-settings-7-limits-met');
});
