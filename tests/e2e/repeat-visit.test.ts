// A repeat visit, served by the service worker, online and offline: the login page's first screen
// in index.html paints before any script has run, then the app draws its own over it. Prints the
// median of five visits each: the first contentful paint (the screen from the HTML) and the moment
// the app's screen shows, in ms from navigation start. The ≤ 300 ms target is reported here, not
// asserted: a timed assertion would fail on a busy machine for no fault of the app. Without scripts
// at all, the page still shows the brand's static shell.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, inject, it } from 'vitest';
import { PHONE, phonePageForFile, screenshot } from './browser.ts';
import { controlledByServiceWorker } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const VISITS = 5;
const LOGIN = '/#/pages/login/login';
/** The app's login form, not the inert one of the HTML. */
const APP_FORM = '.app:not([inert]) .app-main form';

interface Visit {
  /** First contentful paint. */
  paint: number;
  /** The app's first screen shows (its login form, over the one from the HTML). */
  app: number;
  /** Whether the first paint came before the app's screen, and showed the login form from the HTML. */
  htmlFirst: boolean;
}

async function visit(): Promise<Visit> {
  // A new document each time: going to the same address with a hash would stay in this one.
  await page.goto('about:blank');
  await page.goto(LOGIN);
  await page.locator(APP_FORM).waitFor();
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const { __appShown: shown = Number.NaN, __htmlForm: fromHtml = false } = window as unknown as {
      __appShown?: number;
      __htmlForm?: boolean;
    };
    return { paint: fcp, app: shown, htmlFirst: fromHtml && fcp < shown };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

it('the login form from the HTML paints first on a repeat visit, online and offline', async () => {
  // Whether the HTML's login form came before the app's, and when the app's shows.
  await page.addInitScript(() => {
    const seen = window as unknown as { __appShown: number; __htmlForm: boolean };
    new MutationObserver((_, observer) => {
      if (document.querySelector('.app[inert] .app-main form')) seen.__htmlForm = true;
      if (!document.querySelector('.app:not([inert]) .app-main form')) return;
      seen.__appShown = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  // The first visit installs the service worker and its precache.
  await page.goto(LOGIN);
  await controlledByServiceWorker(page);
  await page.locator(APP_FORM).waitFor();
  expect(await page.locator('#boot').count()).toBe(0);

  const figures: Record<string, { paint: number; app: number }> = {};
  for (const mode of ['online', 'offline'] as const) {
    await page.context().setOffline(mode === 'offline');
    const visits: Visit[] = [];
    for (let i = 0; i < VISITS; i++) visits.push(await visit());
    expect(
      visits.every((one) => one.htmlFirst),
      JSON.stringify(visits),
    ).toBe(true);
    figures[mode] = {
      paint: Math.round(median(visits.map((one) => one.paint))),
      app: Math.round(median(visits.map((one) => one.app))),
    };
  }
  await page.context().setOffline(false);

  mkdirSync('test-results', { recursive: true });
  writeFileSync(join('test-results', 'repeat-visit.json'), JSON.stringify(figures));
  console.log(
    `Repeat visit of login from the service worker, median of ${VISITS}, ms from navigation start (target: first paint ≤ 300):\n` +
      `  online:  login form from the HTML painted ${figures.online!.paint}, the app's ${figures.online!.app}\n` +
      `  offline: login form from the HTML painted ${figures.offline!.paint}, the app's ${figures.offline!.app}`,
  );
});

it('the static shell is the brand on the app background, and stands alone without scripts', async () => {
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: false, viewport: PHONE, deviceScaleFactor: 2, baseURL: inject('baseUrl') });
  try {
    const bare = await context.newPage();
    await bare.goto('/');
    await expect.poll(() => bare.locator('#boot').isVisible()).toBe(true);
    expect(await bare.locator('#boot').textContent()).toContain('Coinvest');
    await screenshot(bare, '70-static-shell');
  } finally {
    await context.close();
  }
});
