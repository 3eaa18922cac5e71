// The amount limits every money form checks (src/api-contract/amount-limits.ts): the form (through the
// stores, with i18n._) and the server (through refuseIfBroken) use this one rule, so what the form shows is what
// the server answers.
import { i18n } from '@lingui/core';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { amountOutsideLimits } from '../../src/api-contract/amount-limits.ts';
import { isPositiveAmount } from '../../src/api-contract/markets.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { Refusal, refuseIfBroken } from '../../src/server/domain/refusal.ts';
import { translator } from '../../src/server/i18n.ts';
import { writtenAmounts } from '../../src/lib/format.ts';

beforeAll(() => {
  i18n.load('en', {});
  i18n.activate('en');
});

describe('amountOutsideLimits', () => {
  it('answers nothing inside the limits, the limits included', () => {
    expect(amountOutsideLimits('10', { min: '10', max: '100' }, 'USDT')).toBeNull();
    expect(amountOutsideLimits('100.00000000', { min: '10', max: '100' }, 'USDT')).toBeNull();
    expect(amountOutsideLimits('99999999', { min: '10' }, 'USDT')).toBeNull();
    expect(amountOutsideLimits('5', { min: '1', max: null }, 'THB')).toBeNull();
  });

  it('names the minimum or the maximum as a decimal, written grouped, without trailing zeros or exponents', () => {
    const written = (broken: ReturnType<typeof amountOutsideLimits>) => i18n._(writtenAmounts(broken!));
    const below = amountOutsideLimits('9.99999999', { min: '10.00000000', max: '100' }, 'USDT');
    expect(below).toMatchObject({ ...texts.minimumAmount, values: { 0: new Big(10), 1: 'USDT' } });
    expect(written(below)).toBe('The minimum amount is: 10 USDT!');
    const above = amountOutsideLimits('50000.00000001', { min: '10', max: '50000.00000000' }, 'USDT');
    expect(written(above)).toBe('The maximum amount is: 50,000 USDT!');
    // Big's toString would write 1e-8 and 1e+21; a customer reads the plain number.
    expect(written(amountOutsideLimits('0.00000001', { min: '0.00000002' }, 'BTC'))).toBe(
      'The minimum amount is: 0.00000002 BTC!',
    );
    expect(
      written(amountOutsideLimits('2000000000000000000000', { min: '1', max: '1000000000000000000000' }, 'USDT')),
    ).toBe('The maximum amount is: 1,000,000,000,000,000,000,000 USDT!');
  });
});

describe('an amount of 0', () => {
  it('is no amount, whatever the minimum: the text a redemption answers 0 with, not the minimum', () => {
    for (const zero of ['0', '0.00000000'])
      for (const limits of [{ min: '10' }, { min: '0.00000001', max: '100' }])
        expect(amountOutsideLimits(zero, limits, 'USDT'), zero).toEqual(texts.amountFormat);
  });
});

describe('one rule, two entry points', () => {
  it('the form shows the text the server refuses with, the limit written alike', () => {
    const broken = amountOutsideLimits('5', { min: '1000.50', max: '2000' }, 'USDT')!;
    expect(i18n._(writtenAmounts(broken))).toBe('The minimum amount is: 1,000.5 USDT!');
    let refused: unknown;
    try {
      refuseIfBroken(broken);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(Refusal);
    const { textId, values } = refused as Refusal;
    expect(textId).toBe(texts.minimumAmount.id);
    expect(translator('en')(textId, values)).toBe('The minimum amount is: 1,000.5 USDT!');
    // Each language's grouping: Hindi groups by lakhs, as Intl writes it in the app too.
    const large = amountOutsideLimits('1', { min: '1000000' }, 'USDT')!;
    expect(translator('hi')(large.id, large.values)).toContain('10,00,000 USDT');
    expect(() => refuseIfBroken(null)).not.toThrow();
  });
});

describe('isPositiveAmount', () => {
  it('takes an amount above 0 as the API writes amounts, and nothing else', () => {
    for (const amount of ['1', '0.00000001', '1000000', '999999999999999999.99999999', '10.5'])
      expect(isPositiveAmount(amount), amount).toBe(true);
    for (const amount of ['0', '0.0', '0.00000000', '', '-1', '01', '1e3', '1.123456789', '1,000', ' 1'])
      expect(isPositiveAmount(amount), amount).toBe(false);
  });
});
