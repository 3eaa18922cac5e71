// A record that pages right, as a customer meets it: the liquidity record opened with 22 subscriptions, three more made
// meanwhile (another device), then "Load more": the 22 each once, and the button goes away at the end instead of
// loading empty pages. Opened again, the three that arrived meanwhile are on top.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, logIn } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `064${String(Date.now() + 7).slice(-7)}`;
const password = 'paging12';
const paypass = '135790';
let token = '';

/** Subscribes `count` times, 10 USDT each (the minimum), as another device of the customer would. */
async function subscribe(count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const answer = await callApi('/yuebao/transfer/in', { token, form: { amount: '10' } });
    if (answer.ret !== 1) throw new Error(`subscription refused: ${answer.msg}`);
  }
}

const rows = () => page.locator('.record-list > li');
const loadMore = () => page.getByRole('button', { name: 'Load more' });

beforeAll(async () => {
  token = await fundedUser(phone, password, paypass, '500');
  await subscribe(22);
  await logIn(page, phone, password);
});

it('pages to the end with subscriptions made meanwhile, then "Load more" goes; reopened, the new ones are on top', async () => {
  await page.goto('/#/pages/Liquidity/record');
  await expect.poll(() => rows().count()).toBe(20);
  await loadMore().waitFor();

  await subscribe(3);
  await loadMore().click();
  await expect.poll(() => rows().count()).toBe(22);
  await loadMore().waitFor({ state: 'detached' });
  await page.locator('.mask').waitFor({ state: 'detached' });
  // The end of the list, with no button under its last row.
  await rows().last().scrollIntoViewIfNeeded();
  await screenshot(page, 'paging-01-record-ended');

  // Opened again: the head is read, the three made meanwhile show on top, the pages read stay, and the list has ended.
  // The other page is waited for: a hash change is told to the app in a task of its own, so a second one made before
  // that task ran is the only one the app sees, and the list would never have left the screen.
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Language', { exact: true }).waitFor();
  await page.goto('/#/pages/Liquidity/record');
  await expect.poll(() => rows().count()).toBe(25);
  expect(await loadMore().count()).toBe(0);
});
