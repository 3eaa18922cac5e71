// Debian's Chromium driven by playwright-core on a 390×844 phone viewport.
import type { Locale } from '../../src/api-contract/constants.ts';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalMobile } from '../../src/server/domain/phone-numbers.ts';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Request,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

/** The browser language a journey in each of the app's languages starts in (the app takes its language from it). */
export const BROWSER_LANGUAGE: Record<Locale, string> = {
  en: 'en-US',
  zh: 'zh-CN',
  th: 'th-TH',
  jp: 'ja-JP',
  ar: 'ar-EG',
  hi: 'hi-IN',
};

export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium with the flags every test browser runs with (headless, no sandbox, no GPU, no background
 * networking, updates or sync). */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The test worker's Chromium, started by the first file that asks and kept for the files after it; started again if
 * it went away. */
let workerBrowser: Promise<Browser> | null = null;

/**
 * A browser for one test file. The files of a worker run one after another (the end-to-end projects do not isolate
 * them) and share one Chromium: starting and stopping one took 1.6–1.8 s of a core each time, measured on this
 * machine, for the 66 files that start one. What a file sees is its own as before: every context it opens is a fresh
 * profile (its own storage, HTTP cache, service workers, network conditions and permissions), and `close()` closes
 * every context of that Chromium (the file's, including those opened through `page.context().browser()`), not
 * Chromium itself, so the next file starts with none. Playwright stops Chromium when the worker's process exits.
 */
export async function launch(): Promise<Browser> {
  const started = (workerBrowser ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => (workerBrowser = null));
    return browser;
  }));
  const browser = await started.catch((error: unknown) => {
    workerBrowser = null;
    throw error;
  });
  const closeContexts = async () => {
    await Promise.all(browser.contexts().map((context) => context.close()));
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close') return closeContexts;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The phone every end-to-end test uses: 390×844 at twice the density, touch, English, the test server as base;
 * `options` adds or replaces (a locale, a base, service workers blocked, no touch…). */
export const PHONE_CONTEXT: BrowserContextOptions = {
  viewport: PHONE,
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'en-US',
};

export async function phoneContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    ...PHONE_CONTEXT,
    baseURL: 'baseURL' in options ? options.baseURL : inject('baseUrl'),
    ...options,
  });
}

/** Resolves once the page has run what its pending tasks scheduled and painted the result: an answer just handled is on
 * screen after it. */
export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0),
      ),
  );
}

/**
 * Follows the requests `page` makes from now on; `settled()` resolves once none is in flight and a rendered frame later
 * still none has started (what one answer or script asks for next has asked by then). A live price stream never ends:
 * it does not count.
 */
export function watchRequests(page: Page): { settled(): Promise<void>; stop(): void } {
  const open = new Set<Request>();
  let wake: () => void = () => {};
  const started = (request: Request) => {
    if (request.resourceType() !== 'eventsource') open.add(request);
  };
  const ended = (request: Request) => {
    open.delete(request);
    if (!open.size) wake();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async settled() {
      for (;;) {
        while (open.size) await new Promise<void>((resolve) => (wake = resolve));
        await nextFrame(page);
        if (!open.size) return;
      }
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

/**
 * The API calls `page` sent while `action` ran, by path, each with how it stood when the action ended: `failed` (no
 * answer: offline, say), `answered`, or `open` (still waiting on the network).
 */
export async function apiCallsDuring(
  page: Page,
  action: () => Promise<void>,
): Promise<{ path: string; state: 'failed' | 'answered' | 'open' }[]> {
  const calls = new Map<Request, 'failed' | 'answered' | 'open'>();
  const sent = (request: Request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) calls.set(request, 'open');
  };
  const answered = (request: Request) => calls.has(request) && calls.set(request, 'answered');
  const failed = (request: Request) => calls.has(request) && calls.set(request, 'failed');
  page.on('request', sent);
  page.on('requestfinished', answered);
  page.on('requestfailed', failed);
  try {
    await action();
  } finally {
    page.off('request', sent);
    page.off('requestfinished', answered);
    page.off('requestfailed', failed);
  }
  return [...calls].map(([request, state]) => ({ path: new URL(request.url()).pathname, state }));
}

/**
 * A write made offline, as `apiCallsDuring` saw it: refused at once on the device, with nothing left waiting and
 * nothing tried again. Whether the browser sees a call at all depends on what it says of the network: a Chromium that
 * reports `navigator.onLine` false after a reload offline (156 does, 150 did not) lets the app refuse before it sends;
 * one that reports online has the one call it sent refused as offline.
 */
export function expectRefusedOffline(sent: { path: string; state: string }[], path: string): void {
  // Nothing sent, or the one call sent refused.
  if (sent.length) expect(sent).toEqual([{ path, state: 'failed' }]);
}

/**
 * Resolves once the page's first screen is done loading: the page has loaded, the work it keeps for its first idle
 * moment after the load (the service worker, the version check) has started, and every request it made has finished.
 * `requests` must have been watching since before the page was opened.
 */
export async function firstScreenSettled(page: Page, requests: { settled(): Promise<void> }): Promise<void> {
  await page.waitForLoadState('load');
  // The app asks for its idle moment at the load; one asked for after it comes after the app's.
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })));
  await requests.settled();
}

/**
 * What a page went through that a failure's screenshot cannot show: its script errors, its console's errors, its failed
 * requests, each API call it was answered (method, path, status, milliseconds), each toast it showed (they leave the
 * screen after 1.5 s), and at the moment of asking, the requests it still waits for (a screen stuck on its way in says
 * whether the browser still waits for the server or never asked).
 */
export function pageDiary(page: Page): { report(): string } {
  const KEPT = 60;
  const TOAST_MARK = '[diary] toast: ';
  const lines: string[] = [];
  const open = new Map<Request, number>();
  const note = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (lines.length > KEPT) lines.shift();
  };
  const apiPath = (request: Request) => {
    const url = new URL(request.url());
    return url.pathname.startsWith('/api/') ? url.pathname : null;
  };
  // From the page's next document on, each toast it shows is written to its console, where the diary reads it.
  void page
    .addInitScript((mark) => {
      let last: Element | null = null;
      new MutationObserver(() => {
        const toast = document.querySelector('.toast');
        if (!toast || toast === last || !toast.textContent) return;
        last = toast;
        console.debug(mark + toast.textContent);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, TOAST_MARK)
    .catch(() => undefined);
  page.on('load', () => note(`document loaded (the app started): ${page.url()}`));
  page.on('pageerror', (error) => note(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text()}`);
    else if (message.text().startsWith(TOAST_MARK)) note(`toast shown: ${message.text().slice(TOAST_MARK.length)}`);
  });
  page.on('request', (request) => {
    if (request.resourceType() !== 'eventsource') open.set(request, Date.now());
  });
  page.on('requestfinished', (request) => {
    const since = open.get(request);
    open.delete(request);
    const path = apiPath(request);
    if (!path || since === undefined) return;
    void request
      .response()
      .then((response) =>
        note(`answered: ${request.method()} ${path} ${response?.status()} in ${Date.now() - since} ms`),
      )
      .catch(() => undefined);
  });
  page.on('requestfailed', (request) => {
    open.delete(request);
    note(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
  return {
    report() {
      const waiting = [...open].map(
        ([request, since]) =>
          `  still waiting for: ${request.method()} ${request.url()} (asked ${Date.now() - since} ms ago)`,
      );
      return [...lines.map((line) => `  ${line}`), ...waiting].join('\n') || '  nothing of note';
    },
  };
}

/**
 * The pages a test file watches: when one of its tests fails, each open page prints its diary (pageDiary) and leaves a
 * screenshot of the whole page, below the fold too, named `${prefix}failed-[label-]test`. Returns `watch`, which adds a
 * page (from its opening on) and gives it back.
 */
export function watchPagesOnFailure(prefix = ''): (page: Page, label?: string) => Page {
  const watched: { label: string; page: Page; diary: ReturnType<typeof pageDiary> }[] = [];
  afterEach(async ({ task }) => {
    if (!task.result?.errors?.length) return;
    const name = task.name.replace(/\W+/g, '-');
    for (const { label, page, diary } of watched) {
      if (page.isClosed()) continue;
      // A dialog over the page takes every tap: its text joins the failure's message, which the run's summary shows.
      const dialogs = await page
        .locator('[role="dialog"], [role="alertdialog"]')
        .allInnerTexts()
        .catch(() => []);
      const open = dialogs.map(
        (text) => `\n  open dialog on the ${label || 'watched'} page: ${text.replace(/\s+/g, ' ')}`,
      );
      const [error] = task.result.errors;
      if (error && open.length) error.message += open.join('');
      console.log(
        `${label || 'The'} page when "${task.name}" failed, at ${page.url()}:\n${diary.report()}${open.join('')}`,
      );
      await screenshot(page, `${prefix}failed-${label ? `${label}-` : ''}${name}`, { fullPage: true });
    }
  });
  return (page, label = '') => {
    watched.push({ label, page, diary: pageDiary(page) });
    return page;
  };
}

/**
 * One phone-sized page for a whole test file, opened before the first test and closed after the
 * last; a failed test leaves a screenshot named after it and prints the page's diary (watchPagesOnFailure). `ready`
 * receives the page.
 */
export function phonePageForFile(ready: (page: Page) => void): void {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const watch = watchPagesOnFailure();
  beforeAll(async () => {
    browser = await launch();
    context = await phoneContext(browser);
    ready(watch(await context.newPage()));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
}

/**
 * Records every toast the page shows, in order, from its next document on (toasts replace each other
 * on screen and leave after a few seconds: a poll on a busy machine can miss one). Read with toastsShown(); emptied
 * with forgetToasts(), after which a toast still on screen is not counted again.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(collectToasts, { key: '__toasts', skipShown: false });
}

/**
 * In the page: keeps every toast shown from now on in a list at `window[key]`, which it creates, in order. Each toast
 * is an element of its own (the same words twice are two toasts); one already counted is not counted again, nor, with
 * `skipShown`, the one on screen now. Self-contained, so that both `addInitScript` and `evaluate` can send it.
 */
export function collectToasts({ key, skipShown }: { key: string; skipShown: boolean }): void {
  const shown: string[] = [];
  (window as unknown as Record<string, string[]>)[key] = shown;
  let last = skipShown ? document.querySelector('.toast') : null;
  new MutationObserver(() => {
    const toast = document.querySelector('.toast');
    if (!toast || toast === last || !toast.textContent) return;
    last = toast;
    shown.push(toast.textContent);
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/** The toasts shown in the page's current document since recordToasts(), oldest first. */
export const toastsShown = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []);

/** Empties the record of toasts (recordToasts): a toast seen after this is one shown after it. */
export const forgetToasts = (page: Page): Promise<void> =>
  page.evaluate(() => {
    (window as unknown as { __toasts: string[] }).__toasts.length = 0;
  });

/** Resolves once the page has shown `text` as a toast since recordToasts() (it may have left the screen already). */
export async function toastSeen(page: Page, text: string, timeout: number): Promise<void> {
  await page.waitForFunction(
    (wanted) => ((window as unknown as { __toasts?: string[] }).__toasts ?? []).includes(wanted),
    text,
    { timeout },
  );
}

/**
 * How a form's input tells a refusal shown under it: `invalid` its aria-invalid (null when not marked), `said` the
 * texts it is described by (aria-describedby, in order, space-joined), `focused` whether it has the focus.
 */
export const fieldState = (input: Locator) =>
  input.evaluate((box: HTMLInputElement) => ({
    invalid: box.getAttribute('aria-invalid'),
    said: (box.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
    focused: document.activeElement === box,
  }));

/** Saves a screenshot under test-results/screens/ (kept as a CI artifact and looked at). */
/** A screenshot among the run's artifacts; `fullPage` takes the whole page, below the fold too (for failures). */
export async function screenshot(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  const dir = inject('artifacts');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/** The latest verification code the server's outbox sender logged for `target` (the log is written asynchronously). */
/** A mobile number as the server writes it (E.164), whatever spelling a test used; an e-mail address as it is. */
export const sameTarget = (target: string): string =>
  target.includes('@') ? target : (canonicalMobile(target) ?? target);

export async function codeSentTo(target: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = readFileSync(inject('serverLog'), 'utf8').split('\n').reverse();
    for (const line of lines) {
      const match = line.match(/verification code for (\S+) \(\w+\): (\d{6})/);
      if (match && match[1] === sameTarget(target)) return match[2]!;
    }
    if (Date.now() > deadline) throw new Error(`no code was sent to ${target}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
