// Every text of the app exists in all six catalogs with a real translation (not left empty,
// placeholders intact), so no screen shows an id or falls back to English unnoticed.
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';

import { readCatalog as read } from './catalog-files.ts';

const english = read('en');
// An argument's name is followed by , or }: the first word of a plural branch ("{the next day}") is text. Each name
// once: a plural repeats a value in each of its forms, and languages have different numbers of forms (Arabic six,
// Chinese one).
const placeholders = (text = '') =>
  [...new Set([...text.matchAll(/\{(\w+)(?=\s*[,}])/g)].map((match) => match[1]))].sort();

describe.each(LOCALES.filter((locale) => locale !== 'en'))('the %s catalog', (locale) => {
  const catalog = read(locale);

  it('has every message of the English catalog, each translated', () => {
    const missing = Object.keys(english).filter((id) => !catalog[id]?.translation);
    expect(missing).toEqual([]);
  });

  it('keeps every placeholder of the English text', () => {
    const broken = Object.entries(english).filter(
      ([id, entry]) =>
        placeholders(entry.translation || entry.message || id).join() !== placeholders(catalog[id]?.translation).join(),
    );
    expect(broken.map(([id]) => id)).toEqual([]);
  });
});

it('the English catalog holds every text of the API contract', () => {
  const missing = Object.values(texts).filter((text) => english[text.id]?.translation !== text.message);
  expect(missing.map((text) => text.id)).toEqual([]);
});

it('"Redeem" of a liquidity product reads as taking money back, not as the points exchange it once shared a text with', () => {
  const redeem = (locale: string, context: string | null = null) =>
    Object.values(
      read(locale) as Record<string, { message?: string; translation?: string; context?: string | null }>,
    ).find((entry) => entry.message === 'Redeem' && entry.context === context)?.translation;
  expect([redeem('zh'), redeem('jp'), redeem('ar'), redeem('th')]).toEqual(['赎回', '償還', 'استرداد', 'ไถ่ถอน']);
  expect([redeem('zh', 'points'), redeem('th', 'points')]).toEqual(['兑换', 'แลก']);
});

it('names the app and a QR code in the words the rest of its language uses, not in English', () => {
  // Hindi writes ऐप, Chinese 应用 and Thai คิวอาร์โค้ด everywhere else; a placeholder such as {app} is no word.
  const englishWords = { hi: /\bapp\b/i, zh: /\bapp\b/i, th: /\bQR code\b/i };
  const left = Object.entries(englishWords).flatMap(([locale, word]) =>
    Object.values(read(locale))
      .map((entry) => entry.translation?.replace(/\{\w+\}/g, '') ?? '')
      .filter((translation) => word.test(translation))
      .map((translation) => `${locale}: ${translation}`),
  );
  expect(left).toEqual([]);
});

it('Hindi writes a number of a lakh or more in lakhs, as the app formats every number in Hindi', () => {
  // Intl's Hindi groups 1000000 as 10,00,000; a text writing 1,000,000 would sit beside amounts written the other way.
  const western = /\d,\d{3},\d{3}|\b\d{3},\d{3}\b/;
  const left = Object.values(read('hi'))
    .map((entry) => entry.translation ?? '')
    .filter((translation) => western.test(translation));
  expect(left).toEqual([]);
});
