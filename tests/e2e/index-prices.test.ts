// The app on the market index, as a customer meets it: a server process reads three local exchange
// stand-ins over their documented protocols (its clock 4× real time, the stand-ins' trades timed on
// that clock). A coin is listed once the index has its first price, on a screen already open; Markets
// says "Index · 3 exchanges" where the simulator says "Simulated"; a 1-minute
// option settles on the index and its record shows the exchanges' prices behind its start and end
// prices; when every exchange goes quiet the coin shows "Paused" and a buy is refused with the message.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { logIn, markAllRead } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { standInEnv, startStandIns, tradeBtc, type StandIn } from '../server/exchange-standins.ts';

// 4×: a price stays fresh for the index's 5 s of market time, 1.25 s real here. At 20× (a quarter of a second) a busy
// machine holds the stand-ins or the server that long about once a second: BTC halts and resumes again and again, and
// buys meet a pause.
const SPEED = 4;
const origin = Date.now();
/** The server's market clock (CLOCK_ORIGIN, CLOCK_SPEED): the stand-ins time their trades on it, as real exchanges on
 * theirs. */
const marketNow = () => new Date(origin + (Date.now() - origin) * SPEED);

const work = mkdtempSync(join(tmpdir(), 'coinvest-index-e2e-'));
let stands: StandIn[] = [];
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let trades: ReturnType<typeof tradeBtc> | undefined;
const watch = watchPagesOnFailure('index-prices-');
afterEach(({ task }) => {
  // What the server said besides its requests (a halt, a resumption, an exchange's stream lost): the last of it.
  if (!task.result?.errors?.length || !server) return;
  const said = readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{') && !line.includes('"reqId"'));
  console.log(`The index server's last log lines besides requests:\n${said.slice(-30).join('\n')}`);
});

const PAUSED = 'Prices for BTC are paused while the market data is unavailable. Please try again later!';

/** An option that went through but found no price recorded after it (the index paused): its amount came back. */
const VOID = /^BTC option void, no market price after the order: 10\.00 USDT returned$/;
let offerAnswered = false;

/**
 * Buys up and confirms, as a customer does who meets a pause. The stand-ins trade from this test's process: when the
 * machine holds it longer than the index's 5 s of market time (1.25 s here), BTC pauses a moment, and the app or the
 * server refuses the buy with the paused text, or the order goes through and is void for want of a price after it.
 * The customer waits until BTC trades again and buys again. The first order that goes through on this device offers
 * notifications: not now, as a customer may answer. Any other answer fails at once.
 */
async function buyUpThroughPauses(): Promise<void> {
  const toast = page.getByRole('alert');
  const dialog = page.getByRole('alertdialog');
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.locator('.paused-note').waitFor({ state: 'detached' });
    await toast.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Buy up' }).click();
    await dialog.or(toast).first().waitFor();
    if (await dialog.isVisible()) {
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await toast.waitFor();
    }
    const answer = (await toast.textContent()) ?? '';
    if (answer === 'Successful transaction!' || VOID.test(answer)) {
      if (!offerAnswered) {
        await page.getByRole('alertdialog', { name: 'Get notified?' }).getByRole('button', { name: 'Not now' }).click();
        offerAnswered = true;
      }
      if (answer === 'Successful transaction!') return;
      continue;
    }
    expect(answer).toBe(PAUSED);
  }
  throw new Error('BTC paused at each of 5 buys');
}

beforeAll(async () => {
  stands = await startStandIns();
  server = await startServer({
    work,
    name: 'index server',
    env: {
      DATA_DIR: join(work, 'data'),
      WEB_ROOT: inject('webRoot'),
      LOG_LEVEL: 'info',
      CLOCK_SPEED: String(SPEED),
      CLOCK_ORIGIN: String(origin),
      ...standInEnv(stands),
    },
  });
  await markAllRead('demo', 'demo1234', server.base);
  browser = await launch();
  context = await phoneContext(browser, { baseURL: server.base });
  page = watch(await context.newPage());
}, 120_000);

afterAll(async () => {
  await trades?.stop();
  await context?.close();
  await browser?.close();
  await server?.stop();
  await Promise.all(stands.map((stand) => stand.close()));
  rmSync(work, { recursive: true, force: true });
});

it('lists BTC once the index has its first price, without a reload, and says where the prices come from: "Index · 3 exchanges", never "Simulated"', async () => {
  await logIn(page, 'demo', 'demo1234');
  const listRead = page.waitForResponse((response) => response.url().includes('/api/coin/lists'));
  await page.locator('.tabbar').getByRole('link', { name: 'Markets' }).click();
  await listRead;
  // No exchange has traded yet: the index has no price, and nothing is listed (never an invented price).
  expect(await page.locator('.market-row').count()).toBe(0);
  // Each exchange trades BTC every 50 ms real (0.2 s of market time: fresh within the index's 5 s).
  trades = tradeBtc(stands, { now: marketNow });
  const btc = page.locator('.market-row', { hasText: 'BTC' });
  await expect.poll(() => btc.count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => btc.locator('.market-price').textContent()).toBe('97,190.83');
  expect(await page.locator('.index-badge').first().textContent()).toBe('Index · 3 exchanges');
  expect(await page.locator('.simulated-badge').count()).toBe(0);
  // No exchange trades the other coins: with no index price yet they are not listed, never with an invented one.
  expect(await page.locator('.market-row').count()).toBe(1);
  await screenshot(page, '80-index-markets');
});

it('settles a 1-minute option on the index and shows the exchanges behind its start and end prices', async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  await expect
    .poll(() => page.locator('.opt-quote .index-badge').textContent(), { timeout: 15_000 })
    .toBe('Index · 3 exchanges');
  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('10');
  await buyUpThroughPauses();

  // One market minute is 15 real seconds here.
  await page.getByRole('button', { name: /Purchase record/ }).click();
  // The newest settled order; one void before it (a pause) says it did not open.
  const settled = page
    .locator('.opt-order', { has: page.locator('.opt-profit') })
    .filter({ hasNotText: 'Did not open' })
    .first();
  await settled.waitFor({ timeout: 60_000 });
  await settled.click();
  await page.waitForURL(/orderRecord\?id=\d+/);
  const madeOf = page.locator('.made-of');
  await expect.poll(() => madeOf.count()).toBe(2);
  // The index orders its constituents by exchange id: Binance, Kraken, OKX.
  for (const line of await madeOf.allTextContents())
    expect(line).toBe('Median of Binance 97,190.10 · Kraken 97,192.00 · OKX 97,190.83');
  expect(await page.getByText(/Settled at the recorded price of/).count()).toBe(1);
  // The same price at both ends: a tie, the amount returned.
  expect(await page.getByText('Same price: amount returned').count()).toBe(1);
  await screenshot(page, '81-index-option-record');
});

it('shows a halted coin as paused and refuses a buy with the message, then resumes', async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  await page.locator('.opt-quote .index-badge').waitFor();
  await trades?.stop();
  // Within the 5 s of market time a price stays fresh (1.25 s here), the coin halts.
  await page.locator('.opt-quote .paused-badge').waitFor({ timeout: 15_000 });
  expect(await page.locator('.paused-note').textContent()).toBe(PAUSED);
  await page.getByLabel('Amount (USDT)').fill('10');
  await page.getByRole('button', { name: 'Buy up' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe(PAUSED);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await screenshot(page, '82-index-paused');

  await page.locator('.tabbar').getByRole('link', { name: 'Markets' }).click();
  await page.locator('.market-row', { hasText: 'BTC' }).locator('.paused-badge').waitFor();

  trades = tradeBtc(stands, { now: marketNow });
  await page
    .locator('.market-row', { hasText: 'BTC' })
    .locator('.paused-badge')
    .waitFor({ state: 'detached', timeout: 15_000 });
});
