// VIP levels by cumulative recharge: the table, and the level a total reaches.
import Big from 'big.js';
import { asc } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { vipLevels } from '../db/schema.ts';
import { levelFor, withRealValues, type LevelProgress, type VipLevel } from '../../api-contract/rewards.ts';

export async function listLevels(db: Executor): Promise<VipLevel[]> {
  const rows = await db.select().from(vipLevels).orderBy(asc(vipLevels.level));
  return withRealValues(
    rows.map((row) => ({ level: row.level, name: row.name, value: new Big(row.value).toString() })),
  );
}

/** The level a cumulative recharge reaches now. */
export async function currentLevel(db: Executor, rechargeTotal: string): Promise<number> {
  return levelFor(rechargeTotal, await listLevels(db));
}

/** Where a total stands: the level reached, and what the next one takes. */
export function progressOf(rechargeTotal: string, levels: VipLevel[]): LevelProgress {
  const level = levelFor(rechargeTotal, levels);
  const current = levels.find((item) => item.level === level);
  const next = levels.find((item) => new Big(rechargeTotal).lt(item.realValue));
  return {
    level,
    name: current?.name ?? '',
    recharge_total: new Big(rechargeTotal).toFixed(8),
    next_level: next?.level ?? null,
    next_name: next?.name ?? '',
    next_start: next?.realValue ?? null,
    needed: next ? new Big(next.realValue).minus(rechargeTotal).toFixed(8) : '0.00000000',
  };
}
