// The withdraw page's amount, in each of the six languages, as its people type and paste it: key by key in their own
// digits and marks (the field keeps every intermediate text and the quote reads the meant amount), the page's own
// "Available" figure pasted back (the same amount), and a number that reads two ways refused with a translated reason;
// and the liquidity subscribe amount typed the same way (its draft is kept in a store, not in the page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LOCALES, type Locale } from '../../src/api-contract/constants.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { BROWSER_LANGUAGE, launch, phoneContext, screenshot, watchPagesOnFailure } from './browser.ts';
import { fundedUser } from './funded-user.ts';
import { openSignedIn } from './stored-session.ts';

/** What a person of each language types, key by key, and what the page must read it as ("You receive"). */
const TYPED: Record<Locale, { keys: string; receive: string }> = {
  en: { keys: '1,500.5', receive: '1,500.50' },
  // A Chinese input method in full-width mode.
  zh: { keys: '１，５００．５', receive: '1,500.50' },
  th: { keys: '๑,๕๐๐.๕', receive: '1,500.50' },
  jp: { keys: '１５００．５', receive: '1,500.50' },
  ar: { keys: '١٬٥٠٠٫٥', receive: '1,500.50' },
  // Indian grouping, in Devanagari digits.
  hi: { keys: '१,००,०००.२५', receive: '1,00,000.25' },
};

/** The reason a number that reads two ways is refused, in each language, with its example written there. */
const READS_TWO_WAYS: Record<Locale, string> = {
  en: 'This number can be read two ways. Write it as in 1,234.50.',
  zh: '这个数字有两种读法。请写成 1,234.50 这样的格式。',
  th: 'ตัวเลขนี้อ่านได้สองแบบ โปรดเขียนในรูปแบบ 1,234.50',
  jp: 'この数値は2通りに読めます。1,234.50 のように入力してください。',
  ar: 'يمكن قراءة هذا الرقم بطريقتين. اكتبه على النحو 1,234.50.',
  hi: 'इस संख्या को दो तरह से पढ़ा जा सकता है। इसे 1,234.50 की तरह लिखें।',
};

let browser: Browser;
let token: string;
const watch = watchPagesOnFailure('typed-amounts-');

beforeAll(async () => {
  const phone = `064${String(Date.now()).slice(-7)}`;
  token = await fundedUser(phone, 'amounts123', '246810', '10000');
  browser = await launch();
});
afterAll(async () => browser?.close());

const amountField = (page: Page) => page.locator('input[name="amount"]');
const receive = (page: Page) => page.locator('.funds-quote .funds-strong .money-amount');
/** The figure of the "Available" row, as the page writes it (the first row of the rule card). */
const availableFigure = async (page: Page) =>
  (await page.locator('.funds-rule .detail-rows > div').first().locator('.money-amount').textContent())?.split(' ')[0];

/** The refusal of an invisible or direction-changing character, as the app words it. */
const HIDDEN_CHARACTERS = {
  en: 'Please remove invisible or direction-changing characters!',
  ar: 'يُرجى إزالة الأحرف غير المرئية أو الأحرف التي تغيّر اتجاه النص!',
};

/** Types `keys` into the amount field one at a time; the field's text after each key. */
async function typeKeyByKey(page: Page, keys: string): Promise<string[]> {
  const field = amountField(page);
  await field.click();
  const steps: string[] = [];
  for (const key of keys) {
    await page.keyboard.insertText(key);
    steps.push(await field.inputValue());
  }
  return steps;
}
/** What the field must show after each key: everything typed so far ('1,' waiting for '1,000', '١٫' for '١٫٥'). */
const everyStep = (keys: string) => [...keys].map((_, index) => [...keys].slice(0, index + 1).join(''));

describe.each(LOCALES)('withdraw amount in %s', (locale) => {
  let page: Page;

  beforeAll(async () => {
    const context = await phoneContext(browser, { locale: BROWSER_LANGUAGE[locale] });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = watch(await context.newPage(), locale);
    await openSignedIn(page, token, `/#${ROUTES.withdraw}`);
    try {
      // No bank card yet: the page asks to bind one; not now.
      await page.getByRole('alertdialog').locator('.btn.secondary').click();
      await page.locator('.funds-rule').waitFor();
      await page.locator('.mask').waitFor({ state: 'detached' });
    } catch (error) {
      await screenshot(page, `typed-amounts-failed-open-${locale}`, { fullPage: true });
      throw error;
    }
  });
  afterAll(async () => page?.context().close());

  it('typed key by key in its own digits and marks: every step kept, the meant amount quoted', async () => {
    const { keys, receive: expected } = TYPED[locale];
    expect(await typeKeyByKey(page, keys)).toEqual(everyStep(keys));
    await expect.poll(() => receive(page).textContent()).toBe(`${expected} USDT`);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, `typed-amount-${locale}`);
  });

  it('the page\'s own "Available" figure pasted back: the same amount', async () => {
    const field = amountField(page);
    const figure = await availableFigure(page);
    expect(figure).toMatch(/^[\d,]+\.\d{2}$/);
    await field.fill('');
    await field.click();
    await page.evaluate((text) => navigator.clipboard.writeText(text), figure!);
    await page.keyboard.press('ControlOrMeta+V');
    await expect.poll(() => field.inputValue()).toBe(figure);
    await expect.poll(() => receive(page).textContent()).toBe(`${figure} USDT`);
  });

  it('a number that reads two ways is refused with a translated reason, nothing quoted', async () => {
    const field = amountField(page);
    await field.fill('');
    await field.click();
    await page.keyboard.insertText('1,5');
    // Typing on could still make it 1,500: no message while the field is being typed in.
    expect(await page.locator('.field .error-text').count()).toBe(0);
    await field.blur();
    const reason = page.locator('.field .error-text');
    await reason.waitFor();
    expect(await reason.getAttribute('role')).toBe('alert');
    expect(await reason.textContent()).toBe(READS_TWO_WAYS[locale]);
    expect(await page.locator('.funds-quote dd').last().textContent()).toBe('—');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    if (locale === 'ar' || locale === 'hi') await screenshot(page, `typed-amount-refused-${locale}`);
    await field.fill('');
  });

  it.runIf(locale === 'en' || locale === 'ar')(
    'a pasted right-to-left override is refused, not read past: the field would show 1500 and mean 51',
    async () => {
      const field = amountField(page);
      await field.fill('');
      await field.click();
      await page.keyboard.insertText('\u202E0051');
      const reason = page.locator('.field .error-text');
      await reason.waitFor();
      expect(await reason.textContent()).toBe(HIDDEN_CHARACTERS[locale as 'en' | 'ar']);
      expect(await page.locator('.funds-quote dd').last().textContent()).toBe('—');
      if (locale === 'ar') await screenshot(page, 'typed-amount-hidden-ar');
      await field.fill('');
    },
  );

  it('the payment password typed in its own digits is the same six digits', async () => {
    const password = page.locator('input[name="paypass"]');
    await password.click();
    const digits: Record<Locale, string> = {
      en: '246810',
      zh: '２４６８１０',
      th: '๒๔๖๘๑๐',
      jp: '２４６８１０',
      ar: '٢٤٦٨١٠',
      hi: '२४६८१०',
    };
    for (const key of digits[locale]) await page.keyboard.insertText(key);
    expect(await password.inputValue()).toBe('246810');
  });

  it('on the liquidity subscribe page too, whose draft lives in a store: every step kept', async () => {
    const { keys } = TYPED[locale];
    await page.goto(`/#${ROUTES.liquidityBuy}`);
    expect(await typeKeyByKey(page, keys)).toEqual(everyStep(keys));
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
