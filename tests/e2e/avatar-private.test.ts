// The avatar is its owner's own: the app reads it with the session's token (no one with the link gets it) and shows it
// on Mine, Settings and the avatar page; the browser keeps it, so Mine still shows it offline after a reload.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { phonePageForFile, screenshot } from './browser.ts';
import { controlledByServiceWorker, logIn, registerUser, storedToken, testPng } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'avatar1234';

/** The avatar image of the page: shown from a blob of the picture read with the token once loaded. */
const avatar = (selector: string) => page.locator(selector).first();
const loaded = (selector: string) =>
  avatar(selector).evaluate((image: HTMLImageElement) => image.src.startsWith('blob:') && image.naturalWidth > 0);

it('a chosen avatar shows on Mine from the owner’s token, and nobody else gets it', async () => {
  await registerUser(phone, password, '135790');
  await logIn(page, phone, password);
  await page.goto('/#/pages/mine/setting');
  await page.locator('.cell', { hasText: 'Avatar' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/avatar$/);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: testPng(64) });
  await page.waitForURL(/#\/pages\/mine\/setting$/);
  await expect.poll(() => loaded('.cell img.avatar.small')).toBe(true);

  await page.goto('/#/pages/mine/mine');
  await expect.poll(() => loaded('.profile-card img.avatar')).toBe(true);
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, '63-avatar-mine');

  // Its URL alone gives nothing: the not-found envelope, as for any picture not one's own.
  const token = (await storedToken(page))!;
  const info = (await (
    await fetch(`${inject('baseUrl')}/api/users/info`, { headers: { token, lang: 'en' } })
  ).json()) as { data: { userimg: string } };
  expect(info.data.userimg).toMatch(/^\/api\/uploads\//);
  const anyone = await fetch(`${inject('baseUrl')}${info.data.userimg}`);
  expect(anyone.status).toBe(404);
  const owner = await fetch(`${inject('baseUrl')}${info.data.userimg}`, { headers: { token } });
  expect(owner.status).toBe(200);
  expect(owner.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
});

it('offline, Mine still shows the avatar the browser kept', async () => {
  // The reload offline is the service worker's to answer: it must have taken the page first.
  await controlledByServiceWorker(page);
  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect.poll(() => loaded('.profile-card img.avatar')).toBe(true);
  } finally {
    await page.context().setOffline(false);
  }
});
