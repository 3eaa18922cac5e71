// The FIFO rule of realised profit and loss (src/server/domain/fifo.ts) against cases computed by hand: partial lots, a
// sell larger than one lot, fees on both sides (with the amounts a real fill posts), several pairs, a sell with no lot,
// the order fills are given in, and rounding that never loses a cent of a lot's cost. No database.
import { describe, expect, it } from 'vitest';
import Big from 'big.js';
import { fillAmounts } from '../../src/api-contract/contracts.ts';
import { applyFifo, type FifoFill } from '../../src/server/domain/fifo.ts';

let ids = 0;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 8, minute));
const buy = (code: string, minute: number, spent: string, received: string): FifoFill => ({
  id: ++ids,
  code,
  side: 'buy',
  at: at(minute),
  spent,
  received,
});
const sell = (code: string, minute: number, spent: string, received: string): FifoFill => ({
  id: ++ids,
  code,
  side: 'sell',
  at: at(minute),
  spent,
  received,
});

/** A disposal's figures as 8-decimal strings. */
const figures = (result: ReturnType<typeof applyFifo>) =>
  result.disposals.map((d) => ({
    code: d.code,
    quantity: d.quantity.toFixed(8),
    proceeds: d.proceeds.toFixed(8),
    cost: d.cost.toFixed(8),
    realised: d.realised.toFixed(8),
    unmatched: d.unmatched.toFixed(8),
  }));
const lotsOf = (result: ReturnType<typeof applyFifo>, code: string) =>
  (result.lots.get(code) ?? []).map((lot) => ({ quantity: lot.quantity.toFixed(8), cost: lot.cost.toFixed(8) }));

describe('FIFO', () => {
  it('takes part of the oldest lot at its share of the cost, then a sell larger than one lot takes the oldest first', () => {
    // Buy 2 BTC for 200, buy 3 BTC for 360; sell 1 for 150: half of the first lot, cost 100, realised 50.
    // Then sell 3 for 390: the first lot's last 1 (cost 100) and 2 of the second (360 × 2/3 = 240): cost 340, +50.
    const result = applyFifo([
      buy('BTC', 1, '200', '2'),
      buy('BTC', 2, '360', '3'),
      sell('BTC', 3, '1', '150'),
      sell('BTC', 4, '3', '390'),
    ]);
    expect(figures(result)).toEqual([
      {
        code: 'BTC',
        quantity: '1.00000000',
        proceeds: '150.00000000',
        cost: '100.00000000',
        realised: '50.00000000',
        unmatched: '0.00000000',
      },
      {
        code: 'BTC',
        quantity: '3.00000000',
        proceeds: '390.00000000',
        cost: '340.00000000',
        realised: '50.00000000',
        unmatched: '0.00000000',
      },
    ]);
    expect(lotsOf(result, 'BTC')).toEqual([{ quantity: '1.00000000', cost: '120.00000000' }]);
  });

  it('puts a buy fee in the cost (in USDT or taken from the coin) and takes a sell fee from the proceeds', () => {
    // The amounts a real fill posts at a 0.1 % fee: a limit buy of 1 ETH at 100 spends 100.1 USDT for 1 ETH; a market
    // buy of 1 ETH at 110 spends 110 USDT for 0.999 ETH; a limit sell of 1.5 ETH at 120 receives 180 − 0.18 = 179.82.
    const limitBuy = fillAmounts('buy', 'limit', 'ETH', '100', '1', '0.001');
    const marketBuy = fillAmounts('buy', 'market', 'ETH', '110', '1', '0.001');
    const limitSell = fillAmounts('sell', 'limit', 'ETH', '120', '1.5', '0.001');
    expect([limitBuy.spent, limitBuy.received, marketBuy.spent, marketBuy.received, limitSell.received]).toEqual([
      '100.10000000',
      '1.00000000',
      '110.00000000',
      '0.99900000',
      '179.82000000',
    ]);
    const result = applyFifo([
      buy('ETH', 1, limitBuy.spent, limitBuy.received),
      buy('ETH', 2, marketBuy.spent, marketBuy.received),
      sell('ETH', 3, limitSell.spent, limitSell.received),
    ]);
    // Cost: the first lot whole (100.1) and 0.5 of the second's 0.999 ETH: 110 × 0.5 / 0.999 = 55.055055… → 55.05505506
    expect(figures(result)).toEqual([
      {
        code: 'ETH',
        quantity: '1.50000000',
        proceeds: '179.82000000',
        cost: '155.15505506',
        realised: '24.66494494',
        unmatched: '0.00000000',
      },
    ]);
    // What is left of the second lot costs the rest of its 110 exactly.
    expect(lotsOf(result, 'ETH')).toEqual([{ quantity: '0.49900000', cost: '54.94494494' }]);
  });

  it('keeps the lots of each pair apart, whatever the order the fills are given in', () => {
    const fills = [
      buy('BTC', 1, '100', '1'),
      buy('ETH', 2, '10', '1'),
      buy('BTC', 3, '300', '1'),
      sell('ETH', 4, '1', '12'),
      sell('BTC', 5, '1', '250'),
      buy('ETH', 6, '20', '1'),
      sell('ETH', 7, '0.5', '9'),
    ];
    const expected = [
      { code: 'ETH', quantity: '1.00000000', proceeds: '12.00000000', cost: '10.00000000', realised: '2.00000000' },
      { code: 'BTC', quantity: '1.00000000', proceeds: '250.00000000', cost: '100.00000000', realised: '150.00000000' },
      { code: 'ETH', quantity: '0.50000000', proceeds: '9.00000000', cost: '10.00000000', realised: '-1.00000000' },
    ].map((row) => ({ ...row, unmatched: '0.00000000' }));
    expect(figures(applyFifo(fills))).toEqual(expected);
    expect(figures(applyFifo([...fills].reverse()))).toEqual(expected);
    const result = applyFifo(fills);
    expect(lotsOf(result, 'BTC')).toEqual([{ quantity: '1.00000000', cost: '300.00000000' }]);
    expect(lotsOf(result, 'ETH')).toEqual([{ quantity: '0.50000000', cost: '10.00000000' }]);
  });

  it('sells beyond every lot: the rest has no recorded cost and is named unmatched', () => {
    // Buy 2 DOGE for 1; sell 5 for 3: the 2 held cost 1, the 3 others came from outside trading (cost 0).
    const result = applyFifo([buy('DOGE', 1, '1', '2'), sell('DOGE', 2, '5', '3'), sell('DOGE', 3, '1', '0.6')]);
    expect(figures(result)).toEqual([
      {
        code: 'DOGE',
        quantity: '5.00000000',
        proceeds: '3.00000000',
        cost: '1.00000000',
        realised: '2.00000000',
        unmatched: '3.00000000',
      },
      {
        code: 'DOGE',
        quantity: '1.00000000',
        proceeds: '0.60000000',
        cost: '0.00000000',
        realised: '0.60000000',
        unmatched: '1.00000000',
      },
    ]);
    expect(lotsOf(result, 'DOGE')).toEqual([]);
  });

  it('splits a lot into thirds without losing its cost to rounding', () => {
    // 3 units for 10 USDT sold one at a time: 10 / 3 → 3.33333333 (6.66666667 left for 2 units); 6.66666667 / 2 =
    // 3.333333335 → 3.33333334 (half up); the last unit takes the 3.33333333 left.
    const result = applyFifo([
      buy('XRP', 1, '10', '3'),
      sell('XRP', 2, '1', '4'),
      sell('XRP', 3, '1', '4'),
      sell('XRP', 4, '1', '4'),
    ]);
    expect(result.disposals.map((d) => d.cost.toFixed(8))).toEqual(['3.33333333', '3.33333334', '3.33333333']);
    expect(result.disposals.reduce((sum, d) => sum.plus(d.cost), new Big(0)).toFixed(8)).toBe('10.00000000');
    expect(lotsOf(result, 'XRP')).toEqual([]);
  });
});
