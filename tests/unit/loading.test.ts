// §8/§9: the loading mask shows while calls are in flight and hides 200 ms after the last ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/lib/api.ts';
import { config } from '../../src/contract/content.ts';
import { endLoading, loading, startLoading } from '../../src/lib/loading.ts';
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
    stubFetch(() => first.promise, () => second.promise);
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
