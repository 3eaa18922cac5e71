// Helpers of the offline, update and install tests: calls to the test server from Node, what the
// browser keeps (Cache Storage and IndexedDB, read from the page), and the service worker's state.
import { randomBytes, randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { png } from '../png.ts';
import { appFilesCached } from './app-files.ts';
import { codeSentTo } from './browser.ts';

/** Every answer of the API: `ret` 1 for done, 0 for refused (with `msg`, the reason in the caller's language). */
export interface Envelope<T = unknown> {
  ret: number;
  msg: string;
  data: T;
}

/**
 * Offline as a phone is: besides the browser's offline emulation, every call to the server fails
 * before it leaves the browser. The emulation alone has let a call through now and then (a service
 * worker or a document that starts while it is being applied, more often on a busy machine); the
 * page cannot tell such an answer from the network's, and rightly stops saying it is offline.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await context.setOffline(true);
}

/** Back from goOffline(). */
export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unrouteAll();
  await context.setOffline(false);
}

/**
 * The browser these tests drive (Debian's headless Chromium): Node's calls say they come from it, as
 * a customer registers and signs in on one phone, so the browser's sign-in is no "new device" (whose
 * station message would open over the pages under test). sessions.test.ts signs in as other devices.
 */
export const BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';

/** One call of the API from Node (form-encoded), as the app makes it. */
export async function callApi<T = unknown>(
  path: string,
  options: { method?: 'GET' | 'POST'; token?: string; form?: Record<string, string>; base?: string } = {},
): Promise<Envelope<T>> {
  const { method = 'POST', token, form = {}, base = inject('baseUrl') } = options;
  const query = method === 'GET' ? `?${new URLSearchParams(form)}` : '';
  const response = await fetch(`${base}/api${path}${query}`, {
    method,
    headers: {
      ...(token ? { token } : {}),
      'idempotency-key': randomUUID(),
      'content-type': 'application/x-www-form-urlencoded',
      lang: 'en',
      'user-agent': BROWSER_AGENT,
    },
    body: method === 'POST' ? new URLSearchParams(form) : undefined,
  });
  return (await response.json()) as Envelope<T>;
}

/**
 * Marks every message of a user read, so the startup dialog of the first unread message
 * does not cover the pages under test.
 */
export async function markAllRead(username: string, password: string, base?: string): Promise<void> {
  const { data } = await callApi<{ token: string }>('/users/login', { form: { username, password }, base });
  const answer = await callApi('/users/message/reader', { token: data.token, form: { ids: 'all' }, base });
  if (answer.ret !== 1) throw new Error(`could not mark the messages of ${username} read: ${answer.msg}`);
}

/**
 * Registers a new user by mobile number from Node (the code read from the outbox, as a person reads
 * the SMS) and marks the welcome message read, so the pages under test are not covered by it.
 */
export async function registerUser(
  phone: string,
  password: string,
  paypass: string,
  extra: Record<string, string> = {},
): Promise<void> {
  const sent = await callApi('/users/sms', { method: 'GET', form: { userphone: phone } });
  if (sent.ret !== 1) throw new Error(`no code for ${phone}: ${sent.msg}`);
  const code = await codeSentTo(phone);
  const answer = await callApi('/users/register', {
    form: { mode: 'phone', phone, code, password, paypass, currency: 'THB', ...extra },
  });
  if (answer.ret !== 1) throw new Error(`could not register ${phone}: ${answer.msg}`);
  await markAllRead(phone, password);
}

/** The colour of a pixel of a blue and white checkerboard of 8-pixel squares. */
const checkerboard = (x: number, y: number) => (((x >> 3) + (y >> 3)) % 2 ? [0x00, 0xbb, 0xfe] : [0xff, 0xff, 0xff]);

/** A real, decodable size×size PNG (a blue and white checkerboard), as a phone's photo would be. */
export function testPng(size = 64): Buffer {
  return png(size, checkerboard);
}

/**
 * A transfer receipt's photo: testPng with its first pixel of a random colour, a picture no other call makes (the
 * server takes one receipt picture for one recharge, byte for byte).
 */
export function receiptPng(size = 64): Buffer {
  const first = [...randomBytes(3)];
  return png(size, (x, y) => (x === 0 && y === 0 ? first : checkerboard(x, y)));
}

/**
 * An identity document's photo: a picture no other call makes, as receiptPng's (the server takes each photo of a
 * certification, the front, the back and the one holding the document, as a picture of its own, byte for byte).
 */
export const documentPng = receiptPng;

/**
 * Waits for Home after a sign-in as a person does: its first visit reads the slides under the loading
 * mask, which takes every tap until they are in. A tap made the moment the mask appears goes to the
 * mask, so the next page's link is tapped in vain (its page never opens).
 */
export async function homeSettled(page: Page): Promise<void> {
  await page.waitForURL(/#\/pages\/index\/index/);
  await page.locator('.carousel-slide').first().waitFor();
  await page.locator('.mask').waitFor({ state: 'detached' });
}

/**
 * Switches the app's language from Mine's menu as a customer does (`name`: the language as the menu names it, e.g.
 * /العربية/); the page reloads in it.
 */
export async function chooseLanguage(page: Page, name: RegExp): Promise<void> {
  await page.goto('/#/pages/mine/mine');
  await page.getByRole('button', { name: /^(Language|اللغة)/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name }).click()]);
}

/**
 * Logs out from Settings (`settings`: its path, with a base when the page has none) as a customer does, tapping the
 * button and then the confirmation's, and waits for the login page. The button shows where it stays
 * (tests/e2e/settings-log-out.test.ts), so the tap is aimed at the place it first shows in.
 */
export async function logOutFromSettings(page: Page, settings = '/#/pages/mine/setting'): Promise<void> {
  await page.goto(settings);
  await page.getByRole('button', { name: 'Log out' }).tap();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/#\/pages\/login\/login/);
}

/** Logs in through the login page (the agreement ticked) and waits for Home to settle. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/#/pages/login/login');
  await page.getByLabel('Username, mobile number or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await homeSettled(page);
}

/**
 * Waits until a service worker controls the page and keeps every file of the app: it installs what
 * a start needs, and the page asks for the other pages and languages once its first screen is idle
 * (sw/sw.ts). Nothing here asks for them: the app must.
 */
export async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
  // A loop rather than expect.poll: this also runs in hooks.
  for (const deadline = Date.now() + 60_000; !(await appFilesCached(page)); await page.waitForTimeout(250))
    if (Date.now() > deadline)
      throw new Error('the service worker did not keep every file of the app within 60 s of controlling the page');
}

/** Everything the app keeps in IndexedDB (database coinvest, store state), by key. */
export function storedRecords(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const open = indexedDB.open('coinvest');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const database = open.result;
          if (!database.objectStoreNames.contains('state')) return resolve({});
          const store = database.transaction('state').objectStore('state');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () =>
            resolve(Object.fromEntries(keys.result.map((key, index) => [String(key), values.result[index]])));
          values.onerror = () => reject(values.error);
        };
      }),
  );
}

/** The session token kept on the device, or null. */
export async function storedToken(page: Page): Promise<string | null> {
  const session = (await storedRecords(page)).session as { token?: string | null } | undefined;
  return session?.token ?? null;
}

export interface CachedAnswer {
  url: string;
  servedFromCache: string | null;
  body: string;
}

/** The names of the page's caches, read without opening one (opening makes a cache that is not there). */
export const cacheNames = (page: Page): Promise<string[]> => page.evaluate(() => caches.keys());

/** The runtime caches (everything but the precached app shell): name → cached answers. */
export function runtimeCaches(page: Page): Promise<Record<string, CachedAnswer[]>> {
  return page.evaluate(async () => {
    const result: Record<string, CachedAnswer[]> = {};
    for (const name of await caches.keys()) {
      if (name.startsWith('workbox-precache')) continue;
      // caches.open() makes a cache that is not there: one deleted since keys() (a logout under way) would be made
      // again, empty, by this reading. Waiting for one to go is cacheNames()'s work.
      if (!(await caches.has(name))) continue;
      const cache = await caches.open(name);
      result[name] = await Promise.all(
        (await cache.keys()).map(async (request) => {
          const response = (await cache.match(request))!;
          return {
            url: request.url,
            servedFromCache: response.headers.get('x-served-from-cache'),
            body: await response.text(),
          };
        }),
      );
    }
    return result;
  });
}

/**
 * Records (in the page) when parts of the screen first show, in ms from navigation start:
 * `window.__shown.shell` (the frame with its tab bar: a tab page's first screen from the HTML), `.page` (the app's
 * own nav bar, once the page's lazily loaded code has rendered) and `.data` (the first market row).
 */
export async function timeFirstPaints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const parts: Record<string, string> = {
      shell: '.app .tabbar',
      page: '.app:not([inert]) .navbar',
      data: '.app .market-row',
    };
    const shown: Record<string, number> = {};
    (window as unknown as { __shown: Record<string, number> }).__shown = shown;
    new MutationObserver((_, observer) => {
      for (const [name, selector] of Object.entries(parts))
        if (shown[name] === undefined && document.querySelector(selector)) shown[name] = performance.now();
      if (Object.keys(shown).length === Object.keys(parts).length) observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}
