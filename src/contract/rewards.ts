// VIP levels (§1, §3, §6: by cumulative recharge) and points (§1: a balance that can be redeemed,
// with its history). Points are a ledger asset like any other, so every change is an entry.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, result } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import type { Paged } from './envelope.ts';

/** The ledger asset that holds points. */
export const POINTS = 'POINT';

export interface VipLevel {
  level: number;
  name: string;
  /** The level's ceiling: the next level starts here. */
  value: string;
  /** §3: where the level starts: 20 for the first, the previous level's value for the others. */
  realValue: string;
}
/** §3: the first level starts at 20 (USDT of cumulative recharge). */
export const FIRST_LEVEL_START = '20';

/** Adds §3's realValue to levels ordered by level. */
export function withRealValues(levels: readonly Omit<VipLevel, 'realValue'>[]): VipLevel[] {
  return levels.map((level, index) => ({ ...level, realValue: index === 0 ? FIRST_LEVEL_START : levels[index - 1]!.value }));
}

/** The level a cumulative recharge reaches: the highest whose start it has passed (0: none yet). */
export function levelFor(rechargeTotal: string, levels: readonly VipLevel[]): number {
  const total = new Big(rechargeTotal);
  let reached = 0;
  for (const level of levels) if (total.gte(level.realValue)) reached = level.level;
  return reached;
}

export const vipLevels = get('/users/ranks', NoInput, result<Paged<VipLevel>>());

export interface LevelProgress {
  level: number;
  name: string;
  recharge_total: string;
  /** null at the top level. */
  next_level: number | null;
  next_name: string;
  next_start: string | null;
  /** Cumulative recharge still needed for the next level. */
  needed: string;
}
/** §7 /task/level: where the caller stands and what the next level takes. */
export const levelProgress = get('/task/level', NoInput, result<LevelProgress>());

export interface PointsRule {
  /** USDT paid for one point. */
  usdt_per_point: string;
  min_points: string;
}
export interface PointRedemption {
  points: string;
  usdt: string;
  balance: string;
}
/** §7: redeems `number` points for USDT at the configured rate. A GET that writes: sent as a write. */
export const redeemPoints = get(
  '/users/ptomoney',
  v.object({ number: matching(/^[1-9]\d{0,11}$/, texts.enterPoints) }),
  result<PointRedemption>(),
  { readOnly: false },
);

export interface PointEntry {
  id: number;
  /** Signed number of points. */
  amount: string;
  kind: string;
  reference: string;
  created_at: string;
}
/** Our addition: the point history (§1), newest first, with the balance and the redemption rule. */
export const pointRecords = get(
  '/users/point/lists',
  v.object({ page: v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1') }),
  result<Paged<PointEntry> & PointsRule & { balance: string }>(),
);

/** USDT for `points` at the rule's rate, rounded down to 8 decimals. */
export function pointsValue(points: string, usdtPerPoint: string): string {
  return new Big(points).times(usdtPerPoint).round(8, Big.roundDown).toFixed(8);
}
