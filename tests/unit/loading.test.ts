// @vitest-environment jsdom
// The loading mask shows while calls are in flight and hides 200 ms after the last ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi } from '../../src/lib/api.ts';
import { redeemPoints } from '../../src/api-contract/rewards.ts';
import { config } from '../../src/api-contract/content.ts';
import { CANCEL_OFFER_MS, cancelReads, endLoading, loading, startLoading } from '../../src/lib/loading.ts';
import { deferred, envelope, httpError, resetClientState, stubFetch, useFakeTimers } from './helpers.ts';

beforeEach(() => {
  resetClientState();
  useFakeTimers();
});
afterEach(resetClientState);

const ok = () => envelope(1, '', { scroll_notice: '' });

describe('the loading mask', () => {
  it('is visible while a call is in flight, still at 199 ms after it ends, hidden at 200 ms', async () => {
    const answer = deferred<Response>();
    stubFetch(() => answer.promise);
    expect(loading.visible).toBe(false);
    const call = api(config, { act: 'system' });
    expect(loading.visible).toBe(true);
    expect(loading.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(loading.visible).toBe(true);
    answer.resolve(ok());
    await call;
    expect(loading.inFlight).toBe(0);
    expect(loading.visible).toBe(true);
    await vi.advanceTimersByTimeAsync(199);
    expect(loading.visible).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(loading.visible).toBe(false);
  });

  it('two overlapping calls keep it visible until 200 ms after the last ends', async () => {
    const first = deferred<Response>();
    const second = deferred<Response>();
    stubFetch(
      () => first.promise,
      () => second.promise,
    );
    const callA = api(config, { act: 'system' });
    await vi.advanceTimersByTimeAsync(0);
    const callB = api(config, { act: 'share' });
    await vi.advanceTimersByTimeAsync(0);
    expect(loading.inFlight).toBe(2);

    first.resolve(ok());
    await callA;
    expect(loading.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(loading.visible).toBe(true);

    second.resolve(ok());
    await callB;
    await vi.advanceTimersByTimeAsync(199);
    expect(loading.visible).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(loading.visible).toBe(false);
  });

  it('a call starting inside the 200 ms window keeps it visible', async () => {
    const later = deferred<Response>();
    stubFetch(ok(), () => later.promise);
    await api(config, { act: 'system' });
    await vi.advanceTimersByTimeAsync(150);
    const call = api(config, { act: 'share' });
    await vi.advanceTimersByTimeAsync(100);
    expect(loading.visible).toBe(true);
    later.resolve(ok());
    await call;
    await vi.advanceTimersByTimeAsync(199);
    expect(loading.visible).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(loading.visible).toBe(false);
  });

  it('a failed call hides it too', async () => {
    stubFetch(httpError(404));
    await expect(api(config, { act: 'system' })).rejects.toThrow();
    expect(loading.inFlight).toBe(0);
    expect(loading.visible).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    expect(loading.visible).toBe(false);
  });

  it('{ loading: false } calls never show it', async () => {
    const answer = deferred<Response>();
    stubFetch(() => answer.promise);
    const call = api(config, { act: 'system' }, { loading: false });
    expect(loading.visible).toBe(false);
    expect(loading.inFlight).toBe(0);
    answer.resolve(ok());
    await call;
    expect(loading.visible).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(loading.visible).toBe(false);
  });

  it('startLoading / endLoading count calls and never go below zero', async () => {
    startLoading();
    startLoading();
    endLoading();
    expect(loading.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(loading.visible).toBe(true);
    endLoading();
    endLoading();
    expect(loading.inFlight).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(loading.visible).toBe(false);
  });
});

describe('cancelling a long wait (a read can take up to 60 s on a bad network)', () => {
  /** A fetch that never answers but stops when its request is aborted, as the browser's does. */
  const hanging = () => {
    const fetch = vi.fn(
      (input: RequestInfo | URL) =>
        new Promise<Response>((_, reject) => {
          const signal = (input as Request).signal;
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    configureApi({ fetch, retryDelay: () => 0 });
    return fetch;
  };

  it('offers Cancel after 5 s of a read; Cancel stops it with a clear text and hides the mask', async () => {
    hanging();
    const call = api(config, { act: 'system' });
    const failed = call.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(CANCEL_OFFER_MS - 1);
    expect(loading.cancellable).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(loading.cancellable).toBe(true);
    cancelReads();
    expect(await failed).toBe('The request was cancelled.');
    expect(loading.inFlight).toBe(0);
    expect(loading.cancellable).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(loading.visible).toBe(false);
  });

  it('never offers to cancel while a write is in flight: its answer may still be applied', async () => {
    hanging();
    const write = api(redeemPoints, { number: '10' }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(CANCEL_OFFER_MS + 1000);
    expect(loading.writesInFlight).toBe(1);
    cancelReads();
    expect(loading.inFlight).toBe(1);
    void write;
  });
});

describe('a late network answer on lie-fi', () => {
  it('reloads the page when the screen shows that call kept, at most once in 30 s, and says online', async () => {
    const { noteFreshAnswer, offlineData } = await import('../../src/lib/offline.ts');
    offlineData.online = false;
    noteFreshAnswer('/users/message', 1_000_000);
    expect(offlineData.online).toBe(true);
    const before = offlineData.refreshes;
    offlineData.asOf['/users/message'] = '2026-11-23T10:00:00.000Z';
    noteFreshAnswer('/users/message', 1_000_000);
    expect(offlineData.refreshes).toBe(before + 1);
    noteFreshAnswer('/users/message', 1_010_000);
    expect(offlineData.refreshes).toBe(before + 1);
    noteFreshAnswer('/users/message', 1_031_000);
    expect(offlineData.refreshes).toBe(before + 2);
  });
});
