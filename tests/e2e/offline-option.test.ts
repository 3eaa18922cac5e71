// An option waiting for its start price when the phone loses its network, at 390×844: offline the app does not ask
// for the order again and again (the last streamed price, kept on screen, is no news), says it waits for the network,
// and once the network is back asks at once, so the order's settlement shows. The page's clock is Playwright's: the
// offline stretch is 30 s of the app's timers, run through at once, so the count covers every tick of its watch.
import { expect, it } from 'vitest';
import type { Page, Request, Route } from 'playwright-core';
import { phonePageForFile, recordToasts, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { controlledByServiceWorker, goOffline, goOnline, logIn } from './pwa.ts';
import { placeInForm } from './order-form.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'opening123';
const ORDER_INFO = /\/api\/coin\/order\/info\?/;
/** The offline stretch run through on the page's clock (ms): 120 ticks of the app's watch of pending orders. */
const OFFLINE_MS = 30_000;
/** How often the app looks at its pending orders (ms, options-store.ts). */
const WATCH_TICK_MS = 250;

/** Resolves once the page has run a task queued now, and the promise callbacks it scheduled before (none of them is a
 * timer: Playwright's clock holds those). */
const nextTask = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );

it('offline, an opening option is not asked for again and again; back online it settles', async () => {
  await fundedUser(phone, password, '135791', '100');
  await page.clock.install();
  await recordToasts(page);
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  await page.goto('/#/pages/Option/Option?code=ETH');
  await page.getByRole('button', { name: /Pending orders/ }).click();

  // The answers about the order wait at a gate: the app still sees it opening when the network goes.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held = async (route: Route) => {
    await gate;
    await route.fallback().catch(() => undefined);
  };
  await page.route(ORDER_INFO, held);
  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('5');
  await placeInForm(page, () => page.getByRole('button', { name: 'Buy up' }).click(), {
    toast: 'Successful transaction!',
  });
  // The first order on this device offers notifications: not now, as a customer may answer.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
  const card = page.locator('.opt-order').first();
  await expect.poll(() => card.getByRole('status').first().textContent()).toBe('Opening…');

  const context = page.context();
  await goOffline(context);
  // The read held at the gate fails, as the network has gone.
  const heldFailed = page.waitForEvent('requestfailed', (request) => ORDER_INFO.test(request.url()));
  open();
  await heldFailed;
  await page.unroute(ORDER_INFO, held);

  const asked: string[] = [];
  let ended = 0;
  let onEnd = () => {};
  const count = (request: Request) => void (ORDER_INFO.test(request.url()) && asked.push(request.url()));
  const end = (request: Request) => {
    if (!ORDER_INFO.test(request.url())) return;
    ended += 1;
    onEnd();
  };
  page.on('request', count);
  page.on('requestfailed', end);
  page.on('requestfinished', end);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // A tick of the watch at a time; a read it started has ended (offline: failed) before the next, as in real time.
  for (let ran = 0; ran < OFFLINE_MS; ran += WATCH_TICK_MS) {
    await page.clock.runFor(WATCH_TICK_MS);
    await nextTask(page);
    while (ended < asked.length) await new Promise<void>((resolve) => (onEnd = resolve));
    await nextTask(page);
  }
  await page.clock.resume();
  const offlineAsks = asked.length;
  console.log(`Offline option: ${offlineAsks} order reads in ${OFFLINE_MS / 1000} s of the app's timers`);
  // Before: the fast path took the kept price for a new tick and asked every 250 ms (about 120 reads).
  expect(offlineAsks).toBeLessThanOrEqual(1);
  await expect.poll(() => card.getByRole('status').first().textContent()).toBe('Waiting for the network');
  await screenshot(page, 'option-offline-waiting');

  // Back online: asked at once, it has long opened and (one minute being three seconds here) settled.
  const back = Date.now();
  const answered = page.waitForResponse((response) => ORDER_INFO.test(response.url()) && response.ok());
  await goOnline(context);
  await answered;
  await page.waitForFunction(
    () => ((window as unknown as { __toasts?: string[] }).__toasts ?? []).some((text) => /^ETH option /.test(text)),
    undefined,
    { timeout: 15_000 },
  );
  console.log(`Offline option: settled on screen ${Date.now() - back} ms after the network came back`);
  page.off('request', count);
  page.off('requestfailed', end);
  page.off('requestfinished', end);
  await page.getByRole('button', { name: /Purchase record/ }).click();
  await page
    .locator('.opt-order', { has: page.locator('.opt-profit') })
    .first()
    .waitFor();
  await screenshot(page, 'option-offline-settled');
});
