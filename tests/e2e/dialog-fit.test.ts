// A dialog fits the screen whatever its content: with text at 200 % on a 390×844 phone (tests/e2e/text-fit.ts) and at
// normal size on a phone held sideways (844×390), the option order's confirmation stays inside the viewport, scrolls
// inside itself, and its Confirm can be brought into view and tapped; the chart's time frames above it keep apart at
// 200 %. Leaves text-200-option-frames.png, text-200-option-confirm.png and landscape-option-confirm.png among the
// screenshots to be looked at.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { PHONE, nextFrame, phonePageForFile, screenshot } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { placeInForm } from './order-form.ts';
import { logIn, markAllRead } from './pwa.ts';
import { textSize } from './text-fit.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));
const phone = `087${String(Date.now()).slice(-7)}`;
const password = 'dialogfit1';

beforeAll(async () => {
  await fundedUser(phone, password, '246810', '100');
  await markAllRead(phone, password);
  await logIn(page, phone, password);
});

/** The box of `locator` on the screen, and the viewport's size. */
async function boxAndViewport(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return { box, viewport: page.viewportSize()! };
}

/** What of `locator`'s box lies outside the viewport, in px on each side (all 0: it is on the screen). */
async function outside(locator: Locator) {
  const { box, viewport } = await boxAndViewport(locator);
  const past = (value: number) => Math.max(0, Math.round(value));
  return {
    top: past(-box.y),
    left: past(-box.x),
    bottom: past(box.y + box.height - viewport.height),
    right: past(box.x + box.width - viewport.width),
  };
}

/**
 * Opens the 1-minute option's confirmation for 5 USDT up, checks it fits the viewport, scrolls its Confirm into view
 * and checks the button is on the screen and the element a tap at its centre reaches; placeInForm then taps it.
 */
async function buyUpCheckingTheConfirmation(shot: string) {
  await page.getByRole('radio', { name: /^1\b/ }).first().click();
  await page.getByLabel('Amount (USDT)').fill('5');
  await placeInForm(
    page,
    async () => {
      await page.getByRole('button', { name: 'Buy up' }).click();
      const dialog = page.getByRole('alertdialog').filter({ has: page.getByRole('button', { name: 'Confirm' }) });
      await dialog.waitFor();
      await nextFrame(page);
      await screenshot(page, shot);
      expect(await outside(dialog)).toEqual({ top: 0, left: 0, bottom: 0, right: 0 });
      // Nothing in it is wider than it (it would scroll sideways).
      expect(await dialog.evaluate((box) => box.scrollWidth - box.clientWidth)).toBe(0);
      // Its title is shown from the top.
      expect(await outside(dialog.getByRole('heading'))).toEqual({ top: 0, left: 0, bottom: 0, right: 0 });
      const confirm = dialog.getByRole('button', { name: 'Confirm' });
      await confirm.scrollIntoViewIfNeeded();
      expect(await outside(confirm)).toEqual({ top: 0, left: 0, bottom: 0, right: 0 });
      expect(
        await confirm.evaluate((button) => {
          const box = button.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return hit !== null && button.contains(hit);
        }),
      ).toBe(true);
    },
    { toast: 'Successful transaction!' },
  );
}

it("keeps the chart's time frames apart with text at 200 %", async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  const frames = page.locator('.opt-chart .segmented').first();
  await frames.waitFor();
  await textSize(page, 200);
  try {
    // The space between one time frame's label and the next one's on its row, in px.
    const gaps = await frames.evaluate((group) =>
      [...group.querySelectorAll('button')].flatMap((button, at, all) => {
        const next = all[at + 1];
        if (!next) return [];
        const text = (element: Element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return range.getBoundingClientRect();
        };
        const [one, two] = [text(button), text(next)];
        if (Math.abs(one.top - two.top) > one.height / 2) return []; // the next one starts a new row
        return [Math.abs(document.dir === 'rtl' ? one.left - two.right : two.left - one.right)];
      }),
    );
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(8);
    await frames.scrollIntoViewIfNeeded();
    await screenshot(page, 'text-200-option-frames');
  } finally {
    await textSize(page, 100);
  }
});

it('keeps the order confirmation on the screen with text at 200 %', async () => {
  await page.goto('/#/pages/Option/Option?code=BTC');
  await page.getByLabel('Amount (USDT)').waitFor();
  await textSize(page, 200);
  try {
    await buyUpCheckingTheConfirmation('text-200-option-confirm');
    // The first order on this device offers notifications.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
  } finally {
    await textSize(page, 100);
  }
});

it('keeps the order confirmation on the screen of a phone held sideways', async () => {
  await page.setViewportSize({ width: PHONE.height, height: PHONE.width });
  try {
    await page.goto('/#/pages/Option/Option?code=ETH');
    await page.getByLabel('Amount (USDT)').waitFor();
    await buyUpCheckingTheConfirmation('landscape-option-confirm');
  } finally {
    await page.setViewportSize(PHONE);
  }
});
