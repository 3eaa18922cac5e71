// @vitest-environment jsdom
// The diagnostics page's list of the last 50 calls, recorded by api(): method, contract
// path, HTTP status and ret, attempts, duration, served from cache — never a token, body or query.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshot, subscribe } from 'valtio/vanilla';
import { api } from '../../src/lib/api.ts';
import { CALL_LOG_SIZE, callLog } from '../../src/lib/call-log.ts';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { coinRate } from '../../src/api-contract/markets.ts';
import { SERVED_FROM_CACHE_HEADER } from '../../src/api-contract/offline-cache.ts';
import { session } from '../../src/lib/session.ts';
import { envelope, httpError, resetClientState, stubFetch } from './helpers.ts';

const clean = () => {
  resetClientState();
  callLog.calls = [];
};
beforeEach(clean);
afterEach(clean);

const ok = () => envelope(1, '', { token: 'answer-token-7788' });

describe('the call log', () => {
  it('keeps only the last 50 calls, newest last', async () => {
    stubFetch(ok());
    for (let i = 0; i < 5; i++) await api(userInfo);
    for (let i = 0; i < CALL_LOG_SIZE; i++) await api(config, { act: 'system' });
    expect(CALL_LOG_SIZE).toBe(50);
    expect(callLog.calls).toHaveLength(50);
    expect(callLog.calls.every((call) => call.path === '/other/config')).toBe(true);

    await api(userInfo);
    expect(callLog.calls).toHaveLength(50);
    expect(callLog.calls.at(-1)!.path).toBe('/users/info');
    expect(callLog.calls.filter((call) => call.path === '/users/info')).toHaveLength(1);
  });

  it('tells its reader of each new call, and a list read before stays as it was', async () => {
    stubFetch(ok());
    await api(userInfo);
    const before = snapshot(callLog).calls;
    let told = 0;
    const stop = subscribe(callLog, () => (told += 1));
    await api(config, { act: 'system' });
    await Promise.resolve(); // valtio tells its subscribers in a microtask
    stop();
    expect(told).toBe(1);
    expect(before.map((call) => call.path)).toEqual(['/users/info']);
    expect(snapshot(callLog).calls.map((call) => call.path)).toEqual(['/users/info', '/other/config']);
  });

  it('records method, path, HTTP status, ret, attempts and duration of an answered call', async () => {
    stubFetch(ok());
    const before = Date.now();
    await api(config, { act: 'system' });
    const [call] = callLog.calls;
    expect(call).toMatchObject({
      method: 'GET',
      path: '/other/config',
      status: 200,
      ret: 1,
      attempts: 1,
      storedAt: null,
    });
    expect(call!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(call!.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('counts the attempts of a retried call and keeps the status it ended with', async () => {
    stubFetch(httpError(502), httpError(502), ok());
    await api(config, { act: 'system' });
    expect(callLog.calls[0]).toMatchObject({ status: 200, ret: 1, attempts: 3 });
  });

  it('records a refused write with its ret, and a call that gave up after five 500s', async () => {
    stubFetch(envelope(0, 'Wrong password'));
    await api(login, { username: 'customer1', password: 'secret1' }).catch(() => undefined);
    expect(callLog.calls[0]).toMatchObject({ method: 'POST', path: '/users/login', status: 200, ret: 0, attempts: 1 });

    stubFetch(httpError(500));
    await api(config, { act: 'system' }).catch(() => undefined);
    expect(callLog.calls[1]).toMatchObject({ status: 500, ret: null, attempts: 5 });
  });

  it('records a call without any answer (network down) with no status', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await api(config, { act: 'system' }).catch(() => undefined);
    expect(callLog.calls[0]).toMatchObject({ status: null, ret: null, attempts: 5, storedAt: null });
  });

  it('records when an answer the service worker gave from its cache was stored', async () => {
    const storedAt = '2026-11-23T08:15:00.000Z';
    stubFetch(
      new Response(JSON.stringify({ ret: 1, msg: '', data: {} }), {
        headers: { 'content-type': 'application/json', [SERVED_FROM_CACHE_HEADER]: storedAt },
      }),
    );
    await api(config, { act: 'system' });
    expect(callLog.calls[0]!.storedAt).toBe(storedAt);
  });

  it('never holds a token, a body, a query value or an answer', async () => {
    session.token = 'session-token-4242';
    const { calls } = stubFetch(ok());
    await api(login, { username: 'customer1-secret-name', password: 'secret-password-1' });
    await api(coinRate, { code: 'QRYVALUE' });
    await api(userInfo);
    // The requests did carry them: the log must not.
    expect(calls[0]!.body).toContain('secret-password-1');
    expect(calls[1]!.request.url).toContain('code=QRYVALUE');
    const logged = JSON.stringify(callLog.calls);
    for (const secret of [
      'session-token-4242',
      'customer1-secret-name',
      'secret-password-1',
      'QRYVALUE',
      'answer-token-7788',
      '?',
      'code=',
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(callLog.calls.map((call) => Object.keys(call).sort())).toEqual(
      Array(3).fill(['at', 'attempts', 'durationMs', 'method', 'path', 'ret', 'status', 'storedAt']),
    );
  });
});
