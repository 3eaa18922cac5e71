// @vitest-environment jsdom
// The price stream's client: it resumes after the last step it got (so a chart has no gap), notices
// a connection gone silent, and holds no connection while the page is hidden.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { STREAM_STALL_MS, type TickEvent } from '../../src/api-contract/markets.ts';
import { PRICE_PAINT_MS } from '../../src/lib/prices.ts';

vi.mock('../../src/lib/api.ts', () => ({
  api: vi.fn(async () => ({ lists: [], page: 1, total: 0 })),
  apiUrl: (path: string) => `http://localhost/api${path}`,
  FRESH_READ_MS: 5000,
}));

/** An EventSource the test drives: it records what was opened and delivers what the test says. */
class FakeSource {
  static opened: FakeSource[] = [];
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data = '', lastEventId = '') {
    for (const listener of this.listeners.get(type) ?? []) listener({ data, lastEventId } as MessageEvent);
  }
  step(atMs: number, price = '100') {
    const ticks: TickEvent[] = [{ code: 'BTC', price, at: new Date(atMs).toISOString() }];
    this.emit('ticks', JSON.stringify(ticks), String(atMs));
  }
}

/** A coin of the server's list at `price`, recorded at 0; `rest` sets any other field. */
const quote = (code: string, price: string, rest: Record<string, unknown> = {}) => ({
  code,
  name: code,
  price,
  open_24h: price,
  high_24h: price,
  low_24h: price,
  change_24h: '0.00',
  volume_24h: '1',
  price_decimals: 2,
  at: new Date(0).toISOString(),
  ...rest,
});

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  FakeSource.opened = [];
  visibility = 'visible';
  vi.stubGlobal('EventSource', FakeSource);
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const latest = () => FakeSource.opened.at(-1)!;
const setVisibility = (state: DocumentVisibilityState) => {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
};

it('reconnects after an error asking for every step after the last one it got, and hands them on in order', async () => {
  const { subscribePrices, priceStream } = await import('../../src/lib/prices.ts');
  const got: string[] = [];
  const release = subscribePrices((ticks) => got.push(...ticks.map((tick) => tick.at)));
  expect(latest().url).toBe('http://localhost/api/coin/stream');
  latest().emit('open');
  latest().step(1_000);
  latest().step(2_000);

  latest().emit('error');
  expect(priceStream.status).toBe('reconnecting');
  await vi.advanceTimersByTimeAsync(1000);
  expect(latest().url).toBe('http://localhost/api/coin/stream?last=2000');
  // The server resends steps 3 and 4, then carries on live.
  latest().step(3_000);
  latest().step(4_000);
  latest().step(5_000);
  // Steps that came in one burst are handed on together, a quarter of a second after the last batch.
  await vi.advanceTimersByTimeAsync(PRICE_PAINT_MS);
  expect(got).toEqual([1, 2, 3, 4, 5].map((s) => new Date(s * 1000).toISOString()));
  release();
});

it('a coin priced for the first time after the list was read (the index after a start) is listed: the list is read again, at most every 5 s', async () => {
  const { api } = await import('../../src/lib/api.ts');
  vi.mocked(api).mockResolvedValueOnce({ lists: [quote('ETH', '3000.00')], page: 1, total: 1 } as never);
  const { loadCoinList, prices, subscribePrices } = await import('../../src/lib/prices.ts');
  await loadCoinList();
  const release = subscribePrices();
  latest().emit('open');
  await vi.advanceTimersByTimeAsync(0);
  vi.mocked(api).mockClear();

  // BTC's first price: not in the list, so its step had nowhere to go; the list is asked for again and brings it.
  vi.mocked(api).mockResolvedValueOnce({
    lists: [quote('ETH', '3000.00'), quote('BTC', '97000.00')],
    page: 1,
    total: 2,
  } as never);
  latest().step(2_000, '97000.50');
  await vi.advanceTimersByTimeAsync(0);
  expect(api).toHaveBeenCalledTimes(1);
  expect(prices.codes).toEqual(['ETH', 'BTC']);
  await vi.advanceTimersByTimeAsync(1000);
  latest().step(3_000, '97001.00');
  expect(prices.quotes.BTC!.price).toBe('97001.00');

  // A coin the list still lacks does not have it asked for at every step: once more 5 s after the last time.
  for (let second = 4; second < 10; second++) {
    await vi.advanceTimersByTimeAsync(1000);
    const ticks: TickEvent[] = [{ code: 'NEW', price: '1', at: new Date(second * 1000).toISOString() }];
    latest().emit('ticks', JSON.stringify(ticks), String(second * 1000));
  }
  expect(api).toHaveBeenCalledTimes(2);
  release();
});

it('shows a step a second as it comes, and a faster feed at most four times a second: the newest price, the high and low of every step', async () => {
  const { api } = await import('../../src/lib/api.ts');
  const btc = quote('BTC', '100.00', { name: 'Bitcoin', high_24h: '101.00', low_24h: '99.00' });
  vi.mocked(api).mockResolvedValueOnce({ lists: [btc], page: 1, total: 1 } as never);
  const { loadCoinList, prices, subscribePrices } = await import('../../src/lib/prices.ts');
  await loadCoinList();
  const batches: string[][] = [];
  const release = subscribePrices((ticks) => batches.push(ticks.map((tick) => tick.price)));
  latest().emit('open');

  // The market's pace: each step on screen at once.
  latest().step(1_000, '100.50');
  expect(prices.quotes.BTC!.price).toBe('100.50');
  await vi.advanceTimersByTimeAsync(1000);
  latest().step(2_000, '100.60');
  expect(prices.quotes.BTC!.price).toBe('100.60');

  // The test clock's pace, a step every 50 ms: nothing more until a quarter of a second has passed since the last.
  await vi.advanceTimersByTimeAsync(50);
  latest().step(3_000, '103.00');
  await vi.advanceTimersByTimeAsync(50);
  latest().step(4_000, '98.00');
  await vi.advanceTimersByTimeAsync(50);
  latest().step(5_000, '100.70');
  expect(prices.quotes.BTC!.price).toBe('100.60');
  await vi.advanceTimersByTimeAsync(PRICE_PAINT_MS - 150);
  expect(prices.quotes.BTC).toMatchObject({
    price: '100.70',
    high_24h: '103.00',
    low_24h: '98.00',
    at: new Date(5_000).toISOString(),
  });
  expect(batches).toEqual([['100.50'], ['100.60'], ['103.00', '98.00', '100.70']]);
  release();
});

it("on opening it asks for the coin list again (the day's figures), unless the list came from the server a moment ago", async () => {
  const { api } = await import('../../src/lib/api.ts');
  const { loadCoinList, subscribePrices } = await import('../../src/lib/prices.ts');
  // An app start: its read of the list has just been answered when the stream opens.
  await loadCoinList();
  vi.mocked(api).mockClear();
  const release = subscribePrices();
  try {
    latest().emit('open');
    expect(api).not.toHaveBeenCalled();

    // Reopened 5 s later: the list is asked for again.
    vi.advanceTimersByTime(4000);
    latest().emit('error');
    await vi.advanceTimersByTimeAsync(1000);
    latest().emit('open');
    expect(api).toHaveBeenCalledTimes(1);
  } finally {
    release();
  }
});

it('a connection that goes silent (no step, no heartbeat) is dropped and reopened; heartbeats keep it', async () => {
  const { subscribePrices } = await import('../../src/lib/prices.ts');
  const release = subscribePrices();
  const first = latest();
  first.emit('open');
  first.step(1_000);
  for (let beat = 0; beat < 5; beat++) {
    await vi.advanceTimersByTimeAsync(STREAM_STALL_MS - 1000);
    first.emit('heartbeat', '0');
  }
  expect(first.closed).toBe(false);
  expect(FakeSource.opened).toHaveLength(1);

  await vi.advanceTimersByTimeAsync(STREAM_STALL_MS);
  expect(first.closed).toBe(true);
  await vi.advanceTimersByTimeAsync(1000);
  expect(FakeSource.opened).toHaveLength(2);
  expect(latest().url).toContain('last=1000');
  release();
});

it('closes while the page is hidden and resumes after the last step when it is shown', async () => {
  const { subscribePrices, priceStream } = await import('../../src/lib/prices.ts');
  const release = subscribePrices();
  latest().emit('open');
  latest().step(7_000);

  setVisibility('hidden');
  expect(latest().closed).toBe(true);
  expect(priceStream.status).toBe('paused');
  // Nothing is opened while hidden, not even by the stall timer.
  await vi.advanceTimersByTimeAsync(STREAM_STALL_MS * 3);
  expect(FakeSource.opened).toHaveLength(1);

  setVisibility('visible');
  expect(FakeSource.opened).toHaveLength(2);
  expect(latest().url).toContain('last=7000');
  release();
  expect(latest().closed).toBe(true);
  expect(priceStream.status).toBe('idle');
});

it('after a reset (away too long) it takes the latest prices and resumes after them', async () => {
  const { subscribePrices } = await import('../../src/lib/prices.ts');
  const got: TickEvent[] = [];
  const release = subscribePrices((ticks) => got.push(...ticks));
  latest().emit('open');
  latest().emit('reset', JSON.stringify([{ code: 'BTC', price: '1', at: new Date(9_000).toISOString() }]), '9000');
  expect(got.map((tick) => tick.price)).toEqual(['1']);
  latest().emit('error');
  await vi.advanceTimersByTimeAsync(1000);
  expect(latest().url).toContain('last=9000');
  latest().emit('open');
  latest().step(10_000);
  latest().emit('error');
  await vi.advanceTimersByTimeAsync(1000);
  expect(latest().url).toContain('last=10000');
  release();
});

it('marks the coins the stream says are halted as paused, with the message an order would get, and clears them when it says so', async () => {
  const { subscribePrices, prices, pausedText } = await import('../../src/lib/prices.ts');
  const quote = (code: string) => ({
    code,
    name: code,
    price: '1.00',
    at: '2026-01-02T03:04:05.000Z',
    change_24h: '0.00',
    open_24h: '1.00',
    high_24h: '1.00',
    low_24h: '1.00',
    volume_24h: '0',
    price_decimals: 2,
    simulated: false,
    seeded: false,
    exchanges: 3,
    halted: false,
  });
  prices.quotes = { BTC: quote('BTC'), ETH: quote('ETH') };
  const release = subscribePrices();
  latest().emit('halts', '["BTC"]');
  expect([prices.quotes.BTC!.halted, prices.quotes.ETH!.halted]).toEqual([true, false]);
  expect(pausedText('BTC')).toBe(
    'Prices for BTC are paused while the market data is unavailable. Please try again later!',
  );
  expect(pausedText('ETH')).toBeNull();
  latest().emit('halts', '[]');
  expect(prices.quotes.BTC!.halted).toBe(false);
  expect(pausedText('BTC')).toBeNull();
  release();
});

it('a step of the stream is an answer of the network: a call that found the network gone no longer makes it offline', async () => {
  const { subscribePrices } = await import('../../src/lib/prices.ts');
  const { offlineData, noteNetworkFailure } = await import('../../src/lib/offline.ts');
  const release = subscribePrices();
  latest().emit('open');
  // A call's connection was reset: the app takes the network for gone.
  noteNetworkFailure();
  expect(offlineData.online).toBe(false);
  latest().step(1_000);
  expect(offlineData.online).toBe(true);
  noteNetworkFailure();
  latest().emit('heartbeat');
  expect(offlineData.online).toBe(true);
  release();
});
