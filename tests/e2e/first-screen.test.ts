// The first screen of a start. The tab pages' and the login page's first screens come with the HTML,
// in the device's language, and paint before any script is asked for; the app then draws the same
// frame over them, nothing moving. The screen from the HTML stays until the start page's code and texts
// are in, then the page renders whole; no loading screen in between (React would hold one on screen
// for 300 ms). Signed out, the app opened at its address goes to the login page, which counts as the
// start page. Home shows its slides in that first render, and a read asked for at start is not asked
// again by the page. A tab pressed for the first time shows its page without a loading screen: its
// code starts loading as the finger comes down. A start with an unread message shows the page and the
// startup message's dialog together, in one render.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { createHash } from 'node:crypto';
import { expect, inject, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import type { Locale } from '../../src/api-contract/constants.ts';
import { localeCookie } from '../../src/api-contract/first-data.ts';
import { FIRST_SCREEN_HINT_KEY, START_WAIT_MS, type FirstScreenHint } from '../../src/lib/first-screen-pick.ts';
import { phoneContext, phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, controlledByServiceWorker, markAllRead, registerUser } from './pwa.ts';
import { openSignedIn, storeSession } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

/**
 * Records, from the start of the document, when a loading screen, the app's page (not the inert one from
 * the HTML), the slides and a dialog appeared, and (frames) how many animation frames had begun by then.
 */
const WATCH = `
  window.__seen = { frames: {} };
  window.__frame = 0;
  (function count() { window.__frame++; requestAnimationFrame(count); })();
  new MutationObserver(function () {
    var seen = window.__seen;
    if (!seen.loading && document.querySelector('.page-loading')) seen.loading = performance.now();
    if (!seen.page && document.querySelector('.app:not([inert]) > .app-main > .page')) seen.page = performance.now();
    if (!seen.slide && document.querySelector('img.carousel-slide')) seen.slide = performance.now();
    if (!seen.dialog && document.querySelector('.dialog')) (seen.dialog = performance.now()), (seen.frames.dialog = window.__frame);
    if (!seen.frames.page && seen.page) seen.frames.page = window.__frame;
  }).observe(document, { childList: true, subtree: true });
`;

type Seen = {
  loading?: number;
  page?: number;
  slide?: number;
  dialog?: number;
  frames: { page?: number; dialog?: number };
};
const seen = () => page.evaluate('window.__seen') as Promise<Seen>;

/** A start of the app in a fresh document (the first one also with nothing cached yet). */
async function start(path: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(path);
}

it('signed out, the address opens the login page with no loading screen before it', async () => {
  await page.context().addInitScript({ content: WATCH });
  await start('/');
  await page.waitForURL(/#\/pages\/login\/login/);
  await page.locator('.app:not([inert]) .app-main form').waitFor();
  const { loading, page: shown } = await seen();
  expect(shown).toBeGreaterThan(0);
  expect(loading, 'a loading screen showed before the login page').toBeUndefined();
});

it('signed in, Home renders whole at once, its slides in the first render, start reads shared', async () => {
  await markAllRead('demo', 'demo1234');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  await page.goto('/favicon.svg');
  await storeSession(page, data.token);
  const asked: string[] = [];
  const onRequest = (request: { url: () => string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
  };
  page.on('request', onRequest);
  try {
    await start(`/#${ROUTES.home}`);
    await page.locator('img.carousel-slide').first().waitFor();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('request', onRequest);
  }
  const { loading, page: shown, slide } = await seen();
  expect(loading, 'a loading screen showed before Home').toBeUndefined();
  expect(shown).toBeGreaterThan(0);
  // The slides were asked for at start; they show with the page or right after its first render.
  expect(slide! - shown!).toBeLessThan(200);
  expect(asked.filter((path) => path.startsWith('/api/content/slide'))).toHaveLength(1);
  // The startup message's check asked for the unread count a moment ago: Home's bell takes it (was 2).
  expect(asked.filter((path) => path.startsWith('/api/users/message/unread'))).toHaveLength(1);
  // Home and its total-assets card ask for the coin list together: one request. The price stream,
  // opening, joins that request if it is still on its way and takes its answer if it has just come (was 2).
  // A document the server sent (not the worker's copy) brought the list: none, or one if that list is no longer fresh.
  expect(asked.filter((path) => path.startsWith('/api/coin/lists')).length).toBeLessThanOrEqual(1);
  await screenshot(page, '72-home-first-screen');
});

it('a tab opened for the first time shows its page at once, with no loading screen first', async () => {
  // Still Home, signed in, from the test above; the service worker holds the app.
  await controlledByServiceWorker(page);
  await page.evaluate('window.__seen.loading = undefined');
  const tab = page.locator(`.tabbar a[href$="${ROUTES.lockUp}"]`);
  const box = (await tab.boundingBox())!;
  // A finger's tap: down, then up a tenth of a second after the page's code has come (the service
  // worker answers within a tap on a phone; a busy test machine may take longer), 1 s at most.
  const pageCode = page
    .waitForResponse((response) => /\/LockupPage-[\w-]+\.js$/.test(response.url()), { timeout: 1000 })
    .catch(() => null);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await pageCode;
  await page.waitForTimeout(100);
  await page.mouse.up();
  await page.waitForURL(new RegExp(ROUTES.lockUp));
  await page.locator('.app-main > .page').waitFor();
  const { loading } = await seen();
  expect(loading, 'a loading screen showed before the tab page').toBeUndefined();
});

it('the first paint needs no script: the document asks for none, and the app asks for its code after that paint', async () => {
  // A new context: nothing cached, no service worker between the page and the network.
  const context = await phoneContext(page.context().browser()!);
  try {
    const fresh = await context.newPage();
    const cdp = await context.newCDPSession(fresh);
    const byParser: string[] = [];
    cdp.on('Network.requestWillBeSent', ({ request, initiator, type }) => {
      if (type === 'Script' && initiator.type === 'parser') byParser.push(new URL(request.url).pathname);
    });
    await cdp.send('Network.enable');
    await fresh.goto(`/#${ROUTES.login}`);
    await fresh.locator('.app:not([inert]) .app-main form').waitFor();
    expect(byParser).toEqual([]);
    const { paint, scripts } = await fresh.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({ file: new URL(entry.name).pathname, at: entry.startTime })),
    }));
    // The entry, the start chunk and the login page's code at least, each asked for after the paint.
    expect(scripts.length, JSON.stringify(scripts)).toBeGreaterThanOrEqual(3);
    expect(
      scripts.filter(({ at }) => !(at >= paint)),
      `first contentful paint at ${paint} ms`,
    ).toEqual([]);
  } finally {
    await context.close();
  }
});

/** The languages of the first screens' templates in the page's document. */
const templateLanguages = (tab: Page) =>
  tab.evaluate(() => [
    ...new Set(
      [...document.querySelectorAll('template[id^="first-screen-"], template[id^="start-failed-"]')].map(
        (template) => template.id.split('-')[2],
      ),
    ),
  ]);

/** Holds every script of the app until `release` (a phone whose link brought the document and nothing else yet). */
async function holdScripts(context: BrowserContext) {
  const held: Route[] = [];
  let released = false;
  await context.route(/\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  return {
    held,
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/** Records every layout shift of the documents `tab` opens from now on (layoutShifts reads them). */
async function watchLayoutShifts(tab: Page): Promise<void> {
  await tab.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __shifts: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}
const layoutShifts = (tab: Page) => tab.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);

/**
 * What the app keeps on this device for its next start's first screen (src/lib/first-screen-hint.ts): the hint, and the
 * cookie with the language it starts in (the server sends the page in that language alone).
 */
async function keepHint(tab: Page, hint: FirstScreenHint & { locale: Locale }): Promise<void> {
  await tab.evaluate(
    ([key, value, cookie]) => {
      localStorage.setItem(key, value);
      document.cookie = cookie;
    },
    [FIRST_SCREEN_HINT_KEY, JSON.stringify(hint), localeCookie(hint.locale, false)],
  );
}

/**
 * A start of the app at `route` on a device the app left signed in with `locale` chosen, up to its screen from the
 * HTML.
 */
async function startSignedIn(tab: Page, locale: Locale, route: string): Promise<void> {
  await keepHint(tab, { locale, signedIn: true });
  await tab.goto('about:blank');
  await tab.goto(`/#${route}`);
  await tab.locator('.app[inert] .tabbar a[aria-current="page"]').waitFor();
}

it('the first screen comes with the HTML, in the device’s language, before any script has arrived', async () => {
  const context = await phoneContext(page.context().browser()!);
  try {
    const { held } = await holdScripts(context);
    const fresh = await context.newPage();
    const violations: string[] = [];
    fresh.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // A first visit, signed out: the address opens on the login form.
    await fresh.goto('/');
    await fresh.locator('.app[inert] form input[name="username"]').waitFor();
    expect(await fresh.locator('.app[inert] button[type="submit"]').textContent()).toBe('Log in');
    const intlWorkers = () => held.filter((route) => /\/assets\/intl-warm-[\w-]+\.js$/.test(route.request().url()));
    // Signed out, the first screen shows no amount: no worker loads Intl's data.
    expect(intlWorkers()).toEqual([]);
    // A first visit's document holds the screens in the browser's language alone.
    expect(await templateLanguages(fresh)).toEqual(['en']);
    // A device signed in, its language chosen as Chinese: Markets with its header and the tab bar in Chinese.
    await startSignedIn(fresh, 'zh', ROUTES.coinList);
    expect(await fresh.evaluate(() => document.documentElement.lang)).toBe('zh');
    // Its amounts' locale data loads in a worker while the app's code is still on its way (held here).
    expect(intlWorkers()).toHaveLength(1);
    expect(await fresh.evaluate(() => document.documentElement.dataset.intlWarm)).toBe('zh');
    // The app's language, from its cookie, not the browser's.
    expect(await templateLanguages(fresh)).toEqual(['zh']);
    // (The title, then the badge of the prices' source: the coins come with the HTML too.)
    expect(await fresh.locator('.app[inert] .navbar h1').textContent()).toMatch(/^行情/);
    expect(await fresh.locator('.app[inert] .tabbar a').allTextContents()).toEqual([
      '首页',
      '行情',
      '期权',
      '挖矿',
      '我的',
    ]);
    await screenshot(fresh, '74-markets-from-html-zh');
    // Arabic lays Mine out right to left.
    await startSignedIn(fresh, 'ar', ROUTES.mine);
    expect(await fresh.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    // The practice card's line is the page's own (its largest text): it comes with the HTML too.
    expect(await fresh.locator('.app[inert] .mine-practice > p').textContent()).toContain('10,000.00');
    await screenshot(fresh, '75-mine-from-html-ar');
    // All of it with the app's code still on its way, and nothing refused by the content security policy.
    expect(held.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  } finally {
    await context.close();
  }
});

it('the app takes the screen over in place: the header, the tab bar and the page frame do not move', async () => {
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  const context = await phoneContext(page.context().browser()!);
  try {
    const { release } = await holdScripts(context);
    const fresh = await context.newPage();
    await watchLayoutShifts(fresh);
    await openSignedIn(fresh, data.token, `/#${ROUTES.option}`);
    const boxes = () =>
      fresh.evaluate(() =>
        ['.navbar', '.navbar h1', '.tabbar', '.tabbar a:nth-child(3)', '.page-body'].map((selector) => {
          const box = document.querySelector(selector)!.getBoundingClientRect();
          // The page's body grows as its content arrives; where it starts and how wide it is stay.
          return `${selector} ${box.x},${box.y} ${box.width}×${selector === '.page-body' ? '' : box.height}`;
        }),
      );
    await fresh.locator('.app[inert] .tabbar').waitFor();
    const fromHtml = await boxes();
    await release();
    await fresh.locator('.app:not([inert]) .opt-page').waitFor();
    expect(await fresh.locator('.app[inert]').count()).toBe(0);
    expect(await boxes()).toEqual(fromHtml);
    expect(await layoutShifts(fresh)).toEqual([]);
  } finally {
    await context.close();
  }
});

it('Markets and Home paint the server’s coins and slides with the HTML; the app takes them over in place', async () => {
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  const { data: listed } = await callApi<{ lists: { code: string; simulated: boolean }[] }>('/coin/lists', {
    method: 'GET',
  });
  const pages = [
    { route: ROUTES.coinList, row: '.market-row', coins: listed.lists.length, shot: '76-markets-coins-from-html' },
    { route: ROUTES.home, row: '.home-coin', coins: 5, shot: '77-home-slides-from-html' },
  ];
  for (const { route, row, coins, shot } of pages) {
    // A first visit each (no service worker yet: its copy of the page has no data, as checked below).
    const context = await phoneContext(page.context().browser()!);
    try {
      const { held, release } = await holdScripts(context);
      const fresh = await context.newPage();
      await watchLayoutShifts(fresh);
      await fresh.goto('/favicon.svg');
      await storeSession(fresh, data.token);
      /** The rows on screen: each coin's code and where its row is. */
      const rows = (selector: string) =>
        fresh.locator(selector).evaluateAll((found) =>
          found.map((element) => {
            const box = element.getBoundingClientRect();
            return `${element.querySelector('strong')!.textContent} ${box.x},${box.y} ${box.width}×${box.height}`;
          }),
        );

      // The coins in the server's order, labelled simulated as the feed is, with no script arrived yet.
      await fresh.goto(`/#${route}`);
      await fresh.locator(`.app[inert] ${row}`).first().waitFor();
      const fromHtml = await rows(`.app[inert] ${row}`);
      expect(
        fromHtml.map((line) => line.split(' ')[0]),
        route,
      ).toEqual(listed.lists.slice(0, coins).map((coin) => coin.code));
      if (listed.lists[0]!.simulated) expect(await fresh.locator('.app[inert] .simulated-badge').count()).toBe(1);
      if (route === ROUTES.home)
        expect(await fresh.locator('.app[inert] img.carousel-slide').count()).toBeGreaterThan(0);
      expect(held.length).toBeGreaterThan(0);
      await screenshot(fresh, shot);

      // The app draws the same rows in the same places.
      await release();
      await fresh.locator(`.app:not([inert]) ${row}`).first().waitFor();
      expect(await fresh.locator('.app[inert]').count()).toBe(0);
      expect(await rows(`.app:not([inert]) ${row}`), route).toEqual(fromHtml);
      expect(await layoutShifts(fresh), route).toEqual([]);

      // The page the service worker keeps (asked for as a fetch, not a navigation) holds no price.
      const cached = await fresh.evaluate(() => fetch('/index.html').then((response) => response.text()));
      expect(cached).toContain('<template id="first-screen-en-1">');
      expect(cached).not.toContain('id="first-data"');
    } finally {
      await context.close();
    }
  }
});

it('a start whose code fails to arrive reloads once, then says so in its language with a way to try again', async () => {
  const context = await phoneContext(page.context().browser()!);
  try {
    // The entry of the app's code fails on the link (the network changed under it, a proxy cut it).
    let failing = true;
    await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => (failing ? route.abort('failed') : route.continue()));
    const fresh = await context.newPage();
    const documents: string[] = [];
    fresh.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === fresh.mainFrame()) documents.push(request.url());
    });
    await fresh.goto('/favicon.svg');
    await keepHint(fresh, { locale: 'zh', signedIn: false });
    documents.length = 0;
    await fresh.goto('/');
    const failed = fresh.locator('#root > .app:not([inert]) [role="alert"]');
    await failed.waitFor();
    // One reload tried it again (a second document), then the page said what happened, in Chinese.
    expect(documents).toHaveLength(2);
    expect(await failed.locator('div').textContent()).toBe('页面加载失败，请检查网络后重试。');
    expect(await fresh.evaluate(() => document.documentElement.lang)).toBe('zh');
    await screenshot(fresh, '76-start-failed-zh');
    // The link is back: the button starts the app.
    failing = false;
    await failed.getByRole('button', { name: '重试' }).click();
    await fresh.locator('.app:not([inert]) .app-main form input[name="username"]').waitFor();
    expect(documents).toHaveLength(3);
  } finally {
    await context.close();
  }
});

it('a start whose code neither arrives nor fails says so in its language after the wait, and the app still takes over when the code comes', async () => {
  const context = await phoneContext(page.context().browser()!);
  // The entry of the app's code is held on the link (a link gone silent): no answer, no error.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  try {
    await context.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const fresh = await context.newPage();
    await fresh.goto('/favicon.svg');
    await keepHint(fresh, { locale: 'th', signedIn: false });
    const documents: string[] = [];
    fresh.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === fresh.mainFrame()) documents.push(request.url());
    });
    // The page's timers run on a clock the test moves: the wait passes without the test waiting for it.
    await fresh.clock.install();
    await fresh.goto('/', { waitUntil: 'commit' });
    await fresh.locator('#root > .app[inert] form').waitFor();
    await fresh.clock.fastForward(START_WAIT_MS - 1_000);
    expect(await fresh.locator('#root > .app[inert] form').count()).toBe(1);
    await fresh.clock.fastForward(1_000);
    const failed = fresh.locator('#root > .app:not([inert]) [role="alert"]');
    await failed.waitFor();
    expect(await failed.locator('div').textContent()).toBe('โหลดหน้าไม่สำเร็จ กรุณาตรวจสอบการเชื่อมต่อเครือข่ายแล้วลองอีกครั้ง');
    expect(await fresh.evaluate(() => document.documentElement.lang)).toBe('th');
    await screenshot(fresh, '83-start-waited-th');
    // The code arrives after all: the app takes the screen over, with no reload.
    release();
    await fresh.locator('.app:not([inert]) .app-main form input[name="username"]').waitFor();
    expect(await failed.count()).toBe(0);
    expect(documents).toHaveLength(1);
  } finally {
    release();
    await context.close();
  }
});

it('the server allows the document’s inline scripts by their hashes, and no other inline script', async () => {
  const response = await fetch(new URL('/', inject('baseUrl')));
  const html = await response.text();
  const scripts = [...html.matchAll(/<script>(.*?)<\/script>/gs)].map((match) => match[1]!);
  expect(scripts).toHaveLength(2);
  const policy = response.headers.get('content-security-policy')!;
  const scriptSources = /script-src ([^;]*)/.exec(policy)![1]!.split(' ');
  expect(scriptSources.toSorted()).toEqual(
    [
      "'self'",
      ...scripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`),
    ].toSorted(),
  );
});

it('a start with an unread message shows the page and the startup message in one render', async () => {
  const phone = `08${String(Date.now()).slice(-8)}`;
  await registerUser(phone, 'firstscreen1', '135790');
  expect(await operator('message', phone, 'Hello at start', 'Shown with the first page')).toContain('posted to');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'firstscreen1' },
  });
  // A first visit: nothing cached, no service worker.
  const context = await phoneContext(page.context().browser()!);
  try {
    const fresh = await context.newPage();
    await fresh.addInitScript({ content: WATCH });
    await fresh.goto('/favicon.svg');
    await storeSession(fresh, data.token);
    // Home's code comes after the check's answer and the dialog's code, as on a phone where its dozen files
    // queue for connections (here the order would be left to chance): the dialog is known to come.
    const checked = fresh.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/users/message/unread',
    );
    const dialogCode = fresh.waitForResponse((response) => /\/FirstUnreadDialog-[\w-]+\.js$/.test(response.url()));
    await fresh.route(/\/assets\/HomePage-[\w-]+\.js$/, async (route) => {
      await Promise.all([checked, dialogCode]);
      await route.continue();
    });
    await fresh.goto(`/#${ROUTES.home}`);
    await fresh.getByRole('alertdialog').filter({ hasText: 'Hello at start' }).waitFor();
    const { loading, page: shown, dialog, frames } = (await fresh.evaluate('window.__seen')) as Seen;
    expect(loading, 'a loading screen showed before Home').toBeUndefined();
    expect(shown).toBeGreaterThan(0);
    expect(dialog).toBeGreaterThanOrEqual(shown!);
    // No frame began between the two: no screen showed the page without the dialog.
    expect(frames.dialog).toBe(frames.page);
    await screenshot(fresh, '73-start-with-message');
  } finally {
    await context.close();
  }
});
