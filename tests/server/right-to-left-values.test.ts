// A refusal in Arabic that names an amount with its unit keeps them together: the server sets "10 USDT" between
// LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE (with a no-break space, so a line break never parts them), so the
// right-to-left text around it cannot lay it out as "USDT 10" wherever the app shows the text as it came (a toast).
// English carries no direction character. What a customer types is still refused with one.
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOption } from '../../src/api-contract/options.ts';
import { setAntiPhishing } from '../../src/api-contract/anti-phishing.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { Period } from '../../src/api-contract/period-text.ts';
import { translator } from '../../src/server/i18n.ts';
import { startHarness, type Harness } from './harness.ts';
import { btcOptionWithMinimum, customer, refused } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const LRI = '\u2066';
const PDI = '\u2069';
/** Between an amount and its unit in Arabic: one line, never parted by a line break. */
const NBSP = '\u00a0';
/** Characters that change the direction of text without being seen (marks, embeddings, overrides, isolates). */
const DIRECTION_CHARACTERS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/;

describe('a refusal that names an amount with its unit', () => {
  it('sets "10 USDT" in a left-to-right isolate in Arabic, and is plain in English', async () => {
    const user = await customer(h, '100');
    const product = await btcOptionWithMinimum(h, '10');
    const order = { code: 'BTC', direction: 'up', amount: '5', product_id: String(product.id) };

    const arabic = await h.call(placeOption, order, { token: user.token, lang: 'ar' });
    expect(arabic).toEqual(refused(`الحد الأدنى لمبلغ الشراء هو: ${LRI}10${NBSP}USDT${PDI}!`));
    const english = await h.call(placeOption, order, { token: user.token });
    expect(english).toEqual(refused('The minimum purchase amount is: 10 USDT!'));
    expect(english.msg).not.toMatch(DIRECTION_CHARACTERS);
  });

  it('keeps an amount and its asset, a percent and a pair together; a lone number and Arabic values as they are', () => {
    const ar = translator('ar');
    expect(ar(texts.minimumAmount, { 0: new Big('1000'), 1: 'USDT' })).toBe(
      `الحد الأدنى للمبلغ هو: ${LRI}1,000${NBSP}USDT${PDI}!`,
    );
    expect(ar(texts.priceOutsideBand, { 0: '5' })).toBe(`السعر يبتعد عن سعر السوق بأكثر من ${LRI}5%${PDI}!`);
    expect(ar(texts.quickRedeemLimit, { 0: new Big('30000'), 1: new Big('2500.5') })).toBe(
      `الاسترداد السريع محدود بـ ${LRI}30,000${NBSP}USDT${PDI} يوميًا؛ المتبقي اليوم ${LRI}2,500.5${NBSP}USDT${PDI}. يرجى اختيار الاسترداد العادي للمزيد!`,
    );
    // Left-to-right words set alone (the assets still held) are one isolate; a number alone needs none.
    expect(ar(serverTexts.closeBalanceLeft, { 0: 'BTC, ETH' })).toContain(`بـ ${LRI}BTC, ETH${PDI}.`);
    expect(ar(texts.minimumPoints, { 0: new Big('100') })).toBe('يجب استبدال 100 نقطة على الأقل في كل مرة!');
    // A value in the reader's language (a period) reads right to left as it is.
    expect(ar(serverTexts.codeTooSoon, { 0: new Period(10_000) })).toBe('يُرجى الانتظار 10 ثوان قبل طلب رمز آخر!');
    // Every other language: the same texts without a direction character.
    for (const locale of ['en', 'zh', 'jp', 'th', 'hi'] as const)
      expect(translator(locale)(texts.minimumAmount, { 0: new Big('1000'), 1: 'USDT' })).not.toMatch(
        DIRECTION_CHARACTERS,
      );
  });

  it('still refuses a typed text with an isolate in it (input is checked apart from output)', async () => {
    const user = await customer(h);
    expect(await h.call(setAntiPhishing, { phrase: `${LRI}10 USDT${PDI}` }, { token: user.token, lang: 'ar' })).toEqual(
      refused('يُرجى إزالة الأحرف غير المرئية أو الأحرف التي تغيّر اتجاه النص!'),
    );
  });
});
