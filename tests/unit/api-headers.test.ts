// @vitest-environment jsdom
// The wire format: token and language headers, form-encoded POST bodies, GET query strings,
// and the Idempotency-Key on writes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { api, newIdempotencyKey } from '../../src/lib/api.ts';
import { login, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { IDEMPOTENCY_HEADER, LANG_HEADER, TOKEN_HEADER } from '../../src/api-contract/envelope.ts';
import { session } from '../../src/lib/session.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

beforeEach(resetClientState);
afterEach(() => {
  resetClientState();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

describe('token header', () => {
  it('is sent when session.token is set', async () => {
    session.token = 'tok-123';
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(userInfo);
    expect(TOKEN_HEADER).toBe('token');
    expect(calls[0].request.headers.get('token')).toBe('tok-123');
  });

  it('is absent without a session', async () => {
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(config, { act: 'system' });
    expect(calls[0].request.headers.has('token')).toBe(false);
  });
});

describe('lang header', () => {
  it('carries the app locale', async () => {
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(config, { act: 'system' });
    expect(LANG_HEADER).toBe('lang');
    expect(calls[0].request.headers.get('lang')).toBe('en');
  });

  it("is 'zh' when the app is in Chinese", async () => {
    i18n.loadAndActivate({ locale: 'zh', messages: {} });
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(config, { act: 'system' });
    expect(calls[0].request.headers.get('lang')).toBe('zh');
  });

  it("is 'jp' for Japanese (the app's own code)", async () => {
    i18n.loadAndActivate({ locale: 'jp', messages: {} });
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(config, { act: 'system' });
    expect(calls[0].request.headers.get('lang')).toBe('jp');
  });
});

describe('Idempotency-Key', () => {
  it('is carried by a POST', async () => {
    const { calls } = stubFetch(envelope(1, '', { token: 't' }));
    await api(login, { username: 'customer1', password: 'secret1' });
    expect(IDEMPOTENCY_HEADER.toLowerCase()).toBe('idempotency-key');
    const key = calls[0].request.headers.get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/i);
  });

  it('is not carried by a GET', async () => {
    const { calls } = stubFetch(envelope(1, '', {}));
    await api(config, { act: 'system' });
    expect(calls[0].request.headers.has('Idempotency-Key')).toBe(false);
  });
});

describe('bodies and query strings', () => {
  it('a POST sends a form-encoded body with the fields', async () => {
    const { calls } = stubFetch(envelope(1, '', { token: 't' }));
    await api(login, { username: 'customer1', password: 'pa ss&=1' });
    const { request, body } = calls[0];
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    const fields = new URLSearchParams(body);
    expect(fields.get('username')).toBe('customer1');
    expect(fields.get('password')).toBe('pa ss&=1');
    expect([...fields.keys()].sort()).toEqual(['password', 'username']);
    expect(new URL(request.url).search).toBe('');
  });

  it('a POST goes to the api prefix plus the path', async () => {
    const { calls } = stubFetch(envelope(1, '', { token: 't' }));
    await api(login, { username: 'customer1', password: 'secret1' });
    expect(new URL(calls[0].request.url).pathname).toBe('/api/users/login');
  });

  it('a GET sends its input as the query string and has no body', async () => {
    const { calls } = stubFetch(envelope(1, '', { resend_in: 60 }));
    await api(sendSmsCode, { userphone: '0812345678', must: '1' });
    const { request, body } = calls[0];
    expect(request.method).toBe('GET');
    const url = new URL(request.url);
    expect(url.pathname).toBe('/api/users/sms');
    expect(url.searchParams.get('userphone')).toBe('0812345678');
    expect(url.searchParams.get('must')).toBe('1');
    expect(body).toBe('');
  });

  it('leaves undefined fields out of the query string', async () => {
    const { calls } = stubFetch(envelope(1, '', { resend_in: 60 }));
    await api(sendSmsCode, { userphone: '0812345678', must: undefined });
    const url = new URL(calls[0].request.url);
    expect(url.searchParams.has('must')).toBe(false);
    expect(url.searchParams.get('userphone')).toBe('0812345678');
  });
});

describe('newIdempotencyKey outside a secure context (plain http on a LAN host: no crypto.randomUUID)', () => {
  it('still makes distinct random UUID v4 keys', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(200);
      for (const key of keys)
        expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
