// The messages list as a customer with more messages than a page holds meets it: read to its second page, then the
// oldest unread message (on that page) read on another device. Opened again, the list shows it read: a row the first
// page no longer reaches is read again, not kept as it was when it was first shown.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `065${String(Date.now() + 13).slice(-7)}`;
const password = 'messages12';
/** More than a page (20) of messages: the first posted is the oldest, on the second page. */
const TITLES = Array.from({ length: 21 }, (_, index) => `Changed notice ${index + 1}`);
let token = '';

const rows = () => page.locator('.msg-list > li');
const loadMore = () => page.getByRole('button', { name: 'Load more' });
const oldestRow = () =>
  page.locator('.msg-row').filter({ has: page.locator('.msg-title', { hasText: new RegExp(`^${TITLES[0]}$`) }) });

beforeAll(async () => {
  await registerUser(phone, password, '135792');
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  for (const title of TITLES) expect(await operator('message', phone, title, `${title}: the body`)).toContain('posted');
  await logIn(page, phone, password);
  // The first unread message opens at start; "Read later" leaves it unread.
  await page.getByRole('button', { name: 'Read later' }).click({ timeout: 10_000 });
});

it('a message on the second page read on another device shows read when the list is opened again', async () => {
  await page.goto('/#/pages/index/msgList');
  await expect.poll(() => rows().count()).toBe(20);
  await loadMore().click();
  // The 21 and the welcome message, read at registration.
  await expect.poll(() => rows().count()).toBe(22);
  await expect.poll(() => oldestRow().getAttribute('class')).toBe('msg-row unread');

  // Another device reads it.
  const second = await callApi<{ lists: { id: number; title: string }[] }>('/users/message', {
    token,
    form: { page: '2' },
  });
  const oldest = second.data.lists.find((message) => message.title === TITLES[0])!;
  expect((await callApi('/users/message/reader', { token, form: { ids: String(oldest.id) } })).ret).toBe(1);

  // The other page is waited for, so the app sees the list leave the screen and come back.
  await page.goto('/#/pages/mine/mine');
  await page.getByText('Language', { exact: true }).waitFor();
  await page.goto('/#/pages/index/msgList');
  await expect.poll(() => oldestRow().getAttribute('class')).toBe('msg-row');
  await expect.poll(() => rows().count()).toBe(22);
  await oldestRow().scrollIntoViewIfNeeded();
  await screenshot(page, 'messages-changed-01-read');
});
