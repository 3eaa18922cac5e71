// Points: a ledger asset. Redeeming takes points and pays USDT at the configured rate in one
// transaction; the history is the points' ledger entries.
import Big from 'big.js';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import type { Executor, Tx } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import {
  POINTS,
  pointsValue,
  type PointEntry,
  type PointRedemption,
  type PointsRule,
} from '../../api-contract/rewards.ts';
import { FUNDS_PAGE_SIZE } from '../../api-contract/funds.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';
import { configEntriesOf } from './config-entries.ts';
import { USDT, balanceOf, post } from './ledger.ts';

export async function pointsRule(db: Executor): Promise<PointsRule> {
  const rows = await configEntriesOf(db, 'points');
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  const usdtPerPoint = value('usdt_per_point');
  const minPoints = value('min_points');
  if (!usdtPerPoint || !minPoints) throw new Refusal(texts.productUnavailable.id);
  return { usdt_per_point: usdtPerPoint, min_points: minPoints };
}

export async function pointBalance(db: Executor, userId: number): Promise<string> {
  return new Big((await balanceOf(db, userId, POINTS)).available).toFixed(0);
}

export async function redeem(tx: Tx, userId: number, points: string, now: Date): Promise<PointRedemption> {
  const rule = await pointsRule(tx);
  if (new Big(points).lt(rule.min_points)) throw new Refusal(texts.minimumPoints.id, { 0: new Big(rule.min_points) });
  const usdt = pointsValue(points, rule.usdt_per_point);
  const reference = `points:${randomUUID()}`;
  try {
    await post(
      tx,
      { userId, asset: POINTS, amount: new Big(points).neg().toFixed(8), kind: 'points_redeem', reference },
      now,
    );
  } catch (error) {
    if (error instanceof Refusal && error.textId === texts.insufficientBalance.id)
      throw new Refusal(texts.notEnoughPoints.id);
    throw error;
  }
  await post(tx, { userId, asset: USDT, amount: usdt, kind: 'points_redeem', reference }, now);
  return { points: new Big(points).toFixed(0), usdt, balance: await pointBalance(tx, userId) };
}

const NEWEST_ENTRY_FIRST: KeysetOrder<typeof ledgerEntries.$inferSelect> = {
  // By seq: the order entries took effect in (domain/ledger.ts).
  keys: [idKey(ledgerEntries.seq, (row) => row.seq)],
  direction: 'desc',
};

/** The caller's point history, newest first, by cursor (`cursor` '' for the head), with the rule and the balance. */
export async function pointHistory(
  db: Executor,
  userId: number,
  cursor: string,
): Promise<CursorPage<PointEntry> & PointsRule & { balance: string }> {
  const where = and(
    eq(ledgerEntries.userId, userId),
    eq(ledgerEntries.asset, POINTS),
    eq(ledgerEntries.bucket, 'available'),
  );
  const [listed, rule, balance] = await Promise.all([
    keysetQuery(
      (after) => db.select().from(ledgerEntries).where(and(where, after)).$dynamic(),
      NEWEST_ENTRY_FIRST,
      { cursor },
      FUNDS_PAGE_SIZE,
    ),
    pointsRule(db),
    pointBalance(db, userId),
  ]);
  return {
    lists: listed.lists.map((row) => ({
      id: row.id,
      amount: new Big(row.amount).toFixed(0),
      kind: row.kind,
      reference: row.reference,
      created_at: row.createdAt.toISOString(),
    })),
    next: listed.next,
    ...rule,
    balance,
  };
}
