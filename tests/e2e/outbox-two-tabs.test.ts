// Two tabs of the app open at once, offline: what each queued waits in the one outbox of the device. Before the
// outbox was merged across tabs, each tab wrote its own copy over the other's, and a reload kept only the last.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, controlledByServiceWorker, goOffline, goOnline, logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `065${String(Date.now()).slice(-7)}`;
const password = 'twotabs123';
const TITLES = ['Two tabs one', 'Two tabs two'];

const waiting = (tab: Page) => tab.getByRole('status').filter({ hasText: /waits? to be sent/ });

it('a message read offline in each of two tabs: both wait, after a reload too, and both reach the server', async () => {
  await registerUser(phone, password, '246802');
  const token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  for (const title of TITLES) expect(await operator('message', phone, title, `${title}: the body`)).toContain('posted');
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  await page.getByRole('button', { name: 'Read later' }).click({ timeout: 10_000 });
  await page.goto('/#/pages/index/msgList');
  for (const title of TITLES) await page.locator('.msg-row.unread', { hasText: title }).waitFor();
  const second = await page.context().newPage();
  await second.goto('/#/pages/index/msgList');
  // This tab's start opens the first unread message too.
  await second.getByRole('button', { name: 'Read later' }).click({ timeout: 10_000 });
  for (const title of TITLES) await second.locator('.msg-row.unread', { hasText: title }).waitFor();

  await goOffline(page.context());
  // Each tab opens one message: each queues its read.
  await page.locator('.msg-row', { hasText: TITLES[0] }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => waiting(page).textContent()).toBe('1 change waits to be sent when you are back online.');
  await second.locator('.msg-row', { hasText: TITLES[1] }).click();
  await second.getByRole('button', { name: 'Close' }).click();
  // The second tab's save took the first tab's read in; the first hears of the second's.
  await expect.poll(() => waiting(second).textContent()).toBe('2 changes wait to be sent when you are back online.');
  await expect.poll(() => waiting(page).textContent()).toBe('2 changes wait to be sent when you are back online.');
  await second.close();

  await page.reload();
  await page.locator('.msg-list').waitFor();
  await expect.poll(() => waiting(page).textContent()).toBe('2 changes wait to be sent when you are back online.');
  await screenshot(page, 'outbox-two-tabs');

  await goOnline(page.context());
  const unread = async () =>
    (await callApi<{ count: number }>('/users/message/unread', { method: 'GET', token })).data.count;
  await expect.poll(unread, { timeout: 20_000 }).toBe(0);
});
