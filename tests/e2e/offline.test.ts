// Offline as a person meets it: one online visit, then no network. The shell and every route open from the service
// worker, Markets shows the cached prices marked "Offline — as of HH:MM", messages come from the user's own cache
// (still after a change of language), a write fails at once; back online the data refreshes. Then user A logs out
// and user B registers on the same browser (its answer lost on the way, the retry applied once): nothing of A's
// cached messages can be read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { apiCallsDuring, expectRefusedOffline, codeSentTo, phonePageForFile, screenshot } from './browser.ts';
import {
  cacheNames,
  callApi,
  controlledByServiceWorker,
  logIn,
  logOutFromSettings,
  markAllRead,
  runtimeCaches,
  storedRecords,
  storedToken,
  timeFirstPaints,
} from './pwa.ts';
import { PUBLIC_CACHE, isPartition, partitionName } from '../../src/api-contract/offline-cache.ts';
import { texts } from '../../src/api-contract/texts.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const OFFLINE_NOTE = /^Offline — as of \d{1,2}:\d{2}( [AP]M)?$/;
const btcPrice = () => page.locator('.market-row', { hasText: 'BTC' }).locator('.market-price');
let tokenOfA = '';

it('first visit online: logs in, visits home, markets and messages; their answers are cached', async () => {
  await markAllRead('demo', 'demo1234');
  await timeFirstPaints(page);
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, 'demo', 'demo1234');
  await page.locator('.app:not([inert]) .home-page').waitFor();
  await page.goto('/#/pages/coinList/index');
  await btcPrice().waitFor();
  await page.goto('/#/pages/index/msgList');
  await page.locator('.msg-list', { hasText: 'Welcome to Coinvest' }).waitFor();

  tokenOfA = (await storedToken(page))!;
  const partition = await partitionName(tokenOfA);
  await expect
    .poll(async () => {
      const cached = await runtimeCaches(page);
      return {
        public: (cached[PUBLIC_CACHE] ?? []).map((answer) => new URL(answer.url).pathname).sort(),
        messages: (cached[partition] ?? []).map((answer) => new URL(answer.url).pathname).sort(),
      };
    })
    .toEqual({
      // Kept per language (the app reads in English here): another language's answers are never these.
      public: [
        '/__offline__/en/GET/api/coin/lists',
        '/__offline__/en/GET/api/content/slide',
        '/__offline__/en/GET/api/other/config',
      ],
      // This customer's: the balances Home showed, and their messages.
      messages: [
        '/__offline__/en/GET/api/users/balances',
        '/__offline__/en/GET/api/users/message/unread',
        '/__offline__/en/POST/api/users/message',
      ],
    });
  // Each cached answer carries the time it was stored; nothing but these calls is cached.
  const cached = await runtimeCaches(page);
  for (const answer of [...cached[PUBLIC_CACHE]!, ...cached[partition]!])
    expect(Date.parse(answer.servedFromCache!)).not.toBeNaN();
  expect(Object.keys(cached).sort()).toEqual([PUBLIC_CACHE, partition].sort());
});

it('offline, a reload renders the shell and Markets shows the cached prices marked "Offline — as of HH:MM"', async () => {
  await page.context().setOffline(true);
  await page.goto('/#/pages/coinList/index');
  await page.reload();
  await btcPrice().waitFor();
  await expect.poll(() => page.locator('.offline-note').textContent()).toMatch(OFFLINE_NOTE);
  expect(await btcPrice().textContent()).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
  await screenshot(page, '20-offline-markets');

  const shown = await page.evaluate(() => (window as unknown as { __shown: Record<string, number> }).__shown);
  expect(shown.shell).toBeGreaterThan(0);
  const figures = Object.fromEntries(Object.entries(shown).map(([part, ms]) => [part, Math.round(ms)]));
  mkdirSync('test-results', { recursive: true });
  writeFileSync(join('test-results', 'offline-repeat-visit.json'), JSON.stringify(figures));
  console.log(
    `Offline repeat visit of Markets, ms from navigation start: shell ${figures.shell}, page ${figures.page}, cached prices ${figures.data}`,
  );
});

it('offline, messages and home render from the cached answers', async () => {
  await page.goto('/#/pages/index/msgList');
  await page.reload();
  await page.locator('.msg-list', { hasText: 'Welcome to Coinvest' }).waitFor();
  await screenshot(page, '21-offline-messages');
  await page.goto('/#/pages/index/index');
  await page.reload();
  await page.locator('.app:not([inert]) .home-page').waitFor();
  await expect.poll(() => page.locator('.home-page img, .home-page [role="marquee"]').count()).toBeGreaterThan(0);
});

it('offline, a change of language still shows the cached answers, then the language changes back', async () => {
  const chooseLanguage = async (cell: string, to: string, lang: string) => {
    await page.goto('/#/pages/mine/setting');
    await page.getByRole('button', { name: new RegExp(`^${cell}`) }).click();
    // The app reloads in the chosen language, from the service worker.
    const reloaded = page.waitForEvent('load');
    await page.getByRole('menuitemradio', { name: new RegExp(`^${to}`) }).click();
    await reloaded;
    await page.waitForFunction((expected) => document.documentElement.lang === expected, lang);
  };
  await chooseLanguage('Language', 'ไทย', 'th');
  // Nothing was kept in Thai: the prices and messages kept in English show rather than an empty page.
  await page.goto('/#/pages/coinList/index');
  await btcPrice().waitFor();
  expect(await btcPrice().textContent()).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
  // After the reload the page learns it is offline from the first call that fails (the service worker says so), which
  // may come after the cached prices show: the note follows then.
  await expect.poll(() => page.locator('.offline-note').count()).toBe(1);
  await page.goto('/#/pages/index/msgList');
  await page.locator('.msg-list', { hasText: 'Welcome to Coinvest' }).waitFor();
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, '21b-offline-thai-messages');
  await chooseLanguage('ภาษา', 'English', 'en');
});

it('offline, a write fails at once with the offline text and nothing is queued', async () => {
  await page.goto('/#/pages/mine/setting/nickname');
  await page.getByRole('textbox').fill('Offline Ann');
  const sent = await apiCallsDuring(page, async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(texts.offline.message);
  });
  // At once: refused on the device before the text showed; none was tried again and none was
  // left waiting on the network.
  expectRefusedOffline(sent, '/api/users/edit');
  await screenshot(page, '22-offline-write');
  expect(await page.evaluate(() => location.hash)).toBe('#/pages/mine/setting/nickname');
});

it('offline, a deep link opened in a new tab renders its page, not a browser error', async () => {
  const tab = await page.context().newPage();
  try {
    await tab.goto('/#/pages/coinList/detail?code=ETH');
    await expect.poll(() => tab.locator('.navbar h1').textContent()).toBe('ETH/USDT');
    expect(await tab.title()).toBe('Coinvest');
  } finally {
    await tab.close();
  }
});

it('back online, the data refreshes and the write goes through on the next tap', async () => {
  await page.context().setOffline(false);
  // Saved, the page goes back to where the user came from.
  const leftNickname = () => page.waitForURL((url) => !url.hash.includes('/nickname'));
  await page.getByRole('button', { name: 'Save' }).click();
  await leftNickname();
  await page.goto('/#/pages/mine/setting/nickname');
  await page.getByRole('textbox').fill('Demo');
  await page.getByRole('button', { name: 'Save' }).click();
  await leftNickname();

  await page.goto('/#/pages/coinList/index');
  await btcPrice().waitFor();
  expect(await page.locator('.offline-note').count()).toBe(0);
  const first = await btcPrice().textContent();
  await expect.poll(() => btcPrice().textContent(), { timeout: 15_000 }).not.toBe(first);
});

it("user A logs out: A's cache partition and stored records are gone", async () => {
  const partitionOfA = await partitionName(tokenOfA);
  expect(Object.keys(await runtimeCaches(page))).toContain(partitionOfA);
  await logOutFromSettings(page);
  await expect.poll(async () => (await cacheNames(page)).filter(isPartition)).toEqual([]);
  await expect.poll(async () => (await storedRecords(page)).session ?? null).toBeNull();
});

const phoneOfB = `09${String(Date.now()).slice(-8)}`;
const passwordOfB = 'userb1234';

it('user B registers on the same browser; the answer is lost, and the retry with the same Idempotency-Key is applied once', async () => {
  const keys: string[] = [];
  const loseFirstAnswer = async (route: Route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    await route.fetch(); // the server creates the account…
    await route.abort('connectionreset'); // …and its answer never arrives
  };
  await page.context().route('**/api/users/register', loseFirstAnswer);
  try {
    await page.goto('/#/pages/login/regist');
    await page.getByLabel('Mobile number').fill(phoneOfB);
    await page.getByRole('button', { name: 'Get code' }).click();
    await page.getByLabel('Verification code').fill(await codeSentTo(phoneOfB));
    await page.getByLabel('Login password').fill(passwordOfB);
    await page.getByLabel('Payment password').fill('123456');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Register' }).click();
    // Applied twice, the second attempt would answer that the number is already registered.
    await page.waitForURL(/#\/pages\/index\/index/);
  } finally {
    await page.context().unroute('**/api/users/register', loseFirstAnswer);
  }
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  const again = await callApi('/users/login', { form: { username: phoneOfB, password: passwordOfB } });
  expect(again.ret).toBe(1);
});

it("user B can read none of A's cached messages", async () => {
  await markAllRead(phoneOfB, passwordOfB);
  await page.goto('/#/pages/index/msgList');
  await page.reload();
  await page.locator('.msg-list', { hasText: 'Welcome to Coinvest' }).waitFor();
  const tokenOfB = (await storedToken(page))!;
  const partitionOfB = await partitionName(tokenOfB);
  await expect.poll(async () => (await cacheNames(page)).filter(isPartition)).toEqual([partitionOfB]);

  // What the device keeps names B only: no record or cached answer holds A's token or account.
  const cached = JSON.stringify({ caches: await runtimeCaches(page), records: await storedRecords(page) });
  for (const trace of [tokenOfA, 'demo@example.com', '"username":"demo"']) expect(cached).not.toContain(trace);

  // Offline, asking the service worker with A's old token finds nothing; B's token finds B's answer.
  await page.context().setOffline(true);
  try {
    const ask = (token: string) =>
      page.evaluate(async (value) => {
        try {
          const response = await fetch('/api/users/message', {
            method: 'POST',
            // As the app asks: in its language (answers are cached per language).
            headers: { token: value, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
            body: 'cursor=&status=all',
          });
          return { servedFromCache: response.headers.get('x-served-from-cache'), body: await response.text() };
        } catch (error) {
          return { failed: String(error) };
        }
      }, token);
    expect(await ask(tokenOfA)).toEqual({ failed: expect.stringMatching(/Failed to fetch/) });
    const asB = (await ask(tokenOfB)) as { servedFromCache: string; body: string };
    expect(Date.parse(asB.servedFromCache)).not.toBeNaN();
    expect(JSON.parse(asB.body)).toMatchObject({
      ret: 1,
      data: { lists: [expect.objectContaining({ title: 'Welcome to Coinvest' })] },
    });
  } finally {
    await page.context().setOffline(false);
  }
  await screenshot(page, '23-user-b-messages');
});
