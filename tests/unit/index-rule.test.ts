// The index rule: median of fresh exchange prices after dropping outliers; fewer than two halt the coin.
import { describe, expect, it } from 'vitest';
import { INDEX_RULE, indexPrice, median, type Constituent } from '../../src/server/market/index-rule.ts';

const now = new Date('2026-11-25T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const quote = (exchange: string, price: string, ageMs = 0): Constituent => ({
  exchange,
  price,
  at: ago(ageMs),
  tradeId: `${exchange}-${price}`,
});

describe('median', () => {
  it('takes the middle price, or the exact mean of the middle two', () => {
    expect(median(['3', '1', '2']).toFixed()).toBe('2');
    expect(median(['97190.10', '97190.83']).toFixed()).toBe('97190.465');
    expect(median(['0.00000001', '0.00000002']).toFixed()).toBe('0.000000015');
  });
});

describe('indexPrice', () => {
  it('is the median of three fresh prices, and keeps them as its constituents', () => {
    const result = indexPrice(
      [quote('okx', '97190.83', 400), quote('binance', '97190.10', 100), quote('kraken', '97192.00', 900)],
      now,
    );
    expect(result).toEqual({
      halted: false,
      price: '97190.83',
      used: [quote('binance', '97190.10', 100), quote('kraken', '97192.00', 900), quote('okx', '97190.83', 400)],
      dropped: [],
    });
  });

  it('leaves out a price older than 5 s and still prices from the other two', () => {
    const result = indexPrice(
      [quote('binance', '100', 0), quote('okx', '101', 1_000), quote('kraken', '90', INDEX_RULE.freshMs + 1)],
      now,
    );
    expect(result).toMatchObject({ halted: false, price: '100.5', dropped: [{ exchange: 'kraken', reason: 'stale' }] });
  });

  it('counts a price exactly 5 s old as fresh', () => {
    expect(indexPrice([quote('binance', '100', INDEX_RULE.freshMs), quote('okx', '100', 0)], now)).toMatchObject({
      halted: false,
      price: '100',
    });
  });

  it('drops an exchange lying by 5 % and never lets it move the price', () => {
    const result = indexPrice([quote('binance', '100.00'), quote('okx', '100.10'), quote('kraken', '105.00')], now);
    expect(result).toMatchObject({
      halted: false,
      price: '100.05',
      dropped: [{ exchange: 'kraken', reason: 'outlier' }],
    });
    expect(result.used.map((constituent) => constituent.exchange)).toEqual(['binance', 'okx']);
  });

  it('keeps a price just inside the 2 % band', () => {
    const result = indexPrice([quote('binance', '100'), quote('okx', '100'), quote('kraken', '102')], now);
    expect(result).toMatchObject({ halted: false, price: '100', dropped: [] });
  });

  it('halts with fewer than two fresh prices', () => {
    expect(indexPrice([quote('binance', '100')], now)).toMatchObject({ halted: true });
    expect(
      indexPrice([quote('binance', '100'), quote('okx', '100', 6_000), quote('kraken', '100', 60_000)], now),
    ).toMatchObject({ halted: true, used: [{ exchange: 'binance' }] });
    expect(indexPrice([], now)).toEqual({ halted: true, used: [], dropped: [] });
  });

  it('halts when the only two prices disagree by more than the band allows: neither can be trusted', () => {
    expect(indexPrice([quote('binance', '100'), quote('okx', '105')], now)).toMatchObject({ halted: true, used: [] });
  });

  it('takes a price from an exchange whose clock runs a little ahead as fresh', () => {
    expect(indexPrice([quote('binance', '100', -800), quote('okx', '100.2')], now)).toMatchObject({
      halted: false,
      price: '100.1',
    });
  });

  it('leaves out a price stamped further ahead than the freshness window: a wrong clock never keeps a coin priced', () => {
    const result = indexPrice(
      [quote('binance', '100', -3_600_000), quote('okx', '100.2'), quote('kraken', '100.1', -INDEX_RULE.freshMs)],
      now,
    );
    expect(result).toMatchObject({
      halted: false,
      price: '100.15',
      dropped: [{ exchange: 'binance', reason: 'ahead' }],
    });
    // The others quiet: the price an hour ahead alone cannot price the coin.
    expect(indexPrice([quote('binance', '100', -3_600_000), quote('okx', '100.2', 60_000)], now)).toMatchObject({
      halted: true,
      used: [],
    });
  });

  it('keeps each price’s trade id with it', () => {
    expect(
      indexPrice([quote('binance', '100'), quote('okx', '100.2')], now).used.map((constituent) => constituent.tradeId),
    ).toEqual(['binance-100', 'okx-100.2']);
  });
});
