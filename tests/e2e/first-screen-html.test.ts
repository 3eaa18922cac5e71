// The first screen from HTML (src/build/first-screen.ts): the shell and each start page's first screen come with the
// document, in the visitor's language, and show with JavaScript turned off — the header, the tab bar, the page's frame
// or the login form. With JavaScript, the app renders over them: nothing moves on screen (no layout shift up to the
// takeover) and one app is left in the document, not two.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { LOCALES, type Locale } from '../../src/contract/constants.ts';
import { ROUTES } from '../../src/contract/routes.ts';
import { launch, phoneContext, screenshot } from './browser.ts';
import { demoAccountForFile } from './demo-account.ts';
import { callApi, controlledByServiceWorker, markAllRead } from './pwa.ts';
import { storeSession } from './stored-session.ts';

/** Each start page, whether it is seen signed in, and a text of its own first screen (a msgid of the catalogs). */
const PAGES = [
  { name: 'home', path: ROUTES.home, signedIn: true, tab: 'Home', text: 'Available balance (USDT)' },
  { name: 'markets', path: ROUTES.coinList, signedIn: true, tab: 'Markets', text: 'Markets' },
  { name: 'options', path: ROUTES.option, signedIn: true, tab: 'Options', text: 'Options' },
  { name: 'mining', path: ROUTES.lockUp, signedIn: true, tab: 'Mining', text: 'Mining' },
  { name: 'mine', path: ROUTES.mine, signedIn: true, tab: 'Mine', text: 'Mine' },
  { name: 'login', path: ROUTES.login, signedIn: false, tab: null, text: 'Welcome back' },
];

/** A text in `locale` as the catalogs have it. */
function translated(locale: Locale, msgid: string): string {
  const catalog = readFileSync(`src/locales/${locale}/messages.po`, 'utf8');
  const escaped = msgid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`^msgid "${escaped}"\\nmsgstr "(.*)"$`, 'm').exec(catalog)?.[1];
  return found || msgid;
}

let browser: Browser;
let token: string;

demoAccountForFile();
beforeAll(async () => {
  // The startup message's dialog would cover the pages.
  await markAllRead('demo', 'demo1234');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  token = data.token;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

it('without JavaScript each start page shows its first screen, in the language of the cookie or the browser', async () => {
  for (const locale of LOCALES) {
    // Arabic chosen by the browser's languages (no cookie yet: a first visit), the others by the app's cookie.
    const context = await phoneContext(browser, {
      javaScriptEnabled: false,
      locale: locale === 'ar' ? 'ar-EG' : 'en-US',
    });
    try {
      if (locale !== 'ar') await context.addCookies([{ name: 'locale', value: locale, url: inject('baseUrl') }]);
      const page = await context.newPage();
      for (const { name, path, tab, text } of PAGES) {
        // A new document each time (the same address with another hash would stay in this one).
        await page.goto('about:blank');
        await page.goto(`/#${path}`);
        const html = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
        expect(html).toEqual([locale === 'jp' ? 'ja' : locale, locale === 'ar' ? 'rtl' : 'ltr']);
        const shown = page.locator('.first-screen:visible');
        expect(await shown.count(), `${locale} ${name}`).toBe(1);
        expect(await shown.getAttribute('id')).toBe(path);
        expect(await page.locator('#boot').isVisible()).toBe(false);
        await expect.poll(() => shown.locator('header').first().isVisible()).toBe(true);
        expect(await shown.getByText(translated(locale, text), { exact: true }).first().isVisible()).toBe(true);
        if (tab) {
          const current = shown.locator('.tabbar a[aria-current="page"]');
          expect(await current.textContent()).toBe(translated(locale, tab));
          expect(await shown.locator('.tabbar a').count()).toBe(5);
        } else {
          expect(await shown.locator('form input[type="password"]').isVisible()).toBe(true);
          expect(await shown.locator('.tabbar').count()).toBe(0);
        }
        if (locale === 'ar' || locale === 'en') await screenshot(page, `first-screen-html-${locale}-${name}`);
      }
    } finally {
      await context.close();
    }
  }
});

it('without JavaScript any other address shows the boot splash', async () => {
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`/#${ROUTES.settings}`);
    expect(await page.locator('#boot').isVisible()).toBe(true);
    expect(await page.locator('.first-screen:visible').count()).toBe(0);
  } finally {
    await context.close();
  }
});

/**
 * Layout shifts from the document's start, and when the app's own render (which replaces the first screen) had been
 * painted: two frames after it. Then the page's calls, held until that moment, may go (__tookOver).
 */
const WATCH = `
  window.__shifts = [];
  new PerformanceObserver(function (list) {
    for (const entry of list.getEntries()) window.__shifts.push({ value: entry.value, at: entry.startTime });
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver(function (_, observer) {
    if (!document.querySelector('#root > .app')) return;
    observer.disconnect();
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        window.__painted = performance.now();
        window.__tookOver();
      });
    });
  }).observe(document, { childList: true, subtree: true });
`;

it('with JavaScript the app takes the first screen over: no layout shift, one app in the document', async () => {
  for (const locale of ['en', 'ar'] as const) {
    const context = await phoneContext(browser, { locale: locale === 'ar' ? 'ar-EG' : 'en-US' });
    try {
      for (const { name, path, signedIn } of PAGES) {
        const page = await context.newPage();
        await page.addInitScript({ content: WATCH });
        // The page's calls wait until the app's render has been painted: what moves then is the takeover's doing,
        // not an answer's (an answer already in at the first render would change what it shows).
        let release = () => {};
        const tookOver = new Promise<void>((resolve) => (release = resolve));
        await page.exposeFunction('__tookOver', () => release());
        await page.route('**/api/**', async (route) => {
          await tookOver;
          await route.continue().catch(() => undefined);
        });
        await withSession(page, signedIn);
        const navigations: string[] = [];
        page.on('framenavigated', (frame) => navigations.push(frame.url()));
        await page.goto(`/#${path}`);
        await tookOver;
        // One document: the app took the screen over without a reload.
        expect(navigations, `${locale} ${name}`).toHaveLength(1);
        const { shifts, takeover, counts } = await page.evaluate(() => ({
          shifts: (window as unknown as { __shifts: { value: number; at: number }[] }).__shifts,
          takeover: (window as unknown as { __painted: number }).__painted,
          counts: {
            app: document.querySelectorAll('.app').length,
            main: document.querySelectorAll('.app-main').length,
            tabbar: document.querySelectorAll('.tabbar').length,
            forms: document.querySelectorAll('form').length,
            firstScreens: document.querySelectorAll('.first-screen').length,
            boot: document.querySelectorAll('#boot').length,
          },
        }));
        expect(takeover, `${locale} ${name}`).toBeGreaterThan(0);
        const upToTakeover = shifts.filter(({ at }) => at <= takeover);
        expect(
          upToTakeover.reduce((sum, { value }) => sum + value, 0),
          `${locale} ${name}: ${JSON.stringify(upToTakeover)}`,
        ).toBe(0);
        expect(counts, `${locale} ${name}`).toEqual({
          app: 1,
          main: 1,
          tabbar: signedIn ? 1 : 0,
          forms: signedIn ? 0 : 1,
          firstScreens: 0,
          boot: 0,
        });
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }
});

it('offline, the service worker sends the page with the first screens in the language the app starts in', async () => {
  const context = await phoneContext(browser, { locale: 'ja-JP' });
  try {
    const page = await context.newPage();
    await page.goto(`/#${ROUTES.login}`);
    await page.locator('#root > .app form').waitFor();
    await controlledByServiceWorker(page);
    await context.setOffline(true);
    await page.goto('about:blank');
    const document = await page.goto(`/#${ROUTES.mine}`);
    const html = await document!.text();
    expect(html).toContain('<html lang="ja" dir="ltr">');
    expect(html).toContain(`<div class="first-screen" id="${ROUTES.mine}" inert>`);
    expect(html).toContain(`>${translated('jp', 'Mine')}</h1>`);
    await page.locator('#root > .app .app-main .page').waitFor();
  } finally {
    await context.close();
  }
});

/** The stored session on for a signed-in page, off for login (a page of the origin that runs no app code writes it). */
async function withSession(page: Page, signedIn: boolean): Promise<void> {
  await page.goto('/favicon.svg');
  await page.evaluate(
    (keep) =>
      new Promise<void>((done, fail) => {
        const open = indexedDB.open('coinvest');
        open.onupgradeneeded = () => open.result.createObjectStore('state');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const write = open.result.transaction('state', 'readwrite');
          if (!keep) write.objectStore('state').delete('session');
          write.oncomplete = () => (open.result.close(), done());
          write.onerror = () => fail(write.error);
        };
      }),
    signedIn,
  );
  if (signedIn) await storeSession(page, token);
}
