// Live prices and screen readers: what the price stream changes on screen is in no live region (a screen reader would
// read every tick), and "Read price" on the coin page and the options page says the price once, when asked, in a polite
// status line — saying so when the device is offline.
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { phonePageForFile, watchRequests } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { openSignedIn } from './stored-session.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `086${String(Date.now()).slice(-7)}`;
let token: string;

beforeAll(async () => {
  token = await fundedUser(phone, 'readprice1', '246810', '500');
});

async function openRoute(hash: string): Promise<void> {
  const requests = watchRequests(page);
  await page.evaluate((next) => (location.hash = next), hash);
  await page.waitForFunction(() => !document.querySelector('.page-loading, .mask'));
  await requests.settled();
  requests.stop();
}

/**
 * Waits until the page has changed its text `count` times on its own (the price stream's ticks), then names each
 * element changed that sits in a live region: an aria-live other than "off", or a role that is one (status, alert,
 * log).
 */
async function announcedChanges(count: number): Promise<string[]> {
  return page.evaluate(
    (wanted) =>
      new Promise<string[]>((resolve) => {
        const changed = new Set<Element>();
        let changes = 0;
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            const element = record.target instanceof Element ? record.target : record.target.parentElement;
            if (element) changed.add(element);
          }
          changes += records.length;
          if (changes < wanted) return;
          observer.disconnect();
          const live = (element: Element) => {
            const region = element.closest('[aria-live], [role="status"], [role="alert"], [role="log"]');
            return region && region.getAttribute('aria-live') !== 'off' ? region : null;
          };
          resolve(
            [...changed]
              .filter((element) => live(element))
              .map((element) => `${element.className || element.tagName}: "${element.textContent}"`),
          );
        });
        observer.observe(document.getElementById('root')!, { characterData: true, childList: true, subtree: true });
      }),
    count,
  );
}

it('announces no tick: what the price stream changes on the price screens is in no live region', async () => {
  await openSignedIn(page, token, `/#${ROUTES.home}`);
  for (const route of [
    ROUTES.home,
    ROUTES.coinList,
    `${ROUTES.coinDetail}?code=BTC`,
    ROUTES.option,
    ROUTES.contracts,
  ]) {
    await openRoute(route);
    expect(await announcedChanges(5), route).toEqual([]);
  }
});

it('reads the price once when asked, on the coin page and the options page, and says when it is offline', async () => {
  for (const route of [`${ROUTES.coinDetail}?code=BTC`, `${ROUTES.option}?code=BTC`]) {
    await openRoute(route);
    const status = page.getByRole('status').filter({ hasText: 'BTC/USDT' });
    // A tick has just arrived, so the stream is live when the price is read (a loaded clean-clone run read it while the
    // stream was reconnecting, and the app rightly said "Not live").
    await announcedChanges(1);
    await page.getByRole('button', { name: 'Read price' }).click();
    await status.waitFor();
    const said = await status.textContent();
    expect(said).toMatch(/^BTC\/USDT [\d,]+\.\d+, (up|down) [\d.]+% in 24 hours, recorded at \d\d:\d\d:\d\d\.$/);
    // The next ticks change the price on screen, not what was said.
    await announcedChanges(3);
    expect(await status.textContent()).toBe(said);
  }

  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Read price' }).click();
  const offline = page.getByRole('status').filter({ hasText: 'Offline, as of' }).filter({ hasText: 'BTC/USDT' });
  await offline.waitFor();
  expect(await offline.textContent()).toMatch(
    /^Offline, as of .+: this is the last price known\. BTC\/USDT [\d,]+\.\d+, /,
  );
  await page.context().setOffline(false);
});
