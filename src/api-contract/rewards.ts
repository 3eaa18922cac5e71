// VIP levels (by cumulative recharge) and points (a balance that can be redeemed,
// with its history). Points are a ledger asset like any other, so every change is an entry.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { texts } from './texts.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, isoTime, shape, signedDecimal, whole } from './answers.ts';

/** The ledger asset that holds points. */
export const POINTS = 'POINT';
/** Whether `amount` (a decimal) is a whole number of points: points are shown, redeemed and listed as whole numbers. */
export const isWholePoints = (amount: string) => new Big(amount).mod(1).eq(0);

export const VipLevel = shape({
  level: whole,
  name: v.string(),
  /** The level's ceiling: the next level starts here. */
  value: decimal,
  /** Where the level starts: 20 for the first, the previous level's value for the others. */
  realValue: decimal,
});
export type VipLevel = v.InferOutput<typeof VipLevel>;
/** The first level starts at 20 (USDT of cumulative recharge). */
export const FIRST_LEVEL_START = '20';

/** Adds realValue (where each level starts) to levels ordered by level. */
export function withRealValues(levels: readonly Omit<VipLevel, 'realValue'>[]): VipLevel[] {
  return levels.map((level, index) => ({
    ...level,
    realValue: index === 0 ? FIRST_LEVEL_START : levels[index - 1]!.value,
  }));
}

/** The level a cumulative recharge reaches: the highest whose start it has passed (0: none yet). */
export function levelFor(rechargeTotal: string, levels: readonly VipLevel[]): number {
  const total = new Big(rechargeTotal);
  let reached = 0;
  for (const level of levels) if (total.gte(level.realValue)) reached = level.level;
  return reached;
}

export const vipLevels = get('/users/ranks', NoInput, returns(Paged(VipLevel)), { cache: 'user' });

export const LevelProgress = shape({
  level: whole,
  name: v.string(),
  recharge_total: decimal,
  /** null at the top level. */
  next_level: v.nullable(whole),
  next_name: v.string(),
  next_start: v.nullable(decimal),
  /** Cumulative recharge still needed for the next level. */
  needed: decimal,
});
export type LevelProgress = v.InferOutput<typeof LevelProgress>;
/** Where the caller stands and what the next level takes. */
export const levelProgress = get('/task/level', NoInput, returns(LevelProgress), { cache: 'user' });

export const PointsRule = shape({
  /** USDT paid for one point. */
  usdt_per_point: decimal,
  min_points: decimal,
});
export type PointsRule = v.InferOutput<typeof PointsRule>;
export const PointRedemption = shape({
  points: decimal,
  usdt: decimal,
  balance: decimal,
});
export type PointRedemption = v.InferOutput<typeof PointRedemption>;
/** Redeems `number` points for USDT at the configured rate. A GET that writes: sent as a write. */
export const redeemPoints = get(
  '/users/ptomoney',
  v.object({ number: matching(/^[1-9]\d{0,11}$/, texts.enterPoints) }),
  returns(PointRedemption),
  { readOnly: false },
);

export const PointEntry = shape({
  id: whole,
  /** Signed number of points. */
  amount: signedDecimal,
  kind: v.string(),
  reference: v.string(),
  created_at: isoTime,
});
export type PointEntry = v.InferOutput<typeof PointEntry>;
/** Our addition: the point history, newest first by cursor, with the balance and the redemption rule. */
export const pointRecords = get(
  '/users/point/lists',
  v.object({ cursor }),
  returns(CursorPaged(PointEntry, shape({ ...PointsRule.entries, balance: decimal }))),
  { cache: 'user' },
);

/** USDT for `points` at the rule's rate, rounded down to 8 decimals. */
export function pointsValue(points: string, usdtPerPoint: string): string {
  return new Big(points).times(usdtPerPoint).round(8, Big.roundDown).toFixed(8);
}
