// The `lang` header as the server reads it: by the tag's language subtag (BCP 47), Japanese by `ja` as well as the
// product's own `jp`, Thai for anything else.
import { expect, it } from 'vitest';
import { requestLocale } from '../../src/server/i18n.ts';

it.each([
  ['en', 'en'],
  ['EN', 'en'],
  ['th-TH', 'th'],
  ['zh', 'zh'],
  ['zh-TW', 'zh'],
  ['zh_CN', 'zh'],
  ['hi-IN', 'hi'],
  ['ar-EG', 'ar'],
  ['jp', 'jp'],
  ['ja', 'jp'],
  ['ja-JP', 'jp'],
  ['JA_jp', 'jp'],
  ['fr-FR', 'th'],
  ['', 'th'],
  [undefined, 'th'],
])('%s is read as %s', (header, locale) => {
  expect(requestLocale(header)).toBe(locale);
});
