// The amount limits of a form that moves money (a recharge, a withdrawal, a lock-up, a liquidity
// subscription), checked once for the form and the server, as the API contract's order rules are.
import Big from 'big.js';
import type { MessageDescriptor } from '@lingui/core';
import { texts } from './texts.ts';

/**
 * Above zero, at least `min` and, when there is a maximum, at most `max`, in `asset`: null, or the text broken
 * with its values (the form shows it, the server refuses with it). An amount of 0 is no amount at all and is told
 * "Please enter a valid amount!", as a redemption (which has no minimum) tells it: the same input gets the same answer
 * in every money form, whatever its minimum. The limit is given as a big.js decimal, which
 * whoever shows the text writes in the reader's language, grouped and without trailing zeros ("The minimum amount is:
 * 1,000 USDT!": the server's translator, the app's writtenAmounts). `amount` passed the schema.
 */
export function amountOutsideLimits(
  amount: string,
  limits: { min: string; max?: string | null },
  asset: string,
): MessageDescriptor | null {
  const value = new Big(amount);
  if (value.lte(0)) return texts.amountFormat;
  if (value.lt(limits.min)) return { ...texts.minimumAmount, values: { 0: new Big(limits.min), 1: asset } };
  if (limits.max != null && value.gt(limits.max))
    return { ...texts.maximumAmount, values: { 0: new Big(limits.max), 1: asset } };
  return null;
}
