// Two things a customer meets with the app open in two tabs and a name in another script: a nickname that would
// reverse what follows it (a right-to-left override) is refused with the translated reason and changes nothing; an
// Arabic nickname is kept and shown isolated in a <bdi> beside English text; and logging out in one tab ends the
// session in the other at once, without that tab navigating: no name or balance stays on its screen.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { forgetToasts, phonePageForFile, recordToasts, screenshot, toastSeen } from './browser.ts';
import { logIn, logOutFromSettings, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'tabs1234';
const ARABIC_NAME = 'سارة ٢';

beforeAll(async () => {
  await registerUser(phone, password, '135790');
  await recordToasts(page);
  await logIn(page, phone, password);
});

/** Types `name` on the nickname page and saves it. */
async function saveNickname(name: string) {
  await page.goto('/#/pages/mine/setting/nickname');
  await page.getByLabel('Nickname').fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
}

it('takes a Thai name typed key by key whole: 14 characters, 24 code units, where a nickname holds 20', async () => {
  const thai = 'สมศักดิ์ ศักดิ์สิทธิ์ชัย';
  await page.goto('/#/pages/mine/setting/nickname');
  const field = page.getByLabel('Nickname');
  await field.fill('');
  await field.pressSequentially(thai);
  expect(await field.inputValue()).toBe(thai);
  await page.getByRole('button', { name: 'Save' }).click();
  await toastSeen(page, 'Saved successfully!', 30_000);
  await page.waitForURL((url) => !url.hash.includes('nickname'));
  await page.goto('/#/pages/mine/mine');
  await expect.poll(() => page.locator('.profile-card-name bdi').textContent()).toBe(thai);
  await screenshot(page, 'mine-thai-nickname');
  await forgetToasts(page);
});

it('refuses a nickname holding a right-to-left override, and shows an Arabic one isolated in a <bdi>', async () => {
  await saveNickname('Mom\u202Egnp.exe');
  await toastSeen(page, 'Please remove invisible or direction-changing characters!', 30_000);
  await page.goto('/#/pages/mine/mine');
  const name = page.locator('.profile-card-name bdi');
  await expect.poll(() => name.textContent()).not.toContain('\u202E');

  await saveNickname(ARABIC_NAME);
  // Saved, the app goes back by itself: wait for that before going anywhere.
  await toastSeen(page, 'Saved successfully!', 30_000);
  await page.waitForURL((url) => !url.hash.includes('nickname'));
  await page.goto('/#/pages/mine/mine');
  await expect.poll(() => name.textContent()).toBe(ARABIC_NAME);
  // Isolated: the name's own direction is right to left, and the VIP badge beside it keeps the page's left to right.
  expect(await name.evaluate((element) => element.tagName)).toBe('BDI');
  expect(await name.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
  expect(await page.locator('.vip-badge').evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
  await screenshot(page, 'mine-arabic-nickname');
});

it('logging out in one tab ends the session in the other at once: its name and balance leave the screen', async () => {
  const other = await page.context().newPage();
  try {
    await other.goto('/#/pages/mine/mine');
    const name = other.locator('.profile-card-name bdi');
    await expect.poll(() => name.textContent()).toBe(ARABIC_NAME);
    await other.getByText('Total assets (est. USDT)').waitFor();

    await logOutFromSettings(page);

    // The other tab is not touched: the channel between tabs ends its session there too, and its Mine page (open to
    // anyone) turns to the signed-out one in place: no name, no balance.
    await other.getByText('You are not logged in').waitFor();
    expect(await other.getByText(ARABIC_NAME).count()).toBe(0);
    expect(await other.getByText('Total assets (est. USDT)').count()).toBe(0);
    expect(other.url()).toMatch(/#\/pages\/mine\/mine$/);
    await screenshot(other, 'other-tab-after-logout');
  } finally {
    await other.close();
  }
});
