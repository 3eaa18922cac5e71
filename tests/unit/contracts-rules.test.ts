// The rules of a contract fill (src/api-contract/contracts.ts), the same the order form shows and the
// server posts: fees and rounding per tick and step size, the quantity a USDT total buys, the grid,
// crossing and the price band. Every expected amount below is worked out by hand; several are
// cases where float arithmetic gives a different answer, and the test says which.
import { describe, expect, it } from 'vitest';
import Big from 'big.js';
import {
  crosses,
  fillAmounts,
  gridStep,
  limitReserve,
  notional,
  onGrid,
  outsideBand,
  quantityForTotal,
} from '../../src/api-contract/contracts.ts';

/** An amount on the wire: a decimal string with exactly 8 decimals. */
const AMOUNT_8 = /^\d+\.\d{8}$/;

describe('fillAmounts: a market buy pays its fee in the coin, out of what it receives', () => {
  it('BTC by quantity: spends exactly price × quantity, receives the quantity less the fee', () => {
    expect(fillAmounts('buy', 'market', 'BTC', '50000', '0.1', '0.001')).toEqual({
      total: '5000.00000000',
      fee: '0.00010000',
      fee_asset: 'BTC',
      spent: '5000.00000000',
      spent_asset: 'USDT',
      received: '0.09990000',
      received_asset: 'BTC',
    });
  });

  it('rounds the fee up to 8 decimals and what arrives down: 0.00013 BTC × 0.075 % = 0.0000000975 → fee 0.00000010', () => {
    const fill = fillAmounts('buy', 'market', 'BTC', '97250.37', '0.00013', '0.00075');
    // 97250.37 × 0.00013 = 12.6425481 (7 decimals: nothing to round)
    expect(fill).toMatchObject({
      total: '12.64254810',
      spent: '12.64254810',
      fee: '0.00000010',
      fee_asset: 'BTC',
      received: '0.00012990',
    });
  });

  it('DOGE (whole coins): 13 at 0.38517 costs 5.00721, 0.013 DOGE of fee', () => {
    expect(fillAmounts('buy', 'market', 'DOGE', '0.38517', '13', '0.001')).toMatchObject({
      total: '5.00721000',
      spent: '5.00721000',
      fee: '0.01300000',
      received: '12.98700000',
      received_asset: 'DOGE',
    });
  });

  it('a recorded price with more than 8 decimals: the user pays the cost rounded up', () => {
    // 0.123456789 × 3 = 0.370370367 → 0.37037037 paid
    expect(fillAmounts('buy', 'market', 'DOGE', '0.123456789', '3', '0.001')).toMatchObject({
      total: '0.37037037',
      spent: '0.37037037',
      fee: '0.00300000',
      received: '2.99700000',
    });
  });
});

describe('fillAmounts: a limit buy pays its fee in USDT beside the cost, and receives the whole quantity', () => {
  it('BTC 0.00013 at 97250.37: cost 12.6425481, fee 0.0126425481 → 0.01264255 (up), spent 12.65519065', () => {
    expect(fillAmounts('buy', 'limit', 'BTC', '97250.37', '0.00013', '0.001')).toEqual({
      total: '12.64254810',
      fee: '0.01264255',
      fee_asset: 'USDT',
      spent: '12.65519065',
      spent_asset: 'USDT',
      received: '0.00013000',
      received_asset: 'BTC',
    });
  });

  it('LTC 2 at 95: 190 + 0.19 (the order form and the freeze show the same)', () => {
    expect(fillAmounts('buy', 'limit', 'LTC', '95.00', '2', '0.001')).toMatchObject({
      total: '190.00000000',
      fee: '0.19000000',
      spent: '190.19000000',
      received: '2.00000000',
    });
  });

  it('XRP 6.9 at 1.4001 costs exactly 9.66069 (floats round it up to 9.66069001)', () => {
    expect(Math.ceil(1.4001 * 6.9 * 1e8) / 1e8).toBe(9.66069001); // the trap
    expect(fillAmounts('buy', 'limit', 'XRP', '1.4001', '6.9', '0.001')).toMatchObject({
      total: '9.66069000',
      fee: '0.00966069',
      spent: '9.67035069',
      received: '6.90000000',
    });
  });

  it('DOGE 7 at 0.71429, fee 0.075 %: 5.00003 + 0.0037500225 → 0.00375003', () => {
    expect(fillAmounts('buy', 'limit', 'DOGE', '0.71429', '7', '0.00075')).toMatchObject({
      total: '5.00003000',
      fee: '0.00375003',
      spent: '5.00378003',
      received: '7.00000000',
    });
  });
});

describe('fillAmounts: a sell pays its fee in USDT, out of what it receives', () => {
  it('BTC 0.00013 at 97250.37: gross 12.6425481, fee 0.01264255 (up), receives 12.62990555', () => {
    expect(fillAmounts('sell', 'limit', 'BTC', '97250.37', '0.00013', '0.001')).toEqual({
      total: '12.64254810',
      fee: '0.01264255',
      fee_asset: 'USDT',
      spent: '0.00013000',
      spent_asset: 'BTC',
      received: '12.62990555',
      received_asset: 'USDT',
    });
  });

  it('a market sell and a limit sell at the same price are the same fill', () => {
    expect(fillAmounts('sell', 'market', 'SOL', '200.00', '1.5', '0.001')).toEqual(
      fillAmounts('sell', 'limit', 'SOL', '200', '1.50', '0.001'),
    );
    expect(fillAmounts('sell', 'market', 'SOL', '200.00', '1.5', '0.001')).toMatchObject({
      total: '300.00000000',
      fee: '0.30000000',
      received: '299.70000000',
    });
  });

  it('a recorded price with more than 8 decimals: the user receives the gross rounded down', () => {
    // 0.123456789 × 3 = 0.370370367 → 0.37037036; fee 0.00037037036 → 0.00037038
    expect(fillAmounts('sell', 'market', 'DOGE', '0.123456789', '3', '0.001')).toMatchObject({
      total: '0.37037036',
      fee: '0.00037038',
      received: '0.36999998',
    });
  });

  it('DOGE 7 at 0.71429, fee 0.075 %: receives 5.00003 − 0.00375003 = 4.99627997', () => {
    expect(fillAmounts('sell', 'limit', 'DOGE', '0.71429', '7', '0.00075')).toMatchObject({
      total: '5.00003000',
      fee: '0.00375003',
      spent: '7.00000000',
      received: '4.99627997',
    });
  });
});

describe('fillAmounts over a grid of prices and quantities', () => {
  // DOGE-like (5 price decimals, whole coins), BTC (2 / 5), XRP (4 / 1); three fee rates.
  const cases = [
    ...['0.38517', '0.10000', '0.71429', '1.00001'].flatMap((price) =>
      ['7', '13', '31', '99999'].map((quantity) => ({ code: 'DOGE', price, quantity })),
    ),
    ...['97250.37', '49999.99', '0.01'].flatMap((price) =>
      ['0.00001', '0.00013', '0.12345', '3.99999'].map((quantity) => ({ code: 'BTC', price, quantity })),
    ),
    ...['1.4001', '0.0001', '3.3333'].flatMap((price) =>
      ['0.1', '6.9', '12345.6'].map((quantity) => ({ code: 'XRP', price, quantity })),
    ),
  ].flatMap((c) => ['0.001', '0.00075', '0.002'].map((feeRate) => ({ ...c, feeRate })));

  it('answers decimal strings of 8 decimals, the user pays up and receives down, and nothing is created or lost', () => {
    for (const { code, price, quantity, feeRate } of cases) {
      const worth = new Big(price).times(quantity);
      for (const side of ['buy', 'sell'] as const) {
        for (const type of ['market', 'limit'] as const) {
          const fill = fillAmounts(side, type, code, price, quantity, feeRate);
          const label = `${side} ${type} ${quantity} ${code} at ${price}, fee ${feeRate}`;
          for (const amount of [fill.total, fill.fee, fill.spent, fill.received])
            expect(amount, label).toMatch(AMOUNT_8);
          const fee = new Big(fill.fee);
          if (side === 'sell') {
            expect(new Big(fill.total).lte(worth) && new Big(fill.total).gt(worth.minus('0.00000001')), label).toBe(
              true,
            );
            expect(
              fee.gte(new Big(fill.total).times(feeRate)) &&
                fee.lt(new Big(fill.total).times(feeRate).plus('0.00000001')),
              label,
            ).toBe(true);
            expect(new Big(fill.received).plus(fee).eq(fill.total), label).toBe(true);
            expect(fill.spent, label).toBe(new Big(quantity).toFixed(8));
          } else if (type === 'market') {
            expect(new Big(fill.spent).gte(worth) && new Big(fill.spent).lt(worth.plus('0.00000001')), label).toBe(
              true,
            );
            expect(new Big(fill.received).plus(fee).eq(quantity), label).toBe(true);
          } else {
            const cost = new Big(fill.total);
            expect(cost.gte(worth) && cost.lt(worth.plus('0.00000001')), label).toBe(true);
            expect(new Big(fill.spent).eq(cost.plus(fee)), label).toBe(true);
            expect(fill.received, label).toBe(new Big(quantity).toFixed(8));
            // What a resting buy freezes is exactly what its fill spends: nothing left over, nothing short.
            expect(limitReserve('buy', code, price, quantity, feeRate), label).toEqual({
              asset: 'USDT',
              amount: fill.spent,
            });
          }
        }
      }
    }
  });
});

describe('limitReserve', () => {
  it('a buy holds cost + fee in USDT, each rounded up to 8 decimals', () => {
    expect(limitReserve('buy', 'LTC', '95.00', '2', '0.001')).toEqual({ asset: 'USDT', amount: '190.19000000' });
    expect(limitReserve('buy', 'BTC', '97250.37', '0.00013', '0.001')).toEqual({
      asset: 'USDT',
      amount: '12.65519065',
    });
    expect(limitReserve('buy', 'XRP', '1.3000', '100', '0.001')).toEqual({ asset: 'USDT', amount: '130.13000000' });
  });

  it('a sell holds its quantity of the coin', () => {
    expect(limitReserve('sell', 'DOGE', '0.38517', '13', '0.001')).toEqual({ asset: 'DOGE', amount: '13.00000000' });
    expect(limitReserve('sell', 'BTC', '97250.37', '0.00013', '0.001')).toEqual({ asset: 'BTC', amount: '0.00013000' });
  });
});

describe('quantityForTotal', () => {
  it('rounds down to the step: 100 USDT of ETH at 3333.33 buys 0.0300', () => {
    expect(quantityForTotal('100', '3333.33', 4)).toBe('0.0300');
  });

  it('DOGE: 11.78 USDT at 0.38000 buys exactly 31 (floats say 30)', () => {
    expect(Math.floor(11.78 / 0.38)).toBe(30); // the trap: 30.999999999999996
    expect(quantityForTotal('11.78', '0.38000', 0)).toBe('31');
    expect(quantityForTotal('0.3', '0.10000', 0)).toBe('3');
  });

  it('BTC: 1000 USDT at 97250.37 buys 0.01028 (0.01029 would cost 1000.70630)', () => {
    expect(quantityForTotal('1000', '97250.37', 5)).toBe('0.01028');
    expect(notional('97250.37', '0.01029').toFixed()).toBe('1000.7063073');
  });

  it('answers 0 when the total buys less than one step', () => {
    expect(quantityForTotal('0.38', '0.38517', 0)).toBe('0');
    expect(quantityForTotal('0.9', '97250.37', 5)).toBe('0.00000');
  });

  it('never spends more than the total, and one step more always would', () => {
    const pairs = [
      { decimals: 0, prices: ['0.38517', '0.38000', '0.10000', '0.00001', '1.23456'] },
      { decimals: 5, prices: ['97250.37', '0.01', '33333.33'] },
      { decimals: 1, prices: ['1.4001', '0.0003', '3.3333'] },
    ];
    const totals = ['0.3', '5', '11.78', '100', '999.99999999', '12345.6789', '1000000'];
    for (const { decimals, prices } of pairs) {
      for (const price of prices) {
        for (const total of totals) {
          const quantity = quantityForTotal(total, price, decimals);
          const label = `${total} USDT at ${price}, ${decimals} decimals → ${quantity}`;
          expect(onGrid(quantity, decimals), label).toBe(true);
          expect(notional(price, quantity).lte(total), label).toBe(true);
          expect(notional(price, new Big(quantity).plus(gridStep(decimals)).toFixed()).gt(total), label).toBe(true);
        }
      }
    }
  });
});

describe('notional and the minimum', () => {
  it('is price × quantity exactly, as a decimal', () => {
    expect(notional('0.1', '3').toFixed()).toBe('0.3'); // floats: 0.30000000000000004
    expect(notional('0.38517', '13').toFixed()).toBe('5.00721');
    expect(notional('97250.37', '0.00013').toFixed()).toBe('12.6425481'); // floats: 12.642548099999999
  });

  it('an order worth exactly the minimum is allowed, one step less is not', () => {
    const minimum = '5';
    expect(notional('0.50000', '10').lt(minimum)).toBe(false);
    expect(notional('0.50000', '9').lt(minimum)).toBe(true);
    expect(notional('50000.00', '0.0001').lt(minimum)).toBe(false);
    expect(notional('49999.99', '0.0001').lt(minimum)).toBe(true);
  });
});

describe('onGrid and gridStep', () => {
  it.each([
    ['97250.37', 2, true],
    ['97250.370', 2, true],
    ['97250.371', 2, false],
    ['0.38517', 5, true],
    ['0.385171', 5, false],
    ['13', 0, true],
    ['13.0', 0, true],
    ['13.5', 0, false],
    ['0.00001', 5, true],
    ['0.000001', 5, false],
    ['0.1', 1, true],
    ['123456789012345.12345678', 8, true],
    ['123456789012345.123456789', 8, false],
  ] as const)('%s with %i decimals: %s', (value, decimals, expected) => {
    expect(onGrid(value, decimals)).toBe(expected);
  });

  it('one step of each size, as a decimal string', () => {
    expect(gridStep(0)).toBe('1');
    expect(gridStep(1)).toBe('0.1');
    expect(gridStep(2)).toBe('0.01');
    expect(gridStep(5)).toBe('0.00001');
    expect(gridStep(8)).toBe('0.00000001');
  });
});

describe('crosses', () => {
  it('a buy is crossed by a tick at or below its price', () => {
    expect(crosses('buy', '95.00', '95.00')).toBe(true);
    expect(crosses('buy', '95.00', '95')).toBe(true); // the same price, spelt differently
    expect(crosses('buy', '95.00', '94.99')).toBe(true);
    expect(crosses('buy', '95.00', '95.01')).toBe(false);
    expect(crosses('buy', '0.38517', '0.38518')).toBe(false);
    expect(crosses('buy', '0.38517', '0.385170000001')).toBe(false);
  });

  it('a sell is crossed by a tick at or above its price', () => {
    expect(crosses('sell', '8.500', '8.5')).toBe(true);
    expect(crosses('sell', '8.500', '8.501')).toBe(true);
    expect(crosses('sell', '8.500', '8.499')).toBe(false);
    expect(crosses('sell', '0.38517', '0.385169999999')).toBe(false);
    expect(crosses('sell', '0.38517', '0.38517')).toBe(true);
  });
});

describe('outsideBand', () => {
  it('BTC at 50,000 with a 10 % band: exactly 10 % away is inside, one tick more is outside', () => {
    expect(outsideBand('55000.00', '50000.00', '0.1')).toBe(false);
    expect(outsideBand('55000.01', '50000.00', '0.1')).toBe(true);
    expect(outsideBand('45000.00', '50000.00', '0.1')).toBe(false);
    expect(outsideBand('44999.99', '50000.00', '0.1')).toBe(true);
    expect(outsideBand('50000.00', '50000.00', '0.1')).toBe(false);
  });

  it('DOGE at 0.385: 0.3465 is exactly 10 % below, inside (floats put it outside)', () => {
    expect(Math.abs(0.3465 - 0.385) > 0.385 * 0.1).toBe(true); // the trap
    expect(outsideBand('0.34650', '0.38500', '0.1')).toBe(false);
    expect(outsideBand('0.34649', '0.38500', '0.1')).toBe(true);
    expect(outsideBand('0.42350', '0.385', '0.1')).toBe(false);
    expect(outsideBand('0.42351', '0.385', '0.1')).toBe(true);
  });

  it('a narrower band set by the operator', () => {
    expect(outsideBand('102.5', '100', '0.025')).toBe(false);
    expect(outsideBand('102.51', '100', '0.025')).toBe(true);
    expect(outsideBand('97.5', '100', '0.025')).toBe(false);
    expect(outsideBand('97.49', '100', '0.025')).toBe(true);
  });
});
