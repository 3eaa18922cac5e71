// Liquidity mining: "yuebao", flexible savings in USDT with a tiered,
// annualised rate published per day, quick and standard redemption. The ladder's rules that the
// forms show and the server applies are computed here, once. What it shares with lock-up mining
// (the ledger assets, interest days, the balance call) is in earn.ts.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor } from './fields.ts';
import { amount } from './markets.ts';
import { texts } from './texts.ts';
import { CursorPaged } from './envelope.ts';
import { decimal, isoDay, isoTime, shape, whole } from './answers.ts';

/** One step of the marginal ladder: the part of the principal up to `up_to` (null: the rest) earns `rate` a year. */
export const LadderTier = shape({
  up_to: v.nullable(decimal),
  /** Annualised: 0.05 = 5 % a year. */
  rate: decimal,
});
export type LadderTier = v.InferOutput<typeof LadderTier>;

export const LiquidityProduct = shape({
  min_amount: decimal,
  /** Quick redemption is capped per user and day: 30,000,000 USDT (QUICK_REDEMPTION_DAILY_MAX_USDT). */
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
export const liquidityProduct = get('/yuebao/product', NoInput, returns(LiquidityProduct), {
  cache: 'user',
  auth: false,
});
/** /yuebao/rule: the same figures, for the rule page. */
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

export const REDEEM_MODES = ['quick', 'standard'] as const;
export type RedeemMode = (typeof REDEEM_MODES)[number];
export const LIQUIDITY_KINDS = ['subscribe', 'redeem', 'interest'] as const;
export type LiquidityKind = (typeof LIQUIDITY_KINDS)[number];
/** A standard redemption is submitted, then waits to be processed, then is confirmed (paid). */
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
/** GET what a subscription can use; POST subscribes (amount). */
export const transferInInfo = get('/yuebao/transfer/in', NoInput, returns(TransferInInfo), { cache: 'user' });
export const transferIn = post('/yuebao/transfer/in', v.object({ amount }), returns(LiquidityRecord));
/** GET what can be redeemed; POST redeems (amount, and quick or standard). */
export const transferOutInfo = get('/yuebao/transfer/out', NoInput, returns(TransferOutInfo), { cache: 'user' });
export const transferOut = post(
  '/yuebao/transfer/out',
  v.object({ amount, mode: v.optional(v.picklist(REDEEM_MODES, texts.chooseRedeemMode.id), 'quick') }),
  returns(LiquidityRecord),
);

export const LIQUIDITY_FILTERS = ['all', 'subscribe', 'redeem', 'interest'] as const;
export type LiquidityFilter = (typeof LIQUIDITY_FILTERS)[number];
/** The caller's liquidity record, newest first, by cursor. */
export const liquidityRecords = get(
  '/yuebao/order',
  v.object({ kind: v.optional(v.picklist(LIQUIDITY_FILTERS, texts.invalidRequest.id), 'all'), cursor }),
  returns(CursorPaged(LiquidityRecord)),
  { cache: 'user' },
);

// ---- The rules ------------------------------------------------------------------------------------

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
  const yearly = ladderPortions(principal, ladder).reduce(
    (sum, [portion, rate]) => sum.plus(portion.times(rate)),
    new Big(0),
  );
  return yearly.div(365).round(8, Big.roundDown).toFixed(8);
}

/** The annual rate the whole principal earns on average (4 decimals, 0.0425 = 4.25 %). */
export function effectiveRate(principal: string, ladder: readonly LadderTier[]): string {
  const total = new Big(principal);
  if (total.lte(0)) return new Big(ladder[0]?.rate ?? 0).toFixed(4);
  const yearly = ladderPortions(principal, ladder).reduce(
    (sum, [portion, rate]) => sum.plus(portion.times(rate)),
    new Big(0),
  );
  return yearly.div(total).round(4, Big.roundDown).toFixed(4);
}
