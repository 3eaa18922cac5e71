// The lock-up details page's form: the calculator, "All", and the checks before a subscription,
// in the server's order and words (the amount limits are the API contract's one rule). Apart from the
// store so the products page, a first route, does not load them.
import Big from 'big.js';
import * as v from 'valibot';
import { i18n } from '@lingui/core';
import { lockupDailyIncome, lockupTotalIncome, type LockupProduct } from '../../api-contract/lockup.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { amount } from '../../api-contract/markets.ts';
import { texts } from '../../api-contract/texts.ts';
import { USDT } from '../../lib/balances.ts';
import { firstError } from '../../lib/validate.ts';
import { writtenAmounts } from '../../lib/format.ts';

export interface LockupQuote {
  amount: string;
  daily: string;
  total: string;
  /** Principal and income: what has come back once the period is over. */
  back: string;
}

/** The calculator's figures, or null while the amount is not an amount above zero. */
export function lockupQuote(typed: string, product: Pick<LockupProduct, 'daily_rate' | 'days'>): LockupQuote | null {
  if (firstError(AmountForm, { amount: typed }) || new Big(typed).lte(0)) return null;
  const principal = new Big(typed).toFixed(8);
  const total = lockupTotalIncome(principal, product.daily_rate, product.days);
  return {
    amount: principal,
    daily: lockupDailyIncome(principal, product.daily_rate),
    total,
    back: new Big(principal).plus(total).toFixed(8),
  };
}

/** What the calculator shows for the amount typed: its figures, or why it cannot be subscribed. */
export interface LockupCalculation {
  /** The income of the order the amount would place; null while nothing is typed or the amount is refused. */
  quote: LockupQuote | null;
  /** The first rule the amount breaks, in the words the subscription would be refused with (translated), or null. */
  problem: string | null;
}

/**
 * The calculator for `typed` (the amount field's plain decimal, '' while nothing readable is typed): an amount a
 * subscription would refuse (below the minimum, above the maximum, the balance or the quota left) shows the refusal
 * instead of an income, so no figure is shown for an order that cannot be placed. `available` is null while the
 * balance is unknown (a visitor, offline): the balance is not held against the amount then.
 */
export function lockupCalculation(
  typed: string,
  product: Pick<LockupProduct, 'daily_rate' | 'days' | 'min_amount' | 'max_amount' | 'remaining'>,
  available: string | null,
): LockupCalculation {
  if (typed.trim() === '') return { quote: null, problem: null };
  const problem = subscribeProblem(typed, product, available);
  return problem ? { quote: null, problem } : { quote: lockupQuote(typed, product), problem: null };
}

/** "All": what one subscription can take — the available USDT, at most the product's maximum and what is left of its
 * quota. */
export function maxSubscription(available: string, product: Pick<LockupProduct, 'max_amount' | 'remaining'>): string {
  let most = new Big(available);
  if (most.gt(product.max_amount)) most = new Big(product.max_amount);
  if (product.remaining !== null && most.gt(product.remaining)) most = new Big(product.remaining);
  return most.gt(0) ? most.toFixed() : '0';
}

const AmountForm = v.object({ amount });

/**
 * The first rule a subscription breaks, in the server's order and words (translated), or null:
 * the amount given and well formed, the minimum and maximum per subscription, the balance, the
 * quota. `available` is null while the balance is unknown: the server checks it then.
 */
export function subscribeProblem(
  typed: string,
  product: Pick<LockupProduct, 'min_amount' | 'max_amount' | 'remaining'>,
  available: string | null,
): string | null {
  const problem = firstError(AmountForm, { amount: typed });
  if (problem) return problem;
  const value = new Big(typed);
  const outside = amountOutsideLimits(typed, { min: product.min_amount, max: product.max_amount }, USDT);
  if (outside) return i18n._(writtenAmounts(outside));
  if (available !== null && value.gt(available)) return i18n._(texts.insufficientBalance);
  if (product.remaining !== null && value.gt(product.remaining)) {
    return i18n._(writtenAmounts({ ...texts.quotaExhausted, values: { 0: new Big(product.remaining) } }));
  }
  return null;
}
