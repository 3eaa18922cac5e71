// The `lang` header picks the catalog msg is translated from: zh-* → zh, unknown → th.
// Texts without a translation yet fall back to the English of texts.ts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatter } from '@lingui/format-po';
import { startHarness, type Harness } from './harness.ts';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { texts } from '../../src/api-contract/texts.ts';
import type { MessageDescriptor } from '@lingui/core';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The catalog's translation of `text` for `locale`, or undefined while it is untranslated. */
function translationOf(locale: string, text: MessageDescriptor): string | undefined {
  const content = readFileSync(new URL(`../../src/locales/${locale}/messages.po`, import.meta.url), 'utf8');
  const catalog = formatter().parse(content, { locale, sourceLocale: 'en', filename: `${locale}.po` }) as Record<
    string,
    { translation?: string }
  >;
  return catalog[text.id]?.translation || undefined;
}
/** What a user of `locale` should read: the translation once there is one, else English. */
const expected = (locale: string, text: MessageDescriptor) => translationOf(locale, text) ?? text.message;

const missingPassword = (lang?: string) => h.call(login, { username: 'someone' }, { lang });

it.each([
  ['zh-CN', 'zh'],
  ['zh-TW', 'zh'],
  ['th', 'th'],
  ['th-TH', 'th'],
  ['en', 'en'],
  ['ja', 'jp'],
  ['xx-unknown', 'th'],
])('lang %s answers from the %s catalog', async (lang, locale) => {
  expect(await missingPassword(lang)).toEqual({
    ret: 0,
    msg: expected(locale, texts.enterUsernameAndPassword),
    data: null,
    field: 'password',
  });
});

it('a request without a lang header answers from the Thai catalog (the fallback locale)', async () => {
  const response = await h.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'someone' } });
  expect(response.json()).toEqual({
    ret: 0,
    msg: expected('th', texts.enterUsernameAndPassword),
    data: null,
    field: 'password',
  });
});

it('the expired-login and not-found answers are translated too', async () => {
  expect((await h.call(userInfo, {}, { token: 'nope', lang: 'zh-CN' })).msg).toBe(expected('zh', texts.tokenInvalid));
  const notFound = await h.app.inject({ method: 'GET', url: '/api/no/such/call', headers: { lang: 'th' } });
  expect(notFound.json().msg).toBe(expected('th', texts.http404));
});

it('an untranslated text answers in English, never as its id', async () => {
  const res = await missingPassword('ar');
  expect(res.msg).not.toMatch(/^v\./);
  expect(res.msg).toBe(expected('ar', texts.enterUsernameAndPassword));
});

const zhTranslated = translationOf('zh', texts.enterUsernameAndPassword) !== undefined;
it.skipIf(!zhTranslated)(
  'lang zh answers "Please enter your username and password first!" in Chinese, not English',
  async () => {
    const res = await missingPassword('zh');
    expect(res.msg).not.toBe(texts.enterUsernameAndPassword.message);
    expect(res.msg).toBe(translationOf('zh', texts.enterUsernameAndPassword));
  },
);

const thTranslated = translationOf('th', texts.enterUsernameAndPassword) !== undefined;
it.skipIf(!thTranslated)(
  'lang th answers "Please enter your username and password first!" in Thai, not English',
  async () => {
    const res = await missingPassword('th');
    expect(res.msg).not.toBe(texts.enterUsernameAndPassword.message);
    expect(res.msg).toBe(translationOf('th', texts.enterUsernameAndPassword));
  },
);
