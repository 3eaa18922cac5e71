// The reality check beside the reminder of time in the app: the caller's stakes, payouts and net result this session
// and today, from the ledger (its rule, spans and kinds are described in api-contract/reality-check.ts).
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { canonicalTimeZone } from '../../api-contract/calendar.ts';
import { texts } from '../../api-contract/texts.ts';
import { REALITY_CHECK_KINDS, type MoneyFigures, type RealityCheck } from '../../api-contract/reality-check.ts';
import { dayStart } from './earn-days.ts';
import { USDT } from './ledger.ts';
import { refusalOf } from './refusal.ts';

/**
 * One span's figures from the ledger's sums: `staked` is the sum of the (negative) stake entries, `paid` the sum of the
 * payouts; stakes are shown positive and net = payouts − stakes (8 decimals, USDT).
 */
export function moneyFigures(staked: string, paid: string): MoneyFigures {
  const stakes = new Big(staked).neg();
  const payouts = new Big(paid);
  return {
    stakes: stakes.abs().toFixed(8),
    payouts: payouts.toFixed(8),
    net: payouts.minus(stakes).toFixed(8),
  };
}

/** The later of the app's start on the device and the session's sign-in, and never after `now`. */
export function sessionStart(appStartMs: number, signedInAtMs: number, now: Date): Date {
  return new Date(Math.min(Math.max(appStartMs, signedInAtMs), now.getTime()));
}

/**
 * The reality check of `userId` at `now`: real USDT option stakes and payouts since `since`, and since the start of
 * today in `timeZone`.
 * @throws Refusal (the request is not valid) for a time zone that is not one.
 */
export async function realityCheckOf(
  db: Executor,
  userId: number,
  since: Date,
  timeZone: string,
  now: Date,
): Promise<RealityCheck> {
  const zone = canonicalTimeZone(timeZone);
  if (zone === null) throw refusalOf(texts.invalidRequest);
  const day = interestDay(now, zone);
  const todayFrom = dayStart(day, zone);
  const from = since < todayFrom ? since : todayFrom;
  const sum = (kind: string, start: Date) =>
    sql`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.kind} = ${kind} and ${ledgerEntries.createdAt} >= ${start.toISOString()}::timestamptz), 0)::text`;
  const [row] = rowsOf<{ s_staked: string; s_paid: string; d_staked: string; d_paid: string }>(
    await db.execute(sql`
      select ${sum(REALITY_CHECK_KINDS.stakes, since)} as s_staked, ${sum(REALITY_CHECK_KINDS.payouts, since)} as s_paid,
             ${sum(REALITY_CHECK_KINDS.stakes, todayFrom)} as d_staked, ${sum(REALITY_CHECK_KINDS.payouts, todayFrom)} as d_paid
      from ${ledgerEntries}
      where ${ledgerEntries.userId} = ${userId} and ${ledgerEntries.asset} = ${USDT}
        and ${ledgerEntries.bucket} = 'available'
        and ${ledgerEntries.kind} in (${REALITY_CHECK_KINDS.stakes}, ${REALITY_CHECK_KINDS.payouts})
        and ${ledgerEntries.createdAt} >= ${from.toISOString()}::timestamptz`),
  );
  return {
    asset: USDT,
    since: since.toISOString(),
    day,
    session: moneyFigures(row?.s_staked ?? '0', row?.s_paid ?? '0'),
    today: moneyFigures(row?.d_staked ?? '0', row?.d_paid ?? '0'),
  };
}
