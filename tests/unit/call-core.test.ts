// The wire format both the app and the console speak (lib/call-core.ts): the envelope rule, form
// fields, the Idempotency-Key of a write, UUID v4 keys without crypto.randomUUID, the language.
import { describe, expect, it } from 'vitest';
import {
  callHeaders,
  formFields,
  needsIdempotencyKey,
  newUuid,
  readEnvelope,
  requestLanguage,
} from '../../src/lib/call-core.ts';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { acceptedLanguages, pickLanguage } from '../../src/api-contract/language-pick.ts';

describe('readEnvelope', () => {
  it('gives the data of ret 1, for a GET and a POST', () => {
    expect(readEnvelope('GET', { ret: 1, msg: 'ok', data: { a: '1.50' } })).toEqual({ ok: true, data: { a: '1.50' } });
    expect(readEnvelope('POST', { ret: 1, msg: '', data: null })).toEqual({ ok: true, data: null });
  });

  it('fails on ret 0 with the server msg', () => {
    expect(readEnvelope('GET', { ret: 0, msg: 'No such coin', data: null })).toEqual({
      ok: false,
      ret: 0,
      msg: 'No such coin',
      sessionEnded: false,
    });
    expect(readEnvelope('POST', { ret: 0, msg: 'Too little', data: null })).toEqual({
      ok: false,
      ret: 0,
      msg: 'Too little',
      sessionEnded: false,
    });
  });

  it('ends the session on ret -1, for a GET and a POST', () => {
    for (const method of ['GET', 'POST'] as const) {
      expect(readEnvelope(method, { ret: -1, msg: 'Signed in elsewhere', data: null })).toEqual({
        ok: false,
        ret: -1,
        msg: 'Signed in elsewhere',
        sessionEnded: true,
      });
    }
  });

  it('fails a GET on any other ret, and lets a POST through', () => {
    expect(readEnvelope('GET', { ret: 2, msg: 'odd', data: {} })).toEqual({
      ok: false,
      ret: 2,
      msg: 'odd',
      sessionEnded: false,
    });
    expect(readEnvelope('POST', { ret: 2, msg: 'odd', data: { token: 't' } })).toEqual({
      ok: true,
      data: { token: 't' },
    });
  });

  it('leaves the msg empty when the server sent none (the caller picks the text)', () => {
    expect(readEnvelope('POST', { ret: 0, data: null })).toEqual({ ok: false, ret: 0, msg: '', sessionEnded: false });
  });

  it.each([null, undefined, 'text', 42, { hello: 'world' }])(
    'an answer that is no envelope (%j) fails without a ret',
    (answer) => {
      expect(readEnvelope('GET', answer)).toEqual({ ok: false, ret: undefined, msg: '', sessionEnded: false });
    },
  );
});

describe('formFields', () => {
  it('drops undefined fields and keeps empty strings', () => {
    expect(formFields({ a: 'x', b: undefined, c: '' })).toEqual({ a: 'x', c: '' });
  });

  it('writes numbers as text and keeps decimal strings exactly as written', () => {
    expect(formFields({ page: 2, amount: '0.10000000', big: '123456789012345678.123456789' })).toEqual({
      page: '2',
      amount: '0.10000000',
      big: '123456789012345678.123456789',
    });
  });

  it('takes no input as no fields', () => {
    expect(formFields(undefined)).toEqual({});
  });

  it('encodes as a form body with reserved characters escaped', () => {
    expect(String(new URLSearchParams(formFields({ password: 'pa ss&=1', note: undefined })))).toBe(
      'password=pa+ss%26%3D1',
    );
  });
});

describe('callHeaders', () => {
  it('asks for JSON in the lang header of the locale, with the token when there is one', () => {
    expect(callHeaders('zh-TW', 'tok')).toEqual({ accept: 'application/json', lang: 'zh', token: 'tok' });
    expect(callHeaders('th', null)).toEqual({ accept: 'application/json', lang: 'th' });
  });
});

describe('needsIdempotencyKey', () => {
  it('is true for every write, whatever its method, and false for a read', () => {
    expect(needsIdempotencyKey({ readOnly: false })).toBe(true);
    expect(needsIdempotencyKey({ readOnly: true })).toBe(false);
  });
});

describe('newUuid without crypto.randomUUID (plain http on a LAN host)', () => {
  it('makes distinct random UUID v4 values', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 500 }, () => newUuid()));
      expect(keys.size).toBe(500);
      for (const key of keys)
        expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});

describe('pickLanguage', () => {
  const CONSOLE = ['en', 'zh', 'th'] as const;

  it('keeps a stored choice it knows, and ignores one it does not', () => {
    expect(pickLanguage(LOCALES, 'th', 'ar', ['en-US'])).toBe('ar');
    expect(pickLanguage(CONSOLE, 'en', 'zh', ['th-TH'])).toBe('zh');
    expect(pickLanguage(CONSOLE, 'en', 'ar', ['th-TH'])).toBe('th');
    expect(pickLanguage(CONSOLE, 'en', null, [])).toBe('en');
  });

  it("takes the browser's first language it knows, by base tag in any case", () => {
    expect(pickLanguage(LOCALES, 'th', null, ['de-DE', 'ZH-Hant-TW', 'en'])).toBe('zh');
    expect(pickLanguage(CONSOLE, 'en', null, ['fr', 'TH'])).toBe('th');
  });

  it("reads the browser's ja as the app's jp, and passes it by where jp is not offered", () => {
    expect(pickLanguage(LOCALES, 'th', null, ['ja-JP'])).toBe('jp');
    expect(pickLanguage(CONSOLE, 'en', null, ['ja-JP', 'zh-CN'])).toBe('zh');
  });

  it('falls back when nothing matches', () => {
    expect(pickLanguage(LOCALES, 'th', null, ['de'])).toBe('th');
    expect(pickLanguage(CONSOLE, 'en', 'xx', ['de'])).toBe('en');
  });
});

describe('requestLanguage', () => {
  it('is zh for any Chinese locale and the locale itself otherwise', () => {
    expect(requestLanguage('zh-TW')).toBe('zh');
    expect(requestLanguage('ZH')).toBe('zh');
    expect(requestLanguage('th')).toBe('th');
    expect(requestLanguage('jp')).toBe('jp');
  });
});

describe('acceptedLanguages', () => {
  it('reads an Accept-Language header as the browser lists its languages: most wanted first', () => {
    expect(acceptedLanguages('zh-CN,zh;q=0.9,en;q=0.8')).toEqual(['zh-CN', 'zh', 'en']);
    expect(acceptedLanguages('en;q=0.5, th-TH, ar;q=0.7')).toEqual(['th-TH', 'ar', 'en']);
    expect(pickLanguage(LOCALES, 'th', null, acceptedLanguages('de-DE, ja;q=0.8, en;q=0.5'))).toBe('jp');
  });

  it('leaves out what the browser does not want, and reads nothing from an empty or missing header', () => {
    expect(acceptedLanguages('en;q=0, ar, *;q=0.1')).toEqual(['ar']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    // A weight that does not read as a number weighs nothing.
    expect(acceptedLanguages('en;q=abc, th')).toEqual(['th']);
  });
});
