// @vitest-environment jsdom
// The client's retry policy: retry on network errors, 408, 429 and 5xx; at most 5 attempts,
// then 'Too many requests!'; a retried write keeps its Idempotency-Key, also when sent again after its answer was lost.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureApi } from '../../src/lib/api.ts';
import { login } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { session } from '../../src/lib/session.ts';
import { envelope, httpError, resetClientState, stubFetch, useFakeTimers } from './helpers.ts';

const networkError = () => new TypeError('Failed to fetch');
const credentials = { username: 'customer1', password: 'secret1' };

beforeEach(resetClientState);
afterEach(resetClientState);

describe('the 5-attempt cap', () => {
  it('a 503 every time: exactly 5 calls, then "Too many requests!"', async () => {
    const { fetch, retryDelay } = stubFetch(httpError(503));
    const error = (await api(config, { act: 'system' }).catch((caught: unknown) => caught)) as ApiError;
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Too many requests!');
    expect(error.message).toBe(texts.tooManyRequests.message);
    expect(retryDelay).toHaveBeenCalledTimes(4);
  });

  it('a network error every time: exactly 5 calls, then "Too many requests!"', async () => {
    const { fetch } = stubFetch(networkError);
    await expect(api(config, { act: 'system' })).rejects.toThrow('Too many requests!');
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('a POST with a 503 every time: also 5 calls (writes are retried: they carry a key)', async () => {
    const { fetch } = stubFetch(httpError(503));
    await expect(api(login, credentials)).rejects.toThrow('Too many requests!');
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it.each([408, 429, 500, 502, 504])('%i is retried up to the cap', async (status) => {
    const { fetch } = stubFetch(httpError(status));
    await expect(api(config, { act: 'system' })).rejects.toThrow('Too many requests!');
    expect(fetch).toHaveBeenCalledTimes(5);
  });
});

describe('recovery', () => {
  it('500 twice, then ret 1: resolves after 3 calls', async () => {
    const { fetch } = stubFetch(httpError(500), httpError(500), envelope(1, '', { scroll_notice: 'back' }));
    await expect(api(config, { act: 'system' })).resolves.toEqual({ scroll_notice: 'back' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('a network error four times, then ret 1 on the fifth attempt: resolves', async () => {
    const { fetch } = stubFetch(networkError, networkError, networkError, networkError, envelope(1, '', { ok: true }));
    await expect(api(config, { act: 'system' })).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('a failure envelope after a retry is the server msg, not the retry text', async () => {
    const { fetch } = stubFetch(httpError(502), envelope(0, 'Wrong username or password!'));
    await expect(api(login, credentials)).rejects.toThrow('Wrong username or password!');
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('not retried', () => {
  it.each([400, 401, 403, 404])('a %i: 1 call', async (status) => {
    const { fetch } = stubFetch(httpError(status));
    await expect(api(config, { act: 'system' })).rejects.toBeInstanceOf(ApiError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a 400 rejects with its own text, not "Too many requests!"', async () => {
    stubFetch(httpError(400));
    await expect(api(login, credentials)).rejects.toThrow('Bad request');
  });

  it('an envelope failure (ret 0) is an answer, not a transport error: 1 call', async () => {
    const { fetch } = stubFetch(envelope(0, 'nope'));
    await expect(api(config, { act: 'system' })).rejects.toThrow('nope');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('Idempotency-Key across attempts', () => {
  it('is the same on every attempt of one POST', async () => {
    const { calls } = stubFetch(httpError(503), networkError, httpError(500), envelope(1, '', { token: 't' }));
    await api(login, credentials);
    expect(calls).toHaveLength(4);
    const keys = calls.map((call) => call.request.headers.get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(new Set(keys).size).toBe(1);
    // The body travels again on every attempt.
    for (const call of calls) expect(new URLSearchParams(call.body).get('username')).toBe('customer1');
  });

  it('differs between two separate calls', async () => {
    const { calls } = stubFetch(envelope(1, '', { token: 't' }));
    await api(login, credentials);
    await api(login, credentials);
    expect(calls).toHaveLength(2);
    const [first, second] = calls.map((call) => call.request.headers.get('idempotency-key'));
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(first).not.toBe(second);
  });
});

describe('a write whose answer never came', () => {
  const order = { target: 'wallet' as const, target_id: '3', amount: '150', paypass: '123456' };
  const keyOf = (call: { request: Request }) => call.request.headers.get('idempotency-key');

  it('sent again with the same fields carries the same key (the server answers what the first did); once answered, the next is new', async () => {
    const { calls } = stubFetch(...Array.from({ length: 5 }, () => networkError), envelope(1, '', { id: 4 }));
    await expect(api(submitWithdraw, order)).rejects.toThrow();
    expect(calls).toHaveLength(5);
    const lost = keyOf(calls[0]!);
    expect(lost).toBeTruthy();

    // Another write meanwhile (other fields) is another request.
    await api(submitWithdraw, { ...order, amount: '160' });
    expect(keyOf(calls[5]!)).not.toBe(lost);

    await api(submitWithdraw, order);
    expect(keyOf(calls[6]!)).toBe(lost);
    // Answered: the same fields sent after that are a new write.
    await api(submitWithdraw, order);
    expect(keyOf(calls[7]!)).not.toBe(lost);
  });

  it('a refusal is an answer too: the same fields sent again are a new request', async () => {
    const { calls } = stubFetch(envelope(0, 'Insufficient balance!'), envelope(1, '', { id: 5 }));
    await expect(api(submitWithdraw, order)).rejects.toThrow('Insufficient balance!');
    await api(submitWithdraw, order);
    expect(keyOf(calls[1]!)).not.toBe(keyOf(calls[0]!));
  });

  it('"still being processed" (a copy of it still runs under its key) is no outcome: the same fields keep the key', async () => {
    const busy = new Response(JSON.stringify({ ret: 0, msg: 'This request is still being processed, please wait!' }), {
      headers: { 'content-type': 'application/json', 'idempotent-busy': 'true' },
    });
    const { calls } = stubFetch(busy, envelope(1, '', { id: 7 }));
    const error = (await api(submitWithdraw, order).catch((caught: unknown) => caught)) as ApiError;
    expect(error.message).toBe('This request is still being processed, please wait!');
    // No outcome: like an answer that never came (no ret), so nothing reads it as a refusal.
    expect(error.ret).toBeUndefined();
    await api(submitWithdraw, order);
    expect(keyOf(calls[1]!)).toBe(keyOf(calls[0]!));
  });

  it('another session sending the same fields is another request', async () => {
    const { calls } = stubFetch(...Array.from({ length: 5 }, () => networkError), envelope(1, '', { id: 6 }));
    session.token = 'first';
    await expect(api(submitWithdraw, order)).rejects.toThrow();
    session.token = 'second';
    await api(submitWithdraw, order);
    expect(keyOf(calls[5]!)).not.toBe(keyOf(calls[0]!));
  });
});

describe('timing', () => {
  it('the default backoff waits between attempts (300 ms, doubling)', async () => {
    useFakeTimers();
    const fetch = vi.fn(async () => httpError(503));
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch });
    const call = api(config, { act: 'system' }, { loading: false }).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600 + 1200 + 2400);
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(((await call) as ApiError).message).toBe('Too many requests!');
  });

  it('a call with no answer for 60 s fails with "server not responding" (not retried)', async () => {
    useFakeTimers();
    const fetch = vi.fn(
      (request: Request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
    );
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
    let settled = false;
    const call = api(config, { act: 'system' }, { loading: false })
      .catch((caught: unknown) => caught)
      .finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(((await call) as ApiError).message).toBe(texts.noResponse.message);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
