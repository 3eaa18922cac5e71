// A device that asks for reduced motion (prefers-reduced-motion: reduce) gets none: Home's scrolling notice, which
// moves by a CSS animation otherwise, stands still and wraps, and nothing else on the page animates (ui/ui.css's one
// rule; the slides' own advance is asked of the media query in ui/Carousel.tsx).
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { nextFrame, phonePageForFile, watchRequests } from './browser.ts';
import { callApi, registerUser } from './pwa.ts';
import { storeSession } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `085${String(Date.now()).slice(-7)}`;
let token: string;

beforeAll(async () => {
  await registerUser(phone, 'stillness1', '246810');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'stillness1' },
  });
  token = data.token;
});

/** The animations running in the page now: CSS animations and transitions, as `document.getAnimations()` lists. */
const running = () => page.evaluate(() => document.getAnimations().map((animation) => animation.constructor.name));

it('stops every animation when the device asks for reduced motion, and the notice stands still', async () => {
  await page.goto('/favicon.svg');
  await storeSession(page, token);
  const requests = watchRequests(page);
  await page.goto(`/#${ROUTES.home}`);
  await page.locator('.notice-track span').waitFor();
  await requests.settled();
  requests.stop();
  // Without the wish, the notice scrolls: the check below can see an animation.
  expect(await running()).not.toEqual([]);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await nextFrame(page);
  expect(await running()).toEqual([]);
  // The whole notice is on screen, wrapped, instead of passing by.
  const notice = await page
    .locator('.notice-track')
    .evaluate((track) => ({ clipped: track.scrollWidth > track.clientWidth, text: track.textContent }));
  expect(notice.clipped, notice.text ?? '').toBe(false);
});
