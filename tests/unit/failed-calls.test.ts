// @vitest-environment jsdom
// The request ids of the last failed calls, for support (Diagnostics: "Last failed calls"): an HTTP error, ret 0 and
// ret -1 are kept with the call's path and time, the last ten, on the device; a success, an answer without an id and
// one the service worker gave from its cache are not.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, apiBlob } from '../../src/lib/api.ts';
import { FAILED_CALLS_KEPT, failedCalls } from '../../src/lib/failed-calls.ts';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { SERVED_FROM_CACHE_HEADER } from '../../src/api-contract/offline-cache.ts';
import { flushStores, hydrateStores } from '../../src/lib/storage.ts';
import { createStore, get } from 'idb-keyval';
import { DEVICE_DB, DEVICE_STORE } from '../../src/lib/locale-pick.ts';
import { resetClientState, stubFetch } from './helpers.ts';

const clean = () => {
  resetClientState();
  failedCalls.calls = [];
};
beforeEach(clean);
afterEach(clean);

/** An envelope answer as the server sends it, with its request id. */
const answer = (ret: number, id: string | null, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ ret, msg: `ret ${ret}`, data: null }), {
    status,
    headers: { 'content-type': 'application/json', ...(id ? { 'x-request-id': id } : {}), ...headers },
  });

it('keeps a refused write (ret 0), an ended session (ret -1) and an HTTP error with their ids', async () => {
  stubFetch(answer(0, 'req-refused'));
  await api(login, { username: 'customer1', password: 'secret1' }).catch(() => undefined);
  stubFetch(answer(-1, 'req-ended'));
  await api(userInfo, undefined, { redirectOnInvalidToken: false }).catch(() => undefined);
  stubFetch(answer(0, 'req-missing', 404));
  await api(config, { act: 'system' }).catch(() => undefined);
  stubFetch(answer(0, 'req-picture', 404));
  await apiBlob('/api/uploads/abc123').catch(() => undefined);

  // Kept by a module loaded at the first failure: once it has them.
  await expect.poll(() => failedCalls.calls.length).toBe(4);
  expect(failedCalls.calls).toEqual([
    expect.objectContaining({ method: 'POST', path: '/users/login', status: 200, ret: 0, requestId: 'req-refused' }),
    expect.objectContaining({ method: 'GET', path: '/users/info', status: 200, ret: -1, requestId: 'req-ended' }),
    expect.objectContaining({ method: 'GET', path: '/other/config', status: 404, requestId: 'req-missing' }),
    expect.objectContaining({ method: 'GET', path: '/api/uploads/abc123', status: 404, requestId: 'req-picture' }),
  ]);
  expect(Date.parse(failedCalls.calls[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
  // Never a body, a password or a query value.
  expect(JSON.stringify(failedCalls.calls)).not.toMatch(/secret1|customer1|act=|system/);
});

it('keeps a call that gave up after five 500s once, with the last answer’s id', async () => {
  let n = 0;
  stubFetch(() => answer(0, `req-crash-${++n}`, 500));
  await api(config, { act: 'system' }).catch(() => undefined);
  await expect.poll(() => failedCalls.calls.length).toBe(1);
  expect(failedCalls.calls).toEqual([expect.objectContaining({ status: 500, requestId: 'req-crash-5' })]);
});

it('does not keep a success, an answer without an id, nor a cached answer', async () => {
  stubFetch(answer(1, 'req-ok'));
  await api(config, { act: 'system' });
  stubFetch(answer(0, null));
  await api(login, { username: 'customer1', password: 'secret1' }).catch(() => undefined);
  stubFetch(answer(0, 'req-old', 200, { [SERVED_FROM_CACHE_HEADER]: '2026-11-23T08:15:00.000Z' }));
  await api(config, { act: 'system' }).catch(() => undefined);
  // A failure after them is kept; once it is, nothing before it was.
  stubFetch(answer(0, 'req-after'));
  await api(login, { username: 'customer1', password: 'secret1' }).catch(() => undefined);
  await expect.poll(() => failedCalls.calls.length).toBe(1);
  expect(failedCalls.calls).toEqual([expect.objectContaining({ requestId: 'req-after' })]);
});

it('keeps the last ten, newest last, and on the device', async () => {
  // As at the app's start: the stores load what was saved, then save each change.
  await hydrateStores();
  for (let i = 0; i < 12; i++) {
    stubFetch(answer(0, `req-${i}`));
    await api(login, { username: 'customer1', password: 'secret1' }).catch(() => undefined);
  }
  expect(FAILED_CALLS_KEPT).toBe(10);
  await expect.poll(() => failedCalls.calls.at(-1)?.requestId).toBe('req-11');
  expect(failedCalls.calls.map((call) => call.requestId)).toEqual(Array.from({ length: 10 }, (_, i) => `req-${i + 2}`));
  await flushStores();
  const saved = await get<{ calls: { requestId: string }[] }>('failed-calls', createStore(DEVICE_DB, DEVICE_STORE));
  expect(saved?.calls.map((call) => call.requestId).at(-1)).toBe('req-11');
});
