// The trigger rule of conditional contract orders against hand-worked cases: which way each kind waits, the first tick
// after acceptance that reaches it (never one stamped before), the OCO pair's winner when ticks gap through both legs
// (a tie to the stop-loss), the side a trigger must be on when placed, and what a stop-market freezes.
import { describe, expect, it } from 'vitest';
import {
  firstReaching,
  ocoTrigger,
  onItsSide,
  reaches,
  stopMarketReserve,
  triggersAbove,
  type RecordedTick,
} from '../../src/api-contract/contract-triggers.ts';
import { checkLegs, checkOrderRules } from '../../src/api-contract/contracts.ts';

const at = (second: number) => new Date(Date.UTC(2027, 0, 1, 0, 0, second));
const series = (...prices: string[]): RecordedTick[] => prices.map((price, i) => ({ at: at(i + 1), price }));

describe('which way a trigger waits', () => {
  it('a stop buy rises, a stop sell falls; a take-profit the other way; a stop-loss as a stop', () => {
    expect(triggersAbove('buy', null)).toBe(true);
    expect(triggersAbove('sell', null)).toBe(false);
    expect(triggersAbove('sell', 'take_profit')).toBe(true);
    expect(triggersAbove('sell', 'stop_loss')).toBe(false);
    expect(triggersAbove('buy', 'take_profit')).toBe(false);
    expect(triggersAbove('buy', 'stop_loss')).toBe(true);
  });

  it('reaches at the trigger itself, not a hair short of it', () => {
    expect(reaches(true, '51000', '51000.00')).toBe(true);
    expect(reaches(true, '51000', '50999.99')).toBe(false);
    expect(reaches(false, '45000', '45000')).toBe(true);
    expect(reaches(false, '45000', '45000.01')).toBe(false);
  });
});

describe('the first reaching tick', () => {
  const stop = { above: true, trigger: '105', eligibleAfter: at(2) };
  it('is the first at or through the trigger recorded after acceptance', () => {
    // Second 1 (before acceptance) is through the trigger; 3 is short; 4 is exactly on it; 5 is further through.
    const ticks = series('110', '100', '104.99', '105', '120');
    expect(firstReaching(stop, ticks)).toEqual({ at: at(4), price: '105' });
  });
  it('is none while only ticks stamped at or before acceptance reach it', () => {
    expect(firstReaching(stop, series('110', '106', '100'))).toBeNull();
  });
});

describe('an OCO pair (a sell: take-profit 110 above, stop-loss 90 below, accepted at second 0)', () => {
  const legs = [
    { leg: 'take_profit' as const, above: true, trigger: '110', eligibleAfter: at(0) },
    { leg: 'stop_loss' as const, above: false, trigger: '90', eligibleAfter: at(0) },
  ];
  it('a gap down then up: the stop-loss, reached at second 2, wins', () => {
    expect(ocoTrigger(legs, series('100', '85', '115'))).toEqual({ leg: legs[1], tick: { at: at(2), price: '85' } });
  });
  it('a gap up then down: the take-profit, reached at second 1, wins', () => {
    expect(ocoTrigger(legs, series('111', '80'))).toEqual({ leg: legs[0], tick: { at: at(1), price: '111' } });
  });
  it('one tick reaching both (legs crossed: take-profit 95, stop-loss 96 at 95.5): the stop-loss', () => {
    const crossed = [
      { ...legs[0]!, trigger: '95' },
      { ...legs[1]!, trigger: '96' },
    ];
    expect(ocoTrigger(crossed, series('95.5'))?.leg.leg).toBe('stop_loss');
    expect(ocoTrigger([...crossed].reverse(), series('95.5'))?.leg.leg).toBe('stop_loss');
  });
  it('none while neither is reached', () => {
    expect(ocoTrigger(legs, series('100', '109.99', '90.01'))).toBeNull();
  });
});

describe('placing', () => {
  const pair = { price_decimals: 2, quantity_decimals: 5, min_notional: '5', price_band: '0.1' };
  const order = { side: 'buy' as const, type: 'stop_market' as const, price: '', quantity: '0.1', total: '' };
  it('a trigger must be strictly on its side of the latest price', () => {
    expect(onItsSide(true, '100.01', '100')).toBe(true);
    expect(onItsSide(true, '100', '100')).toBe(false);
    expect(checkOrderRules({ ...order, trigger_price: '50000.00' }, pair, '50000')).toMatchObject({
      broken: { values: { 0: '50000' } },
    });
    expect(checkOrderRules({ ...order, trigger_price: '50000.01' }, pair, '50000')).toEqual({ quantity: '0.10000' });
  });
  it('a stop-limit’s price stays within the band around its trigger', () => {
    const stopLimit = { ...order, type: 'stop_limit' as const, trigger_price: '60000.00' };
    // 10 % of 60000 is 6000: 66000 is on the edge, 66000.01 beyond it (it is 32 % from the market price, which is
    // fine).
    expect(checkOrderRules({ ...stopLimit, price: '66000.00' }, pair, '50000')).toEqual({ quantity: '0.10000' });
    expect(checkOrderRules({ ...stopLimit, price: '66000.01' }, pair, '50000')).toHaveProperty('broken');
  });
  it('take-profit above and stop-loss below the price the legs protect', () => {
    expect(checkLegs('110.00', '90.00', '100', 2)).toBeNull();
    expect(checkLegs('100.00', '', '100', 2)?.values).toEqual({ 0: '100' });
    expect(checkLegs('', '100.00', '100', 2)?.values).toEqual({ 0: '100' });
    expect(checkLegs('110.001', '', '100', 2)?.values).toEqual({ 0: '0.01' });
  });
  it('a stop-market buy freezes quantity × trigger × (1 + band), rounded up; a sell its quantity', () => {
    // 0.00003 × 51000.01 × 1.1 = 1.683000330 → 1.68300033
    expect(stopMarketReserve('buy', 'BTC', '51000.01', '0.00003', '0.1')).toEqual({
      asset: 'USDT',
      amount: '1.68300033',
    });
    // 0.3 × 0.33333 × 1.1 = 0.1099989 → 0.10999890
    expect(stopMarketReserve('buy', 'DOGE', '0.33333', '0.3', '0.1')).toEqual({ asset: 'USDT', amount: '0.10999890' });
    expect(stopMarketReserve('sell', 'BTC', '45000', '0.1', '0.1')).toEqual({ asset: 'BTC', amount: '0.10000000' });
  });
});
