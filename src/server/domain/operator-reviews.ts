// The reviews an operator makes, whichever entry point (the console or `npm run ops`): each calls the
// review's own rule (recharge.ts, withdraw.ts, certification.ts) and appends the audit entry in the
// same transaction. Four eyes: a withdrawal worth more than FOUR_EYES_USDT is paid only on the
// approvals of two different operators; the first is recorded and the withdrawal stays in review.
// The command line approves as the operator 'ops' (one of the two, never both); an operator's approval
// counts no more once they are disabled.
import { consoleTexts } from '../../api-contract/console-texts.ts';
import Big from 'big.js';
import { and, asc, desc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { Tx, Executor } from '../db/connection.ts';
import {
  certifications,
  operators,
  priceTicks,
  rechargeOrders,
  withdrawalApprovals,
  withdrawOrders,
} from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { approveRecharge, rejectRecharge, type RechargeRow } from './recharge.ts';
import { approveWithdrawal, rejectWithdrawal, type WithdrawRow } from './withdraw.ts';
import { rejectCertification, verifyCertification, type CertificationRow } from './certification.ts';
import { USDT } from './ledger.ts';
import { Refusal } from './refusal.ts';
import { releaseClaim } from './reviews.ts';

export const DEFAULT_FOUR_EYES_USDT = '10000';

async function rechargeRow(tx: Executor, id: number) {
  const [row] = await tx.select().from(rechargeOrders).where(eq(rechargeOrders.id, id));
  return row ?? null;
}
async function certificationRow(tx: Executor, id: number) {
  const [row] = await tx.select().from(certifications).where(eq(certifications.id, id));
  return row ?? null;
}

export async function approveRechargeAs(
  tx: Tx,
  actor: Actor,
  id: number,
  details: { blockHeight?: string; remark?: string },
  now: Date,
): Promise<RechargeRow> {
  const before = await rechargeRow(tx, id);
  const after = await approveRecharge(tx, id, details, now);
  await releaseClaim(tx, 'recharge', id);
  await appendAudit(tx, actor, 'recharge.approve', `recharge:${id}`, { before, after }, now);
  return after;
}

export async function rejectRechargeAs(
  tx: Tx,
  actor: Actor,
  id: number,
  reason: string,
  now: Date,
): Promise<RechargeRow> {
  const before = await rechargeRow(tx, id);
  const after = await rejectRecharge(tx, id, reason, now);
  await releaseClaim(tx, 'recharge', id);
  await appendAudit(tx, actor, 'recharge.reject', `recharge:${id}`, { before, after }, now);
  return after;
}

export async function approveCertificationAs(tx: Tx, actor: Actor, id: number, now: Date): Promise<CertificationRow> {
  const before = await certificationRow(tx, id);
  const after = await verifyCertification(tx, id, now);
  await releaseClaim(tx, 'certification', id);
  await appendAudit(tx, actor, 'certification.approve', `certification:${id}`, { before, after }, now);
  return after;
}

export async function rejectCertificationAs(
  tx: Tx,
  actor: Actor,
  id: number,
  reason: string,
  now: Date,
): Promise<CertificationRow> {
  const before = await certificationRow(tx, id);
  const after = await rejectCertification(tx, id, reason, now);
  await releaseClaim(tx, 'certification', id);
  await appendAudit(tx, actor, 'certification.reject', `certification:${id}`, { before, after }, now);
  return after;
}

/**
 * Whether an approval (a withdrawal_approvals row of the query) counts toward four eyes: the command line's ('ops',
 * which no operator row names) and an operator's while they are not disabled. Disabling an operator (a stolen session,
 * say) takes back their approvals of withdrawals still in review: two others must then approve.
 */
export const countingApproval = (db: Executor) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(operators)
      .where(and(eq(operators.name, withdrawalApprovals.operator), isNotNull(operators.disabledAt))),
  );

/** Who approved a withdrawal so far (four eyes: countingApproval), first approver first. */
export async function approvalsOf(db: Executor, withdrawId: number): Promise<string[]> {
  return (await approvalRecordsOf(db, withdrawId)).map((row) => row.operator);
}

/** Each approval a withdrawal has so far (four eyes: countingApproval), first approver first: the operator's name
 * (`ops` for the operator command) and when it was given. */
export async function approvalRecordsOf(db: Executor, withdrawId: number): Promise<{ operator: string; at: Date }[]> {
  return db
    .select({ operator: withdrawalApprovals.operator, at: withdrawalApprovals.at })
    .from(withdrawalApprovals)
    .where(and(eq(withdrawalApprovals.withdrawId, withdrawId), countingApproval(db)))
    .orderBy(asc(withdrawalApprovals.at));
}

/**
 * 2 when the withdrawal is worth more than `fourEyesUsdt`, else 1. A coin is valued at its latest
 * recorded price; a coin without one needs two approvals (unknown is not small).
 */
export async function approvalsNeeded(
  db: Executor,
  order: Pick<WithdrawRow, 'asset' | 'amount'>,
  fourEyesUsdt: string,
): Promise<number> {
  if (order.asset === USDT) return new Big(order.amount).gt(fourEyesUsdt) ? 2 : 1;
  const [tick] = await db
    .select({ price: priceTicks.price })
    .from(priceTicks)
    .where(eq(priceTicks.coin, order.asset))
    .orderBy(desc(priceTicks.at))
    .limit(1);
  return !tick || new Big(order.amount).times(tick.price).gt(fourEyesUsdt) ? 2 : 1;
}

export interface WithdrawalApproval {
  row: WithdrawRow;
  approvals: string[];
  needed: number;
}

/**
 * An approval: pays the withdrawal out when it is the last one needed, else records it (the
 * withdrawal stays in review). The same operator approving twice is refused, and so is a payout hash (`details.hash`)
 * with an approval that is not the last: nothing may be sent before it.
 */
export async function approveWithdrawalAs(
  tx: Tx,
  actor: Actor,
  id: number,
  details: { hash?: string },
  now: Date,
  fourEyesUsdt: string,
): Promise<WithdrawalApproval> {
  const [order] = await tx.select().from(withdrawOrders).where(eq(withdrawOrders.id, id)).for('update');
  // A withdrawal that does not exist or was reviewed already: the review's own rule says so.
  if (!order || order.status !== 'review')
    return { row: await approveWithdrawal(tx, id, details, now), approvals: [], needed: 1 };
  const needed = await approvalsNeeded(tx, order, fourEyesUsdt);
  const earlier = needed > 1 ? await approvalsOf(tx, id) : [];
  if (earlier.includes(actor.name)) throw new Refusal(consoleTexts.consoleSecondApproverNeeded.id);
  const approvals = [...earlier, actor.name];
  // A payout hash says the money left; an approval that pays nothing out would drop it, and the approval that pays
  // would send the money again: it is given with the last approval only.
  if (approvals.length < needed && details.hash) throw new Refusal(consoleTexts.consolePayoutHashBeforeLast.id);
  if (needed > 1) await tx.insert(withdrawalApprovals).values({ withdrawId: id, operator: actor.name, at: now });
  const row = approvals.length < needed ? order : await approveWithdrawal(tx, id, details, now);
  await releaseClaim(tx, 'withdrawal', id);
  await appendAudit(
    tx,
    actor,
    'withdrawal.approve',
    `withdrawal:${id}`,
    { before: { ...order, approvals: earlier }, after: { ...row, approvals } },
    now,
  );
  return { row, approvals, needed };
}

export async function rejectWithdrawalAs(
  tx: Tx,
  actor: Actor,
  id: number,
  reason: string,
  now: Date,
): Promise<WithdrawRow> {
  const [before] = await tx.select().from(withdrawOrders).where(eq(withdrawOrders.id, id));
  const after = await rejectWithdrawal(tx, id, reason, now);
  await releaseClaim(tx, 'withdrawal', id);
  await appendAudit(tx, actor, 'withdrawal.reject', `withdrawal:${id}`, { before: before ?? null, after }, now);
  return after;
}
