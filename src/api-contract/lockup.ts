// Lock-up mining (our /lockup/* additions to the API): a fixed period, income paid per day,
// the principal back at the end. What it shares with liquidity mining (the ledger assets, interest
// days, the balance call) is in earn.ts.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { amount } from './markets.ts';
import { texts } from './texts.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, isoDay, isoTime, shape, whole } from './answers.ts';

export const LockupProduct = shape({
  id: whole,
  name: v.string(),
  days: whole,
  /** 0.005 = 0.5 % of the principal a day. */
  daily_rate: decimal,
  min_amount: decimal,
  /** The single limit: the most one subscription may lock up. */
  max_amount: decimal,
  /** What is left of the product's total quota; null when it has none. */
  remaining: v.nullable(decimal),
});
export type LockupProduct = v.InferOutput<typeof LockupProduct>;
export const lockupProducts = get('/lockup/products', NoInput, returns(Paged(LockupProduct)), {
  cache: 'user',
  auth: false,
});
const productId = matching(/^\d{1,9}$/, texts.productUnavailable);
export const lockupProduct = get('/lockup/product', v.object({ id: productId }), returns(LockupProduct), {
  cache: 'user',
  auth: false,
});

export const LOCKUP_STATUSES = ['processing', 'end'] as const;
export type LockupStatus = (typeof LOCKUP_STATUSES)[number];
export const LockupOrder = shape({
  id: whole,
  product_id: whole,
  name: v.string(),
  amount: decimal,
  days: whole,
  daily_rate: decimal,
  daily_income: decimal,
  /** The first and last interest days that pay income; the principal returns at the end of the last. */
  start_day: isoDay,
  end_day: isoDay,
  status: v.picklist(LOCKUP_STATUSES),
  earned: decimal,
  created_at: isoTime,
  ended_at: v.nullable(isoTime),
});
export type LockupOrder = v.InferOutput<typeof LockupOrder>;
export const lockupSubscribe = post(
  '/lockup/subscribe',
  v.object({
    product_id: productId,
    amount,
    /**
     * Our addition: the period (days) and daily rate the customer was shown and confirmed (the product's `days` and
     * `daily_rate` as listed, 0.0008 = 0.08 % a day). When sent, a subscription to a product whose terms are others now
     * (an operator changed them meanwhile) is refused rather than locked up for a period or at a rate the customer
     * never saw; without them it takes the product's terms of the moment.
     */
    days: v.optional(matching(/^\d{1,4}$/, texts.invalidRequest)),
    daily_rate: v.optional(matching(/^\d{1,4}(?:\.\d{1,8})?$/, texts.invalidRequest)),
  }),
  returns(LockupOrder),
);
export const LOCKUP_FILTERS = ['all', 'processing', 'end'] as const;
export const lockupOrders = get(
  '/lockup/orders',
  v.object({ status: v.optional(v.picklist(LOCKUP_FILTERS, texts.invalidRequest.id), 'all'), cursor }),
  returns(CursorPaged(LockupOrder)),
  {
    cache: 'user',
  },
);

export const RegularBalance = shape({
  type: v.literal('regular'),
  /** Principal in lock-up orders still processing. */
  locked: decimal,
  /** Income paid so far by every lock-up order. */
  earned: decimal,
  processing: whole,
});
export type RegularBalance = v.InferOutput<typeof RegularBalance>;

// ---- The rules ------------------------------------------------------------------------------------

/** A lock-up order's income per day: principal × daily rate, rounded down to 8 decimals. */
export const lockupDailyIncome = (principal: string, dailyRate: string) =>
  new Big(principal).times(dailyRate).round(8, Big.roundDown).toFixed(8);

/** What a lock-up order pays in all: its daily income for each day of its period. */
export const lockupTotalIncome = (principal: string, dailyRate: string, days: number) =>
  new Big(lockupDailyIncome(principal, dailyRate)).times(days).toFixed(8);
