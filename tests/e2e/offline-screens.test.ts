// Offline after one visit online, as QA sets it: the browser context's offline switch, and
// the DevTools protocol's `Network.emulateNetworkConditions` offline (devtools' Network panel on
// the page, Application → Service workers → Offline on the worker). Every tab and every money
// screen opens; no balance shows an invented 0.00 (a figure that was not 0.00 online); the
// "Offline — as of" marker shows where cached data is shown; the trading buttons say that a
// connection is needed before anything else.
import { expect, inject, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { phonePageForFile, screenshot, watchRequests } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { controlledByServiceWorker, logIn } from './pwa.ts';
import { texts } from '../../src/api-contract/texts.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `063${String(Date.now()).slice(-7)}`;
const password = 'offline123';
const OFFLINE_NOTE = /^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/;

/** Every tab and every money screen; `cached` says the screen shows cached data, so the marker must show offline. */
const SCREENS = [
  { name: 'home', route: '/pages/index/index', cached: true },
  { name: 'markets', route: '/pages/coinList/index', cached: true },
  { name: 'options', route: '/pages/Option/Option', cached: true },
  { name: 'mining', route: '/pages/Lock-up/Lock-up', cached: true },
  { name: 'mine', route: '/pages/mine/mine', cached: false },
  { name: 'recharge', route: '/pages/Recharge/Recharge', cached: true },
  { name: 'withdraw', route: '/pages/Withdraw/Withdraw', cached: true },
  { name: 'account-details', route: '/pages/accountDetails/accountDetails', cached: true },
  { name: 'contracts', route: '/pages/contracts/contracts', cached: true },
  { name: 'liquidity', route: '/pages/Liquidity/Liquidity', cached: true },
] as const;

/**
 * The figures "0.00" next to a balance word on screen, each as the short text of the row that
 * holds it ("Available: 0.00 USDT").
 */
const zeroBalances = (on: Page) =>
  on.evaluate(() => {
    const label = /balance|available|assets|equity|wallet|total/i;
    const found: string[] = [];
    for (const element of document.querySelectorAll('.app-main *')) {
      if (element.children.length) continue;
      if (!/(^|[^\d,.])0\.00(?!\d)/.test(element.textContent ?? '')) continue;
      let box: Element | null = element;
      for (let up = 0; up < 4 && box; up++, box = box.parentElement) {
        const text = (box.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text.length > 120) break;
        if (label.test(text)) {
          found.push(text);
          break;
        }
      }
    }
    return found;
  });

/** A row's words without its figures: the same row online and offline. */
const rowKey = (text: string) => text.replace(/[\d,.]+/g, '#');

/** Opens a screen (a full reload, as a person reopening the app) and waits until it has settled. */
async function open(route: string): Promise<void> {
  await page.goto(`/#${route}`);
  const requests = watchRequests(page);
  try {
    await page.reload();
    await page.locator('.app:not([inert]) .app-main .page').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('.page-loading, .mask'), undefined, { timeout: 30_000 });
    // Cached answers arrive after the first render (the balances stored on the device are read before it): settled once
    // every request of the page has been answered or has failed, and what they brought is on screen.
    await requests.settled();
  } finally {
    requests.stop();
  }
}

const onlineZeros = new Map<string, string[]>();

it('one visit online to every screen (a customer with 1,000 USDT)', async () => {
  await fundedUser(phone, password, '135790', '1000');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  for (const screen of SCREENS) {
    await open(screen.route);
    expect(await page.locator('.offline-note').count(), screen.name).toBe(0);
    onlineZeros.set(screen.name, await zeroBalances(page));
  }
});

/** What each offline screen shows that it should not: an error screen, an invented 0.00, no marker over cached data. */
async function checkEveryScreen(mode: string): Promise<void> {
  const problems: string[] = [];
  for (const screen of SCREENS) {
    await open(screen.route);
    // Cached answers come from the service worker at once, or after its network timeout (3.5 s) where the
    // offline network hangs rather than fails; give a busy machine a moment more for the marker.
    if (screen.cached)
      await page
        .locator('.offline-note')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
    // Mine's Real / Practice switch comes in a chunk of its own, kept by the service worker: there offline too.
    if (screen.name === 'mine')
      await page
        .getByRole('radiogroup', { name: 'Account' })
        .waitFor({ timeout: 10_000 })
        .catch(() => problems.push('mine: no Real / Practice switch'));
    await screenshot(page, `offline-${mode}-${screen.name}`);
    if (await page.getByText(texts.pageLoadFailed.message).count())
      problems.push(`${screen.name}: the page failed to load`);
    const zerosOnline = onlineZeros.get(screen.name)!;
    for (const row of await zeroBalances(page)) {
      const online = zerosOnline.find((text) => rowKey(text) === rowKey(row));
      if (!online) problems.push(`${screen.name}: "${row}" shows 0.00, online it did not`);
    }
    const note = page.locator('.offline-note').first();
    if (screen.cached) {
      if (!(await note.count())) problems.push(`${screen.name}: no "Offline — as of" marker`);
      else if (!OFFLINE_NOTE.test((await note.textContent()) ?? ''))
        problems.push(`${screen.name}: marker reads "${await note.textContent()}"`);
    }
  }
  expect(problems).toEqual([]);
}

/** The trading buttons answer that a connection is needed, before any rule of the form. */
async function checkTradingButtons(): Promise<void> {
  await open('/pages/Option/Option');
  await page.getByRole('button', { name: 'Buy up' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe(texts.offline.message);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await open('/pages/contracts/contracts');
  await page.getByRole('button', { name: /^Buy [A-Z]+$/ }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe(texts.offline.message);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
}

it("the browser context's offline: every screen opens, truthful and marked; trading needs a connection", async () => {
  await page.context().setOffline(true);
  try {
    await checkEveryScreen('context');
    await checkTradingButtons();
  } finally {
    await page.context().setOffline(false);
  }
});

/** The DevTools sessions that emulate the network: the page's, and one per service worker of the app. */
interface DevtoolsSessions {
  page?: CDPSession;
  browser?: CDPSession;
  /** The worker sessions attached by the first call: the same sessions lift the conditions, then detach. */
  workers: string[];
}

/**
 * DevTools' Offline through the protocol, on the page and on its service worker (as devtools applies
 * it to both). Conditions belong to the session that set them, so lifting them goes through the same
 * sessions (a new session saying "online" would leave the first one's "offline" in force), which
 * are then detached.
 */
async function devtoolsOffline(offline: boolean, sessions: DevtoolsSessions): Promise<void> {
  const conditions = { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
  sessions.page ??= await page.context().newCDPSession(page);
  await sessions.page.send('Network.enable');
  await sessions.page.send('Network.emulateNetworkConditions', conditions);
  sessions.browser ??= await page.context().browser()!.newBrowserCDPSession();
  if (offline && !sessions.workers.length) {
    const { targetInfos } = await sessions.browser.send('Target.getTargets');
    const origin = inject('baseUrl');
    for (const target of targetInfos.filter((info) => info.type === 'service_worker' && info.url.startsWith(origin))) {
      const { sessionId } = await sessions.browser.send('Target.attachToTarget', {
        targetId: target.targetId,
        flatten: false,
      });
      sessions.workers.push(sessionId);
    }
  }
  for (const sessionId of sessions.workers) {
    for (const [id, method, params] of [
      [1, 'Network.enable', {}],
      [2, 'Network.emulateNetworkConditions', conditions],
    ] as const)
      await sessions.browser
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(() => undefined);
  }
  if (!offline) {
    for (const sessionId of sessions.workers.splice(0))
      await sessions.browser.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    await sessions.page.detach();
    sessions.page = undefined;
  }
}

it("DevTools protocol's offline: every screen opens, truthful and marked; trading needs a connection", async () => {
  const sessions: DevtoolsSessions = { workers: [] };
  await devtoolsOffline(true, sessions);
  try {
    // A reload keeps devtools' conditions on the page target, as it does for QA.
    await checkEveryScreen('devtools');
    await checkTradingButtons();
  } finally {
    await devtoolsOffline(false, sessions);
  }
  // Back online, the fresh answers replace the cached ones.
  await open('/pages/Withdraw/Withdraw');
  // The worker's own devtools conditions lift a moment after the page's: the marker goes once an answer comes fresh.
  await expect.poll(() => page.locator('.offline-note').count(), { timeout: 20_000, interval: 250 }).toBe(0);
});
