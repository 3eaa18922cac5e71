// Earn (§1, §3, §4, §7, §9): liquidity mining ("yuebao": flexible savings in USDT with a tiered,
// annualised rate published per day, quick and standard redemption) and lock-up mining (fixed
// period, daily income, principal back at the end). The rules that the forms show and the server
// applies are computed here, once.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { amount } from './markets.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { decimal, isoDay, isoTime, shape, whole } from './answers.ts';

/** Ledger assets of the two earn balances (§3): both count 1:1 in USDT. */
export const LIQUIDITY_ASSET = 'YUEBAO';
export const REGULAR_ASSET = 'REGULAR';
export const EARN_ASSETS = [LIQUIDITY_ASSET, REGULAR_ASSET] as const;

/** An interest day, in the server's earn timezone: "2026-11-23". */
export type InterestDay = string;

/** One step of the marginal ladder: the part of the principal up to `up_to` (null: the rest) earns `rate` a year. */
export const LadderTier = shape({
  up_to: v.nullable(decimal),
  /** Annualised: 0.05 = 5 % a year. */
  rate: decimal,
});
export type LadderTier = v.InferOutput<typeof LadderTier>;

export const LiquidityProduct = shape({
  min_amount: decimal,
  /** §9: quick redemption is capped per user and day. */
  quick_daily_max: decimal,
  /** Today's ladder, and the day it was published for. */
  ladder: v.array(LadderTier),
  ladder_day: isoDay,
  /** Tomorrow's ladder when already published. */
  next_ladder: v.nullable(v.array(LadderTier)),
  today: isoDay,
  timezone: v.string(),
  /** Interest days after a standard redemption's day on whose end it is paid. */
  standard_payout_days: whole,
});
export type LiquidityProduct = v.InferOutput<typeof LiquidityProduct>;
export const liquidityProduct = get('/yuebao/product', NoInput, returns(LiquidityProduct), { cache: 'user', auth: false });
/** §7 /yuebao/rule: the same figures, for the rule page. */
export const liquidityRule = get('/yuebao/rule', NoInput, returns(LiquidityProduct), { cache: 'user', auth: false });

export const LiquidityBalance = shape({
  type: v.literal('liquidity'),
  /** What is in the liquidity balance now (interest included: it compounds). */
  principal: decimal,
  /** Of it, what earns today (money subscribed today earns from tomorrow). */
  earning_today: decimal,
  /** Standard redemptions not yet paid. */
  redeeming: decimal,
  yesterday_interest: decimal,
  total_interest: decimal,
  quick_remaining: decimal,
  /** The user's effective annual rate on today's earning principal. */
  effective_rate: decimal,
  today: isoDay,
});
export type LiquidityBalance = v.InferOutput<typeof LiquidityBalance>;
export const RegularBalance = shape({
  type: v.literal('regular'),
  /** Principal in lock-up orders still processing. */
  locked: decimal,
  /** Income paid so far by every lock-up order. */
  earned: decimal,
  processing: whole,
});
export type RegularBalance = v.InferOutput<typeof RegularBalance>;
/** §7: the liquidity balance, or with `type=regular` the lock-up side. */
export const earnBalance = get(
  '/yuebao/balance',
  v.object({ type: v.optional(v.picklist(['', 'liquidity', 'regular'], texts.invalidRequest.id), '') }),
  returns(v.variant('type', [LiquidityBalance, RegularBalance])),
  { cache: 'user' },
);

export const REDEEM_MODES = ['quick', 'standard'] as const;
export type RedeemMode = (typeof REDEEM_MODES)[number];
export const LIQUIDITY_KINDS = ['subscribe', 'redeem', 'interest'] as const;
export type LiquidityKind = (typeof LIQUIDITY_KINDS)[number];
/** §4: a standard redemption is submitted, then waits to be processed, then is confirmed (paid). */
export const LIQUIDITY_STATUSES = ['done', 'submitted', 'waiting', 'confirmed'] as const;
export type LiquidityStatus = (typeof LIQUIDITY_STATUSES)[number];

export const LiquidityRecord = shape({
  id: whole,
  kind: v.picklist(LIQUIDITY_KINDS),
  mode: v.nullable(v.picklist(REDEEM_MODES)),
  amount: decimal,
  day: isoDay,
  status: v.picklist(LIQUIDITY_STATUSES),
  /** A standard redemption: the interest day at whose end it is paid. */
  pay_day: v.nullable(isoDay),
  created_at: isoTime,
  paid_at: v.nullable(isoTime),
});
export type LiquidityRecord = v.InferOutput<typeof LiquidityRecord>;

export const TransferInInfo = shape({
  usdt_available: decimal,
  min_amount: decimal,
});
export type TransferInInfo = v.InferOutput<typeof TransferInInfo>;
export const TransferOutInfo = shape({
  redeemable: decimal,
  quick_remaining: decimal,
  quick_daily_max: decimal,
});
export type TransferOutInfo = v.InferOutput<typeof TransferOutInfo>;
/** §7: GET what a subscription can use; POST subscribes (amount). */
export const transferInInfo = get('/yuebao/transfer/in', NoInput, returns(TransferInInfo), { cache: 'user' });
export const transferIn = post('/yuebao/transfer/in', v.object({ amount }), returns(LiquidityRecord));
/** §7: GET what can be redeemed; POST redeems (amount, and quick or standard). */
export const transferOutInfo = get('/yuebao/transfer/out', NoInput, returns(TransferOutInfo), { cache: 'user' });
export const transferOut = post(
  '/yuebao/transfer/out',
  v.object({ amount, mode: v.optional(v.picklist(REDEEM_MODES, texts.chooseRedeemMode.id), 'quick') }),
  returns(LiquidityRecord),
);

export const LIQUIDITY_FILTERS = ['all', 'subscribe', 'redeem', 'interest'] as const;
export type LiquidityFilter = (typeof LIQUIDITY_FILTERS)[number];
export const EARN_PAGE_SIZE = 20;
const page = v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1');
/** §7: the caller's liquidity record, newest first. */
export const liquidityRecords = get(
  '/yuebao/order',
  v.object({ kind: v.optional(v.picklist(LIQUIDITY_FILTERS, texts.invalidRequest.id), 'all'), page }),
  returns(Paged(LiquidityRecord)),
  { cache: 'user' },
);

// ---- Lock-up mining (our additions beside §7) ------------------------------------------------------

export const LockupProduct = shape({
  id: whole,
  name: v.string(),
  days: whole,
  /** 0.005 = 0.5 % of the principal a day. */
  daily_rate: decimal,
  min_amount: decimal,
  /** §9: the single limit. */
  max_amount: decimal,
  /** What is left of the product's total quota; null when it has none. */
  remaining: v.nullable(decimal),
});
export type LockupProduct = v.InferOutput<typeof LockupProduct>;
export const lockupProducts = get('/lockup/products', NoInput, returns(Paged(LockupProduct)), { cache: 'user', auth: false });
const productId = matching(/^\d{1,9}$/, texts.productUnavailable);
export const lockupProduct = get('/lockup/product', v.object({ id: productId }), returns(LockupProduct), { cache: 'user', auth: false });

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
export const lockupSubscribe = post('/lockup/subscribe', v.object({ product_id: productId, amount }), returns(LockupOrder));
export const LOCKUP_FILTERS = ['all', 'processing', 'end'] as const;
export const lockupOrders = get('/lockup/orders', v.object({ status: v.optional(v.picklist(LOCKUP_FILTERS, texts.invalidRequest.id), 'all'), page }), returns(Paged(LockupOrder)), {
  cache: 'user',
});

// ---- The rules ------------------------------------------------------------------------------------

const down8 = (value: Big) => value.round(8, Big.roundDown);

/** What each tier of the ladder holds of `principal`: [portion, annual rate]. */
export function ladderPortions(principal: string, ladder: readonly LadderTier[]): [Big, Big][] {
  const min = (a: Big, b: Big) => (a.lt(b) ? a : b);
  let from = new Big(0);
  const total = new Big(principal);
  return ladder.map((tier) => {
    const to = tier.up_to === null ? total : min(total, new Big(tier.up_to));
    const portion = to.gt(from) ? to.minus(from) : new Big(0);
    if (tier.up_to !== null && new Big(tier.up_to).gt(from)) from = new Big(tier.up_to);
    return [portion, new Big(tier.rate)];
  });
}

/** One day's interest on `principal`: Σ tier portion × tier rate / 365, rounded down to 8 decimals. */
export function dailyInterest(principal: string, ladder: readonly LadderTier[]): string {
  const yearly = ladderPortions(principal, ladder).reduce((sum, [portion, rate]) => sum.plus(portion.times(rate)), new Big(0));
  return down8(yearly.div(365)).toFixed(8);
}

/** The annual rate the whole principal earns on average (4 decimals, 0.0425 = 4.25 %). */
export function effectiveRate(principal: string, ladder: readonly LadderTier[]): string {
  const total = new Big(principal);
  if (total.lte(0)) return new Big(ladder[0]?.rate ?? 0).toFixed(4);
  const yearly = ladderPortions(principal, ladder).reduce((sum, [portion, rate]) => sum.plus(portion.times(rate)), new Big(0));
  return yearly.div(total).round(4, Big.roundDown).toFixed(4);
}

/** A lock-up order's income per day: principal × daily rate, rounded down to 8 decimals. */
export const lockupDailyIncome = (principal: string, dailyRate: string) => down8(new Big(principal).times(dailyRate)).toFixed(8);

/** What a lock-up order pays in all: its daily income for each day of its period. */
export const lockupTotalIncome = (principal: string, dailyRate: string, days: number) => new Big(lockupDailyIncome(principal, dailyRate)).times(days).toFixed(8);

/** The interest day `days` after `day` (calendar arithmetic on the date alone). */
export function addDays(day: InterestDay, days: number): InterestDay {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
