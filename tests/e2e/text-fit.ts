// Text at twice its size on a 390 px phone, as a phone's largest text setting shows it, and what does not fit then.
// How the text is made larger: the root element's font size set to 200 % through the CSSOM
// (document.documentElement.style.fontSize). That is what the browser does for a page that opts in to the device's
// text size, as the app does (<meta name="text-scale" content="scale">: Chrome scales the root font size by the
// system's setting; its own font-size setting does the same), and every size of the app's text is in rem or em, so all
// of it follows. A style set through the CSSOM is not an inline <style> element: the app's content security policy
// needs no bypass for it. Page zoom would be the wrong test: it narrows the layout viewport as well, which the 390 px
// width must not.
import type { Page } from 'playwright-core';
import { PHONE, nextFrame } from './browser.ts';

/** The app's text at `percent` of its size (100: as the app sets it), from this document on, laid out. */
export async function textSize(page: Page, percent: number): Promise<void> {
  await page.evaluate((size) => (document.documentElement.style.fontSize = size), percent === 100 ? '' : `${percent}%`);
  await nextFrame(page);
}

/**
 * What does not fit on the screen now, one line each (empty: all of it fits):
 * - the page wider than the phone (and the outermost elements that reach past its edge);
 * - an element that cuts its text off: it clips what overflows (overflow hidden or clip) and its content is wider or
 *   taller than its box (an ellipsis too: the text it stands for is not shown);
 * - text that reaches past its card's edge or, in a bar fixed to the screen, past the screen's edge;
 * - text drawn over other text (two lines of text whose glyph boxes cross, e.g. an amount run into its neighbour);
 * - text that did not grow: at 200 % the app's smallest text (10 px at 100 %) is 20 px; one under 18 px has a size in
 *   px.
 * Hidden elements and the one-pixel lines read only by screen readers do not count; nor does text that moves through
 * its box (the notice's marquee, cut off on purpose; with reduced motion it wraps).
 */
export async function misfits(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const found: string[] = [];
    const scrolled = document.scrollingElement!.scrollWidth;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((c) => `.${c}`).join('')}`;
    const said = (element: HTMLElement) => `"${element.innerText.trim().slice(0, 40)}"`;
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
    /** Inside a one-pixel box: read by screen readers only (`visually-hidden`, a table's heads kept for them). */
    const readOnly = (element: Element) => {
      for (let up = element.parentElement; up; up = up.parentElement) {
        const box = up.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) return true;
      }
      return false;
    };
    /** The part of the screen where `element`'s text can show: the boxes of it and its ancestors that clip, crossed. */
    const shownIn = (element: Element) => {
      let [left, top, right, bottom] = [-Infinity, -Infinity, Infinity, Infinity];
      for (let up: Element | null = element; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        const box = up.getBoundingClientRect();
        if (style.overflowX !== 'visible') [left, right] = [Math.max(left, box.left), Math.min(right, box.right)];
        if (style.overflowY !== 'visible') [top, bottom] = [Math.max(top, box.top), Math.min(bottom, box.bottom)];
      }
      return { left, top, right, bottom };
    };
    /** Each line of text on the screen: its glyphs' box, its element, and the bar fixed to the screen it sits in. */
    const lines: { box: DOMRect; element: HTMLElement; layer: Element | null }[] = [];
    for (const element of document.querySelectorAll('#root *')) {
      if (!(element instanceof HTMLElement)) continue;
      const box = element.getBoundingClientRect();
      if (!element.checkVisibility() || box.width <= 1 || box.height <= 1 || readOnly(element)) continue;
      const style = getComputedStyle(element);
      const texts = [...element.childNodes].filter(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim(),
      );
      const ownText = texts.length > 0;
      const moving = element.getAnimations({ subtree: true }).length > 0;
      if (ownText && parseFloat(style.fontSize) < 18)
        found.push(`${name(element)} keeps ${said(element)} at ${style.fontSize}`);
      // Text that sticks out of its card, where nothing clips it.
      const card = ownText ? element.closest('.card') : null;
      const edges = card?.getBoundingClientRect();
      if (edges && (box.right > edges.right + 1 || box.left < edges.left - 1))
        found.push(`${name(element)} puts ${said(element)} past its card's edge`);
      // A bar fixed to the screen (the tab bar) that is too short for its text puts it past the screen's edge.
      if (ownText && element.closest('.tabbar, .navbar') && (box.bottom > innerHeight + 1 || box.top < -1))
        found.push(`${name(element)} puts ${said(element)} past the screen's edge`);
      if (ownText && !moving) {
        // Page text and what lies over it on purpose are in different layers (the bars fixed to the screen, a dialog,
        // the loading mask of a call): text scrolled under a bar is not drawn over.
        const layer = element.closest('.navbar, .tabbar, [aria-modal="true"], .mask');
        // Lines a clipping box hides (those after a clamped preview's last) are not drawn: only what shows counts.
        const shown = shownIn(element);
        const range = document.createRange();
        for (const text of texts) {
          range.selectNodeContents(text);
          for (const line of range.getClientRects()) {
            const left = Math.max(line.left, shown.left);
            const right = Math.min(line.right, shown.right);
            const top = Math.max(line.top, shown.top);
            const bottom = Math.min(line.bottom, shown.bottom);
            if (right - left > 1 && bottom - top > 1)
              lines.push({ box: new DOMRect(left, top, right - left, bottom - top), element, layer });
          }
        }
      }
      const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if ((!clipsX && !clipsY) || element.clientWidth <= 1 || element.clientHeight <= 1) continue;
      const text = element.innerText.trim();
      if (!text || moving) continue;
      // An ellipsis says text is missing; at 200 % it is missing all the same, so it counts.
      const wide = clipsX && element.scrollWidth > element.clientWidth + 1;
      const tall = clipsY && element.scrollHeight > element.clientHeight + 1 && style.webkitLineClamp === 'none';
      if (wide || tall)
        found.push(
          `${name(element)} cuts "${text.slice(0, 40)}" off (${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight})`,
        );
    }
    // Two lines of text of different elements in one layer whose glyph boxes cross: by more than 2 px across and by
    // more than a third of the shorter line's height (a glyph box is taller than a tight line height, so stacked lines
    // touch a little).
    const reported = new Set<HTMLElement>();
    for (const [index, a] of lines.entries())
      for (const b of lines.slice(index + 1)) {
        if (a.element === b.element || a.layer !== b.layer || reported.has(a.element)) continue;
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 2 && down > Math.min(a.box.height, b.box.height) / 3) {
          reported.add(a.element);
          found.push(`${name(a.element)} ${said(a.element)} is drawn over ${name(b.element)} ${said(b.element)}`);
        }
      }
    return found;
  }, PHONE.width);
}
