// Settings on a slow phone (390×844): its Log out button never moves once it shows, in English, Thai and Arabic
// (right to left). The code of the sections above it (the app lock and sign-out row, the notifications) is held back
// by routing until the page's top rows are on screen, and the answers that fill rows of the page (the idle limit,
// the notification kinds, two-factor, the anti-phishing code) until those sections are in, so a phone slower than
// this machine is reproduced, not hoped for. The page records where the button is at every frame from the first one
// that shows it (a frame is what the customer sees); the test reads that record once every row has its answer.
// The service worker is blocked: routing sees the page's own requests only, and a first visit's code comes from the
// network anyway.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER_LANGUAGE, launch, nextFrame, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { callApi, registerUser } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';

const phone = `08${String(Date.now() + 311).slice(-8)}`;
const password = 'settle123';
let token = '';
let context: BrowserContext | undefined;
const watch = watchPagesOnFailure('settings-log-out-');

beforeAll(async () => {
  await registerUser(phone, password, '135790');
  const { data } = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  token = data.token;
});
afterAll(() => context?.close());

/** Requests matching `pattern` wait until `release()`; `seen` resolves at the first of them. */
async function hold(on: BrowserContext, pattern: RegExp) {
  const held: Route[] = [];
  let released = false;
  let saw: () => void = () => {};
  const seen = new Promise<void>((resolve) => (saw = resolve));
  await on.route(pattern, (route) => {
    saw();
    if (released) return route.continue();
    held.push(route);
  });
  return {
    seen,
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/** Where the button named `name` was at each frame that showed it, each place once (page coordinates, CSS px). */
const recordButtonPlaces = (page: Page, name: string) =>
  page.evaluate((wanted) => {
    const places: string[] = [];
    (window as unknown as { __logOutPlaces: string[] }).__logOutPlaces = places;
    const look = () => {
      const button = [...document.querySelectorAll('button')].find((found) => found.textContent?.trim() === wanted);
      const box = button?.getBoundingClientRect();
      if (box && box.width > 0 && box.height > 0) {
        const place = [box.left, box.top + scrollY, box.width, box.height].map(Math.round).join(' ');
        if (places.at(-1) !== place) places.push(place);
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, name);
const buttonPlaces = (page: Page) =>
  page.evaluate(() => (window as unknown as { __logOutPlaces: string[] }).__logOutPlaces);

const LOG_OUT = { en: 'Log out', th: 'ออกจากระบบ', ar: 'تسجيل الخروج' } as const;

it.each(Object.keys(LOG_OUT) as (keyof typeof LOG_OUT)[])(
  'keeps Log out where it first showed while the sections above it load (%s)',
  async (locale) => {
    await context?.close();
    context = await phoneContext(await launch(), { locale: BROWSER_LANGUAGE[locale], serviceWorkers: 'block' });
    const page = watch(await context.newPage(), locale);
    page.setDefaultTimeout(30_000);
    // Mine first, as a customer comes to Settings: the user's record is in by then (its VIP badge shows).
    await openSignedIn(page, token, '/#/pages/mine/mine');
    await page.locator('.vip-badge').waitFor();

    const sections = await hold(context, /\/assets\/(LockSection|NotificationsSection|push)-[\w-]+\.js$/);
    const answers = await hold(
      context,
      /\/api\/users\/(sessions\/idle-limit|notifications|two-factor|anti-phishing)(\?|$)/,
    );
    await recordButtonPlaces(page, LOG_OUT[locale]);
    await page.evaluate(() => (location.hash = '#/pages/mine/setting'));
    // The page's own rows are on screen, the sections' code asked for and not yet here.
    await page.locator('.page-body .card').nth(3).waitFor();
    await sections.seen;
    await nextFrame(page);
    await screenshot(page, `settings-log-out-${locale}-loading`);
    await sections.release();
    const lockSection = page.locator('section[aria-label]').first();
    await lockSection.waitFor();
    await page.locator('.push-settings').waitFor();
    await nextFrame(page);
    await answers.release();
    // Every row has its answer: the idle limit's value, and the device's notification switch decided.
    await lockSection.locator('.cell-value').last().filter({ hasText: /\S/ }).waitFor();
    await page.locator('.push-settings [role="switch"]').first().waitFor();
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.push-settings [role="switch"]:not([disabled])').length > 0 ||
        document.querySelectorAll('.push-settings .push-note').length > 1,
    );
    await nextFrame(page);

    const places = await buttonPlaces(page);
    expect(places.length, `Log out showed at ${places.join(', then ')}`).toBe(1);
    await page.getByRole('button', { name: LOG_OUT[locale], exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, `settings-log-out-${locale}-settled`);
    // A tap where it showed reaches it: the confirmation opens.
    const [left, top, width, height] = places[0]!.split(' ').map(Number) as [number, number, number, number];
    const scrolled = await page.evaluate(() => scrollY);
    await page.touchscreen.tap(left + width / 2, top - scrolled + height / 2);
    await page.getByRole('alertdialog').waitFor();
  },
);
