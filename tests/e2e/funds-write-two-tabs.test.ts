// Two tabs of the app, one placing an order while the other opens. The record of writes on their way is shared by the
// tabs, and asking the server about a write it has not received yet makes it give up that write's key, refusing the
// write when it arrives. A tab that opens while another's order is on its way leaves that order alone: the order is
// made. An order whose tab closes before it reached the server is asked about by the tab still open, which tells the
// customer it did not reach us.
import { expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { firstScreenSettled, phonePageForFile, screenshot, watchRequests } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { controlledByServiceWorker } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `083${String(Date.now()).slice(-7)}`;
const OPTIONS = `/#${ROUTES.option}?code=BTC`;

/** The options page's available USDT, as a number. */
const available = async (tab: Page) =>
  Number(((await tab.locator('.opt-amount-notes .opt-num').first().textContent()) ?? '').replace(/[^\d.]/g, ''));

/**
 * Fills `amount` USDT on the options page of `tab` and confirms a Buy up at the longest expiry (an order of the
 * shortest settles within seconds on the test's fast clock, and the balance would move again): the order leaves.
 */
async function buyUp(tab: Page, amount: string): Promise<void> {
  await tab.locator('.opt-expiries:not(.loading)').waitFor();
  await tab.locator('.opt-expiries').getByRole('radio').last().click();
  await tab.getByLabel('Amount (USDT)').fill(amount);
  await tab.getByRole('button', { name: 'Buy up' }).click();
  await tab.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
}

/** Opens the options page in `tab` (again, as a reload) and waits until its first screen has settled. */
async function openSettled(tab: Page): Promise<void> {
  const requests = watchRequests(tab);
  await (tab.url() === 'about:blank' ? tab.goto(OPTIONS) : tab.reload());
  // What the app does once idle after its start (asking about writes left on their way) has begun by then.
  await firstScreenSettled(tab, requests).finally(() => requests.stop());
  await tab.locator('.opt-expiries:not(.loading)').waitFor();
}

it('an order on its way in one tab is left alone by a tab that opens meanwhile; one whose tab closed is asked about', async () => {
  const token = await fundedUser(phone, 'twotabs123', '135790', '1000');
  const context = page.context();
  // Each order is held on its way to the server until the test lets it go (or drops it).
  const held: Route[] = [];
  let arrived: () => void = () => undefined;
  await context.route('**/api/coin/order/add', (route) => {
    held.push(route);
    arrived();
  });
  const orderHeld = (count: number) =>
    new Promise<void>((resolve) => {
      arrived = () => held.length >= count && resolve();
      arrived();
    });
  // The questions the tabs ask the server about writes (their keys).
  const asked: string[] = [];
  await context.route('**/api/users/write-outcome', async (route) => {
    asked.push(new URLSearchParams(route.request().postData() ?? '').get('key') ?? '');
    await route.continue();
  });

  await openSignedIn(page, token, OPTIONS);
  await controlledByServiceWorker(page);
  await expect.poll(() => available(page)).toBe(1000);
  await buyUp(page, '10');
  await orderHeld(1);
  const key = (await held[0]!.request().headerValue('idempotency-key'))!;

  // A second tab opens while the order is on its way.
  const second = await context.newPage();
  await openSettled(second);
  expect(asked).not.toContain(key);

  // The order reaches the server: made, as the customer asked.
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/coin/order/add');
  await held[0]!.continue();
  expect(((await (await answered).json()) as { ret: number; msg: string }).ret).toBe(1);
  await expect.poll(() => available(page)).toBe(990);
  await screenshot(page, 'two-tabs-order-made');
  await openSettled(second);
  await expect.poll(() => available(second)).toBe(990);
  const told = (tab: Page) => tab.getByRole('alertdialog', { name: 'What became of your request' });
  expect(await told(page).count()).toBe(0);
  expect(await told(second).count()).toBe(0);

  // A third tab sends an order and is closed before it reached the server: the tab still open asks about it.
  const third = await context.newPage();
  await third.goto(OPTIONS);
  await buyUp(third, '20');
  await orderHeld(2);
  await third.close();
  await held[1]!.abort('internetdisconnected').catch(() => undefined);
  await told(second).waitFor({ timeout: 30_000 });
  // Whether the browser had handed it to the server as the tab closed, the answer is what the server did.
  const [answer] = await told(second).locator('li').allTextContents();
  expect(answer).toMatch(
    /^Option order of 20 USDTSent at .+(It went through|It did not reach us, so nothing was done)/,
  );
  await screenshot(second, 'two-tabs-closed-tab-order-told');
  await told(second).getByRole('button', { name: 'OK' }).click();
  await openSettled(second);
  await expect.poll(() => available(second)).toBe(answer!.includes('It went through') ? 970 : 990);
  expect(held).toHaveLength(2);
});
