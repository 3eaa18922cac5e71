// Liquidity mining as a person would use it, on a server whose interest day lasts 15 s: the demo
// user subscribes 1,000 USDT (buy → confirm), sees it in the balance, waits for a full day to earn
// and sees yesterday's interest (1,000 × 6 % ÷ 365) and its row in the record; quick-redeems 100
// (the available USDT rises at once) and standard-redeems 50 (Submitted, then Waiting to be
// processed at the end of its day, then Confirmed and paid at the end of the next). Then the page
// offline from the cached answers, a write refused at once, a subscription whose answer was lost made once, the rules,
// and the pages in Arabic.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCallsDuring, expectRefusedOffline, phonePageForFile, screenshot } from './browser.ts';
import { startEarnServer, type EarnServer } from './earn-server.ts';
import { callApi, controlledByServiceWorker, homeSettled, markAllRead } from './pwa.ts';
import { postgresBinaries, startPostgres, type PostgresCluster } from '../server/postgres.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  // The accelerated test clock keeps the server busy (its jobs run every 50 ms): allow for slow answers.
  page.setDefaultTimeout(60_000);
});

let server: EarnServer;
let postgres: PostgresCluster | null = null;
beforeAll(async () => {
  // Its jobs run every 50 ms of real time (days pass in 15 s): on the embedded database that keeps a small machine
  // busy enough to answer in seconds, so the server runs on a throwaway PostgreSQL when there is one.
  if (postgresBinaries()) postgres = await startPostgres();
  const before = process.env.DATABASE_URL;
  if (postgres) process.env.DATABASE_URL = postgres.url();
  try {
    server = await startEarnServer({ secondsPerDay: 15 });
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
});
afterAll(async () => {
  await server?.stop();
  await postgres?.stop();
});

/** A test with room for the slow server and up to two interest days of waiting. */
const STEP_MS = 240_000;
const OFFLINE_TEXT = 'You are offline. Please check your network and try again.';

const open = (route: string) => page.goto(`${server.baseUrl}/#${route}`);
/** Polls a reading until it matches (the server may take seconds to answer). */
const poll = <T>(read: () => Promise<T>, timeout = 30_000) => expect.poll(read, { timeout, interval: 250 });
const toast = () => page.getByRole('alert').textContent();
/** A screenshot once the loading mask is gone. */
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, `liquidity-${name}`);
}
/** A figure of the balance card by its label ("Redeeming"), as shown: "50.00 USDT" or "—". */
const figure = (label: string) =>
  page
    .locator('.liq-balance-grid > div', { has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .textContent();
const principal = () => page.locator('.liq-balance-amount').first().textContent();
const available = () => page.locator('.liq-available').textContent();
const allowance = () => page.locator('.liq-mode[aria-checked="true"] .liq-mode-figure').textContent();
/** The newest row of the record as filtered. */
const newest = () => page.locator('.record-list > li').first();

/** The server's interest day now. */
async function serverToday(): Promise<string> {
  const answer = await callApi<{ today: string }>('/yuebao/product', { method: 'GET', base: server.baseUrl });
  return answer.data.today;
}

/** Waits until the server's next interest day begins, so what follows happens early in a day. */
async function nextServerDay(): Promise<void> {
  const day = await serverToday();
  await expect.poll(serverToday, { timeout: 40_000, interval: 200 }).not.toBe(day);
}

it(
  'logs in as the demo user; the liquidity page shows nothing held yet and the ladder',
  async () => {
    await markAllRead('demo', 'demo1234', server.baseUrl);
    await open('/pages/login/login');
    await page.getByLabel('Username, mobile number or e-mail').fill('demo');
    await page.getByLabel('Password').fill('demo1234');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await homeSettled(page);

    await open('/pages/Liquidity/Liquidity');
    await poll(principal).toBe('0.00 USDT');
    const rows = page.locator('.liq-ladder').first().locator('tbody tr');
    await poll(() => rows.allTextContents()).toEqual([
      '0 – 1,0006.00%',
      '1,000 – 10,0004.00%',
      '10,000 and above2.50%',
    ]);
    expect(await page.locator('.liq-ladder tr.reached').count()).toBe(0);
    await shot('01-page-empty');
  },
  STEP_MS,
);

it(
  'subscribes 1,000 USDT: the minimum is checked, the confirmation says when it earns, the balance follows',
  async () => {
    await page.getByRole('link', { name: 'Subscribe' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/buy$/);
    await poll(available).toBe('Available 10,000.00 USDT');
    expect(await page.getByLabel('Amount (USDT)').getAttribute('placeholder')).toBe('At least 10.00 USDT');

    await page.getByLabel('Amount (USDT)').fill('5');
    await page.getByRole('button', { name: 'Next' }).click();
    await poll(toast).toBe('The minimum amount is: 10 USDT!');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    expect(await page.getByLabel('Amount (USDT)').inputValue()).toBe('10000');

    await page.getByLabel('Amount (USDT)').fill('1000');
    const quote = (label: string) =>
      page
        .locator('.liq-quote .detail-rows > div', { has: page.locator('dt', { hasText: label }) })
        .locator('dd')
        .textContent();
    await poll(() => quote('Interest a day (estimate)')).toBe('0.16438356 USDT');
    expect(await quote('Earns from')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await shot('02-buy');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/buyConfirm\?amount=1000$/);
    await poll(() => page.locator('.liq-summary-amount').textContent()).toBe('1,000.00 USDT');
    await poll(() => page.locator('.liq-summary .detail-rows').getByText('Available now').count()).toBe(1);
    await shot('03-buy-confirm');

    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/Liquidity$/);
    await poll(toast).toBe('Successful transaction!');
    await poll(principal).toBe('1,000.00 USDT');
    expect(await page.locator('.liq-ladder').first().locator('tr.reached').count()).toBe(1);
    await shot('04-page-subscribed');

    // Back leads where the user came from, not to the forms.
    await page.locator('.navbar').getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/#\/pages\/index\/index$/);
  },
  STEP_MS,
);

it(
  "after a full day the balance shows yesterday's interest, and the record its row",
  async () => {
    await open('/pages/Liquidity/Liquidity');
    // Interest is credited at the end of the first full day after the subscription: up to two day
    // ends. Read together, from one answer: a later day end changes both.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.locator('.liq-balance .money').first().waitFor();
          return [await figure("Yesterday's interest"), await principal()];
        },
        { timeout: 75_000, interval: 1000 },
      )
      .toEqual(['0.16438356 USDT', '1,000.16438356 USDT']);
    expect(await page.locator('.liq-balance-rate').textContent()).toBe('Your annual rate 5.99%');
    await shot('05-interest');

    await page.getByRole('link', { name: 'Liquidity record' }).first().click();
    await page.waitForURL(/#\/pages\/Liquidity\/record$/);
    await page.getByRole('button', { name: 'Interest', exact: true }).click();
    await poll(() => newest().locator('.money-amount').textContent()).toBe('+0.16438356 USDT');
    expect(await newest().locator('.status-badge').textContent()).toBe('Done');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await poll(() => page.locator('.record-list > li.subscribe .money-amount').textContent()).toBe('+1,000.00 USDT');
    await shot('06-record-interest');
  },
  STEP_MS,
);

it(
  'quick-redeems 100: the USDT is in the available balance at once, and the day’s quick allowance shrinks',
  async () => {
    await open('/pages/Liquidity/buy');
    await poll(available).toBe('Available 9,000.00 USDT');

    await open('/pages/Liquidity/sell');
    await poll(allowance).toBe('Left today 30,000,000.00 USDT');
    await page.getByLabel('Amount (USDT)').fill('100');
    await shot('07-sell-quick');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/sellConfirm\?amount=100&mode=quick$/);
    await page.locator('.liq-summary').getByText('None on the amount redeemed').waitFor();
    await shot('08-sell-confirm-quick');
    const day = await serverToday();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/Liquidity$/);
    await poll(toast).toBe('Successful transaction!');

    await open('/pages/Liquidity/buy');
    await poll(available).toBe('Available 9,100.00 USDT');
    await open('/pages/Liquidity/sell');
    await poll(allowance).toMatch(/^Left today /);
    // The allowance is per interest day: a new day gives it back whole.
    const shown = await allowance();
    if ((await serverToday()) === day) expect(shown).toBe('Left today 29,999,900.00 USDT');
    else expect(['Left today 29,999,900.00 USDT', 'Left today 30,000,000.00 USDT']).toContain(shown);
  },
  STEP_MS,
);

it(
  'standard-redeems 50: Submitted, then Waiting to be processed at the end of its day, then Confirmed and paid',
  async () => {
    await open('/pages/Liquidity/sell');
    await page.getByLabel('Amount (USDT)').fill('50');
    await page.getByRole('radio', { name: /Standard redemption/ }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/sellConfirm\?amount=50&mode=standard$/);
    await page.locator('.liq-summary').getByText('Still earned on the amount redeemed').waitFor();
    await shot('09-sell-confirm-standard');

    // Confirmed early in a day, so "Submitted" is still true when the record is read.
    await nextServerDay();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/#\/pages\/Liquidity\/Liquidity$/);
    await poll(toast).toMatch(/^Redemption submitted: paid at the end of [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/);
    await poll(() => figure('Redeeming')).toBe('50.00 USDT');
    await shot('10-page-redeeming');

    await open('/pages/Liquidity/record');
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await poll(() => newest().locator('.record-row-title').textContent()).toBe('Redemption · Standard');
    expect(await newest().locator('.status-badge').textContent()).toBe('Submitted');
    expect(await newest().locator('.money-amount').textContent()).toBe('−50.00 USDT');
    expect(await newest().locator('.liq-record-pay').textContent()).toMatch(/^To be paid at the end of /);
    await shot('11-record-submitted');

    const statusAfterReload = async () => {
      await page.reload();
      await page.getByRole('button', { name: 'Redeem', exact: true }).click();
      await poll(() => newest().locator('.record-row-title').textContent()).toBe('Redemption · Standard');
      return newest().locator('.status-badge').textContent();
    };
    await expect.poll(statusAfterReload, { timeout: 45_000, interval: 1000 }).toBe('Waiting to be processed');
    await shot('12-record-waiting');
    await expect.poll(statusAfterReload, { timeout: 45_000, interval: 1000 }).toBe('Confirmed');
    expect(await newest().locator('.liq-record-pay').textContent()).toMatch(/^Paid at the end of /);
    await shot('13-record-confirmed');

    await open('/pages/Liquidity/Liquidity');
    await poll(() => figure('Redeeming')).toBe('0.00 USDT');
    await open('/pages/Liquidity/buy');
    await poll(available).toBe('Available 9,150.00 USDT');
  },
  STEP_MS,
);

it(
  'offline, the liquidity page shows the cached figures marked, and a subscription fails at once',
  async () => {
    await controlledByServiceWorker(page);
    await open('/pages/Liquidity/Liquidity');
    await poll(() => figure('Redeeming')).toBe('0.00 USDT');
    const kept = await principal();
    let sent: Awaited<ReturnType<typeof apiCallsDuring>> = [];
    await page.context().setOffline(true);
    try {
      await page.reload();
      await poll(() => page.locator('.offline-note').textContent()).toMatch(/^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/);
      await poll(principal).toBe(kept);
      await shot('14-offline');

      await open('/pages/Liquidity/buyConfirm?amount=20');
      await page.locator('.offline-note').waitFor();
      sent = await apiCallsDuring(page, async () => {
        await page.getByRole('button', { name: 'Confirm' }).click();
        await expect.poll(toast).toBe(OFFLINE_TEXT);
      });
      // At once: refused on the device before the text showed; none was tried again and none was
      // left waiting on the network.
      expectRefusedOffline(sent, '/api/yuebao/transfer/in');
      expect(await page.evaluate(() => location.hash)).toBe('#/pages/Liquidity/buyConfirm?amount=20');
    } finally {
      await page.context().setOffline(false);
    }
    // A call the browser did send may have reached the server before the network went (the next tests): back online
    // the app asks, and the server says it never arrived.
    if (sent.length) {
      const told = page.getByRole('alertdialog', { name: 'What became of your request' });
      await poll(() => told.locator('li').allTextContents()).toEqual([
        expect.stringMatching(/^Liquidity subscription of 20 USDTSent at .+It did not reach us, so nothing was done\./),
      ]);
      await told.getByRole('button', { name: 'OK' }).click();
      await told.waitFor({ state: 'detached' });
    }
  },
  STEP_MS,
);

it(
  'a subscription whose answer is lost on the way: tapped again once back online, it is made once',
  async () => {
    await open('/pages/Liquidity/Liquidity');
    await poll(() => figure('Redeeming')).toBe('0.00 USDT');
    const before = await principal();
    const keys: string[] = [];
    // The server makes the subscription, and the connection drops before its answer arrives.
    await page.context().route('**/api/yuebao/transfer/in', async (route) => {
      // The same path read (GET) says what may be subscribed: only the subscription is in question.
      if (route.request().method() !== 'POST') return route.continue();
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      if (keys.length > 1) return route.continue();
      await route.fetch();
      await page.context().setOffline(true);
      await route.abort('internetdisconnected');
    });
    try {
      await open('/pages/Liquidity/buyConfirm?amount=20');
      await poll(() => page.locator('.liq-summary-amount').textContent()).toBe('20.00 USDT');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await poll(toast).toBe(OFFLINE_TEXT);
      await page.context().setOffline(false);
      // Back online the app says it went through (the next test); tapped again all the same, it is not made twice.
      const told = page.getByRole('alertdialog', { name: 'What became of your request' });
      await told.getByRole('button', { name: 'OK' }).click();
      await told.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/#\/pages\/Liquidity\/Liquidity$/);
      await poll(toast).toBe('Successful transaction!');
    } finally {
      await page.context().unroute('**/api/yuebao/transfer/in');
      await page.context().setOffline(false);
    }
    // Sent again with the key of the first, the server answered what it had done: 20 USDT more, not 40 (with the
    // interest of the days passing meanwhile, a few cents at most on this balance).
    const usdt = (text: string | null) => Number(text!.replace(/[^\d.]/g, ''));
    await poll(async () => usdt(await principal()) - usdt(before)).toBeGreaterThanOrEqual(20);
    expect(usdt(await principal()) - usdt(before)).toBeLessThan(21);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  },
  STEP_MS,
);

/** What the device keeps of writes whose answer was lost (lib/lost-answers-state.ts), read from its IndexedDB. */
const keptLostWrites = () =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const opened = indexedDB.open('coinvest');
        opened.onsuccess = () => {
          const read = opened.result.transaction('state').objectStore('state').get('lost-answers');
          read.onsuccess = () => resolve((read.result as { waiting?: unknown[] } | undefined)?.waiting?.length ?? 0);
          read.onerror = () => resolve(-1);
        };
        opened.onerror = () => resolve(-1);
      }),
  );

it(
  'a subscription whose answer is lost: back online the customer is told it went through; one that never arrived, told after a restart',
  async () => {
    await open('/pages/Liquidity/Liquidity');
    await poll(() => figure('Redeeming')).toBe('0.00 USDT');
    const before = await principal();
    // The first subscription reaches the server and its answer is lost; the second never leaves the device.
    let sent = 0;
    await page.context().route('**/api/yuebao/transfer/in', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent += 1;
      if (sent === 1) await route.fetch();
      await page.context().setOffline(true);
      await route.abort('internetdisconnected');
    });
    const dialog = page.getByRole('alertdialog', { name: 'What became of your request' });
    const subscribeOffline = async (amount: string) => {
      await open(`/pages/Liquidity/buyConfirm?amount=${amount}`);
      await poll(() => page.locator('.liq-summary-amount').textContent()).toBe(`${amount}.00 USDT`);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await poll(toast).toBe(OFFLINE_TEXT);
    };
    try {
      await subscribeOffline('20');
      // Back online, the app asks the server at once and says what became of it.
      await page.context().setOffline(false);
      await dialog.waitFor({ timeout: 30_000 });
      expect(await dialog.locator('li').allTextContents()).toEqual([
        expect.stringMatching(
          /^Liquidity subscription of 20 USDTSent at .+It went through: .+Do not place it again\.$/,
        ),
      ]);
      await shot('16b-lost-answer-went-through');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'detached' });

      await subscribeOffline('30');
      await poll(keptLostWrites).toBe(1);
      // The app closed and opened again while still offline: the write is still kept, and asked about once online.
      await page.reload();
      await page.locator('.app').waitFor();
      expect(await dialog.count()).toBe(0);
      await page.context().setOffline(false);
      await dialog.waitFor({ timeout: 30_000 });
      expect(await dialog.locator('li').allTextContents()).toEqual([
        expect.stringMatching(/^Liquidity subscription of 30 USDTSent at .+It did not reach us, so nothing was done\./),
      ]);
      await shot('16c-lost-answer-never-arrived');
      await dialog.getByRole('button', { name: 'OK' }).click();
      expect(await keptLostWrites()).toBe(0);
    } finally {
      await page.context().unroute('**/api/yuebao/transfer/in');
      await page.context().setOffline(false);
    }
    expect(sent).toBe(2);
    // 20 USDT subscribed once, the 30 never (with the interest of the days passing meanwhile, cents at most).
    await open('/pages/Liquidity/Liquidity');
    const usdt = (text: string | null) => Number(text!.replace(/[^\d.]/g, ''));
    await poll(async () => usdt(await principal()) - usdt(before)).toBeGreaterThanOrEqual(20);
    expect(usdt(await principal()) - usdt(before)).toBeLessThan(21);
  },
  STEP_MS,
);

it(
  'the rules say the minimum, the ladder, how interest is computed and both redemptions',
  async () => {
    await open('/pages/Liquidity/rule');
    await page.getByText('The minimum subscription is 10.00 USDT.', { exact: false }).waitFor();
    expect(await page.locator('.liq-example').textContent()).toBe(
      'Example: 5,000 USDT earning today makes (1,000 × 6.00% + 4,000 × 4.00%) ÷ 365 = 0.60273972 USDT.',
    );
    expect(
      await page.getByText('At most 30,000,000.00 USDT per user and interest day.', { exact: false }).count(),
    ).toBe(1);
    expect(await page.getByText('Asia/Bangkok', { exact: false }).count()).toBe(1);
    await shot('15-rule');
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await screenshot(page, 'liquidity-16-rule-end');
  },
  STEP_MS,
);

it(
  'in Arabic the pages run right to left',
  async () => {
    await open('/pages/mine/setting');
    await page.getByRole('button', { name: /Language/ }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
    await poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    try {
      await open('/pages/Liquidity/Liquidity');
      await page.locator('.liq-balance .money').first().waitFor();
      await page.locator('.liq-ladder tbody tr').first().waitFor();
      // Each tier reads right to left: the lower bound first (rightmost), the open top tier in words after it.
      const tiers = await page
        .locator('.liq-ladder')
        .first()
        .locator('tbody .liq-tier-range')
        .evaluateAll((cells) =>
          cells.map((cell) => {
            const [first, second] = [...cell.querySelectorAll('[dir="ltr"]')].map((amount) =>
              amount.getBoundingClientRect(),
            );
            // The words of an open top tier (a text node beside its one amount): laid out left of it in Arabic.
            const words = [...cell.childNodes].find((node) => node.nodeType === 3 && /\p{L}/u.test(node.textContent!));
            const range = document.createRange();
            if (words) range.selectNodeContents(words);
            return {
              text: cell.textContent,
              lowerBoundFirst: second === undefined || first!.left > second.right,
              wordsAfter: words === undefined || range.getBoundingClientRect().right <= first!.left + 1,
            };
          }),
        );
      expect(tiers.map((tier) => tier.text)).toEqual(['0 – 1,000', '1,000 – 10,000', '10,000 وما فوق']);
      expect(tiers.every((tier) => tier.lowerBoundFirst && tier.wordsAfter)).toBe(true);
      await shot('17-page-ar');
      await open('/pages/Liquidity/sell');
      await page.locator('.liq-mode-figure .money').first().waitFor();
      await shot('18-sell-ar');
      await open('/pages/Liquidity/record');
      await newest().waitFor();
      await shot('19-record-ar');
    } finally {
      await open('/pages/mine/setting');
      await page.locator('.cell', { hasText: 'العربية' }).click();
      await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /English/ }).click()]);
    }
  },
  STEP_MS,
);
