// What people of the six languages type or paste into number fields, read as the wire's ASCII decimal: every digit
// system, the languages' grouping and decimal marks, spaces, and refusals of what reads two ways.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import { i18n } from '@lingui/core';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { formatAmount, formatMoney } from '../../src/lib/format.ts';
import { intlLocale } from '../../src/lib/locale-pick.ts';
import { loadNumberParser, readAmount, readOrKeep } from '../../src/lib/typed-amount.ts';
import { asciiDigits, typedDigits } from '../../src/api-contract/typed-digits.ts';

afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const SYSTEMS = ['latn', 'arab', 'arabext', 'deva', 'thai', 'fullwide'] as const;
/** `value` as the browser writes it in `system`'s digits and `locale`'s marks (grouped unless told). */
const written = (locale: string, system: string, value: number, useGrouping = true) =>
  new Intl.NumberFormat(`${locale}-u-nu-${system}`, { useGrouping, maximumFractionDigits: 8 }).format(value);

const read = (typed: string, locale: string, decimals?: number) => readAmount(typed, locale, decimals);

describe('before the locale-aware parser has loaded (a field loads it when focused)', () => {
  it('refuses what the parser would read otherwise, and reads the rest alike', () => {
    expect(readAmount('١.٥', 'ar')).toMatchObject({ ok: false, problem: 'ambiguous' });
    expect(readAmount('١٬٥٠٠', 'ar')).toEqual({ ok: true, value: '1500' });
    expect(readAmount('1,000.5', 'en')).toEqual({ ok: true, value: '1000.5' });
  });
});

describe.each(LOCALES.map((locale) => [locale, intlLocale(locale)]))('in %s', (_, locale) => {
  beforeAll(() => loadNumberParser());

  it.each(SYSTEMS)('reads %s digits, grouped and not', (system) => {
    const grouped = written(locale, system, 1234567.25);
    expect(read(grouped, locale), grouped).toEqual({ ok: true, value: '1234567.25' });
    const plain = written(locale, system, 150, false);
    expect(read(plain, locale), plain).toEqual({ ok: true, value: '150' });
  });

  it.each([
    ['10,000', '10000'],
    ['1,000.50', '1000.50'],
    ['1,00,000', '100000'],
    ['12,34,567.5', '1234567.5'],
    ['1,234,567', '1234567'],
    ['١٥٠', '150'],
    ['1٫5', '1.5'],
    ['١٫٥', '1.5'],
    ['١٬٠٠٠٫٥', '1000.5'],
    ['۱۵۰٫۲۵', '150.25'],
    ['१,००,०००', '100000'],
    ['๑,๐๐๐.๕๐', '1000.50'],
    ['１，０００．５', '1000.5'],
    ['10\u00a0000', '10000'],
    ['10\u202f000.5', '10000.5'],
    ['10\u2009000', '10000'],
    ['10 000', '10000'],
    ['  42  ', '42'],
    ['\u200f١٠٬٠٠٠٫٠٠\u200f', '10000.00'],
    ['.5', '0.5'],
    ['007.50', '7.50'],
    ['0', '0'],
    ['', ''],
    ['123456789012345678.12345678', '123456789012345678.12345678'],
    ['0.00000001', '0.00000001'],
  ])('reads %j as %s, every digit kept', (typed, value) => {
    expect(read(typed, locale)).toEqual({ ok: true, value });
  });

  it.each([
    ['1,5', true],
    ['1,50', true],
    ['1,', true],
    ['1.000.000,5', false],
    ['1.000,50', false],
    ['1.000.000', false],
    ['1,0000', false],
    ['0,500', false],
    ['1,000 000', false],
    ['1,5.5', false],
    ['١,٥', false],
    ['١.٥', false],
    ['١٬٥', true],
    ['1،5', false],
  ])('refuses %j as read two ways, never guessed (typing on could mend it: %s)', (typed, unfinished) => {
    expect(read(typed, locale)).toMatchObject({ ok: false, problem: 'ambiguous', unfinished });
  });

  it.each([
    ['abc', false],
    ['-5', false],
    ['+5', false],
    ['1e5', false],
    ['1٥', false],
    ['.', true],
    ['٫', true],
    ['12.5.3', false],
  ])('refuses %j as no number', (typed, unfinished) => {
    expect(read(typed, locale)).toMatchObject({ ok: false, problem: 'notNumber', unfinished });
  });

  it('keeps partial input readable while it is typed key by key', () => {
    expect(read('1.', locale)).toEqual({ ok: true, value: '1' });
    expect(read('١٫', locale)).toEqual({ ok: true, value: '1' });
    const steps = ['1', '1,', '1,0', '1,00', '1,000', '1,000.', '1,000.5'];
    expect(steps.map((typed) => read(typed, locale).ok)).toEqual([true, false, false, false, true, true, true]);
    expect(steps.slice(1, 4).map((typed) => read(typed, locale))).toEqual(
      steps.slice(1, 4).map(() => expect.objectContaining({ unfinished: true })),
    );
  });

  it('refuses an invisible or direction-changing character: the field would show one number and mean another', () => {
    // A right-to-left override before "0051" shows "1500"; stripped, it would have been read as 51.
    for (const typed of ['\u202E0051', '1\u200B000', '١\u200F٢٣', '\u206612 3\u2069', '5\u061C0', '\u202B5\u202C'])
      expect(read(typed, locale), JSON.stringify(typed)).toEqual({
        ok: false,
        problem: 'hidden',
        unfinished: false,
        system: 'latn',
      });
    // Marks around the number, as copied from Arabic text, reorder nothing: read past.
    expect(read('\u200F١٢٣\u200F', locale)).toEqual({ ok: true, value: '123' });
    expect(read('\u061C5 ', locale)).toEqual({ ok: true, value: '5' });
  });

  it('refuses more decimals than the field takes', () => {
    expect(read('0.123456789', locale)).toMatchObject({ ok: false, problem: 'decimals', unfinished: false });
    expect(read('1.234', locale, 2)).toMatchObject({ ok: false, problem: 'decimals' });
    expect(read('1.23', locale, 2)).toEqual({ ok: true, value: '1.23' });
  });
});

describe.each(LOCALES)('what the app itself writes, pasted back, in %s', (locale) => {
  it.each(['10000.00', '1000.5', '100000', '0.00012345', '123456789012.12345678'])('keeps %s', (value) => {
    i18n.loadAndActivate({ locale, messages: {} });
    // The withdraw page's "Available 10,000.00": the figure as the app's own formatter writes it.
    const decimals = value.split('.')[1]?.length ?? 0;
    for (const shown of [formatAmount(value, decimals), formatMoney(value)]) {
      const reading = readAmount(shown, intlLocale(locale));
      expect(reading, shown).toMatchObject({ ok: true });
      if (reading.ok) expect(new Big(reading.value).eq(value), `${shown} → ${reading.value}`).toBe(true);
    }
  });
});

describe('digit-only fields (payment password, codes, points)', () => {
  it.each([
    ['١٢٣٤٥٦', '123456'],
    ['۱۲۳۴۵۶', '123456'],
    ['१२३४५६', '123456'],
    ['๑๒๓๔๕๖', '123456'],
    ['１２３４５６', '123456'],
    ['123456', '123456'],
    ['123 456', '123456'],
  ])('reads %j as %s', (typed, digits) => {
    expect(typedDigits(typed)).toBe(digits);
    expect(typedDigits(typed, 4)).toBe(digits.slice(0, 4));
  });

  it('writes digits in ASCII and keeps every other character where it was', () => {
    expect(asciiDigits('١٢a٣-๔')).toBe('12a3-4');
    expect(asciiDigits('ab')).toBe('ab');
  });
});

describe('readOrKeep (forms the server checks: the console)', () => {
  it('sends the plain decimal, or the text for the server to refuse', () => {
    expect(readOrKeep('๑,๐๐๐.๕', 'th')).toBe('1000.5');
    expect(readOrKeep('1,5', 'en')).toBe('1,5');
    expect(readOrKeep('unlimited', 'zh')).toBe('unlimited');
  });
});
