// Price colours: most markets show a rise green and a fall red; mainland China's and Japan's show a rise red and a
// fall green, and their customers read a quote by its colour at a glance. In Chinese the app opens with red rises (the
// option buttons, the quotes' changes); Settings → 涨跌颜色 (Price colours) turns them green at once, and the next
// start paints green rises from its first frame (the first screen's hint), before the app's code runs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { BROWSER_LANGUAGE, launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { callApi, markAllRead, registerUser } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

let browser: Browser;
const watch = watchPagesOnFailure();
beforeAll(async () => void (browser = await launch()));
afterAll(() => browser?.close());

/** The fills under white text (src/ui/ui.css `--up-fill`, `--down-fill`), the same in both themes. */
const GREEN_FILL = 'rgb(11, 122, 59)';
const RED_FILL = 'rgb(196, 52, 58)';

const background = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);

/** The fill of every change on the Markets list, by direction: each direction's, once (a list rises and falls). */
async function changeFills(page: Page): Promise<{ up: string[]; down: string[] }> {
  await page.goto(`/#${ROUTES.coinList}`);
  await page.locator('.change-pill').first().waitFor();
  return page.evaluate(() => {
    const fills = (direction: string) => [
      ...new Set(
        [...document.querySelectorAll(`.change-pill.${direction}`)].map(
          (pill) => getComputedStyle(pill).backgroundColor,
        ),
      ),
    ];
    return { up: fills('up'), down: fills('down') };
  });
}

/** Opens Markets: every rise's change is filled with `rise`, every fall's with `fall`, and there is at least one. */
async function expectChangeFills(page: Page, rise: string, fall: string): Promise<void> {
  const fills = await changeFills(page);
  expect(
    fills.up.every((fill) => fill === rise),
    fills.up.join(),
  ).toBe(true);
  expect(
    fills.down.every((fill) => fill === fall),
    fills.down.join(),
  ).toBe(true);
  expect(fills.up.length + fills.down.length).toBeGreaterThan(0);
}

it('in Chinese rises are red; choosing green rises repaints at once and holds from the next start’s first frame', async () => {
  const phone = `086${String(Date.now()).slice(-7)}`;
  await registerUser(phone, 'colours12', '246810');
  const { data } = await callApi<{ token: string }>('/users/login', {
    form: { username: phone, password: 'colours12' },
  });
  await markAllRead(phone, 'colours12');
  const context = await phoneContext(browser, { locale: BROWSER_LANGUAGE.zh });
  const page = watch(await context.newPage());

  await openSignedIn(page, data.token, `/#${ROUTES.option}`);
  const buyUp = page.getByRole('button', { name: '买涨' });
  const buyShort = page.getByRole('button', { name: '买跌' });
  await buyUp.waitFor();
  expect([await background(buyUp), await background(buyShort)]).toEqual([RED_FILL, GREEN_FILL]);
  await screenshot(page, 'price-colors-zh-red-up');
  await expectChangeFills(page, RED_FILL, GREEN_FILL);

  await page.goto(`/#${ROUTES.settings}`);
  const cell = page.getByRole('button', { name: /涨跌颜色/ });
  await expect.poll(() => cell.textContent()).toContain('红涨绿跌');
  await cell.click();
  await page.getByRole('dialog').getByText('绿涨红跌', { exact: true }).click();
  await expect.poll(() => cell.textContent()).toContain('绿涨红跌');
  await screenshot(page, 'price-colors-zh-settings');
  await expectChangeFills(page, GREEN_FILL, RED_FILL);

  // The next start: the first colour the page marks is green, from the HTML's own script (without the hint it would
  // mark the language's red first, and the app's code green after).
  await page.addInitScript(() => {
    new MutationObserver((_changes, observer) => {
      (window as { firstRise?: string }).firstRise = document.documentElement.dataset.rise;
      observer.disconnect();
    }).observe(document, { subtree: true, attributeFilter: ['data-rise'] });
  });
  await page.goto(`/#${ROUTES.option}`);
  await page.reload();
  expect(await page.evaluate(() => (window as { firstRise?: string }).firstRise)).toBe('green');
  await buyUp.waitFor();
  expect([await background(buyUp), await background(buyShort)]).toEqual([GREEN_FILL, RED_FILL]);
  await screenshot(page, 'price-colors-zh-green-up');
  await context.close();
});
