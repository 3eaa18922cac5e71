// The option screens' own rules: exact payouts and amounts, the checks before an order is sent
// (at least 1 USDT), the countdown text and the live last candle.
import { describe, expect, it } from 'vitest';
import type { OptionOrder, OptionProduct } from '../../src/api-contract/options.ts';
import {
  formatCountdown,
  formatSignedUsdt,
  formatUsdt,
  formatYield,
  winPayout,
} from '../../src/features/options/option-format.ts';
import { orderProblem, outcomeText, type PlaceInput } from '../../src/features/options/options-store.ts';
import { plainText } from '../../src/lib/toast.ts';
import { applyTick } from '../../src/lib/candles.ts';
import { readAmount } from '../../src/lib/typed-amount.ts';

const product: OptionProduct = { id: 7, code: 'BTC', minutes: 1, yield_rate: '0.8', min_amount: '1' };
const order = (amount: string): PlaceInput => ({ code: 'BTC', direction: 'up', product_id: '7', amount });

describe('winPayout', () => {
  it('pays stake × (1 + yield) exactly, rounded down to 8 decimals like the settlement', () => {
    expect(winPayout('10', '0.8')).toBe('18.00000000');
    expect(winPayout('0.1', '0.85')).toBe('0.18500000');
    expect(winPayout('1.23456789', '0.88')).toBe('2.32098763');
    expect(winPayout('12345678901234567.25', '0.9')).toBe('23456789912345677.77500000');
  });

  it('is null while the amount is not an amount', () => {
    expect(winPayout('', '0.8')).toBeNull();
    expect(winPayout('1.', '0.8')).toBeNull();
    expect(winPayout('10', undefined)).toBeNull();
  });
});

describe('amounts on screen', () => {
  it('shows USDT with 2 to 8 decimals, never rounding up', () => {
    expect(formatUsdt('10.50000000')).toBe('10.50');
    expect(formatUsdt('8.12345678')).toBe('8.12345678');
    expect(formatUsdt('1234.5')).toBe('1,234.50');
    expect(formatUsdt('-25.5')).toBe('-25.50');
    expect(formatSignedUsdt('8')).toBe('+8.00');
    expect(formatSignedUsdt('0')).toBe('0.00');
    expect(formatYield('0.85')).toBe('85%');
    expect(formatYield('0.855')).toBe('85.5%');
  });

  it('reads an amount field as typed, refusing what it cannot read rather than mending it', () => {
    expect(readAmount('12.5', 'en')).toEqual({ ok: true, value: '12.5' });
    expect(readAmount('1,5', 'en')).toMatchObject({ ok: false, problem: 'ambiguous' });
    expect(readAmount('abc12.3.4', 'en')).toMatchObject({ ok: false, problem: 'notNumber' });
    expect(readAmount('0.123456789', 'en')).toMatchObject({ ok: false, problem: 'decimals' });
    expect(readAmount('-7', 'en')).toMatchObject({ ok: false, problem: 'notNumber' });
  });
});

describe('orderProblem', () => {
  it('answers with the spec texts, in order', () => {
    expect(orderProblem(order(''), product, '100')).toBe('Please enter the amount!');
    expect(orderProblem(order('abc'), product, '100')).toBe('Please enter a valid amount!');
    expect(orderProblem(order('0.99'), product, '100')).toBe('The minimum purchase amount is: 1 USDT!');
    expect(orderProblem(order('100.01'), product, '100')).toBe('Insufficient balance!');
    expect(orderProblem({ ...order('5'), product_id: '' }, undefined, '100')).toBe('Please choose an expiry time!');
  });

  it('lets a valid order through, the minimum and the whole balance included', () => {
    expect(orderProblem(order('1'), product, '100')).toBeNull();
    expect(orderProblem(order('100'), product, '100')).toBeNull();
  });

  it('leaves the balance to the server while it is not known yet, never taking it for zero', () => {
    expect(orderProblem(order('5'), product, null)).toBeNull();
    expect(orderProblem(order('0.99'), product, null)).toBe('The minimum purchase amount is: 1 USDT!');
  });
});

describe('formatCountdown', () => {
  it('reads mm:ss, counting a started second as a whole one', () => {
    expect(formatCountdown(60_000)).toBe('01:00');
    expect(formatCountdown(59_001)).toBe('01:00');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
  });
});

describe('applyTick', () => {
  const candle = {
    time: 1_800_000_000 - (1_800_000_000 % 60),
    open: '100',
    high: '101',
    low: '99',
    close: '100.5',
    volume: '3',
  };
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();

  it('moves the last candle within its minute', () => {
    const [next] = applyTick([candle], { code: 'BTC', price: '102', at: at(candle.time + 30) });
    expect(next).toEqual({ ...candle, high: '102', close: '102' });
    const [lower] = applyTick([candle], { code: 'BTC', price: '98.5', at: at(candle.time + 59) });
    expect(lower).toEqual({ ...candle, low: '98.5', close: '98.5' });
  });

  it('opens a new candle for a new minute and ignores an older tick', () => {
    const candles = applyTick([candle], { code: 'BTC', price: '103', at: at(candle.time + 60) });
    expect(candles).toHaveLength(2);
    expect(candles[1]).toMatchObject({ time: candle.time + 60, open: '103', high: '103', low: '103', close: '103' });
    expect(applyTick([candle], { code: 'BTC', price: '1', at: at(candle.time - 1) })).toEqual([candle]);
  });
});

describe('outcomeText', () => {
  const settled = (outcome: OptionOrder['outcome'], profit: string): OptionOrder =>
    ({ code: 'XRP', amount: '10.00000000', outcome, profit, payout: null, status: 'settled' }) as OptionOrder;

  it('says what each outcome did with the amount, a void order included', () => {
    expect(plainText(outcomeText(settled('win', '8.00000000')))).toBe('XRP option won: +8.00 USDT');
    expect(plainText(outcomeText(settled('tie', '0.00000000')))).toBe(
      'XRP option closed at the same price: 10.00 USDT returned',
    );
    expect(plainText(outcomeText(settled('void', '0.00000000')))).toBe(
      'XRP option void, no market price at its end time: 10.00 USDT returned',
    );
    expect(plainText(outcomeText(settled('loss', '-10.00000000')))).toBe('XRP option lost: -10.00 USDT');
  });
});
