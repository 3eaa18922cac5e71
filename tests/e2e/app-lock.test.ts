// The app lock on a phone (390×844): a 6-digit PIN set in Settings; the app hidden past the lock's time opens on the
// lock screen with no balance in the document, and the PIN opens it; five wrong PINs sign out; a passkey of the
// device (a CDP virtual authenticator: internal, user verification) opens it too. Screens of the lock in English and
// Arabic.
// Visibility is emulated by overriding document.visibilityState and dispatching visibilitychange: the app's own
// listener runs as on a phone, synchronously, at a moment the test chooses. (CDP's Page.setWebLifecycleState freezes
// the page instead, which runs no listener, and Emulation.setFocusEmulationEnabled changes focus, not visibility.) The
// time away is the kept moment of hiding moved back past the limit, not a wait. A fresh start after time away is the
// page hidden, its moment moved back, and reloaded: as a phone ends an app in the background and it is opened later.
// The app is opened at localhost, not 127.0.0.1: a passkey belongs to a domain name, never to an address.
import { expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { openSignedIn } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const phone = `08${String(Date.now() + 67).slice(-8)}`;
const password = 'lock12345';
const PIN = '482916';
const base = inject('baseUrl').replace('127.0.0.1', 'localhost');

/** The page goes to the background, hidden since `minutes` ago (the kept moment moved back), and stays there. */
async function hiddenFor(minutes: number): Promise<void> {
  await page.evaluate((ms) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    // It stays hidden: the browser's own change at unload (the page really shown) is one a phone would not make.
    addEventListener('visibilitychange', (event) => event.stopImmediatePropagation(), { capture: true });
    localStorage.setItem('coinvest.app-lock.hidden-at', String(Date.now() - ms));
  }, minutes * 60_000);
}

/** The page goes to the background, stays away `minutes` (the kept moment moved back), and comes back. */
async function awayFor(minutes: number): Promise<void> {
  await page.evaluate((ms) => {
    const set = (state: string) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    set('hidden');
    localStorage.setItem('coinvest.app-lock.hidden-at', String(Date.now() - ms));
    set('visible');
  }, minutes * 60_000);
}

async function turnLockOn(): Promise<void> {
  await page.goto(`${base}/#/pages/mine/setting`);
  await page.getByRole('button', { name: /^App lock/ }).click();
  await page.getByRole('menuitemradio', { name: /After 1 minute/ }).click();
  await page.getByLabel('New app PIN (6 digits)').fill('٤٨٢٩١٦'); // Arabic-Indic digits read as 482916
  await page.getByLabel('The same PIN again').fill(PIN);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('button', { name: /^App lock/ }).textContent()).toBe('App lockAfter 1 minute');
}

async function signInAsNew(token: string): Promise<void> {
  await openSignedIn(page, token, '/#/pages/index/index', base);
  await expect.poll(() => page.locator('.home-balance-amount').textContent()).toBe('150.00');
}

it('locks after the time away with no balance behind it, and the PIN opens it', async () => {
  const started = performance.now();
  await signInAsNew(await fundedUser(phone, password, '135246', '150'));
  await turnLockOn();

  // Hidden for less than the minute: no lock.
  await page.goto(`${base}/#/pages/index/index`);
  await expect.poll(() => page.locator('.home-balance-amount').textContent()).toBe('150.00');
  await awayFor(0.5);
  expect(await page.locator('.home-balance-amount').count()).toBe(1);

  await awayFor(2);
  await page.getByRole('heading', { name: 'The app is locked' }).waitFor();
  expect(await page.locator('.home-balance-amount').count()).toBe(0);
  expect(await page.content()).not.toContain('150.00');
  await screenshot(page, 'app-lock-01-en');

  await page.getByLabel('App PIN').fill('111111');
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await page.getByText('Wrong PIN. Tries left: 4').waitFor();
  await page.getByLabel('App PIN').fill(PIN);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await expect.poll(() => page.locator('.home-balance-amount').textContent()).toBe('150.00');

  // A fresh start after long enough away in the background opens locked too.
  await hiddenFor(2);
  await page.reload();
  await page.getByRole('heading', { name: 'The app is locked' }).waitFor();
  expect(await page.locator('.home-balance-amount').count()).toBe(0);
  await page.getByLabel('App PIN').fill(PIN);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await page.locator('.home-balance-amount').waitFor();
  console.info(`app-lock PIN journey: ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

it('measures the PIN hash in this Chromium: 600,000 PBKDF2-SHA-256 iterations', async () => {
  const ms = await page.evaluate(async () => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('482916'), 'PBKDF2', false, [
      'deriveBits',
    ]);
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 600_000 }, key, 256);
      times.push(performance.now() - start);
    }
    return times;
  });
  console.info(`PBKDF2-SHA-256 600,000 iterations in headless Chromium: ${ms.map((t) => t.toFixed(0)).join(', ')} ms`);
  expect(ms).toHaveLength(3);
});

it('opens with the passkey of the device, in Arabic too', async () => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.goto(`${base}/#/pages/mine/setting`);
  const row = page.getByRole('button', { name: /^Unlock with passkey/ });
  await row.click();
  await expect.poll(() => row.textContent()).toBe('Unlock with passkeyOn');

  await awayFor(2);
  await page.getByRole('button', { name: 'Unlock with passkey' }).click();
  await page.locator('.page').first().waitFor();
  expect(await page.getByRole('heading', { name: 'The app is locked' }).count()).toBe(0);

  // The lock screen in Arabic, right to left.
  await hiddenFor(2);
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const open = indexedDB.open('coinvest');
        open.onsuccess = () => {
          const write = open.result.transaction('state', 'readwrite');
          write.objectStore('state').put({ locale: 'ar' }, 'locale');
          write.oncomplete = () => (open.result.close(), done());
        };
      }),
  );
  await page.reload();
  await page.getByRole('heading', { name: 'التطبيق مقفل' }).waitFor();
  await screenshot(page, 'app-lock-02-ar');
  await page.getByRole('button', { name: 'فتح القفل بمفتاح المرور' }).click();
  await page.locator('.page').first().waitFor();
  await cdp.detach();
});

it('signs out after five wrong PINs, the count surviving a reload', async () => {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const open = indexedDB.open('coinvest');
        open.onsuccess = () => {
          const write = open.result.transaction('state', 'readwrite');
          write.objectStore('state').put({ locale: 'en' }, 'locale');
          write.oncomplete = () => (open.result.close(), done());
        };
      }),
  );
  await page.reload();
  await awayFor(2);
  const field = page.getByLabel('App PIN');
  for (let left = 4; left >= 2; left--) {
    await field.fill('000000');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByText(`Wrong PIN. Tries left: ${left}`).waitFor();
  }
  await page.reload();
  await field.fill('000000');
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await page.getByText('Wrong PIN. Tries left: 1').waitFor();
  await field.fill('000000');
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await page.waitForURL(/#\/pages\/login\/login/);
  // The session ended on the server as a log-out ends it, and the lock is gone from the device.
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((key) => /app-lock\.\d+$/.test(key)));
  expect(stored).toEqual([]);
});
