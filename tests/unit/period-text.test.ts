// A period of time said in the reader's words: the cooling-off of a new payee ("withdrawals to it are possible 24 hours
// after it was added") in every language, with the language's own unit name and plural form.
import { describe, expect, it } from 'vitest';
import { Period, periodText } from '../../src/api-contract/period-text.ts';
import { amountOutsideLimits } from '../../src/api-contract/amount-limits.ts';
import { writtenValues } from '../../src/api-contract/decimal-values.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { translator } from '../../src/server/i18n.ts';

const HOUR = 3_600_000;

describe('periodText', () => {
  it('says one hour as one, not "1 hours", and a fraction of hours to two decimals', () => {
    expect(periodText(HOUR, 'en')).toBe('1 hour');
    expect(periodText(24 * HOUR, 'en')).toBe('24 hours');
    expect(periodText(1.5 * HOUR, 'en')).toBe('1.5 hours');
    expect(periodText(2 * HOUR, 'en')).toBe('2 hours');
  });

  it('says a wait under a minute in whole seconds, not as "1 minute", and never says less than the real wait', () => {
    expect(periodText(30_000, 'en')).toBe('30 seconds');
    expect(periodText(9_001, 'en')).toBe('10 seconds');
    expect(periodText(1_000, 'en')).toBe('1 second');
    expect(periodText(59_001, 'en')).toBe('60 seconds');
    expect(periodText(0, 'en')).toBe('1 second');
  });

  it('says a wait under an hour in whole minutes, and never says less than the real wait', () => {
    expect(periodText(60_000, 'en')).toBe('1 minute');
    expect(periodText(60_001, 'en')).toBe('2 minutes');
    expect(periodText(30 * 60_000, 'en')).toBe('30 minutes');
    expect(periodText(59 * 60_000 + 1, 'en')).toBe('60 minutes');
    expect(periodText(1.001 * HOUR, 'en')).toBe('1.01 hours');
  });

  it('in each of the six languages, with its own unit and plural forms and ASCII digits', () => {
    expect(periodText(24 * HOUR, 'zh')).toBe('24小时');
    expect(periodText(24 * HOUR, 'ja')).toBe('24 時間');
    expect(periodText(24 * HOUR, 'th')).toBe('24 ชั่วโมง');
    expect(periodText(24 * HOUR, 'hi')).toBe('24 घंटे');
    expect(periodText(HOUR, 'hi')).toBe('1 घंटा');
    // Arabic has a form for one, for two, for three to ten and for eleven and more.
    expect(periodText(HOUR, 'ar')).toBe('ساعة');
    expect(periodText(2 * HOUR, 'ar')).toBe('ساعتان');
    expect(periodText(3 * HOUR, 'ar')).toBe('3 ساعات');
    expect(periodText(24 * HOUR, 'ar')).toBe('24 ساعة');
  });

  it('says seconds in each of the six languages, with their plural forms', () => {
    expect(periodText(30_000, 'zh')).toBe('30秒钟');
    expect(periodText(30_000, 'ja')).toBe('30 秒');
    expect(periodText(30_000, 'th')).toBe('30 วินาที');
    expect(periodText(30_000, 'hi')).toBe('30 सेकंड');
    expect(periodText(1_000, 'ar')).toBe('ثانية');
    expect(periodText(2_000, 'ar')).toBe('ثانيتان');
    expect(periodText(3_000, 'ar')).toBe('3 ثوان');
    expect(periodText(30_000, 'ar')).toBe('30 ثانية');
  });
});

describe('a Period as a value of a text', () => {
  it('is written by the server’s translator in the reader’s words, with other values in the same pass', () => {
    const wait = serverTexts.tooManyAttemptsWait;
    expect(translator('en')(wait, { 0: new Period(HOUR) })).toBe('Too many attempts, please try again in 1 hour!');
    expect(translator('ar')(wait, { 0: new Period(2 * HOUR) })).toContain('ساعتان');
    expect(translator('zh')(wait, { 0: new Period(30 * 60_000) })).toContain('30分钟');
    expect(translator('en')(wait, { 0: new Period(30_000) })).toBe(
      'Too many attempts, please try again in 30 seconds!',
    );
    expect(translator('th')(wait, { 0: new Period(30_000) })).toBe('ลองหลายครั้งเกินไป กรุณาลองใหม่อีกครั้งในอีก 30 วินาที');
    const limit = amountOutsideLimits('1', { min: '1000000' }, 'USDT')!;
    expect(translator('hi')(limit.id, limit.values)).toContain('10,00,000 USDT');
  });

  it('leaves the values object as it is when nothing in it is written', () => {
    const plain = { 0: 'a', 1: 5 };
    expect(writtenValues(plain, (value) => value)).toBe(plain);
    expect(writtenValues(plain, (value) => (value === 5 ? 'five' : value))).toEqual({ 0: 'a', 1: 'five' });
    expect(plain).toEqual({ 0: 'a', 1: 5 });
  });
});
