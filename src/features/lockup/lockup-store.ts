// Lock-up mining (README "Earn", contract/earn.ts): the products (public), the signed-in user's
// regular balance (locked principal, income earned, orders processing), the calculator of the
// details page, the checks before a subscription, the subscription itself and the order record.
import Big from 'big.js';
import * as v from 'valibot';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import {
  LOCKUP_FILTERS,
  addDays,
  earnBalance,
  liquidityProduct,
  lockupDailyIncome,
  lockupOrders,
  lockupProduct,
  lockupProducts,
  lockupSubscribe,
  lockupTotalIncome,
  type InterestDay,
  type LockupOrder,
  type LockupProduct,
  type RegularBalance,
} from '../../contract/earn.ts';
import { DEFAULT_EARN_TIMEZONE, interestDay } from '../../contract/earn-days.ts';
import { amount } from '../../contract/markets.ts';
import { texts } from '../../contract/texts.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances, USDT } from '../../lib/balances.ts';
import { pagedLists } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';

export type LockupFilter = (typeof LOCKUP_FILTERS)[number];

export const lockupState = proxy({
  products: [] as LockupProduct[],
  productsLoaded: false,
  /** What the last load of the products said when it failed. */
  productsFailure: null as string | null,
  /** Products seen on this device by id: the details page shows one at once, then asks again. */
  details: {} as Record<number, LockupProduct>,
  /** The signed-in user's lock-up side; null while unknown (shown as "—", never 0.00). */
  summary: null as RegularBalance | null,
  /** Today's interest day as the server said it (GET /yuebao/product); null until it answers. */
  today: null as InterestDay | null,
  timeZone: DEFAULT_EARN_TIMEZONE,
});

export async function loadProducts(): Promise<void> {
  try {
    const { lists } = await api(lockupProducts, undefined, { loading: !lockupState.productsLoaded });
    lockupState.products = lists;
    lockupState.productsLoaded = true;
    lockupState.productsFailure = null;
    for (const product of lists) lockupState.details[product.id] = product;
  } catch (error) {
    lockupState.productsFailure = errorText(error);
    throw error;
  }
}

export async function loadProduct(id: number): Promise<void> {
  lockupState.details[id] = await api(lockupProduct, { id: String(id) }, { loading: !lockupState.details[id] });
}

/** Locked principal, income earned, orders processing: only for a signed-in user. */
export async function loadSummary(): Promise<void> {
  const token = session.token;
  if (!token) return;
  const answer = await api(earnBalance, { type: 'regular' }, { loading: false });
  // An answer for a session that has ended since is not this user's.
  if (token === session.token && answer.type === 'regular') lockupState.summary = answer;
}

/** The server's interest day (the calculator's start date follows it); the device's clock in the earn zone until it answers. */
export async function loadToday(): Promise<void> {
  const product = await api(liquidityProduct, undefined, { loading: false });
  lockupState.today = product.today;
  lockupState.timeZone = product.timezone || DEFAULT_EARN_TIMEZONE;
}

/** Today as the server counts it, else as the device's clock makes it in the earn zone. */
export const todayOf = (state: { readonly today: InterestDay | null; readonly timeZone: string }, now: Date = new Date()) => state.today ?? interestDay(now, state.timeZone);

export interface LockupPeriod {
  /** The first interest day that pays income: the day after the subscription's. */
  start: InterestDay;
  /** The last one; the principal comes back at its end. */
  end: InterestDay;
}

/** Income from the next interest day, for `days` days (the server's rule, domain/lockup.ts). */
export function lockupPeriod(today: InterestDay, days: number): LockupPeriod {
  const start = addDays(today, 1);
  return { start, end: addDays(start, days - 1) };
}

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
  return { amount: principal, daily: lockupDailyIncome(principal, product.daily_rate), total, back: new Big(principal).plus(total).toFixed(8) };
}

/** "All": what one subscription can take — the available USDT, at most the product's maximum and what is left of its quota. */
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
export function subscribeProblem(typed: string, product: Pick<LockupProduct, 'min_amount' | 'max_amount' | 'remaining'>, available: string | null): string | null {
  const problem = firstError(AmountForm, { amount: typed });
  if (problem) return problem;
  const value = new Big(typed);
  // Named descriptors: Lingui's extractor cannot read an object literal with a spread inside i18n._().
  if (value.lt(product.min_amount)) {
    const text = { ...texts.minimumAmount, values: { 0: new Big(product.min_amount).toFixed(), 1: USDT } };
    return i18n._(text);
  }
  if (value.gt(product.max_amount)) {
    const text = { ...texts.maximumAmount, values: { 0: new Big(product.max_amount).toFixed(), 1: USDT } };
    return i18n._(text);
  }
  if (available !== null && value.gt(available)) return i18n._(texts.insufficientBalance);
  if (product.remaining !== null && value.gt(product.remaining)) {
    const text = { ...texts.quotaExhausted, values: { 0: new Big(product.remaining).toFixed() } };
    return i18n._(text);
  }
  return null;
}

/** Subscribes: the principal leaves available USDT at once; everything shown of it is asked again (in the background). */
export async function subscribeLockup(productId: number, typed: string): Promise<LockupOrder> {
  const order = await api(lockupSubscribe, { product_id: String(productId), amount: typed });
  // The record opens on "All", with the new order first.
  lockupRecord.reset({ filter: true });
  for (const refresh of [refreshBalances, loadSummary, loadProducts]) refresh().catch(() => undefined);
  return order;
}

/** The record: all, processing, ended; newest first, a page at a time. */
export const lockupRecord = pagedLists<LockupOrder, LockupFilter>(LOCKUP_FILTERS, (status, page, loading) => api(lockupOrders, { status, page: String(page) }, { loading }));

// Another session (logout, another user) must never see this user's figures.
subscribeKey(session, 'token', () => {
  lockupState.summary = null;
});
