// The contracts page in Arabic on a phone (390×844): right to left, yet every amount with its unit reads as in any
// other language, "10,000.48 USDT", never "USDT 10,000.48" (nor "BTC —" for a quantity not typed yet): the market
// price line, Available, the order's quantity, total, fee and what arrives, the confirmation, and an open order's
// details. Each is checked where the customer looks, on screen: the amount's first figure stands left of its unit.
import { expect, it } from 'vitest';
import Big from 'big.js';
import type { Locator, Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { callApi, logIn, markAllRead, chooseLanguage } from './pwa.ts';
import { demoAccountForFile } from './demo-account.ts';
import { placeOverApi } from './order-form.ts';

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => (page = opened));

/**
 * Each amount with a unit inside `within` as the screen shows it: the text of its left-to-right element, and whether
 * its first figure (or the "—" of an amount not known yet) is drawn left of its unit, as it reads in English.
 */
const amountsIn = (within: Locator) =>
  within.locator('[dir="ltr"]').evaluateAll((elements) =>
    elements
      .filter((element) => /[\d—].* [A-Z]{3,}$/.test(element.textContent ?? ''))
      .map((element) => {
        const text = element.textContent ?? '';
        const rectOf = (start: number, end: number) => {
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let offset = 0, node = walker.nextNode(); node; node = walker.nextNode()) {
            const length = node.textContent!.length;
            if (start < offset + length) {
              const range = document.createRange();
              range.setStart(node, start - offset);
              range.setEnd(node, Math.min(end - offset, length));
              return range.getBoundingClientRect();
            }
            offset += length;
          }
          throw new Error(`no text at ${start} in "${text}"`);
        };
        const figure = text.search(/[\d—]/);
        const unit = text.search(/[A-Z]{3,}$/);
        return { text, leftToRight: rectOf(figure, figure + 1).right <= rectOf(unit, text.length).left };
      }),
  );
const readsAsAmount = (unit: string) => ({
  text: expect.stringMatching(new RegExp(`^[\\d,.]+ ${unit}$`)),
  leftToRight: true,
});

it('in Arabic, each amount reads before its unit: the form, the preview, the confirmation and an open order', async () => {
  await markAllRead('demo', 'demo1234');
  await logIn(page, 'demo', 'demo1234');
  await chooseLanguage(page, /العربية/);
  const { data: session } = await callApi<{ token: string }>('/users/login', {
    form: { username: 'demo', password: 'demo1234' },
  });
  const placed: number[] = [];
  try {
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.goto('/#/pages/contracts/contracts?code=BTC');
    await page.locator('.opt-price').waitFor();
    const form = page.locator('.ct-form');
    // A limit buy with nothing typed: Available in USDT, the quantity and total not known yet ("— BTC", "— USDT").
    await expect.poll(() => form.locator('.ct-available').textContent()).toMatch(/\d/);
    await screenshot(page, 'contracts-arabic-01-form');
    expect(await amountsIn(form.locator('.ct-available'))).toEqual([readsAsAmount('USDT')]);
    expect(await amountsIn(form.locator('.ct-figures'))).toEqual([
      { text: '— BTC', leftToRight: true },
      { text: '— USDT', leftToRight: true },
    ]);
    expect(await form.locator('.ct-figures dd').allTextContents()).toEqual(['— BTC', '— USDT', '—', '—']);

    // Market: the latest price beside its unit.
    await form.locator('.segmented button').nth(1).click();
    await expect.poll(() => amountsIn(form.locator('.ct-market-price'))).toEqual([readsAsAmount('USDT')]);
    await screenshot(page, 'contracts-arabic-02-market');

    // A limit buy of 0.001 BTC 5 % under the market: the preview and the confirmation, each amount before its unit.
    await form.locator('.segmented button').nth(0).click();
    const last = new Big((await page.locator('.opt-price').textContent())!.replace(/[^\d.]/g, ''));
    const price = last.times(0.95).round(2, Big.roundDown).toFixed(2);
    await page.locator('input[name="price"]').fill(price);
    await page.locator('input[name="quantity"]').fill('0.001');
    const preview = [
      { text: '0.001 BTC', leftToRight: true },
      readsAsAmount('USDT'),
      readsAsAmount('USDT'),
      readsAsAmount('BTC'),
    ];
    await expect.poll(() => amountsIn(form.locator('.ct-figures'))).toEqual(preview);
    await screenshot(page, 'contracts-arabic-03-preview');
    await form.locator('.ct-submit').click();
    const confirmation = page.getByRole('alertdialog');
    await expect.poll(() => amountsIn(confirmation.locator('.ct-figures'))).toEqual(preview);
    await screenshot(page, 'contracts-arabic-04-confirm');
    // Cancel (the first of its two buttons): placed over the API below, as the form would.
    await confirmation.locator('.dialog-actions button').first().click();
    await confirmation.waitFor({ state: 'detached' });

    const order = await placeOverApi<{ id: number }>('/coin/trans/add', {
      token: session.token,
      form: { code: 'BTC', side: 'buy', type: 'limit', price, quantity: '0.001' },
    });
    expect(order.ret).toBe(1);
    placed.push(order.data.id);
    const row = page.locator('.ct-open .ct-order');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'contracts-arabic-05-open-order');
    await row.locator('.ct-order-open').click();
    const details = page.getByRole('alertdialog');
    // The quantity asked, what the order holds (its USDT) and the quantity dealt, each before its unit.
    await expect
      .poll(() => amountsIn(details.locator('.ct-details')))
      .toEqual([readsAsAmount('BTC'), readsAsAmount('USDT'), readsAsAmount('BTC')]);
    await screenshot(page, 'contracts-arabic-06-order-details');
    await details.locator('.dialog-actions button').click();
  } finally {
    for (const id of placed) await callApi('/coin/trans/close', { token: session.token, form: { id: String(id) } });
    await chooseLanguage(page, /English/);
  }
});
