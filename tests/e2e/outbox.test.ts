// The outbox as a person meets it: messages opened and marked read while offline show
// read at once, wait on the device (visibly, across a reload) and are read on the server once the
// connection returns, each sent once with the Idempotency-Key it was queued with.
import { expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { nextFrame, phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, controlledByServiceWorker, goOffline, goOnline, logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'outbox123';
const TITLES = ['Outbox one', 'Outbox two', 'Outbox three'];
let token = '';

/** The unread count the server holds for the user now. */
const unreadOnServer = async () =>
  (await callApi<{ count: number }>('/users/message/unread', { method: 'GET', token })).data.count;

/** Every request the page sends to mark messages read, with its Idempotency-Key. */
const readerCalls: string[] = [];
/** Every request to mark messages read that anything in the browser made (the page or the service worker), with its
 * outcome: printed when the server's count is not the one expected. */
const readerLog: string[] = [];
let phase = 'online';

it('online: a customer with three unread messages opens the list, which is kept for offline', async () => {
  await registerUser(phone, password, '246802');
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  for (const title of TITLES)
    expect(await operator('message', phone, title, `${title}: the body`)).toContain('posted to');
  expect(await unreadOnServer()).toBe(3);

  page.on('request', (request) => {
    if (request.url().includes('/api/users/message/reader'))
      readerCalls.push(request.headers()['idempotency-key'] ?? '');
  });
  const context = page.context();
  const logged = (outcome: string) => (request: Request) => {
    if (!request.url().includes('/api/users/message/reader')) return;
    const from = request.serviceWorker() ? 'service worker' : 'page';
    readerLog.push(
      `${new Date().toISOString()} ${phase} ${outcome} from the ${from}, key ${request.headers()['idempotency-key'] ?? '-'}, body ${request.postData() ?? ''}`,
    );
  };
  context.on('request', logged('sent'));
  context.on('requestfinished', logged('answered'));
  context.on('requestfailed', logged('failed'));
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  // The first unread message opens at start; "Read later" leaves it unread.
  await page.getByRole('button', { name: 'Read later' }).click({ timeout: 10_000 });
  await page.goto('/#/pages/index/msgList');
  for (const title of TITLES) await page.locator('.msg-row.unread', { hasText: title }).waitFor();
});

it('offline: read at start, one opened, then all marked read: read at once and waiting in the outbox, also after a reload', async () => {
  expect(await unreadOnServer(), readerLog.join('\n')).toBe(3);
  await goOffline(page.context());
  phase = 'offline';
  await page.reload();
  // At this app start, the first unread message, from the cached answer; OK reads it, offline.
  await page.getByRole('alertdialog').filter({ hasText: TITLES[0] }).waitFor();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'waits to be sent' }).textContent())
    .toBe('1 change waits to be sent when you are back online.');
  await page.locator('.msg-row', { hasText: TITLES[1] }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => page.locator('.msg-row.unread').count()).toBe(1);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'wait to be sent' }).textContent())
    .toBe('2 changes wait to be sent when you are back online.');

  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect.poll(() => page.locator('.msg-row.unread').count()).toBe(0);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'wait to be sent' }).textContent())
    .toBe('3 changes wait to be sent when you are back online.');
  await screenshot(page, 'outbox-offline');

  // Reopened offline, the app still holds the three, and the cached list (stored before they were read) shows them
  // read. The start's unread check is what would open a message: it fails offline and the cached answer takes its
  // place.
  const unreadAsked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/users/message/unread');
  await page.reload();
  await page.locator('.msg-list').waitFor();
  for (const title of TITLES) await page.locator('.msg-row', { hasText: title }).waitFor();
  await (await unreadAsked).response();
  await nextFrame(page);
  expect(await page.locator('.msg-row.unread').count()).toBe(0);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'wait to be sent' }).textContent())
    .toBe('3 changes wait to be sent when you are back online.');
  // Nothing reached the server.
  expect(await unreadOnServer(), readerLog.join('\n')).toBe(3);
});

it('back online: the three are sent once each, and the server has every message read', async () => {
  await goOnline(page.context());
  phase = 'back online';
  await expect.poll(unreadOnServer, { timeout: 20_000 }).toBe(0);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'to be sent' }).count()).toBe(0);
  // Each queued change went with its own key, and no other went (offline, none left the device). The outbox is
  // empty (no status), so nothing is left to send once the page has painted that.
  await nextFrame(page);
  expect(new Set(readerCalls).size).toBe(3);
  const { data } = await callApi<{ lists: { title: string; status: string }[] }>('/users/message', {
    token,
    form: { page: '1' },
  });
  for (const title of TITLES) expect(data.lists.find((message) => message.title === title)?.status).toBe('read');
});
