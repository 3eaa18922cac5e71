// The reality check's arithmetic (server/domain/reality-check.ts): stakes shown positive, net = payouts − stakes, and
// where "this session" starts.
import { describe, expect, it } from 'vitest';
import { moneyFigures, sessionStart } from '../../src/server/domain/reality-check.ts';

describe('moneyFigures', () => {
  it('turns the ledger sums (stakes negative) into staked, paid out and net', () => {
    expect(moneyFigures('-170', '180.5')).toEqual({
      stakes: '170.00000000',
      payouts: '180.50000000',
      net: '10.50000000',
    });
    expect(moneyFigures('-70.12345678', '0.5')).toEqual({
      stakes: '70.12345678',
      payouts: '0.50000000',
      net: '-69.62345678',
    });
  });
  it('shows zeros for a span without options', () => {
    expect(moneyFigures('0', '0')).toEqual({ stakes: '0.00000000', payouts: '0.00000000', net: '0.00000000' });
  });
  it('keeps every digit of large sums', () => {
    expect(moneyFigures('-123456789012.00000001', '123456789012')).toMatchObject({ net: '-0.00000001' });
  });
});

describe('sessionStart', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('is the app start when the sign-in came before it', () => {
    expect(sessionStart(now.getTime() - 60_000, now.getTime() - 3_600_000, now)).toEqual(
      new Date(now.getTime() - 60_000),
    );
  });
  it('is the sign-in when it came after the app start', () => {
    expect(sessionStart(0, now.getTime() - 1000, now)).toEqual(new Date(now.getTime() - 1000));
  });
  it('is never after now', () => {
    expect(sessionStart(now.getTime() + 5000, 0, now)).toEqual(now);
  });
});
