// Every route of the app and of the console checked by axe-core against WCAG 2.0/2.1 A and AA and WCAG 2.2 AA: no
// serious or critical violation. One browser; a page per language and session, reused from route to route (a hash
// change, no reload). Which combinations:
// - signed in, in English and in Arabic (right to left, another script): every route in the light theme and in the
//   dark one;
// - signed out: the routes open without a login, in both themes and both languages (the others show the login page,
//   checked with them);
// - the console: each role's pages, signed in, and its sign-in page, in both themes (English; Arabic is not one of
//   its languages).
// Where the time goes: opening a route (its code, texts and calls, and the loading mask's exit) takes about six times
// as long as axe's run on it. So each route is opened once and checked in both themes: the theme changes in place,
// as on a phone switched to dark, with the route still open (the order of the themes alternates from route to route,
// one switch per route), the second theme by the rules a theme can change (COLOUR_RULES); and the two languages run
// side by side, each on its own page, one's waiting the other's working time. The file prints, per combination, the
// seconds spent opening routes and running axe.
// The theme follows the device (prefers-color-scheme, as a phone set to dark); the Settings choice is checked too.
// Text at 200 % (WCAG's resize text): each route of the app, once checked by axe, is shown with its text at twice its
// size (tests/e2e/text-fit.ts: as a phone's largest text setting shows it) and must neither scroll sideways nor cut,
// push out or overlap any text; the customer has a recharge, a bank card and a wallet, so the lists have rows.
// The app's content security policy blocks an injected script: the contexts bypass it (tests only).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { AUTH_ROUTE_PREFIX, PUBLIC_ROUTES, ROUTES } from '../../src/api-contract/routes.ts';
import { PHONE, launch, nextFrame, phoneContext, screenshot, watchPagesOnFailure, watchRequests } from './browser.ts';
import { CONSOLE_DESKTOP, enrolOperator, opsOn } from './console-kit.ts';
import { callApi, markAllRead } from './pwa.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import type { OperatorRole } from '../../src/api-contract/console.ts';
import { addBankCard, fundedUser } from './funded-user.ts';
import { misfits, textSize } from './text-fit.ts';
import { openSignedIn } from './stored-session.ts';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/**
 * The rules of those tags whose outcome a theme can change: a theme changes colours only (the same DOM, names and
 * layout), so a route already checked in one theme is checked in the other for these.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
type Scheme = 'light' | 'dark';

/** A route as the app opens it; a page that shows one item gets one to show. */
const shown = (route: string) =>
  route === ROUTES.coinDetail || route === ROUTES.priceAlerts ? `${route}?code=BTC` : route;
const APP_ROUTES = [...new Set(Object.values(ROUTES))].map(shown);
const SIGNED_OUT_ROUTES = PUBLIC_ROUTES.map(shown);
const CONSOLE_ROUTES = {
  reviewer: ['/queues', '/customers', '/inbox', '/inbox/canned', '/password'],
  content: ['/content', '/rewards'],
  admin: ['/operators', '/products', '/house', '/audit', '/system'],
} as const;

/** The main screens, left as screenshots in the dark theme (test-results/screens/dark-*.png) to be looked at. */
const DARK_SHOTS: Partial<Record<string, string>> = {
  [ROUTES.home]: 'home',
  [ROUTES.option]: 'options',
  [ROUTES.contracts]: 'contracts',
  [ROUTES.recharge]: 'funds',
  [ROUTES.mine]: 'mine',
  [ROUTES.login]: 'login',
};

/** Screens left as screenshots with text at 200 % (test-results/screens/text-200-*.png), to be looked at. */
const TEXT_SHOTS: Partial<Record<string, string>> = {
  [ROUTES.option]: 'options',
  [ROUTES.recharge]: 'recharge',
  [ROUTES.vipLevel]: 'vip-level',
  [ROUTES.rechargeRecord]: 'recharge-record',
};

/** And two in Arabic, right to left (text-200-*-ar.png). */
const ARABIC_TEXT_SHOTS: Partial<Record<string, string>> = {
  [ROUTES.coinList]: 'markets-ar',
  [ROUTES.rechargeRecord]: 'recharge-record-ar',
};

/** The navigation link each role lands on after signing in. */
const LANDING = { reviewer: 'Review queues', content: 'Content', admin: 'Operators' } as const;

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

const findings: Finding[] = [];
/** What does not fit with text at 200 %, one line each (tests/e2e/text-fit.ts). */
const unfit: string[] = [];
const timings: string[] = [];
/** Milliseconds each page spent opening routes, running axe in full, its colour rules, and checking text at 200 %. */
const spentOn = new WeakMap<Page, { opening: number; axe: number; colours: number; text: number }>();
const spent = (page: Page) =>
  spentOn.get(page) ?? spentOn.set(page, { opening: 0, axe: 0, colours: 0, text: 0 }).get(page)!;
let browser: Browser;
const contexts: BrowserContext[] = [];
const watch = watchPagesOnFailure('accessibility-');
const phone = `089${String(Date.now()).slice(-7)}`;
const password = 'axecheck1';
let token: string;

beforeAll(async () => {
  [browser, token] = await Promise.all([launch(), fundedUser(phone, password, '246810', '500')]);
  // Payees, so their lists and the withdrawal show rows.
  await addBankCard(phone, token);
  const wallet = {
    alias: 'Cold storage',
    currency: 'USDT',
    chain: 'TRC20',
    address: 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp',
  };
  expect(await callApi('/users/wallet/add', { token, form: wallet })).toMatchObject({ ret: 1 });
  await markAllRead(phone, password); // the notices of the new payees would open over the first page
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  console.log(`accessibility: ${timings.join('; ')}`);
});

/** A page in its own context (a language, a viewport), with axe ready to load into each document it opens. */
async function openPage(options: { locale?: string; viewport?: { width: number; height: number } } = {}) {
  const context = await phoneContext(browser, { bypassCSP: true, ...options });
  contexts.push(context);
  const page = watch(await context.newPage());
  page.setDefaultTimeout(30_000);
  return page;
}

/** Goes to `hash` in the same document and waits for its page: its code and texts in, its calls answered. */
async function openRoute(page: Page, hash: string): Promise<void> {
  const started = performance.now();
  const requests = watchRequests(page);
  await page.evaluate((next) => (location.hash = next), hash);
  await page.waitForFunction(() => !document.querySelector('.page-loading, .mask'));
  await requests.settled();
  requests.stop();
  spent(page).opening += performance.now() - started;
}

/**
 * Runs axe on the page as it is, every rule of the WCAG tags (or the colour rules only, `colours`); keeps each serious
 * or critical violation under `where`.
 */
async function audit(page: Page, where: string, { colours = false } = {}): Promise<void> {
  const started = performance.now();
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(
    (runOnly) =>
      (
        window as unknown as {
          axe: {
            run: (
              context: Document,
              options: object,
            ) => Promise<{
              violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
            }>;
          };
        }
      ).axe
        .run(document, { runOnly, resultTypes: ['violations'] })
        .then(({ violations }) =>
          violations.map(({ id, impact, help, nodes }) => ({
            rule: id,
            impact: impact ?? 'unknown',
            help,
            targets: nodes.slice(0, 4).map((node) => String(node.target.join(' '))),
          })),
        ),
    colours ? { type: 'rule', values: COLOUR_RULES } : { type: 'tag', values: WCAG },
  );
  spent(page)[colours ? 'colours' : 'axe'] += performance.now() - started;
  for (const violation of violations)
    if (violation.impact === 'serious' || violation.impact === 'critical') findings.push({ where, ...violation });
}

/** The scheme each page's device was last set to. */
const schemeOf = new WeakMap<Page, Scheme>();

/** Emulates the device's colour preference and waits for the page to paint in it (at once if it already does). */
async function deviceScheme(page: Page, scheme: Scheme): Promise<void> {
  if (schemeOf.get(page) === scheme) return;
  schemeOf.set(page, scheme);
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, scheme);
  await nextFrame(page);
}

/** What does not fit on the route shown with its text at 200 %, kept under `where`; the text back to its size after. */
async function checkTextAt200(page: Page, where: string, shot?: string): Promise<void> {
  const started = performance.now();
  await textSize(page, 200);
  unfit.push(...(await misfits(page)).map((line) => `${where}: ${line}`));
  if (shot) await screenshot(page, `text-200-${shot}`);
  await textSize(page, 100);
  spent(page).text += performance.now() - started;
}

/**
 * Every route in `routes` in each scheme, on a page already showing the app: each route opened once, its text at
 * 200 % checked once.
 */
async function auditRoutes(
  page: Page,
  label: string,
  routes: readonly string[],
  schemes: readonly Scheme[],
  signedIn: boolean,
) {
  const started = performance.now();
  let order = [...schemes];
  for (const route of routes) {
    // The scheme the previous route ended in first: one switch per route.
    if (order[0] !== schemeOf.get(page)) order = order.reverse();
    await openRoute(page, route);
    // A signed-in check that lands on the login page would check the login page only.
    const landed = await page.evaluate(() => location.hash);
    if (signedIn && !route.startsWith(AUTH_ROUTE_PREFIX) && landed.startsWith(`#${ROUTES.login}`))
      throw new Error(`#${route} opened the login page`);
    for (const [index, scheme] of order.entries()) {
      await deviceScheme(page, scheme);
      await audit(page, `${label} ${scheme} #${route}`, { colours: index > 0 });
      const shot = DARK_SHOTS[route];
      if (shot && scheme === 'dark' && label.endsWith(', en') && signedIn === (route !== ROUTES.login))
        await screenshot(page, `dark-${shot}`);
    }
    const shots = label.endsWith(', en') ? TEXT_SHOTS : label.endsWith(', ar') ? ARABIC_TEXT_SHOTS : {};
    const textShot = signedIn ? shots[route] : undefined;
    await checkTextAt200(page, `${label} text 200 % #${route}`, textShot);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const { opening, axe, colours, text } = spent(page);
  timings.push(
    `${label}: ${routes.length * schemes.length} screens in ${seconds(performance.now() - started)} s (opening ` +
      `${routes.length} routes ${seconds(opening)} s, axe ${seconds(axe)} s, its colour rules ${seconds(colours)} s, ` +
      `text at 200 % ${seconds(text)} s)`,
  );
}

const report = () =>
  findings.map(
    ({ where, rule, impact, help, targets }) => `${where}: ${impact} ${rule} (${help}) at ${targets.join(', ')}`,
  );

it('finds no serious or critical violation and no text lost at 200 % on any route, signed in, English and Arabic', async () => {
  findings.length = 0;
  unfit.length = 0;
  // English and Arabic side by side: much of a route's opening is waiting (its calls, the loading mask's exit).
  await Promise.all(
    (['en', 'ar'] as const).map(async (language) => {
      const page = await openPage(language === 'ar' ? { locale: 'ar' } : {});
      await openSignedIn(page, token, `/#${ROUTES.home}`);
      await auditRoutes(page, `signed in, ${language}`, APP_ROUTES, ['light', 'dark'], true);
    }),
  );
  expect({ axe: report(), text200: unfit }).toEqual({ axe: [], text200: [] });
}, 600_000);

it('finds neither signed out, and the Settings choice overrides the device', async () => {
  findings.length = 0;
  unfit.length = 0;
  await Promise.all(
    (['en', 'ar'] as const).map(async (language) => {
      const page = await openPage(language === 'ar' ? { locale: 'ar' } : {});
      await page.goto(`/#${ROUTES.login}`);
      await auditRoutes(page, `signed out, ${language}`, SIGNED_OUT_ROUTES, ['light', 'dark'], false);
    }),
  );

  // Signed in on a dark device, Settings' Appearance sheet (checked as shown) chooses Light: the page turns light at
  // once, and the next start paints light from its first frame.
  const page = await openPage();
  await openSignedIn(page, token, `/#${ROUTES.settings}`);
  await deviceScheme(page, 'dark');
  await page.getByRole('button', { name: /^Appearance/ }).click();
  await audit(page, 'signed in, en dark, the Appearance sheet');
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  expect({ axe: report(), text200: unfit }).toEqual({ axe: [], text200: [] });
}, 300_000);

/**
 * A console session of a new operator with `role`, made with the real command and signed in over the API. The shared
 * server's clock runs 20 times faster than real time: the authenticator code is the one of the server's time, read
 * from its latest price (a step of the feed is at most a few server seconds old; the server accepts a step either
 * side).
 */
async function consoleToken(name: string, role: OperatorRole): Promise<string> {
  const operator = await enrolOperator(opsOn({ dataDir: inject('dataDir') }), name, role);
  const quote = await callApi<{ at: string }>('/coin/data/rate', { method: 'GET', form: { code: 'BTC' } });
  const secret = base32Decode(new URL(operator.uri).searchParams.get('secret')!);
  const signedIn = await callApi<{ token: string }>('/console/sign-in', {
    form: { name, password: operator.password, code: totpAt(secret, totpStep(new Date(quote.data.at))) },
  });
  expect(signedIn.ret, JSON.stringify(signedIn)).toBe(1);
  const changed = await callApi('/console/password', {
    token: signedIn.data.token,
    form: { password: operator.password, new_password: 'an accessible console passphrase' },
  });
  expect(changed.ret, JSON.stringify(changed)).toBe(1);
  return signedIn.data.token;
}

it('finds none on the console’s pages, for each role, nor on its sign-in page', async () => {
  findings.length = 0;
  const page = await openPage({ viewport: CONSOLE_DESKTOP });
  await page.goto('/console/');
  await page.getByLabel('Operator name').waitFor();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await audit(page, `console sign-in ${scheme}`);
  }
  const suffix = randomBytes(3).toString('hex');
  for (const role of ['reviewer', 'content', 'admin'] as const) {
    const token = await consoleToken(`axe-${role}-${suffix}`, role);
    await page.evaluate((kept) => sessionStorage.setItem('coinvest.console.token', kept), token);
    await page.reload();
    await page.getByRole('navigation').getByRole('link', { name: LANDING[role] }).waitFor();
    const started = performance.now();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const route of CONSOLE_ROUTES[role]) {
        const requests = watchRequests(page);
        await page.evaluate((next) => (location.hash = next), route);
        await requests.settled();
        requests.stop();
        await audit(page, `console ${role} ${scheme} #${route}`);
      }
    }
    timings.push(
      `console ${role}: ${CONSOLE_ROUTES[role].length * 2} screens in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (role === 'reviewer') {
      await page.setViewportSize(PHONE);
      await page.evaluate((next) => (location.hash = next), '/queues');
      await nextFrame(page);
      await screenshot(page, 'dark-console-home');
      await page.setViewportSize(CONSOLE_DESKTOP);
    }
    await page.evaluate(() => sessionStorage.clear());
  }
  expect(report()).toEqual([]);
}, 300_000);
