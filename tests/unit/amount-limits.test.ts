// The amount limits every money form checks (src/api-contract/amount-limits.ts): the form (through the
// stores, with i18n._) and the server (through refuseIfBroken) use this one rule, so what the form shows is what
// the server answers.
import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { amountOutsideLimits } from '../../src/api-contract/amount-limits.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { Refusal, refuseIfBroken } from '../../src/server/domain/refusal.ts';

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

  it('names the minimum or the maximum as written, without trailing zeros or exponents', () => {
    expect(amountOutsideLimits('9.99999999', { min: '10.00000000', max: '100' }, 'USDT')).toEqual({
      ...texts.minimumAmount,
      values: { 0: '10', 1: 'USDT' },
    });
    expect(amountOutsideLimits('100.00000001', { min: '10', max: '100.00000000' }, 'USDT')).toEqual({
      ...texts.maximumAmount,
      values: { 0: '100', 1: 'USDT' },
    });
    // Big's toString would write 1e-8 and 1e+21; a customer reads the plain number.
    expect(amountOutsideLimits('0', { min: '0.00000001' }, 'BTC')?.values).toEqual({ 0: '0.00000001', 1: 'BTC' });
    expect(
      amountOutsideLimits('2000000000000000000000', { min: '1', max: '1000000000000000000000' }, 'USDT')?.values,
    ).toEqual({ 0: '1000000000000000000000', 1: 'USDT' });
  });
});

describe('one rule, two entry points', () => {
  it('the form shows the text the server refuses with', () => {
    const broken = amountOutsideLimits('5', { min: '10', max: '100' }, 'USDT')!;
    expect(i18n._(broken)).toBe('The minimum amount is: 10 USDT!');
    let refused: unknown;
    try {
      refuseIfBroken(broken);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ textId: texts.minimumAmount.id, values: { 0: '10', 1: 'USDT' } });
    expect(() => refuseIfBroken(null)).not.toThrow();
  });
});
