// Coin-to-coin contracts as a person trades them on a phone (390×844), against the real server
// whose test clock runs 20× faster: market-buy BTC and see the BTC balance; place a limit sell far
// above the market, see its coins held, revoke it and see them back; then place limits on both
// sides of DOGE's price and watch the simulated feed cross one of them: it fills at its own price,
// at a recorded tick, told on screen and shown in the history; a stop waits, saying what it holds,
// and is revoked while a buy with take-profit / stop-loss arms both legs, a recorded move triggers
// one and the other is cancelled.
import { expect, it } from 'vitest';
import Big from 'big.js';
import type { Locator, Page } from 'playwright-core';
import { phonePageForFile, recordToasts, screenshot, toastsShown } from './browser.ts';
import { callApi, controlledByServiceWorker, logIn, markAllRead } from './pwa.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { demoAccountForFile } from './demo-account.ts';
import { placeInForm } from './order-form.ts';

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => (page = opened));

/** "10,008.00" → "10008.00": a figure on screen as a decimal string. */
const decimalOf = (text: string | null) => (text ?? '').replace(/[^\d.-]/g, '');
const available = () => page.locator('.ct-available .opt-num');
const lastPrice = async () => new Big(decimalOf(await page.locator('.opt-price').textContent()));
const toast = () => page.getByRole('alert');
/** What a market order's toast says once it is accepted (it fills at the next recorded tick, told by another). */
const MARKET_ACCEPTED = 'Market order accepted: it fills at the next recorded price';

/**
 * Taps the form's button `name`, confirms, and sees the toast `answer` (placeInForm: an order refused for want of a
 * fresh price is tapped again); resolves with the toast's text. `looked` runs once the confirmation is open.
 */
async function confirmOrder(
  name: string,
  answer: string | RegExp,
  looked: () => Promise<void> = async () => undefined,
): Promise<string> {
  const ask = async () => {
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('alertdialog').waitFor();
    await looked();
  };
  return placeInForm(page, ask, { path: '/coin/trans/add', toast: answer });
}

it('opens Contracts from Home with the live, simulated BTC price', async () => {
  await recordToasts(page);
  await markAllRead('demo', 'demo1234');
  await logIn(page, 'demo', 'demo1234');
  await page.locator('.home-entries').getByRole('link', { name: 'Contracts' }).click();
  await page.waitForURL(/#\/pages\/contracts\/contracts/);
  await page.locator('.opt-price').waitFor();
  await expect.poll(() => page.locator('.opt-quote .simulated-badge').count()).toBe(1);
  await expect.poll(async () => decimalOf(await available().textContent())).not.toBe('');
  // The order form fits the phone's first screen, down to the Buy button; the chart opens on demand.
  const buy = await page.getByRole('button', { name: 'Buy BTC', exact: true }).boundingBox();
  expect(buy!.y + buy!.height).toBeLessThanOrEqual(844);
  await screenshot(page, '40-contracts');
  await page.getByRole('button', { name: 'Show chart' }).click();
  await page.locator('.ct-page canvas').first().waitFor();
  await screenshot(page, '40-contracts-chart');
  await page.getByRole('button', { name: 'Hide chart' }).click();
  await expect.poll(() => page.locator('.ct-page canvas').count()).toBe(0);
});

it('refuses an order below the minimum with the server’s text and moves nothing', async () => {
  await page.getByRole('button', { name: 'Market', exact: true }).click();
  await page.getByLabel('Total to spend (USDT)').fill('1');
  await page.getByRole('button', { name: 'Buy BTC' }).click();
  await expect.poll(() => toast().textContent()).toBe('The order must be worth at least 5 USDT!');
  expect(await page.getByRole('alertdialog').count()).toBe(0);
});

it('market-buys BTC for 200 USDT: USDT down by exactly 200, BTC arrives less the fee', async () => {
  const usdtBefore = new Big(decimalOf(await available().textContent()));
  await page.getByLabel('Total to spend (USDT)').fill('200');
  await expect.poll(() => page.locator('.ct-figures').first().textContent()).toContain('BTC');
  // Accepted, then filled at the first price recorded after it (never at one recorded before).
  await confirmOrder('Buy BTC', MARKET_ACCEPTED, async () => {
    // The confirmation says the same rule, not "at once at the latest price".
    expect(await page.getByRole('alertdialog').locator('.ct-note').textContent()).toBe(
      'A market order fills at the first price recorded after you confirm, which may differ a little from the one shown.',
    );
    await screenshot(page, '41-contracts-confirm');
  });
  // The first order on this device offers notifications: not now, as a customer may answer.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
  await expect.poll(() => toast().textContent()).toMatch(/^Bought 0\.\d+ BTC at [\d,.]+$/);
  // 200 USDT buys a whole number of steps at the recorded price: what is spent is at most 200.
  await expect
    .poll(async () => usdtBefore.minus(decimalOf(await available().textContent())).toNumber())
    .toBeGreaterThan(199);
  expect(usdtBefore.minus(decimalOf(await available().textContent())).lte(200)).toBe(true);

  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await expect.poll(async () => Number(decimalOf(await available().textContent()))).toBeGreaterThan(0.001);
  await screenshot(page, '42-contracts-btc-held');
});

it('places a limit sell 5 % above the market: its BTC is held, then revoked and back', async () => {
  const btcBefore = new Big(decimalOf(await available().textContent()));
  await page.getByRole('button', { name: 'Limit', exact: true }).click();
  const price = (await lastPrice()).times(1.05).round(2, Big.roundDown).toFixed(2);
  await page.getByLabel('Price (USDT)').fill(price);
  await page.getByLabel('Quantity (BTC)').fill('0.001');
  await confirmOrder('Sell BTC', /^Limit order placed/);
  const open = page.locator('.ct-open .ct-order');
  await expect.poll(() => open.count()).toBe(1);
  await expect.poll(async () => decimalOf(await available().textContent())).toBe(btcBefore.minus('0.001').toFixed());
  await screenshot(page, '43-contracts-open-order');

  await open.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke order' }).click();
  await expect.poll(() => toast().textContent()).toBe('Cancellation succeeded!');
  await expect.poll(() => open.count()).toBe(0);
  await expect.poll(async () => decimalOf(await available().textContent())).toBe(btcBefore.toFixed());
});

it('fills a resting DOGE limit when the recorded feed crosses it, at its own price', async () => {
  // Choose DOGE through the pair picker's search.
  await page.getByRole('button', { name: /Change pair/ }).click();
  await page.getByLabel('Search coin').fill('dog');
  await page.getByRole('option', { name: /DOGE/ }).click();
  await page.waitForURL(/code=DOGE/);
  await page.locator('.opt-quote', { hasText: 'DOGE' }).waitFor();

  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  await page.getByRole('button', { name: 'Market', exact: true }).click();
  await page.getByLabel('Total to spend (USDT)').fill('60');
  await confirmOrder('Buy DOGE', MARKET_ACCEPTED);
  await expect.poll(() => toast().textContent()).toMatch(/^Bought [\d.]+ DOGE at [\d,.]+$/);

  // Limits 0.1 % on each side of the price. Every limit rests when placed, even one the price has crossed already (only
  // a tick recorded after it fills it). The feed moves DOGE about 0.7 % a simulated 20 minutes, one real minute here,
  // so one of them is crossed within seconds. At 0.3 % the first fill could take over half a simulated hour.
  await page.getByRole('button', { name: 'Limit', exact: true }).click();
  const placed: string[] = [];
  for (const [side, factor] of [
    ['Sell', 1.001],
    ['Buy', 0.999],
  ] as const) {
    await page.getByRole('button', { name: side, exact: true }).click();
    const price = (await lastPrice()).times(factor).round(5, Big.roundDown).toFixed(5);
    await page.getByLabel('Price (USDT)').fill(price);
    await page.getByLabel('Quantity (DOGE)').fill('20');
    placed.push(await confirmOrder(`${side} DOGE`, /./));
  }
  expect(placed.some((text) => text.startsWith('Limit order placed'))).toBe(true);
  await screenshot(page, '44-contracts-two-limits');

  // The open list is asked for again every 3 s: a crossed order leaves it and the fill is told.
  await expect
    .poll(() => page.locator('.ct-open .ct-order').count(), { timeout: 100_000, interval: 1000 })
    .toBeLessThan(2);
  // Told for 3 s: the list of every toast shown, since a poll on a busy machine can come after it left.
  await expect
    .poll(() => toastsShown(page))
    .toContainEqual(expect.stringMatching(/^Limit (buy|sell) of 20 DOGE filled$/));
  await screenshot(page, '45-contracts-filled');

  await page.getByRole('link', { name: 'Contract orders' }).click();
  await page.waitForURL(/orderList/);
  await page.getByRole('button', { name: 'History' }).click();
  const dealt = page
    .locator('.ct-order', { hasText: 'DOGE' })
    .filter({ hasText: 'Limit' })
    .filter({ hasText: 'Dealt' })
    .first();
  await dealt.waitFor();
  await screenshot(page, '46-contract-orders');
  await dealt.locator('.ct-order-open').click();
  const details = page.getByRole('alertdialog');
  await expect.poll(() => details.textContent()).toContain('Filled at the recorded price');
  // A limit fills at its own price: the unit price is the limit price.
  const rows = Object.fromEntries(
    await details
      .locator('.detail-rows > div')
      .evaluateAll((divs) =>
        divs.map((div) => [div.querySelector('dt')?.textContent ?? '', div.querySelector('dd')?.textContent ?? '']),
      ),
  );
  expect(decimalOf(rows['Unit price'])).toBe(decimalOf(rows['Limit price']));
  await screenshot(page, '47-contract-order-details');
  // Its signed receipt says the same: the price the customer got is the limit, beside the recorded price that filled
  // it.
  const receipt = await receiptRows(details);
  expect(receipt['Order type']).toBe('Limit');
  expect(new Big(decimalOf(receipt['Fill price'])).eq(decimalOf(rows['Unit price']))).toBe(true);
  expect(new Big(decimalOf(receipt['Limit price'])).eq(decimalOf(rows['Limit price']))).toBe(true);
  expect(receipt['Recorded price']).toContain('Simulated price');
  await screenshot(page, '47b-contract-receipt');
  await page.goto('/#/pages/contracts/orderList');

  // Whatever is still open is revoked, through the API: the feed may fill it at any moment (each limit is 0.1 % from
  // the price), and a revoke refused because it filled first does as well. (Tapping Revoke here raced the fill, and a
  // tap still waiting when the order left the list pressed the next DOGE order to appear: the next test's stop.)
  const { data: session } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  const { data: left } = await callApi<{ lists: { id: number }[] }>('/coin/trans/lists', {
    token: session.token,
    form: { status: 'open', code: 'DOGE' },
  });
  for (const { id } of left.lists)
    await callApi('/coin/trans/close', { token: session.token, form: { id: String(id) } });
  await page.getByRole('button', { name: 'Open orders' }).click();
  await expect.poll(() => page.locator('.ct-order', { hasText: 'DOGE' }).count()).toBe(0);
});

/**
 * Opens the signed receipt from an order's details and waits for this device's check of its signature ("valid");
 * resolves with the receipt's rows, label to text.
 */
async function receiptRows(details: Locator): Promise<Record<string, string>> {
  await details.getByRole('link', { name: 'Signed receipt' }).click();
  await page.waitForURL(/pages\/receipt\?contract=/);
  await expect.poll(() => page.locator('.receipt-check').getAttribute('data-check')).toBe('valid');
  return Object.fromEntries(
    await page
      .locator('.detail-rows > div')
      .evaluateAll((divs) =>
        divs.map((div) => [div.querySelector('dt')?.textContent ?? '', div.querySelector('dd')?.textContent ?? '']),
      ),
  );
}

/** The most rounds of a buy with legs the conditional orders journey takes (see buyWithLegs). */
const PAIR_ROUNDS = 3;

/** How a pair of legs ended, read from the history. */
interface LegsEnding {
  /** The pair's ids, as the list shows them ("8", "9"). */
  ids: string[];
  /** "leg state" of each, sorted and joined: "Stop-loss cancelled,Take-profit filled". */
  states: string;
  /** Each row as "leg state status #id", for a failure's message. */
  rows: string[];
  /** Whether a leg ended void ("Not filled": no price recorded in time after its trigger tick). */
  voided: boolean;
}

/** The rows of the orders `ids` ("8", "9") in the list shown, each found by its id element. */
const ordersOf = (ids: string[]) =>
  page.locator('.ct-order').filter({
    has: page.locator('.record-row-foot .opt-num', { hasText: new RegExp(`^#(${ids.join('|')})$`) }),
  });

/**
 * On the DOGE contracts form (Buy side open): a market buy of 30 USDT with a take-profit and a stop-loss 0.5 % either
 * side of the last recorded price; waits for both legs in the open list, then for them to leave it, and reads how
 * they ended in the history. `round` names the screenshot of the first round only.
 */
async function buyWithLegs(round: number): Promise<LegsEnding> {
  // The legs' triggers beyond the last recorded price, read through the API (the minute candles of the recorded
  // ticks): 0.5 % each way. The feed moves DOGE as a random walk of about 0.7 % a simulated 20 minutes (one real minute
  // here), so one of them is reached in about (0.5 / 0.7)² of a minute, 30 s, on average; within 3 s (the open list's
  // refresh) about 3 times in 1,000. A walk stays inside a band of ±0.5 % for t real minutes about 1.27·exp(−2.4·t)
  // of the time: 180 s left it there once in 1,000 (the system's CI run of 2026-12-02 met it), 300 s leaves it 7 times
  // in a million. At 0.2 % the legs were reached in 5 s on average, and on a busy machine they left before the open
  // list showed them (the run of 2026-12-01).
  await page.getByRole('button', { name: 'Market', exact: true }).click();
  const legsForm = page.getByLabel('Take-profit (USDT): sell at or above');
  if (!(await legsForm.isVisible())) await page.getByRole('button', { name: 'TP/SL' }).click();
  const candles = await callApi<{ lists: { close: string; high: string; low: string }[] }>('/coin/data/lists', {
    method: 'GET',
    form: { code: 'DOGE', period: '1m', limit: '2' },
  });
  const last = new Big(candles.data.lists.at(-1)!.close);
  await legsForm.fill(last.times(1.005).round(5, Big.roundUp).toFixed(5));
  await page
    .getByLabel('Stop-loss (USDT): sell at or below')
    .fill(last.times(0.995).round(5, Big.roundDown).toFixed(5));
  await page.getByLabel('Total to spend (USDT)').fill('30');
  const bought = async () =>
    (await toastsShown(page)).filter((text) => /^Bought [\d.]+ DOGE at [\d,.]+$/.test(text)).length;
  const boughtBefore = await bought();
  await confirmOrder('Buy DOGE', MARKET_ACCEPTED);
  await expect.poll(bought).toBeGreaterThan(boughtBefore);

  // Armed by the fill: both legs wait in the open list beside the stop, then one is reached and leaves the list with
  // the other (filled / cancelled in one transaction). The open list is asked for again every 3 s.
  const legs = page.locator('.ct-open .ct-order').filter({ hasText: /Take-profit|Stop-loss/ });
  await expect.poll(() => legs.count()).toBe(2);
  const ids = (await legs.locator('.record-row-foot .opt-num').allTextContents()).map((id) => id.replace('#', ''));
  if (round === 1) await screenshot(page, '4a-contracts-stop-and-legs-waiting');
  await expect.poll(() => legs.count(), { timeout: 300_000, interval: 1000 }).toBe(0);

  await page.getByRole('link', { name: 'Contract orders' }).click();
  await page.waitForURL(/orderList/);
  await page.getByRole('button', { name: 'History' }).click();
  // The pair's two rows, each as "leg state status #id".
  const pair = ordersOf(ids);
  const rows = () =>
    pair.evaluateAll((items) =>
      items
        .map((row) => {
          const leg = row.querySelector('.ct-trigger')?.textContent?.match(/Take-profit|Stop-loss/)?.[0];
          const state = row.querySelector('[data-trigger-state]')?.getAttribute('data-trigger-state');
          const status = row.querySelector('.status-badge')?.textContent;
          return `${leg} ${state} ${status} ${row.querySelector('.record-row-foot .opt-num')?.textContent}`;
        })
        .sort(),
    );
  await expect.poll(rows).toHaveLength(2);
  const ended = await rows();
  return {
    ids,
    rows: ended,
    states: ended.map((row) => row.split(' ').slice(0, 2).join(' ')).join(),
    voided: ended.some((row) => row.includes('Not filled')),
  };
}

it('a stop waits; a DOGE buy with TP/SL arms two legs, a recorded move triggers one and the other is cancelled', async () => {
  const started = performance.now();
  await page.goto('/#/pages/contracts/contracts?code=DOGE');
  await page.locator('.opt-quote', { hasText: 'DOGE' }).waitFor();
  await page.getByRole('button', { name: 'Buy', exact: true }).click();

  // A stop buy 5 % above the market: it waits (nothing the feed does here reaches it) and is revoked at the end.
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const far = (await lastPrice()).times(1.05).round(5, Big.roundDown).toFixed(5);
  await page.getByLabel('Trigger price (USDT): at or above').fill(far);
  await page.getByLabel('Quantity (DOGE)').fill('20');
  await confirmOrder('Buy DOGE', /^Stop order placed: it triggers when a recorded price is at or above/);

  // The pair's two legs end one filled and one cancelled. A leg the move triggers fills at the first price recorded
  // within 10 market seconds after its trigger tick, else it is void ("Not filled") and the other leg is cancelled
  // with it: on the journeys' 20x clock that window is 500 ms of real time, which a machine busy with the whole run
  // can miss (the clean-clone run of 2026-12-02 05:30 ended a pair so). The customer then buys with legs again.
  let ending: LegsEnding | undefined;
  for (let round = 1; round <= PAIR_ROUNDS; round++) {
    ending = await buyWithLegs(round);
    if (!ending.voided) break;
    console.log(`round ${round}: the triggered leg found no fresh price (${ending.rows.join('; ')}); buying again`);
    await page.goto('/#/pages/contracts/contracts?code=DOGE');
    await page.locator('.opt-quote', { hasText: 'DOGE' }).waitFor();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
  }
  expect(ending!.states).toSatisfy((states: string) =>
    ['Stop-loss cancelled,Take-profit filled', 'Stop-loss filled,Take-profit cancelled'].includes(states),
  );
  const filledLeg = ordersOf(ending!.ids).filter({ has: page.locator('[data-trigger-state="filled"]') });
  expect(await filledLeg.textContent()).toContain('Dealt');
  await screenshot(page, '4b-contract-orders-oco-done');
  // The filled leg is a stop: so named on its receipt, with its trigger and no limit, and in the trade history.
  await filledLeg.locator('.ct-order-open').click();
  const legReceipt = await receiptRows(page.getByRole('alertdialog'));
  expect(legReceipt['Order type']).toBe('Stop');
  expect(legReceipt['Trigger price']).toMatch(/\d/);
  expect(legReceipt).not.toHaveProperty('Limit price');
  await screenshot(page, '4c-contract-leg-receipt');
  await page.goto('/#/pages/contracts/trades');
  await expect.poll(() => page.locator('.tr-side', { hasText: 'Sell · Stop' }).count()).toBeGreaterThan(0);
  await page.goto('/#/pages/contracts/orderList');

  // The stop still waits: revoked from the open list, it leaves it.
  await page.getByRole('button', { name: 'Open orders' }).click();
  const stop = page
    .locator('.ct-order', { hasText: 'DOGE' })
    .filter({ has: page.locator('[data-trigger-state="waiting"]') });
  await expect.poll(() => stop.count()).toBe(1);
  // It says what it holds: a stop buy holds 20 × its trigger × (1 + the pair's 10 % band) in USDT.
  const held = await stop.locator('.ct-held [dir="ltr"]').textContent();
  expect(held).toMatch(/ USDT$/);
  expect(new Big(decimalOf(held)).eq(new Big(far).times(20).times('1.1'))).toBe(true);
  await stop.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke order' }).click();
  await expect.poll(() => toast().textContent()).toBe('Cancellation succeeded!');
  await expect.poll(() => stop.count()).toBe(0);
  console.log(`conditional orders journey: ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

it('offline, the cached orders show marked "Offline — as of", and an order says at once that trading needs a connection', async () => {
  await controlledByServiceWorker(page);
  await page.goto('/#/pages/contracts/orderList');
  await page.getByRole('button', { name: 'History' }).click();
  await page.locator('.ct-order', { hasText: 'Dealt' }).first().waitFor();

  await page.context().setOffline(true);
  try {
    await page.reload();
    await page.getByRole('button', { name: 'History' }).click();
    await page.locator('.ct-order', { hasText: 'Dealt' }).first().waitFor();
    await expect
      .poll(() => page.locator('.offline-note').textContent())
      .toMatch(/^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/);
    await screenshot(page, '49-contract-orders-offline');

    await page.goto('/#/pages/contracts/contracts?code=BTC');
    await page.getByRole('button', { name: 'Market', exact: true }).click();
    await page.getByLabel('Total to spend (USDT)').fill('10');
    await page.getByRole('button', { name: 'Buy BTC', exact: true }).click();
    await expect.poll(() => toast().textContent(), { timeout: 2000 }).toBe(texts.offline.message);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  } finally {
    await page.context().setOffline(false);
  }
});

it('shows total assets on Home, BTC and DOGE valued at their latest prices', async () => {
  await page.goto('/#/pages/index/index');
  await expect
    .poll(async () => Number(decimalOf(await page.locator('.home-total .total-assets-amount').textContent())))
    .toBeGreaterThan(9000);
  await screenshot(page, '48-home-total-assets');
});

it('sells all its BTC with 100 %, then converts what the quantity step left to USDT at the next recorded price', async () => {
  await page.goto('/#/pages/contracts/contracts?code=BTC');
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.getByRole('button', { name: 'Market', exact: true }).click();
  await expect.poll(async () => Number(decimalOf(await available().textContent()))).toBeGreaterThan(0.001);
  await page.getByRole('button', { name: '100%', exact: true }).click();
  await confirmOrder('Sell BTC', MARKET_ACCEPTED);
  await expect.poll(() => toast().textContent()).toMatch(/^Sold 0\.\d+ BTC at [\d,.]+$/);
  // The fee taken in BTC left a holding that is not a whole number of 0.00001 steps: what remains, no order can sell.
  const left = async () => new Big(decimalOf(await available().textContent()));
  await expect.poll(async () => (await left()).gt(0) && (await left()).lt('0.00001')).toBe(true);
  const dust = await left();

  await page.locator('.ct-small-balances').getByRole('button', { name: 'Convert small balances to USDT' }).click();
  const dialog = page.getByRole('alertdialog');
  expect(await dialog.locator('dt').first().textContent()).toBe(`${dust.toFixed()} BTC`);
  await screenshot(page, '50-contracts-small-balances');
  await dialog.getByRole('button', { name: 'Convert', exact: true }).click();
  // Converted at the first price recorded after the confirmation, told with that price and what it brought.
  await expect
    .poll(() => page.locator('.ct-small-results').textContent())
    .toMatch(new RegExp(`^${dust.toFixed().replace('.', '\\.')} BTC converted to 0\\.\\d+ USDT at [\\d,.]+$`));
  await screenshot(page, '51-contracts-small-balances-converted');
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect.poll(async () => (await left()).toFixed()).toBe('0');
  expect(await page.locator('.ct-small-balances').count()).toBe(0);
});
