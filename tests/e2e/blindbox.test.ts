// The blind box and the activities as a person would use them: the demo account (2,500 points on a fresh server)
// opens the box, reads the published odds and the expected value, draws twice for points, rotates
// the seed, and the verification page re-computes both draws in the browser (Web Crypto) and shows
// them verified ✓; then an activity is opened; the pages are looked at in English and Arabic.
import { beforeAll, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { callApi, logIn, markAllRead } from './pwa.ts';
import { demoAccountForFile } from './demo-account.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let page: Page;
demoAccountForFile();
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

/** The demo account's points as the server has them now (other files may have moved them: 2,500 on a fresh server). */
let startPoints = 0;
beforeAll(async () => {
  await markAllRead('demo', 'demo1234');
  await logIn(page, 'demo', 'demo1234');
  const token = (await callApi<{ token: string }>('/users/login', { form: { username: 'demo', password: 'demo1234' } }))
    .data.token;
  const held = await callApi<{ lists: { asset: string; available: string }[] }>('/users/balances', {
    method: 'GET',
    token,
  });
  startPoints = Number(held.data.lists.find((balance) => balance.asset === 'POINT')?.available ?? 0);
});

const open = (route: string) => page.goto(`/#${route}`);
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}
/** The activities' cover pictures have arrived and decoded (they are loaded lazily). */
const coversLoaded = () =>
  page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('img.activity-cover')].every(
      (image) => image.complete && image.naturalWidth > 0,
    ),
  );
const seedRow = (label: string) =>
  page.locator('.box-seed-rows > div', { has: page.locator('dt', { hasText: label }) }).locator('dd');

it('shows the box, the published odds summing to 100 %, the expected value and the committed seed', async () => {
  await open('/pages/blindbox/index');
  const rows = page.locator('.box-prizes tbody tr');
  await poll(() => rows.count()).toBe(6);
  expect(await rows.locator('td:first-of-type').allTextContents()).toEqual(['0.1%', '0.9%', '10%', '5%', '40%', '44%']);
  expect(await page.locator('.box-expected').textContent()).toBe(
    'Expected value per draw: 0.29 USDT + 30 points. A draw costs 100 points / 1 USDT. Valued at 1 point = 0.01 USDT, a draw returns 0.59 USDT on average: less than it costs.',
  );
  await poll(() => page.locator('.box-balances').textContent()).toMatch(
    new RegExp(`^Your points: ${startPoints.toLocaleString('en-US')} · USDT: `),
  );
  expect(await seedRow('Next nonce').textContent()).toBe('0');
  expect(await seedRow('Server seed hash').textContent()).toMatch(/^[0-9a-f]{8}…[0-9a-f]{8}Copy$/);
  await page.getByRole('button', { name: 'Draw for 100 points' }).waitFor();
  await page.getByRole('button', { name: 'Draw for 1 USDT' }).waitFor();
  await shot('blindbox-01-box');
  await page.locator('.box-seed').scrollIntoViewIfNeeded();
  await shot('blindbox-01b-seeds');
  await page.evaluate(() => scrollTo(0, 0));
});

it('a client seed longer than 64 characters stays whole, is counted, and is refused with the rule', async () => {
  const rule =
    'The client seed must be 1-64 Latin letters, digits or symbols (as on an English keyboard), without spaces!';
  const field = page.getByLabel('New client seed');
  const seedField = page.locator('.box-seed-form .field');
  const before = await seedRow('Client seed').textContent();
  expect(await seedField.locator('.field-hint').textContent()).toBe(
    'Latin letters, digits and symbols, no spaces 0/64',
  );
  const long = 'x'.repeat(70);
  await field.fill(long);
  // Not cut to 64 behind the customer's back: the whole text, its count, and why it cannot be used.
  expect(await field.inputValue()).toBe(long);
  expect(await seedField.locator('.box-seed-count').textContent()).toBe('70/64');
  expect(await seedField.locator('.error-text').textContent()).toBe(rule);
  await page.locator('.box-seed').scrollIntoViewIfNeeded();
  await shot('blindbox-01c-seed-too-long');
  await page.getByRole('button', { name: 'Change' }).click();
  await poll(() => page.locator('.toast').textContent()).toBe(rule);
  expect(await seedRow('Client seed').textContent()).toBe(before);
  await field.fill('');
  await page.evaluate(() => scrollTo(0, 0));
});

it('draws twice for points: the result dialog names the prize and the roll, the nonce moves on', async () => {
  // Each draw costs 100 points; a points prize comes back at once (two draws may well net nothing).
  let points = startPoints;
  for (const nonce of [0, 1]) {
    await page.getByRole('button', { name: 'Draw for 100 points' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toMatch(/^(Congratulations!|No prize this time)$/);
    expect(await dialog.textContent()).toMatch(new RegExp(`Roll \\d+ of 1,000,000 · nonce ${nonce}`));
    points +=
      -100 + Number((await dialog.locator('.box-result-name').textContent())?.match(/^(\d+) points$/)?.[1] ?? 0);
    if (nonce === 0) await shot('blindbox-02-result');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await poll(() => seedRow('Next nonce').textContent()).toBe(String(nonce + 1));
  }
  await poll(() => page.locator('.box-balances').textContent()).toMatch(
    new RegExp(`^Your points: ${points.toLocaleString('en-US')} `),
  );
});

it('the verification page: draws of the current seed wait for it, rotation reveals it and every draw checks ✓', async () => {
  await page.getByRole('link', { name: 'Verify my draws' }).first().click();
  await page.waitForURL(/#\/pages\/blindbox\/verify$/);
  const badges = page.locator('.box-draw-row .status-badge');
  await poll(() => badges.allTextContents()).toEqual(['Reveal by rotating the seed', 'Reveal by rotating the seed']);
  expect(await page.locator('.box-summary').textContent()).toContain(
    '2 draws use the current seed: reveal it by rotating the seed.',
  );
  // No tick while no draw has been checked.
  expect(await page.locator('.box-summary strong').textContent()).toBe('0 of 2 draws verified');
  await shot('blindbox-03-verify-unrevealed');

  // Rotate on the blind box page, as the seed panel offers; then come back.
  await open('/pages/blindbox/index');
  const hashBefore = await seedRow('Server seed hash').textContent();
  await page.getByRole('button', { name: 'Rotate seed' }).click();
  await poll(() => seedRow('Server seed hash').textContent()).not.toBe(hashBefore);
  expect(await seedRow('Next nonce').textContent()).toBe('0');

  await open('/pages/blindbox/verify');
  await poll(() => badges.allTextContents()).toEqual(['Verified ✓', 'Verified ✓']);
  expect(await page.locator('.box-summary strong').textContent()).toBe('2 of 2 draws verified ✓');
  // The revealed seed is on screen, and its SHA-256 is the hash that was shown before the draws.
  const revealed = (await page.locator('.box-draw-seed .box-hash').first().textContent())!;
  expect(revealed).toMatch(/^[0-9a-f]{64}$/);
  const hash = await page.evaluate(async (seed) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(seed));
    return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  }, revealed);
  expect(`${hash.slice(0, 8)}…${hash.slice(-8)}Copy`).toBe(hashBefore);
  await page.getByText('How a draw is decided and checked').click();
  await shot('blindbox-04-verified');
});

it('lists the activities with the recent wins and opens one with its sanitised body', async () => {
  await open('/pages/activeList/index');
  const cards = page.locator('.activity-card');
  await poll(() => cards.count()).toBe(2);
  expect(await cards.locator('.activity-title').allTextContents()).toEqual([
    'Blind box week: draw and win up to 100 USDT',
    'New year trading festival',
  ]);
  expect(await cards.locator('.status-badge').allTextContents()).toEqual(['In progress', 'Coming soon']);
  // The notice shows the real wins: the demo's own draws above, masked, when one of them won.
  const wins = await callApi<{ lists: { username: string }[] }>('/content/winnotice', { method: 'GET' });
  if (wins.data.lists.length)
    await page.locator('.scrolling-lines', { hasText: /^d\*\*\*o won .+ in the blind box$/ }).waitFor();
  else expect(await page.locator('.scrolling-lines').count()).toBe(0);
  await coversLoaded();
  await shot('activities-01-list');
  await cards.first().click();
  await page.waitForURL(/#\/pages\/activeList\/activeDetails\?id=\d+$/);
  await page.locator('.activity-body h3', { hasText: 'Provably fair blind box' }).waitFor();
  expect(await page.locator('.activity-body strong').textContent()).toBe('verify every draw');
  expect(await page.locator('.activity-body script, .activity-body [onclick], .activity-body [style]').count()).toBe(0);
  await coversLoaded();
  await shot('activities-02-details');
});

it('reads right to left in Arabic', async () => {
  await open('/pages/mine/mine');
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await open('/pages/blindbox/index');
  await poll(() => page.locator('.box-prizes tbody tr').count()).toBe(6);
  await shot('blindbox-05-box-arabic');
  // The expected value and the cost read in the sentence's order: each amount right of the one after it, and in an
  // amount with an Arabic unit ("100 نقطة") the figure right of its unit, as Arabic reads it (an amount laid out left
  // to right read "نقطة / 1 100").
  const layout = await page.locator('.box-expected').evaluate((paragraph) => {
    const amounts = [...paragraph.querySelectorAll('span > bdi')];
    const box = (node: Node, from: number, to: number) => {
      const range = document.createRange();
      range.setStart(node, from);
      range.setEnd(node, to);
      return range.getBoundingClientRect();
    };
    return {
      texts: amounts.map((amount) => amount.textContent),
      inOrder: amounts.every((amount, index) => {
        const next = amounts[index + 1];
        if (!next || next.parentElement !== amount.parentElement) return true;
        const [here, there] = [amount.getBoundingClientRect(), next.getBoundingClientRect()];
        // On one line the next is to the left; a list may wrap onto the next line.
        return there.top > here.bottom - 1 || here.left >= there.right - 1;
      }),
      figuresFirst: amounts.every((amount) => {
        const text = amount.firstChild!;
        const value = text.textContent ?? '';
        const figure = value.search(/\d/);
        const word = value.search(/\p{Script=Arabic}/u);
        if (figure < 0 || word < 0) return true;
        return box(text, figure, figure + 1).left > box(text, word, word + 1).left;
      }),
    };
  });
  expect(layout.texts.some((text) => /\p{Script=Arabic}/u.test(text ?? ''))).toBe(true);
  expect(layout).toMatchObject({ inOrder: true, figuresFirst: true });
  // Nothing sticks out sideways (a row too wide once pushed the whole page wider than the phone).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await page.locator('.box-seed').scrollIntoViewIfNeeded();
  // The seed field's rule and count stand in full under it (a placeholder that long was cut off at 390 px).
  const hint = await page.locator('.box-seed-form .field-hint').evaluate((line) => {
    const card = line.closest('.box-seed')!.getBoundingClientRect();
    const box = line.getBoundingClientRect();
    return {
      text: line.textContent,
      inside: box.left >= card.left && box.right <= card.right,
      whole: line.scrollWidth <= line.clientWidth,
    };
  });
  expect(hint).toEqual({ text: 'أحرف لاتينية وأرقام ورموز، بدون مسافات 0/64', inside: true, whole: true });
  expect(await page.locator('.box-seed-form input').getAttribute('placeholder')).toBeNull();
  await shot('blindbox-05b-seeds-arabic');
  await open('/pages/blindbox/verify');
  await poll(() => page.locator('.box-draw-row').count()).toBe(2);
  await shot('blindbox-06-verify-arabic');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await open('/pages/activeList/index');
  await poll(() => page.locator('.activity-card').count()).toBe(2);
  await coversLoaded();
  await shot('activities-03-list-arabic');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
});
