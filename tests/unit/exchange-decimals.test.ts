// How an exchange's numbers become prices and quantities: read as written (never through a float),
// one canonical spelling, and anything else refused, so garbage never becomes a price.
import { describe, expect, it } from 'vitest';
import { positivePrice, quantity } from '../../src/server/market/exchanges/exchange.ts';

describe('exchange decimals', () => {
  it('spells a price one way: no trailing zeros after the point', () => {
    expect(positivePrice('97190.10')).toBe('97190.1');
    expect(positivePrice('97190.00')).toBe('97190');
    expect(positivePrice('100')).toBe('100');
    expect(positivePrice('0.00012300')).toBe('0.000123');
    expect(positivePrice(97192)).toBe('97192');
    expect(positivePrice(0.1)).toBe('0.1');
  });

  it('refuses zero, signs, exponents, leading zeros and anything not a decimal', () => {
    for (const value of [
      '0',
      '0.000',
      '-1',
      '1e5',
      '01.5',
      '1.',
      '.5',
      '',
      ' 1',
      'NaN',
      null,
      undefined,
      {},
      -3,
      Number.NaN,
      Infinity,
    ])
      expect(positivePrice(value), String(value)).toBeNull();
  });

  it('takes a zero quantity but nothing negative or malformed', () => {
    expect(quantity('0')).toBe('0');
    expect(quantity('0.500')).toBe('0.5');
    expect(quantity(0.25)).toBe('0.25');
    for (const value of ['-0.5', '1e-7x', 'abc', -1]) expect(quantity(value), String(value)).toBeNull();
  });

  it('reads a JSON number as the decimal it was written as, also where JavaScript would print an exponent', () => {
    expect(quantity(1e-7)).toBe('0.0000001');
    expect(positivePrice(123456.789)).toBe('123456.789');
    expect(quantity(0)).toBe('0');
    // 1e21 prints with an exponent and has 22 digits: more than an exchange's decimal may have.
    expect(quantity(1e21)).toBeNull();
  });
});
