// A record whose rows change after they were shown, as a customer meets it: the recharge record read to its second
// page, then the oldest recharge (on that page) approved by the operator meanwhile. Opened again, the list shows it
// credited: a row the first page no longer reaches is read again, not kept as it was when it was first shown.
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `065${String(Date.now() + 11).slice(-7)}`;
const password = 'records12';
const paypass = '246810';
let token = '';
let channelId = '';

/** Reports a USDT recharge of `amount` as another device of the customer would; resolves with its id. */
async function recharge(amount: string): Promise<string> {
  const hash = randomBytes(32).toString('hex');
  const sent = await callApi<{ id: number }>('/pay/submit', {
    token,
    form: { kind: 'crypto', channel_id: channelId, amount, hash },
  });
  if (sent.ret !== 1) throw new Error(`recharge refused: ${sent.msg}`);
  return String(sent.data.id);
}

const rows = () => page.locator('.record-list > li');
const loadMore = () => page.getByRole('button', { name: 'Load more' });
let oldest = '';

beforeAll(async () => {
  await registerUser(phone, password, paypass);
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  const channels = await callApi<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {
    method: 'GET',
    token,
  });
  channelId = String(channels.data.lists.find((each) => each.kind === 'crypto' && each.currency === 'USDT')!.id);
  // The oldest waits for review; the 20 after it are rejected at once (at most 5 may wait).
  oldest = await recharge('11');
  for (let n = 0; n < 20; n++) await operator('recharge', 'reject', await recharge('10'), 'Not received');
  await logIn(page, phone, password);
});

it('a recharge on the second page approved meanwhile shows credited when the record is opened again', async () => {
  const oldestRow = page.locator(`.record-list a[href$="?id=${oldest}"]`);
  await page.goto('/#/pages/Recharge/record');
  await expect.poll(() => rows().count()).toBe(20);
  await loadMore().click();
  await expect.poll(() => rows().count()).toBe(21);
  await expect.poll(() => oldestRow.locator('.status-badge').textContent()).toBe('Pending review');

  await operator('recharge', 'approve', oldest);
  // The other page is waited for, so the app sees the record leave the screen and come back.
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Language', { exact: true }).waitFor();
  await page.goto('/#/pages/Recharge/record');
  await expect.poll(() => oldestRow.locator('.status-badge').textContent()).toBe('Credited');
  await expect.poll(() => rows().count()).toBe(21);
  await oldestRow.scrollIntoViewIfNeeded();
  await screenshot(page, 'records-changed-01-credited');
});
