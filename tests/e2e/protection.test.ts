// A customer's own limits and time-out on a phone: a new customer with money sets a limit of 25 USDT staked in 24
// hours, buys options until the limit refuses one (the server's reason shown; in Arabic too, each amount before its
// unit on screen), raises the limit and sees it wait 24 hours with its countdown, cancels the raise, then takes a
// time-out after its confirmation and finds the time-out panel on the option page in place of the buy buttons. A
// customer of its own: the shared demo account is never put in time-out.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { phoneContext, phonePageForFile, recordToasts, screenshot, toastSeen } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { placeInForm } from './order-form.ts';
import { callApi, chooseLanguage, logIn, registerUser } from './pwa.ts';
import { storeSession } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'limits1234';
let token = '';

/** "1,234.50" → 1234.5. */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
const stakes = () => page.getByRole('region', { name: 'Most staked on options' });
const dayRow = () => stakes().locator('.prot-row').first();

/**
 * In the page: each amount with its unit in the toast showing ("25 USDT"), and whether its first figure is drawn left
 * of its unit on the same line, as it reads in English (a DOM Range's rectangle of each, as laid out by the text's
 * bidi runs); null while no toast with an amount shows.
 */
function toastAmounts(): { text: string; leftToRight: boolean }[] | null {
  const box = document.querySelector('.toast');
  const node = box?.firstChild;
  const text = box?.textContent ?? '';
  if (!box || !node || box.childNodes.length !== 1 || node.nodeType !== Node.TEXT_NODE) return null;
  const rectOf = (start: number, end: number) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return range.getBoundingClientRect();
  };
  const found = [...text.matchAll(/(\d[\d,.]*)[ \u00a0]([A-Z]{3,})/g)].map((match) => {
    const figure = rectOf(match.index, match.index + 1);
    const unit = match.index + match[1]!.length + 1;
    const code = rectOf(unit, unit + match[2]!.length);
    // Read in order: the figure left of its unit, both on one line.
    return {
      text: `${match[1]} ${match[2]}`,
      leftToRight: figure.right <= code.left && Math.abs(figure.top - code.top) < 1,
    };
  });
  return found.length ? found : null;
}

it('sets a limit of 25 USDT staked in 24 hours, and the option that would pass it is refused with the reason', async () => {
  token = await fundedUser(phone, password, '135790', '100');
  await recordToasts(page);
  // This customer has answered the offer of notifications on this phone before: no dialog after the first order.
  await page.addInitScript(() => localStorage.setItem('push-offered', new Date().toISOString()));
  await logIn(page, phone, password);

  await page.goto(`/#${ROUTES.settings}`);
  const link = page.getByRole('link', { name: 'Limits and time-out' });
  await link.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'protection-0-settings');
  await link.click();
  await page.waitForURL(/setting\/protection/);
  await expect.poll(() => dayRow().textContent()).toBe('24 hoursNo limitStaked 0.00 USDT');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'protection-1-page');

  await dayRow()
    .getByRole('button', { name: /^24 hours/ })
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Most staked in 24 hours');
  await dialog.getByLabel('Limit (USDT)').fill('25');
  await screenshot(page, 'protection-2-stake-limit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await toastSeen(page, 'Saved: in force now.', 10_000);
  await expect.poll(() => dayRow().textContent()).toBe('24 hours25.00 USDTStaked 0.00 USDT · 25.00 USDT left');

  await page.goto(`/#${ROUTES.option}?code=BTC`);
  // 30-minute options (90 s on this server's 20× clock): they stay staked while the test counts them. A 1-minute one
  // ended within seconds, and a feed gone stale under load at its end voided it, its stake back (a clean-clone run).
  await page.getByRole('radio', { name: /^30\b/ }).first().click();
  const available = page.locator('.opt-amount-notes .opt-num').first();
  await expect.poll(async () => amountOf(await available.textContent())).toBe(100);
  for (const left of [90, 80]) {
    await page.getByLabel('Amount (USDT)').fill('10');
    await placeInForm(page, () => page.getByRole('button', { name: 'Buy up' }).click(), {
      toast: 'Successful transaction!',
    });
    await expect.poll(async () => amountOf(await available.textContent())).toBe(left);
  }
  // The third would make 30 staked in 24 hours.
  await page.getByLabel('Amount (USDT)').fill('10');
  const refusal = 'Your limit of 25 USDT staked in 24 hours leaves 5 USDT for now!';
  await placeInForm(page, () => page.getByRole('button', { name: 'Buy up' }).click(), { toast: refusal });
  await screenshot(page, 'protection-3-refused');
  // The refusal took nothing: two orders of 10, and the balance is 100 less what is still staked, plus what any
  // settled one made.
  const totals = async () =>
    (
      await callApi<{ holding_count: number; settled_count: number; holding_amount: string; total_profit: string }>(
        '/coin/order/total',
        { method: 'GET', token },
      )
    ).data;
  const orders = await totals();
  expect(orders.holding_count + orders.settled_count).toBe(2);
  await expect
    .poll(async () => {
      const { holding_amount, total_profit } = await totals();
      const expected = 100 - Number(holding_amount) + Number(total_profit);
      return amountOf(await available.textContent()) - expected;
    })
    .toBeCloseTo(0, 2);

  // In Arabic the same refusal, the server's text shown as it came, reads each amount before its unit on screen.
  await chooseLanguage(page, /العربية/);
  try {
    await page.goto(`/#${ROUTES.option}?code=BTC`);
    await page.getByRole('radio', { name: /^30\b/ }).first().click();
    await expect.poll(async () => amountOf(await available.textContent())).toBeGreaterThan(0);
    await page.locator('input[inputmode="decimal"]').first().fill('10');
    await page.locator('.opt-buy-row .opt-buy.up').click();
    await page.getByRole('alertdialog').locator('.opt-buy.up').click();
    const shown = await (await page.waitForFunction(toastAmounts, undefined, { timeout: 10_000 })).jsonValue();
    await screenshot(page, 'protection-3-refused-arabic');
    expect(shown).toEqual([
      { text: '25 USDT', leftToRight: true },
      { text: '5 USDT', leftToRight: true },
    ]);
  } finally {
    await chooseLanguage(page, /English/);
  }
});

it('raises the limit: the raise waits 24 hours, counting down, and can be cancelled', async () => {
  await page.goto(`/#${ROUTES.protection}`);
  await expect.poll(() => dayRow().textContent()).toBe('24 hours25.00 USDTStaked 20.00 USDT · 5.00 USDT left');
  await dayRow()
    .getByRole('button', { name: /^24 hours/ })
    .click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel('Limit (USDT)').fill('100');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await toastSeen(page, 'Saved: in force in 24 hours.', 10_000);
  const waiting = dayRow().locator('.prot-waiting');
  // Counted down on the phone's clock from the seconds the server said were left: 24 h 0 min at the answer.
  await expect
    .poll(() => waiting.locator('p').textContent())
    .toBe('Change to 100.00 USDT takes effect in 23 h 59 min.');
  // Until then the lower limit stays in force.
  expect(await dayRow().locator('.prot-row-value').textContent()).toBe('25.00 USDT');
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'protection-4-raise-waits');

  await waiting.getByRole('button', { name: 'Cancel' }).click();
  await toastSeen(page, 'The change is cancelled.', 10_000);
  await expect.poll(() => waiting.count()).toBe(0);
  expect(await dayRow().locator('.prot-row-value').textContent()).toBe('25.00 USDT');
});

it('takes a time-out after a clear confirmation; the option page then shows the time-out panel, not the buy buttons', async () => {
  const timeout = page.getByRole('region', { name: 'Time-out' });
  await timeout.getByRole('button', { name: /^Take a time-out/ }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: '7 days' }).click();
  await screenshot(page, 'protection-5-time-out');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => dialog.getByRole('heading').textContent()).toMatch(/^Take a time-out until .+\?$/);
  expect(await dialog.textContent()).toContain(
    'It cannot be undone early: ending or shortening a time-out takes effect only 24 hours after you ask.',
  );
  await screenshot(page, 'protection-6-time-out-confirm');
  await dialog.getByRole('button', { name: 'Start the time-out' }).click();
  await expect.poll(() => dialog.count()).toBe(0);

  // The test server's clock runs 20 times faster than the phone's: the days left are the server's.
  const answer = await callApi<{ timeout_seconds_left: number }>('/users/protection', { method: 'GET', token });
  const days = Math.round(answer.data.timeout_seconds_left / 86_400);
  await expect
    .poll(() => timeout.locator('.prot-row-used').textContent())
    .toMatch(
      new RegExp(
        `^Ends in ${days} days\\. No option, contract, lock-up or liquidity order and no blind box draw until then`,
      ),
    );
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, 'protection-7-time-out-set');

  await page.goto(`/#${ROUTES.option}?code=BTC`);
  const panel = page.locator('.opt-trade .timeout-panel');
  await expect
    .poll(() => panel.locator('.timeout-panel-until').textContent())
    .toMatch(new RegExp(`^You are taking a time-out until .+ \\(in ${days} days\\)\\.$`));
  expect(await page.getByRole('button', { name: 'Buy up' }).count()).toBe(0);
  await panel.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'protection-8-option-page');

  // The contracts page alike; the panel leads to the limits page.
  await page.goto(`/#${ROUTES.contracts}?code=BTC`);
  const contractPanel = page.locator('.ct-form .timeout-panel');
  await contractPanel.waitFor();
  expect(await page.locator('.ct-submit').count()).toBe(0);
  await contractPanel.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'protection-9-contracts-page');
  await contractPanel.getByRole('link', { name: 'Limits and time-out' }).click();
  await page.waitForURL(/setting\/protection/);

  // Lock-up and liquidity subscriptions alike; redeeming liquidity stays open.
  await page.goto(`/#${ROUTES.lockUp}`);
  await page.locator('.lockup-product').first().click();
  const lockupPanel = page.locator('.lockup-page .timeout-panel');
  await lockupPanel.waitFor();
  expect(await page.getByRole('button', { name: 'Subscribe' }).count()).toBe(0);
  await lockupPanel.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'protection-10-lockup-page');
  await page.goto(`/#${ROUTES.liquidityBuy}`);
  await page.locator('.timeout-panel').waitFor();
  expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
  await screenshot(page, 'protection-11-liquidity-subscribe');
  await page.goto(`/#${ROUTES.liquiditySell}`);
  await page.getByRole('button', { name: 'Next' }).waitFor();
  expect(await page.locator('.timeout-panel').count()).toBe(0);
});

/** A figure as the app shows it in any of its languages ("٢٠٫٠٠", "-1,234.50") → a number. */
const figureOf = (text: string | null) =>
  Number(
    (text ?? '')
      .replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x660))
      .replace(/٫/g, '.')
      .replace(/−/g, '-')
      .replace(/[^\d.+-]/g, '')
      .replace(/^\+/, ''),
  );

/**
 * A fixed-offset zone ("Etc/GMT-7" is seven hours east of UTC, as the IANA database spells it) in which `at` falls in
 * the hour after 01:00: the day that began just before it lasts 22 more hours of the server's clock.
 */
const zoneWhereDayBeganJustBefore = (at: Date) => {
  const east = ((1 - at.getUTCHours() + 36) % 24) - 12;
  return east === 0 ? 'UTC' : `Etc/GMT${east > 0 ? '-' : '+'}${Math.abs(east)}`;
};

it('in Arabic on a phone: the referral page lists an invited friend, and the reminder shows this session’s and today’s money', async () => {
  // The test server's clock runs 20 times real time, so its day may turn between the orders above and the reminder.
  // The phone's zone is chosen so that the day of the first order began just before it: "today" then holds both
  // orders for 22 hours of that clock (66 real minutes).
  const placedAt: number[] = [];
  for (const status of ['holding', 'history']) {
    const listed = await callApi<{ lists: { start_at: string }[] }>('/coin/order/lists', {
      method: 'GET',
      token,
      form: { status },
    });
    placedAt.push(...listed.data.lists.map((order) => Date.parse(order.start_at)));
  }
  expect(placedAt).toHaveLength(2);
  const timezoneId = zoneWhereDayBeganJustBefore(new Date(Math.min(...placedAt)));
  const me = await callApi<{ invite_code: string }>('/users/info', { method: 'GET', token });
  const friend = `065${String(Date.now()).slice(-7)}`;
  await registerUser(friend, password, '135790', { invite: me.data.invite_code });
  expect(
    (await callApi('/users/protection/set', { token, form: { setting: 'reminder_minutes', value: '5' } })).ret,
  ).toBe(1);
  const context = await phoneContext(page.context().browser()!, { locale: 'ar-EG', timezoneId });
  try {
    const arabic = await context.newPage();
    await arabic.goto('/favicon.svg');
    await storeSession(arabic, token);
    // The page's timers run on a clock the test moves: the reminder's minutes pass without the test waiting for them.
    await arabic.clock.install();
    await arabic.goto(`/#${ROUTES.share}`);
    const friendRow = arabic.locator('.share-friend');
    await friendRow.waitFor();
    expect(await arabic.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await friendRow.count()).toBe(1);
    expect(await friendRow.textContent()).toContain('***');
    expect(await friendRow.textContent()).not.toContain(friend.slice(3, 7));
    expect(await arabic.locator('.share-rule[data-reward="off"]').textContent()).toContain('مكافأة الإحالة');
    await arabic.locator('.mask').waitFor({ state: 'detached' });
    await screenshot(arabic, 'protection-12-referral-ar', { fullPage: true });

    // Five minutes in the app: the reminder, with the money of the options this customer bought above.
    const dialog = arabic.getByRole('alertdialog');
    await expect
      .poll(async () => {
        await arabic.clock.fastForward(20_000);
        return dialog.count();
      })
      .toBe(1);
    const cell = (span: string, column: number) => dialog.locator(`tr[data-span="${span}"] td`).nth(column);
    await expect.poll(() => cell('today', 0).textContent()).not.toBe('—');
    const zone = await arabic.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(zone).toBe(timezoneId);
    const today = await callApi<{ today: { stakes: string; payouts: string; net: string } }>(
      '/users/protection/money',
      {
        method: 'GET',
        token,
        form: { since: '0', tz: zone },
      },
    );
    expect(figureOf(await cell('today', 0).textContent())).toBe(Number(today.data.today.stakes));
    expect(figureOf(await cell('today', 2).textContent())).toBe(Number(today.data.today.net));
    expect(Number(today.data.today.stakes)).toBeGreaterThan(0);
    expect(await cell('session', 0).textContent()).not.toBe('—');
    expect(await dialog.getByRole('button').count()).toBe(2);
    await screenshot(arabic, 'protection-13-reminder-money-ar');
  } finally {
    await context.close();
  }
});
