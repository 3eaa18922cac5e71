// @vitest-environment jsdom
// Reads on their way are shared (lib/api.ts): at start several screens ask for the same coin list,
// config or unread count at once, and the server hears each once. Writes, other inputs, another
// session or language, a read after a write, and a read after the first has settled are asked again; a read the user
// cancels under the mask stops for that caller only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { api, prefetch } from '../../src/lib/api.ts';
import { config, slides } from '../../src/api-contract/content.ts';
import { coinList } from '../../src/api-contract/markets.ts';
import { editProfile } from '../../src/api-contract/account.ts';
import { cancelReads, loading } from '../../src/lib/loading.ts';
import { session } from '../../src/lib/session.ts';
import { firstUnreadOnce, resetStartupCheck, startStartupCheck, unread } from '../../src/lib/messages.ts';
import { envelope, httpError, resetClientState, stubFetch } from './helpers.ts';

beforeEach(() => {
  resetClientState();
  resetStartupCheck();
});
afterEach(() => {
  resetClientState();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

/** A fetch answer that waits until `release` is called. */
function held(answer: () => Response) {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { answer: async () => (await arrived, answer()), release: () => release() };
}

const quotes = () => envelope(1, 'Success', { lists: [{ code: 'BTC', price: '100' }] });

describe('shared reads', () => {
  it('asks the server once for the same read wanted by several screens at once, each with its own copy', async () => {
    const gate = held(quotes);
    const { calls } = stubFetch(gate.answer);
    const first = api(coinList, undefined, { loading: false });
    const second = api(coinList, undefined, { loading: false });
    const third = api(coinList, undefined, { loading: false });
    gate.release();
    const answers = await Promise.all([first, second, third]);
    expect(calls).toHaveLength(1);
    expect(answers.map((answer) => answer.lists[0]!.code)).toEqual(['BTC', 'BTC', 'BTC']);
    answers[1]!.lists.pop();
    expect(answers[0]!.lists).toHaveLength(1);
    expect(answers[2]!.lists).toHaveLength(1);
  });

  it('asks again once the first read has settled, and for another input', async () => {
    const { calls } = stubFetch(envelope(1, 'Success', {}));
    await api(config, { act: 'system' }, { loading: false });
    await api(config, { act: 'system' }, { loading: false });
    await Promise.all([
      api(config, { act: 'system' }, { loading: false }),
      api(config, { act: 'about' }, { loading: false }),
    ]);
    expect(calls.map((call) => new URL(call.request.url).search)).toEqual([
      '?act=system',
      '?act=system',
      '?act=system',
      '?act=about',
    ]);
  });

  it('does not share across sessions or languages', async () => {
    const gate = held(() => envelope(1, 'Success', {}));
    const { calls } = stubFetch(gate.answer);
    session.token = 'token-a';
    const a = api(config, { act: 'system' }, { loading: false });
    session.token = 'token-b';
    const b = api(config, { act: 'system' }, { loading: false });
    i18n.loadAndActivate({ locale: 'zh', messages: {} });
    const c = api(config, { act: 'system' }, { loading: false });
    gate.release();
    await Promise.all([a, b, c]);
    expect(calls.map((call) => [call.request.headers.get('token'), call.request.headers.get('lang')])).toEqual([
      ['token-a', 'en'],
      ['token-b', 'en'],
      ['token-b', 'zh'],
    ]);
  });

  it('does not let a read after a write join one asked before it, whose answer may predate the write', async () => {
    const gate = held(quotes);
    const { calls } = stubFetch(
      gate.answer,
      envelope(1, 'Success', {}),
      envelope(1, 'Success', { lists: [{ code: 'BTC', price: '200' }] }),
    );
    const before = api(coinList, undefined, { loading: false });
    const input = { nickname: 'Ann' } as Parameters<typeof api<typeof editProfile>>[1];
    await api(editProfile, input, { loading: false });
    const after = api(coinList, undefined, { loading: false });
    gate.release();
    expect((await after).lists[0]!.price).toBe('200');
    // The read asked before the write was in flight while it was answered: it is asked again (joining the read
    // asked after the write, or afresh), so it too resolves with the state after the write.
    expect((await before).lists[0]!.price).toBe('200');
    expect(calls.map((call) => call.request.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('asks again a read that was in flight while a write was answered: its caller never gets the older state', async () => {
    // As on the blind box page: the seed read as the page opened is on its way, the user rotates the seed and the
    // page shows the new one; the old read's answer (nonce 2) must not then replace it.
    const seedRead = (nonce: number) => envelope(1, 'Success', { lists: [{ code: 'BTC', price: String(nonce) }] });
    const gate = held(() => seedRead(2));
    const { calls } = stubFetch(gate.answer, envelope(1, 'Success', {}), seedRead(0));
    const opened = api(coinList, undefined, { loading: false });
    const input = { nickname: 'Ann' } as Parameters<typeof api<typeof editProfile>>[1];
    await api(editProfile, input, { loading: false });
    gate.release();
    expect((await opened).lists[0]!.price).toBe('0');
    expect(calls.map((call) => call.request.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('asks a read at most three times however many writes are answered while it is in flight', async () => {
    const input = { nickname: 'Ann' } as Parameters<typeof api<typeof editProfile>>[1];
    const { calls } = stubFetch(async (): Promise<Response> => {
      // Every read: a write is answered while it is on its way (the write's own answer is the last one pushed).
      if (calls.at(-1)!.request.method === 'POST') return envelope(1, 'Success', {});
      await api(editProfile, input, { loading: false });
      return quotes();
    });
    await expect(api(coinList, undefined, { loading: false })).resolves.toMatchObject({ lists: [{ code: 'BTC' }] });
    expect(calls.map((call) => call.request.method)).toEqual(['GET', 'POST', 'GET', 'POST', 'GET', 'POST']);
  });

  it('does not ask again a read during which no write was answered', async () => {
    const { calls } = stubFetch(quotes());
    await api(coinList, undefined, { loading: false });
    expect(calls).toHaveLength(1);
  });

  it('never shares a write: each is sent with its own key', async () => {
    session.token = 'token-a';
    const { calls } = stubFetch(envelope(1, 'Success', null));
    const input = { nickname: 'Ann' } as Parameters<typeof api<typeof editProfile>>[1];
    await Promise.all([api(editProfile, input, { loading: false }), api(editProfile, input, { loading: false })]);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.request.headers.get('idempotency-key')).not.toBe(calls[1]!.request.headers.get('idempotency-key'));
  });

  it('lets a read under the mask join a background read; cancelling it there ends only its own wait', async () => {
    const gate = held(() => envelope(1, 'Success', { lists: [] }));
    const { calls } = stubFetch(gate.answer);
    const background = api(slides, { position: 'home' }, { loading: false });
    const masked = api(slides, { position: 'home' });
    expect(loading.inFlight).toBe(1);
    cancelReads();
    await expect(masked).rejects.toThrow();
    expect(loading.inFlight).toBe(0);
    gate.release();
    await expect(background).resolves.toEqual({ lists: [] });
    expect(calls).toHaveLength(1);
  });

  it('does not let a read join one the user may cancel', async () => {
    const gate = held(() => envelope(1, 'Success', { lists: [] }));
    const { calls } = stubFetch(gate.answer);
    const masked = api(slides, { position: 'home' });
    const background = api(slides, { position: 'home' }, { loading: false });
    gate.release();
    await Promise.all([masked, background]);
    expect(calls).toHaveLength(2);
  });
});

describe('a read asked ahead of its page (prefetch)', () => {
  it('gives the page its answer, arrived before the page asked, without asking again', async () => {
    const { calls } = stubFetch(
      envelope(1, 'Success', { lists: [{ id: 1 }] }),
      envelope(1, 'Success', { lists: [{ id: 2 }] }),
    );
    prefetch(slides, { position: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(api(slides, { position: 'home' })).resolves.toEqual({ lists: [{ id: 1 }] });
    expect(loading.inFlight).toBe(0);
    // Taken once: the next call asks the server.
    await expect(api(slides, { position: 'home' })).resolves.toEqual({ lists: [{ id: 2 }] });
    expect(calls).toHaveLength(2);
  });

  it('is not kept past its time, nor after a failure, nor for another session', async () => {
    const { calls } = stubFetch(httpError(404), envelope(1, 'Success', { lists: [] }));
    prefetch(slides, { position: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const afterFailure = calls.length;
    await expect(api(slides, { position: 'home' }, { loading: false })).resolves.toEqual({ lists: [] });
    expect(calls.length).toBe(afterFailure + 1);

    session.token = 'token-a';
    prefetch(slides, { position: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    session.token = 'token-b';
    const before = calls.length;
    await api(slides, { position: 'home' }, { loading: false });
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1)!.request.headers.get('token')).toBe('token-b');

    prefetch(slides, { position: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 10_001);
    const beforeLate = calls.length;
    await api(slides, { position: 'home' }, { loading: false });
    clock.mockRestore();
    expect(calls.length).toBe(beforeLate + 1);
  });

  it('asks nothing ahead for a write', () => {
    const { calls } = stubFetch(envelope(1, 'Success', null));
    prefetch(editProfile, { nickname: 'Ann' } as never);
    expect(calls).toHaveLength(0);
  });
});

describe('the startup check asked at start', () => {
  it('is asked once: the dialog takes the answer the early check got, and hears it first', async () => {
    session.token = 'token-a';
    const message = { id: 5, title: 'Welcome', content: 'Hello', is_read: 0, created_at: '2026-11-24 10:00:00' };
    const { calls } = stubFetch(envelope(1, 'Success', { count: 2, first: message }));
    const heard: unknown[] = [];
    startStartupCheck('token-a', (first) => heard.push(first?.id));
    startStartupCheck('token-a', (first) => heard.push(first?.id)); // a second start asks no more
    await new Promise((resolve) => setTimeout(resolve, 0)); // the answer is in before the dialog's place renders
    await expect(firstUnreadOnce('token-a')).resolves.toMatchObject({ id: 5 });
    await expect(firstUnreadOnce('token-a')).resolves.toBeNull();
    expect(heard).toEqual([5]);
    expect(calls).toHaveLength(1);
    expect(unread.count).toBe(2);
  });

  it('tells the dialog of a failure, quietly at start', async () => {
    session.token = 'token-a';
    stubFetch(envelope(0, 'Server busy'));
    startStartupCheck('token-a');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(firstUnreadOnce('token-a')).rejects.toThrow('Server busy');
  });
});
