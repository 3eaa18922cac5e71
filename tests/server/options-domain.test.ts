// The option rules as pure functions: what a win, a loss and a tie pay, to the last of
// eight decimals, and the 1 USDT minimum. No database, no HTTP.
import { describe, expect, it } from 'vitest';
import { belowMinimum, settleOption } from '../../src/server/domain/options.ts';

const order = (direction: 'up' | 'down', amount = '12.34567891', yieldRate = '0.85', startPrice = '100') => ({
  direction,
  amount,
  yieldRate,
  startPrice,
});

describe('settleOption', () => {
  it('pays stake × (1 + yield) on a win, rounded down to 8 decimals', () => {
    // 12.34567891 × 1.85 = 22.8395059835
    expect(settleOption(order('up'), '100.01')).toEqual({
      outcome: 'win',
      payout: '22.83950598',
      profit: '10.49382707',
    });
  });

  it('rounds a win down, never up, when the ninth decimal would round up', () => {
    // 1.00000001 × 1.85 = 1.8500000185: half-up rounding would pay 1.85000002
    expect(settleOption(order('up', '1.00000001'), '101')).toEqual({
      outcome: 'win',
      payout: '1.85000001',
      profit: '0.85000000',
    });
    // 3.33333333 × 1.82 = 6.0666666606
    expect(settleOption(order('down', '3.33333333', '0.82'), '99')).toEqual({
      outcome: 'win',
      payout: '6.06666666',
      profit: '2.73333333',
    });
  });

  it('pays nothing on a loss: the whole stake is the loss', () => {
    expect(settleOption(order('up'), '99.99')).toEqual({
      outcome: 'loss',
      payout: '0.00000000',
      profit: '-12.34567891',
    });
  });

  it('gives the stake back on an unchanged price, however the price is written', () => {
    expect(settleOption(order('up'), '100')).toEqual({ outcome: 'tie', payout: '12.34567891', profit: '0.00000000' });
    expect(settleOption(order('down', '5', '0.8', '0.38500'), '0.385000000000')).toEqual({
      outcome: 'tie',
      payout: '5.00000000',
      profit: '0.00000000',
    });
  });

  it('mirrors for Buy short: a fall wins, a rise loses', () => {
    expect(settleOption(order('down'), '99.99')).toEqual({
      outcome: 'win',
      payout: '22.83950598',
      profit: '10.49382707',
    });
    expect(settleOption(order('down'), '100.01')).toEqual({
      outcome: 'loss',
      payout: '0.00000000',
      profit: '-12.34567891',
    });
  });

  it('compares prices exactly, beyond what a float can tell apart', () => {
    const start = '97250.123456789012';
    expect(Number(start)).toBe(Number('97250.123456789013'));
    expect(settleOption(order('up', '10', '0.8', start), '97250.123456789013').outcome).toBe('win');
    expect(settleOption(order('down', '10', '0.8', start), '97250.123456789013').outcome).toBe('loss');
    expect(settleOption(order('up', '10', '0.8', start), '97250.123456789011').outcome).toBe('loss');
  });

  it('pays large stakes without losing a digit', () => {
    expect(settleOption(order('up', '123456789012.12345678', '0.9'), '101')).toEqual({
      outcome: 'win',
      payout: '234567899123.03456788',
      profit: '111111110110.91111110',
    });
  });
});

describe('belowMinimum (at least 1 USDT)', () => {
  it.each([
    ['0.99', true],
    ['0.99999999', true],
    ['0', true],
    ['1', false],
    ['1.00000000', false],
    ['1.00000001', false],
    ['1000', false],
  ])('%s USDT below a minimum of 1: %s', (amount, below) => {
    expect(belowMinimum(amount, '1')).toBe(below);
    expect(belowMinimum(amount, '1.00000000')).toBe(below);
  });

  it('follows the product minimum, not a fixed 1', () => {
    expect(belowMinimum('4.99', '5')).toBe(true);
    expect(belowMinimum('5', '5')).toBe(false);
  });
});
