// The main screens with their text at twice its size on a 390 px phone, as a phone's largest text setting shows them:
// nothing scrolls sideways and no text is cut off. How the text is made larger: the root element's font size set to
// 200 % through the CSSOM (document.documentElement.style.fontSize). That is what the browser does for a page that
// opts in to the device's text size, as the app does (<meta name="text-scale" content="scale">: Chrome scales the
// root font size by the system's setting; its own font-size setting does the same), and every size of the app's text
// is in rem or em, so all of it follows. A style set through
// the CSSOM is not an inline <style> element: the app's content security policy stays on (no bypassCSP), as on a
// phone. Page zoom would be the wrong test: it narrows the layout viewport as well, which the 390 px width must not.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { PHONE, launch, nextFrame, phoneContext, screenshot, watchPagesOnFailure, watchRequests } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { storeSession } from './stored-session.ts';

const SIGNED_IN = [
  ROUTES.home,
  ROUTES.coinList,
  `${ROUTES.coinDetail}?code=BTC`,
  ROUTES.option,
  ROUTES.contracts,
  ROUTES.recharge,
  ROUTES.withdraw,
  ROUTES.mine,
];
const SIGNED_OUT = [ROUTES.login, ROUTES.register];
/** Two screens left as screenshots at 200 % (test-results/screens/text-200-*.png), to be looked at. */
const SHOTS: Partial<Record<string, string>> = { [ROUTES.option]: 'options', [ROUTES.recharge]: 'recharge' };

let browser: Browser;
const contexts: BrowserContext[] = [];
const watch = watchPagesOnFailure('text-zoom-');
const phone = `087${String(Date.now()).slice(-7)}`;
let token: string;

beforeAll(async () => {
  [browser, token] = await Promise.all([launch(), fundedUser(phone, 'textzoom1', '246810', '500')]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function openPage(): Promise<Page> {
  const context = await phoneContext(browser);
  contexts.push(context);
  const page = watch(await context.newPage());
  page.setDefaultTimeout(30_000);
  return page;
}

/** The app's text at twice its size, from this document on. */
async function doubleText(page: Page): Promise<void> {
  await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  await nextFrame(page);
}

/** Goes to `hash` in the same document and waits for its page: its code and texts in, its calls answered. */
async function openRoute(page: Page, hash: string): Promise<void> {
  const requests = watchRequests(page);
  await page.evaluate((next) => (location.hash = next), hash);
  await page.waitForFunction(() => !document.querySelector('.page-loading, .mask'));
  await requests.settled();
  requests.stop();
  await nextFrame(page);
}

/**
 * What does not fit on the screen now: the page's width when wider than the phone, and each element that cuts its
 * text off — it clips what overflows (overflow hidden or clip) and its content is wider or taller than its box (an
 * ellipsis too: the text it stands for is not shown), or text that reaches past its card's edge or, in a bar fixed to
 * the screen, past the screen's edge. Hidden elements and the one-pixel lines read only by screen readers do not
 * count. And text that did not grow: at 200 % the app's smallest text (10 px at 100 %) is 20 px; one under 18 px has
 * a size in px.
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const found: string[] = [];
    const scrolled = document.scrollingElement!.scrollWidth;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((c) => `.${c}`).join('')}`;
    if (scrolled > width) {
      // The outermost elements that reach past the screen's edge, outside any box that scrolls or clips them.
      const past = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1);
      };
      const clipped = (element: Element) => {
        for (let up = element.parentElement; up; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible')
            return up !== document.documentElement && up !== document.body;
        return false;
      };
      const wide = [...document.querySelectorAll('#root *')].filter(
        (element) => past(element) && !past(element.parentElement!) && !clipped(element),
      );
      found.push(`the page is ${scrolled} px wide: ${wide.slice(0, 3).map(name).join(', ')}`);
    }
    for (const element of document.querySelectorAll('#root *')) {
      if (!(element instanceof HTMLElement)) continue;
      const box = element.getBoundingClientRect();
      if (!element.checkVisibility() || box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(element);
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim(),
      );
      if (ownText && parseFloat(style.fontSize) < 18)
        found.push(`${name(element)} keeps "${element.innerText.trim().slice(0, 40)}" at ${style.fontSize}`);
      // Text that sticks out of its card, where nothing clips it.
      const card = ownText ? element.closest('.card') : null;
      const edges = card?.getBoundingClientRect();
      if (edges && (box.right > edges.right + 1 || box.left < edges.left - 1))
        found.push(`${name(element)} puts "${element.innerText.trim().slice(0, 40)}" past its card's edge`);
      // A bar fixed to the screen (the tab bar) that is too short for its text puts it past the screen's edge.
      if (ownText && element.closest('.tabbar, .navbar') && (box.bottom > innerHeight + 1 || box.top < -1))
        found.push(`${name(element)} puts "${element.innerText.trim().slice(0, 40)}" past the screen's edge`);
      const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if ((!clipsX && !clipsY) || element.clientWidth <= 1 || element.clientHeight <= 1) continue;
      const text = element.innerText.trim();
      // Text that moves through its box (the notice's marquee) is cut off on purpose; with reduced motion it wraps.
      if (!text || element.getAnimations({ subtree: true }).length) continue;
      // An ellipsis says text is missing; at 200 % it is missing all the same, so it counts.
      const wide = clipsX && element.scrollWidth > element.clientWidth + 1;
      const tall = clipsY && element.scrollHeight > element.clientHeight + 1 && style.webkitLineClamp === 'none';
      if (wide || tall)
        found.push(
          `${name(element)} cuts "${text.slice(0, 40)}" off (${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight})`,
        );
    }
    return found;
  }, PHONE.width);
}

it('shows the main screens with text at 200 % on a 390 px phone: no sideways scroll, no text cut off', async () => {
  const found: string[] = [];
  const signedIn = await openPage();
  await signedIn.goto('/favicon.svg');
  await storeSession(signedIn, token);
  await signedIn.goto(`/#${ROUTES.home}`);
  await doubleText(signedIn);
  for (const route of SIGNED_IN) {
    await openRoute(signedIn, route);
    expect(await signedIn.evaluate(() => location.hash)).toBe(`#${route}`);
    found.push(...(await misfits(signedIn)).map((line) => `#${route}: ${line}`));
    const shot = SHOTS[route];
    if (shot) await screenshot(signedIn, `text-200-${shot}`);
  }

  const signedOut = await openPage();
  await signedOut.goto(`/#${ROUTES.login}`);
  await doubleText(signedOut);
  for (const route of SIGNED_OUT) {
    await openRoute(signedOut, route);
    found.push(...(await misfits(signedOut)).map((line) => `#${route}: ${line}`));
  }
  expect(found).toEqual([]);
}, 180_000);
