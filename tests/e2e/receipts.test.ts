// A settled option's signed receipt on a phone, in English and in Arabic: from the order's details the customer opens
// its receipt, which this device checks against the platform's published key and calls "Signature valid"; the same
// receipt pasted into the public check page is valid too, and with one byte changed it is "Signature not valid". The
// time the device took to check the signature is printed (the page keeps it on the banner).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { callApi, logIn } from './pwa.ts';
import { openSignedIn } from './stored-session.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import type { OptionReceipt, SignedReceipt } from '../../src/api-contract/receipts.ts';
import { optionSettledOnPage } from './order-form.ts';

let browser: Browser;
const watch = watchPagesOnFailure();
beforeAll(async () => void (browser = await launch()));
afterAll(() => browser?.close());

const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'receipt123';
let token: string;
let orderId: number;
let signed: SignedReceipt;

const WORDS = {
  en: {
    valid: 'Signature valid',
    invalid: 'Signature not valid',
    check: 'Check the signature',
    link: 'Signed receipt',
  },
  ar: { valid: 'التوقيع صالح', invalid: 'التوقيع غير صالح', check: 'تحقق من التوقيع', link: 'إيصال موقّع' },
};

/** The receipt's JSON with one byte changed: the last digit of the payout. */
function changedByOneByte(receipt: SignedReceipt): string {
  const text = JSON.stringify(receipt);
  const payout = `"payout":"${receipt.receipt.payout}"`;
  const at = text.indexOf(payout) + payout.length - 2;
  const digit = text[at]!;
  return `${text.slice(0, at)}${digit === '9' ? '8' : String(Number(digit) + 1)}${text.slice(at + 1)}`;
}

/** The banner once the device's check is done: its result and the milliseconds the signature check took. */
async function checked(page: Page): Promise<{ check: string; ms: number }> {
  const banner = page.locator('.receipt-check');
  await expect.poll(() => banner.getAttribute('data-check')).not.toBe('checking');
  return {
    check: (await banner.getAttribute('data-check')) ?? '',
    ms: Number(await banner.getAttribute('data-check-ms')),
  };
}

/** Pastes `text` into the public check page and checks it. */
async function pasteAndCheck(page: Page, text: string, words: (typeof WORDS)['en']) {
  await page.goto(`/#${ROUTES.receiptCheck}`);
  await page.locator('#receipt-text').fill(text);
  await page.getByRole('button', { name: words.check }).click();
  return checked(page);
}

it("opens a settled option's receipt from its details: the device says its signature is valid (English)", async () => {
  token = await fundedUser(phone, password, '135791', '100');
  const page = watch(await (await phoneContext(browser)).newPage(), 'en');
  await logIn(page, phone, password);
  const products = await callApi<{ lists: { id: number; minutes: number }[] }>('/coin/option/products', {
    method: 'GET',
    form: { code: 'BTC' },
  });
  const product = products.data.lists.find((p) => p.minutes === 1)!;
  // One simulated minute is three real seconds: the details page shows the settlement, then the receipt's link.
  const placed = await optionSettledOnPage<OptionOrder>(page, {
    token,
    form: { code: 'BTC', direction: 'up', product_id: String(product.id), amount: '10' },
  });
  orderId = placed.id;
  await page.getByRole('link', { name: WORDS.en.link }).click();
  await page.waitForURL(/pages\/receipt\?option=/);
  const result = await checked(page);
  expect(result.check).toBe('valid');
  await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS.en.valid }).count()).toBe(1);
  await expect.poll(() => page.getByText(String(orderId), { exact: true }).count()).toBeGreaterThan(0);
  console.log(`receipt signature checked on the device (Chromium, Web Crypto Ed25519) in ${result.ms.toFixed(2)} ms`);
  await screenshot(page, 'receipt-en');

  // What the customer shares is the call's answer, as it came.
  const answer = await callApi<SignedReceipt>('/receipts/option', {
    method: 'GET',
    token,
    form: { id: String(orderId) },
  });
  expect(answer.ret).toBe(1);
  signed = answer.data;
  // The outcome row says what the option's record says (a loss read "Void" while the receipt said "loss").
  const outcome = (signed.receipt as OptionReceipt).outcome;
  const said = { win: 'Won', loss: 'Lost', tie: 'Same price', void: 'Void' }[outcome];
  const row = page.locator('.detail-rows > div', { hasText: 'Outcome' }).locator('dd');
  await expect.poll(() => row.textContent()).toBe(said);
  console.log(`receipt size: ${Buffer.byteLength(JSON.stringify(signed))} bytes as JSON`);

  // Anyone (here the same phone) pastes it into the check page: valid as it is, not valid with one byte changed.
  expect((await pasteAndCheck(page, JSON.stringify(signed), WORDS.en)).check).toBe('valid');
  expect((await pasteAndCheck(page, changedByOneByte(signed), WORDS.en)).check).toBe('invalid');
  await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS.en.invalid }).count()).toBe(1);
  await screenshot(page, 'receipt-changed-en');
  await page.context().close();
});

it('shows the same receipt valid, and a changed one not valid, in Arabic', async () => {
  const context = await phoneContext(browser, { locale: 'ar-EG' });
  const page = watch(await context.newPage(), 'ar');
  await openSignedIn(page, token, `/#${ROUTES.receipt}?option=${orderId}`);
  expect((await checked(page)).check).toBe('valid');
  await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS.ar.valid }).count()).toBe(1);
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await screenshot(page, 'receipt-ar');

  expect((await pasteAndCheck(page, changedByOneByte(signed), WORDS.ar)).check).toBe('invalid');
  await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS.ar.invalid }).count()).toBe(1);
  await screenshot(page, 'receipt-changed-ar');
  await context.close();
});

it('says it cannot check here, in a neutral tone, where the browser has no Web Crypto (plain http)', async () => {
  const context = await phoneContext(browser);
  try {
    // As over plain http from another host: no crypto.subtle.
    await context.addInitScript(() => Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined }));
    const page = watch(await context.newPage(), 'plain');
    expect((await pasteAndCheck(page, JSON.stringify(signed), WORDS.en)).check).toBe('no-crypto');
    const banner = page.locator('.receipt-check');
    expect(await banner.locator('strong').textContent()).toBe('Cannot check here');
    expect(await banner.getAttribute('class')).toContain('unavailable');
    await screenshot(page, 'receipt-plain-http');
  } finally {
    await context.close();
  }
});

it('says a receipt dated after its key was replaced was signed by a retired key, and not to rely on it', async () => {
  // The published keys as they would read had the receipt's key been replaced a minute before the receipt says it was
  // signed: its signature is still that key's, so only the key's period tells it apart.
  const context = await phoneContext(browser, { serviceWorkers: 'block' });
  try {
    const retiredAt = new Date(Date.parse(signed.receipt.signed_at) - 60_000).toISOString();
    await context.route('**/api/receipts/keys', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { keys: { id: string; valid_until: string | null }[] } };
      for (const key of body.data.keys) if (key.id === signed.receipt.key_id) key.valid_until = retiredAt;
      await route.fulfill({ response: answer, json: body });
    });
    const page = watch(await context.newPage(), 'retired');
    expect((await pasteAndCheck(page, JSON.stringify(signed), WORDS.en)).check).toBe('outside-key-period');
    const banner = page.locator('.receipt-check');
    expect(await banner.locator('strong').textContent()).toBe('Signed by a retired key');
    expect(await banner.textContent()).toContain('Do not rely on it.');
    expect(await banner.getAttribute('class')).toContain('bad');
    await screenshot(page, 'receipt-retired-key');
  } finally {
    await context.close();
  }
});

it('says a receipt of a revoked key is not to be relied on, whatever its date, once revoked while open (Thai)', async () => {
  // The published keys as they would read once the platform revoked the receipt's key (a copy may have leaked): the
  // receipt is dated inside the key's period and its signature is the key's, so only the revocation tells it apart.
  // The app stays open across the revocation: checked valid before, the same receipt is revoked at its next check.
  const context = await phoneContext(browser, { serviceWorkers: 'block', locale: 'th-TH' });
  try {
    let revoked = false;
    await context.route('**/api/receipts/keys', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { keys: { id: string; revoked_at: string | null }[] } };
      for (const key of body.data.keys)
        if (revoked && key.id === signed.receipt.key_id) key.revoked_at = new Date().toISOString();
      await route.fulfill({ response: answer, json: body });
    });
    const page = watch(await context.newPage(), 'revoked');
    const words = { ...WORDS.en, check: 'ตรวจสอบลายเซ็น' };
    expect((await pasteAndCheck(page, JSON.stringify(signed), words)).check).toBe('valid');
    revoked = true;
    await page.getByRole('button', { name: words.check }).click();
    await expect.poll(() => page.locator('.receipt-check').getAttribute('data-check')).toBe('revoked-key');
    const banner = page.locator('.receipt-check');
    expect(await banner.locator('strong').textContent()).toBe('ลงนามด้วยคีย์ที่ถูกเพิกถอนแล้ว');
    expect(await banner.textContent()).toContain('อย่าเชื่อถือใบรับรองนี้');
    expect(await banner.getAttribute('class')).toContain('bad');
    await screenshot(page, 'receipt-revoked-key-th');
  } finally {
    await context.close();
  }
});
