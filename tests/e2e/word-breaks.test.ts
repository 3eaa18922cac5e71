// The home's shortcut names and the check-in button's label, in each of the six languages, on a 390 px phone and a
// 360 px one: a name that takes two lines breaks between its words, never inside one. Japanese and Chinese write words
// without spaces and a browser breaks their lines between any two characters ("コントラク" over "ト" before); the words
// are those the browser's own segmentation finds (Intl.Segmenter, as the app's labels use it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { BROWSER_LANGUAGE, launch, phoneContext, screenshot, watchPagesOnFailure, watchRequests } from './browser.ts';
import { openSignedIn } from './stored-session.ts';
import { callApi, registerUser } from './pwa.ts';

let browser: Browser;
let token: string;
const watch = watchPagesOnFailure('word-breaks-');

beforeAll(async () => {
  const phone = `064${String(Date.now()).slice(-7)}`;
  await registerUser(phone, 'breaks123', '246810');
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password: 'breaks123' } })).data
    .token;
  browser = await launch();
});
afterAll(async () => browser?.close());

/**
 * Each label `selector` finds (a shortcut's name, the check-in button's) as laid out, its lines joined by "|", and
 * every break that falls inside a word (by the document language's word segmentation) as "inside: name @ index".
 */
const laidOutNames = (selector: string) => {
  const language = document.documentElement.lang;
  const words = new Intl.Segmenter(language, { granularity: 'word' });
  const found: string[] = [];
  for (const label of document.querySelectorAll(selector)) {
    const characters: [Text, number][] = [];
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null)
      for (let index = 0; index < node.data.length; index++) characters.push([node, index]);
    const text = characters.map(([node, index]) => node.data[index]).join('');
    const starts = new Set([...words.segment(text)].map(({ index }) => index));
    const lines = [''];
    let top: number | null = null;
    characters.forEach(([node, index], at) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      const box = range.getClientRects()[0];
      if (box && top !== null && box.top > top + 2) {
        lines.push('');
        if (!starts.has(at)) found.push(`inside: ${text} @ ${at}`);
      }
      if (box) top = box.top;
      lines[lines.length - 1] += text[at];
    });
    found.push(lines.join('|'));
  }
  return found;
};

describe.each(LOCALES)('the home shortcuts in %s', (locale) => {
  it.each([390, 360])('break only between words on a %i px phone', async (width) => {
    const context = await phoneContext(browser, {
      locale: BROWSER_LANGUAGE[locale],
      viewport: { width, height: 844 },
    });
    const page = watch(await context.newPage(), `${locale}-${width}`);
    await openSignedIn(page, token, `/#${ROUTES.home}`);
    await page.locator('.home-entries').waitFor();
    await page.evaluate(() => document.fonts.ready);
    const names = await page.evaluate(laidOutNames, '.home-entries a > span:last-child');
    expect(names).toHaveLength(15);
    expect(names.filter((name) => name.startsWith('inside:'))).toEqual([]);
    if (locale === 'jp' && width === 390) {
      // The two names of two words each take two lines, one word a line.
      expect(names).toEqual(expect.arrayContaining(['デイリー|ログイン', 'ブラインド|ボックス', 'コントラクト']));
      // Scrolled from the page (the list may be drawn again as the page's first answers arrive): no held element.
      await page.locator('.home-entries').evaluate((entries) => entries.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'home-shortcuts-jp');
    }
    // The check-in button's label, in its narrow circle.
    const requests = watchRequests(page);
    await page.goto(`/#${ROUTES.checkIn}`);
    await page.locator('.check-in-button > span').waitFor();
    // The calendar's answers in, and the loading mask gone from the picture (it hides a moment after the last).
    await requests.settled();
    requests.stop();
    await page.locator('.mask').waitFor({ state: 'detached' });
    const label = await page.evaluate(laidOutNames, '.check-in-button > span');
    expect(label).toHaveLength(1);
    expect(label.filter((name) => name.startsWith('inside:'))).toEqual([]);
    if (locale === 'jp' && width === 390) {
      expect(label).toEqual(['デイリー|ログイン']);
      await screenshot(page, 'check-in-button-jp');
    }
    await context.close();
  });
});
