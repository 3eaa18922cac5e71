import { describe, expect, it } from 'vitest';
import type { CoinQuote } from '../../src/api-contract/markets.ts';
import { priceReading, type PriceConditions } from '../../src/lib/price-reading.ts';

const quote: CoinQuote = {
  code: 'BTC',
  name: 'Bitcoin',
  price: '91234.50',
  at: '2026-11-30T01:02:03.000Z',
  change_24h: '-1.25',
  open_24h: '92389.37',
  high_24h: '93000.00',
  low_24h: '90000.00',
  volume_24h: '1234.5',
  price_decimals: 2,
  simulated: true,
  seeded: false,
  halted: false,
  exchanges: 0,
};
const live: PriceConditions = { online: true, cachedSince: null, stream: 'live' };

describe('what "Read price" says of a price', () => {
  it('reads a price as live only while the stream is live and the coin trades', () => {
    expect(priceReading(quote, live)).toEqual({ kind: 'live', quote });
    for (const stream of ['idle', 'connecting', 'reconnecting', 'paused'] as const)
      expect(priceReading(quote, { ...live, stream }).kind).toBe('stale');
  });

  it('says a halted coin’s price is its last recorded one, live stream or not', () => {
    const halted = { ...quote, halted: true };
    expect(priceReading(halted, live)).toEqual({ kind: 'paused', quote: halted });
    expect(priceReading(halted, { ...live, stream: 'reconnecting' }).kind).toBe('paused');
  });

  it('says offline first, as of the cached list on screen, else as of the price itself', () => {
    const cachedSince = '2026-11-30T00:55:00.000Z';
    expect(priceReading(quote, { online: false, cachedSince, stream: 'reconnecting' })).toEqual({
      kind: 'offline',
      quote,
      since: cachedSince,
    });
    expect(priceReading({ ...quote, halted: true }, { online: false, cachedSince: null, stream: 'live' })).toEqual({
      kind: 'offline',
      quote: { ...quote, halted: true },
      since: quote.at,
    });
  });

  it('has nothing to read before the coin’s first price', () => {
    expect(priceReading(undefined, live)).toEqual({ kind: 'none' });
  });
});
