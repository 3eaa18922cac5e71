// Markets (the coin list, the K-line chart): the live last candle, the search, the change pill, and the
// last known prices kept on the device although their store loads with a page chunk after boot.
import { describe, expect, it, vi } from 'vitest';
import { createStore, set } from 'idb-keyval';
import type { Candle, CoinQuote } from '../../src/api-contract/markets.ts';
import { formatChange, searchCoins } from '../../src/features/markets/markets-store.ts';
import { applyTick } from '../../src/lib/candles.ts';

const candle = (time: number, price: string): Candle => ({
  time,
  open: price,
  high: price,
  low: price,
  close: price,
  volume: '1',
});
const at = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('applyTick', () => {
  it('moves high, low and close of the last candle within its period', () => {
    let candles = [candle(600, '100'), candle(660, '100')];
    candles = [...applyTick(candles, { code: 'BTC', price: '103.5', at: at(670) }, 60)];
    candles = [...applyTick(candles, { code: 'BTC', price: '98', at: at(719) }, 60)];
    expect(candles).toHaveLength(2);
    expect(candles[1]).toEqual({ time: 660, open: '100', high: '103.5', low: '98', close: '98', volume: '1' });
  });

  it('opens a new candle at the start of the next period, aligned like the server', () => {
    let candles = [candle(0, '100')];
    candles = [...applyTick(candles, { code: 'BTC', price: '101', at: at(300 + 42) }, 300)];
    expect(candles.at(-1)).toEqual({ time: 300, open: '101', high: '101', low: '101', close: '101', volume: '0' });
  });

  it('ignores a tick older than the last candle', () => {
    let candles = [candle(3600, '100')];
    candles = [...applyTick(candles, { code: 'BTC', price: '1', at: at(3599) }, 3600)];
    expect(candles).toEqual([candle(3600, '100')]);
  });
});

describe('searchCoins', () => {
  const quote = (code: string, name: string) => ({ code, name }) as CoinQuote;
  const quotes = { BTC: quote('BTC', 'Bitcoin'), ETH: quote('ETH', 'Ethereum'), DOGE: quote('DOGE', 'Dogecoin') };
  const codes = ['BTC', 'ETH', 'DOGE'];

  it('matches code or name in any case, in the server order', () => {
    expect(searchCoins(codes, quotes, 'eth').map((q) => q.code)).toEqual(['ETH']);
    expect(searchCoins(codes, quotes, ' COIN ').map((q) => q.code)).toEqual(['BTC', 'DOGE']);
    expect(searchCoins(codes, quotes, '').map((q) => q.code)).toEqual(codes);
    expect(searchCoins(codes, quotes, 'xyz')).toEqual([]);
  });
});

describe('formatChange', () => {
  it('signs the change and picks its colour; no change counts as up', () => {
    expect(formatChange('1.5')).toEqual({ up: true, text: '+1.50%' });
    expect(formatChange('-0.40')).toEqual({ up: false, text: '-0.40%' });
    expect(formatChange('-0.00')).toEqual({ up: true, text: '+0.00%' });
  });
});

describe('prices on the device', () => {
  it('a store registered after boot (a lazy page) still loads what was saved and saves changes', async () => {
    const saved = { quotes: {}, codes: ['BTC'], updatedAt: '2026-01-01T10:00:00.000Z' };
    await set('prices', saved, createStore('coinvest', 'state'));
    vi.resetModules();
    const storage = await import('../../src/lib/storage.ts');
    await storage.hydrateStores();
    const { prices } = await import('../../src/lib/prices.ts');
    await storage.storeHydrated(prices);
    expect(prices.codes).toEqual(['BTC']);

    prices.codes = ['BTC', 'ETH'];
    await storage.flushStores();
    vi.resetModules();
    const next = await import('../../src/lib/storage.ts');
    const again = await import('../../src/lib/prices.ts');
    await next.hydrateStores();
    expect(again.prices.codes).toEqual(['BTC', 'ETH']);
  });
});
