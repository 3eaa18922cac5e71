// The reviews an operator makes, whichever entry point (the console or `npm run ops`): each calls the
// review's own rule (recharge.ts, withdraw.ts, certification.ts) and appends the audit entry in the
// same transaction. Four eyes: a withdrawal or a recharge worth more than FOUR_EYES_USDT is paid out or credited only
// on the approvals of two different operators; the first is recorded and the item stays in review.
// The command line approves as the operator 'ops' (one of the two, never both); an operator's approval
// counts no more once they are disabled.
import { consoleTexts } from '../../api-contract/console-texts.ts';
import Big from 'big.js';
import { and, asc, desc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { Tx, Executor } from '../db/connection.ts';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  certifications,
  operators,
  priceTicks,
  rechargeApprovals,
  rechargeOrders,
  withdrawalApprovals,
  withdrawOrders,
} from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { approveRecharge, rejectRecharge, type RechargeRow } from './recharge.ts';
import { approveWithdrawal, rejectWithdrawal, type WithdrawRow } from './withdraw.ts';
import { rejectCertification, verifyCertification, type CertificationRow } from './certification.ts';
import { USDT } from './ledger.ts';
import { Refusal, type TextId } from './refusal.ts';
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
 * Where one kind's four-eyes approvals are kept (withdrawal_approvals, recharge_approvals: one row per item and
 * operator, the operator's name and when they approved), and what that kind's approval refuses in its own words: a
 * second approval by the same operator (`again`), and the details of the decision given with an approval that is not
 * the last (`detailsBeforeLast`: a payout hash, a block height).
 */
export interface FourEyesKind {
  table: PgTable;
  item: PgColumn;
  operator: PgColumn;
  at: PgColumn;
  again: { id: TextId };
  detailsBeforeLast: { id: TextId };
  /** Keeps `operator`'s approval of item `id`, in `tx`. */
  record: (tx: Tx, id: number, operator: string, at: Date) => Promise<unknown>;
}

/** The kinds of review four eyes guards: the money that leaves (withdrawals) and the money credited (recharges). */
export const FOUR_EYES = {
  withdrawal: {
    table: withdrawalApprovals,
    item: withdrawalApprovals.withdrawId,
    operator: withdrawalApprovals.operator,
    at: withdrawalApprovals.at,
    again: consoleTexts.consoleSecondApproverNeeded,
    detailsBeforeLast: consoleTexts.consolePayoutHashBeforeLast,
    record: (tx, withdrawId, operator, at) => tx.insert(withdrawalApprovals).values({ withdrawId, operator, at }),
  },
  recharge: {
    table: rechargeApprovals,
    item: rechargeApprovals.rechargeId,
    operator: rechargeApprovals.operator,
    at: rechargeApprovals.at,
    again: consoleTexts.consoleSecondRechargeApproverNeeded,
    detailsBeforeLast: consoleTexts.consoleRechargeDetailsBeforeLast,
    record: (tx, rechargeId, operator, at) => tx.insert(rechargeApprovals).values({ rechargeId, operator, at }),
  },
} satisfies Record<string, FourEyesKind>;
/** A kind of review that needs two approvers above FOUR_EYES_USDT. */
export type FourEyesKindName = keyof typeof FOUR_EYES;

/**
 * Whether an approval (a row of `kind`'s approvals in the query) counts toward four eyes: the command line's ('ops',
 * which no operator row names) and an operator's while they are not disabled. Disabling an operator (a stolen session,
 * say) takes back their approvals of items still in review: two others must then approve.
 */
export const countingApproval = (db: Executor, kind: FourEyesKind) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(operators)
      .where(and(eq(operators.name, kind.operator), isNotNull(operators.disabledAt))),
  );

/** Who approved a withdrawal or recharge so far (four eyes: countingApproval), first approver first. */
export async function approvalsOf(db: Executor, id: number, kind: FourEyesKind = FOUR_EYES.withdrawal) {
  return (await approvalRecordsOf(db, id, kind)).map((row) => row.operator);
}

/** Each approval a withdrawal or recharge has so far (four eyes: countingApproval), first approver first: the
 * operator's name (`ops` for the operator command) and when it was given. */
export async function approvalRecordsOf(
  db: Executor,
  id: number,
  kind: FourEyesKind = FOUR_EYES.withdrawal,
): Promise<{ operator: string; at: Date }[]> {
  const rows = await db
    .select({ operator: kind.operator, at: kind.at })
    .from(kind.table)
    .where(and(eq(kind.item, id), countingApproval(db, kind)))
    .orderBy(asc(kind.at));
  return rows as { operator: string; at: Date }[];
}

/**
 * 2 when the money moved (a withdrawal's amount, a recharge's credit: `amount` of `asset`) is worth more than
 * `fourEyesUsdt`, else 1. A coin is valued at its latest recorded price; a coin without one needs two approvals
 * (unknown is not small).
 */
export async function approvalsNeeded(
  db: Executor,
  order: { asset: string; amount: string },
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

/** An approval's outcome: the row as it now is, who approved it so far (the caller last) and how many it needs; fewer
 * approvals than needed: it still waits for review. */
export interface FourEyesApproval<Row> {
  row: Row;
  approvals: string[];
  needed: number;
}

/** One kind's review as four eyes drives it: its name in the audit log and claims, the row locked for the decision,
 * the status of one that waits, what the decision moves (for approvalsNeeded), and the decision itself. */
interface ApprovalSteps<Row extends { status: string }> {
  name: FourEyesKindName;
  lock: () => Promise<Row | undefined>;
  waiting: string;
  worth: (row: Row) => { asset: string; amount: string };
  /** Applies the decision (credits, pays out); also the refusal of an item that is missing or reviewed already. */
  decide: () => Promise<Row>;
  /** Details of the decision were given (a payout hash, a block height, a remark): only the last approval takes them.
   */
  detailsGiven: boolean;
}

/**
 * An approval under four eyes, in `tx`: locks the item, then decides it when this approval is the last one needed,
 * else records it (the item stays in review); either way ends its claim and appends the audit entry, its approvals
 * before and after. The same operator approving twice is refused, and so are the decision's details with an approval
 * that is not the last. Two approvals at once, from any processes, wait for each other on the item's row lock, so the
 * second reads the first's approval and only one of them decides.
 */
async function approveUnderFourEyes<Row extends { status: string }>(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
  fourEyesUsdt: string,
  steps: ApprovalSteps<Row>,
): Promise<FourEyesApproval<Row>> {
  const kind: FourEyesKind = FOUR_EYES[steps.name];
  const order = await steps.lock();
  // An item that does not exist or was reviewed already: the review's own rule says so.
  if (!order || order.status !== steps.waiting) return { row: await steps.decide(), approvals: [], needed: 1 };
  const needed = await approvalsNeeded(tx, steps.worth(order), fourEyesUsdt);
  const earlier = needed > 1 ? await approvalsOf(tx, id, kind) : [];
  if (earlier.includes(actor.name)) throw new Refusal(kind.again.id);
  const approvals = [...earlier, actor.name];
  // Details that say the money moved (a payout hash) or that the customer reads once credited (a block height) go
  // with the approval that moves it: an earlier one would drop them, or have them sent again.
  if (approvals.length < needed && steps.detailsGiven) throw new Refusal(kind.detailsBeforeLast.id);
  if (needed > 1) await kind.record(tx, id, actor.name, now);
  const row = approvals.length < needed ? order : await steps.decide();
  await releaseClaim(tx, steps.name, id);
  await appendAudit(
    tx,
    actor,
    `${steps.name}.approve`,
    `${steps.name}:${id}`,
    { before: { ...order, approvals: earlier }, after: { ...row, approvals } },
    now,
  );
  return { row, approvals, needed };
}

/**
 * An approval of a recharge: credits it when it is the last one needed (two above FOUR_EYES_USDT, of two different
 * operators, the command counting as 'ops'), else records it and the recharge stays pending. The block height and
 * remark go with the approval that credits it.
 */
export async function approveRechargeAs(
  tx: Tx,
  actor: Actor,
  id: number,
  details: { blockHeight?: string; remark?: string },
  now: Date,
  fourEyesUsdt: string,
): Promise<FourEyesApproval<RechargeRow>> {
  return approveUnderFourEyes(tx, actor, id, now, fourEyesUsdt, {
    name: 'recharge',
    lock: async () => (await tx.select().from(rechargeOrders).where(eq(rechargeOrders.id, id)).for('update'))[0],
    waiting: 'pending',
    worth: (row) => ({ asset: row.asset, amount: row.actualAmount }),
    decide: () => approveRecharge(tx, id, details, now),
    detailsGiven: Boolean(details.blockHeight || details.remark),
  });
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
): Promise<FourEyesApproval<WithdrawRow>> {
  return approveUnderFourEyes(tx, actor, id, now, fourEyesUsdt, {
    name: 'withdrawal',
    lock: async () => (await tx.select().from(withdrawOrders).where(eq(withdrawOrders.id, id)).for('update'))[0],
    waiting: 'review',
    worth: (row) => row,
    decide: () => approveWithdrawal(tx, id, details, now),
    detailsGiven: Boolean(details.hash),
  });
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
