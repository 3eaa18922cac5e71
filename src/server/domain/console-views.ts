// What the console shows a reviewer, read only: the queues and their counts, one order with what it
// is weighed against, a customer's balances, ledger and orders. Reads use the review rules' own
// queues (recharge.ts, withdraw.ts, certification.ts); nothing here writes.
import { waitingConversations } from './service-chat.ts';
import { consoleTexts } from '../../contract/console-texts.ts';
import Big from 'big.js';
import { count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import {
  certifications,
  contractOrders,
  ledgerEntries,
  optionOrders,
  rechargeOrders,
  sessions,
  users,
  withdrawOrders,
} from '../db/schema.ts';
import type { ConsoleRecharge, ConsoleWithdrawal } from '../../contract/console.ts';
import { rechargeQueue, type RechargeRow } from './recharge.ts';
import { withdrawalQueue, type WithdrawRow } from './withdraw.ts';
import { certificationQueue, type CertificationRow } from './certification.ts';
import { balancesOf } from './ledger.ts';
import { usernames } from './accounts.ts';
import { UPLOADS_PATH } from './uploads.ts';
import { approvalsNeeded, approvalsOf } from './operator-reviews.ts';
import { Refusal } from './refusal.ts';

/** How many of each list the console shows at most. */
const RECENT = 20;
const plain = (value: string) => new Big(value).toString();
const iso = (at: Date | null) => at?.toISOString() ?? null;
/** '/api/uploads/<id>' → '<id>': the console reads it with its own token. */
const uploadId = (url: string) => (url.startsWith(UPLOADS_PATH) ? url.slice(UPLOADS_PATH.length) : url);

export function rechargeView(row: RechargeRow, username: string): ConsoleRecharge {
  return {
    id: row.id,
    order_no: row.orderNo,
    user_id: row.userId,
    username,
    kind: row.kind,
    channel: row.channelName,
    currency: row.currency,
    amount: plain(row.amount),
    asset: row.asset,
    actual_amount: plain(row.actualAmount),
    hash: row.hash,
    receipt: row.proof ? uploadId(row.proof) : null,
    block_height: row.blockHeight,
    remark: row.remark,
    reason: row.reason,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    reviewed_at: iso(row.reviewedAt),
  };
}

export function withdrawalView(
  row: WithdrawRow,
  username: string,
  four: { approvals: string[]; needed: number },
): ConsoleWithdrawal {
  return {
    id: row.id,
    order_no: row.orderNo,
    user_id: row.userId,
    username,
    asset: row.asset,
    amount: plain(row.amount),
    fee: plain(row.fee),
    total: plain(row.total),
    actual_amount: plain(row.actualAmount),
    target: row.target,
    payee_name: row.payeeName,
    payee_account: row.payeeAccount,
    payee_network: row.payeeNetwork,
    fiat_currency: row.fiatCurrency,
    fiat_amount: row.fiatAmount,
    status: row.status,
    reason: row.reason,
    hash: row.hash,
    created_at: row.createdAt.toISOString(),
    reviewed_at: iso(row.reviewedAt),
    approvals: four.approvals,
    approvals_needed: four.needed,
  };
}

export const certificationView = (row: CertificationRow, username: string) => ({
  id: row.id,
  user_id: row.userId,
  username,
  level: row.level,
  doc_type: row.docType,
  name: row.name,
  number: row.number,
  pictures: Object.fromEntries(Object.entries(row.images).map(([side, url]) => [side, uploadId(url)])),
  status: row.status,
  reason: row.reason,
  created_at: row.createdAt.toISOString(),
  reviewed_at: iso(row.reviewedAt),
});

const nameOf = async (db: Executor, userId: number) => (await usernames(db, [userId])).get(userId) ?? '';

export async function withdrawalWithApprovals(
  db: Executor,
  row: WithdrawRow,
  username: string,
  fourEyesUsdt: string,
): Promise<ConsoleWithdrawal> {
  return withdrawalView(row, username, {
    approvals: await approvalsOf(db, row.id),
    needed: await approvalsNeeded(db, row, fourEyesUsdt),
  });
}

/** What waits for review now. */
export async function reviewQueues(db: Executor) {
  const waiting = async (
    table: typeof rechargeOrders | typeof withdrawOrders | typeof certifications,
    status: string,
  ) => Number((await db.select({ n: count() }).from(table).where(eq(table.status, status)))[0]?.n ?? 0);
  return {
    recharges: await waiting(rechargeOrders, 'pending'),
    withdrawals: await waiting(withdrawOrders, 'review'),
    certifications: await waiting(certifications, 'review'),
    service: await waitingConversations(db),
  };
}

export async function rechargeList(db: Executor, status: Parameters<typeof rechargeQueue>[1]) {
  return (await rechargeQueue(db, status)).map(({ order, username }) => rechargeView(order, username));
}

export async function withdrawalList(
  db: Executor,
  status: Parameters<typeof withdrawalQueue>[1],
  fourEyesUsdt: string,
) {
  return Promise.all(
    (await withdrawalQueue(db, status)).map(({ order, username }) =>
      withdrawalWithApprovals(db, order, username, fourEyesUsdt),
    ),
  );
}

export async function certificationList(db: Executor, status: Parameters<typeof certificationQueue>[1]) {
  const rows = await certificationQueue(db, status);
  const names = await usernames(
    db,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => certificationView(row, names.get(row.userId) ?? ''));
}

export async function rechargeDetail(db: Executor, id: number) {
  const [row] = await db.select().from(rechargeOrders).where(eq(rechargeOrders.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return rechargeView(row, await nameOf(db, row.userId));
}

export async function certificationDetail(db: Executor, id: number) {
  const [row] = await db.select().from(certifications).where(eq(certifications.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return certificationView(row, await nameOf(db, row.userId));
}

async function customerOrders(db: Executor, userId: number, username: string, fourEyesUsdt: string) {
  const [recharges, withdrawals] = await Promise.all([
    db
      .select()
      .from(rechargeOrders)
      .where(eq(rechargeOrders.userId, userId))
      .orderBy(desc(rechargeOrders.id))
      .limit(RECENT),
    db
      .select()
      .from(withdrawOrders)
      .where(eq(withdrawOrders.userId, userId))
      .orderBy(desc(withdrawOrders.id))
      .limit(RECENT),
  ]);
  return {
    recharges: recharges.map((row) => rechargeView(row, username)),
    withdrawals: await Promise.all(withdrawals.map((row) => withdrawalWithApprovals(db, row, username, fourEyesUsdt))),
  };
}

/** A withdrawal beside the customer's deposits, withdrawals and latest sign-ins (address in full: the reviewer looks
 * for a stranger). */
export async function withdrawalDetail(db: Executor, id: number, fourEyesUsdt: string) {
  const [row] = await db.select().from(withdrawOrders).where(eq(withdrawOrders.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  const username = await nameOf(db, row.userId);
  const orders = await customerOrders(db, row.userId, username, fourEyesUsdt);
  const signIns = await db
    .select({ at: sessions.createdAt, ip: sessions.ip, device: sessions.device })
    .from(sessions)
    .where(eq(sessions.userId, row.userId))
    .orderBy(desc(sessions.id))
    .limit(RECENT);
  return {
    withdrawal: await withdrawalWithApprovals(db, row, username, fourEyesUsdt),
    deposits: orders.recharges,
    withdrawals: orders.withdrawals,
    sign_ins: signIns.map((signIn) => ({ at: signIn.at.toISOString(), ip: signIn.ip, device: signIn.device })),
  };
}

const customerView = (row: typeof users.$inferSelect) => ({
  id: row.id,
  username: row.username,
  phone: row.phone,
  email: row.email,
  nickname: row.nickname,
  level: row.level,
  verification: row.verification,
  advanced_verification: row.advancedVerification,
  created_at: row.createdAt.toISOString(),
});

/** Customers whose username, mobile number or e-mail address starts with `text`. */
export async function findCustomers(db: Executor, text: string) {
  const prefix = `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const rows = await db
    .select()
    .from(users)
    .where(or(ilike(users.username, prefix), ilike(users.phone, prefix), ilike(users.email, prefix)))
    .orderBy(users.username)
    .limit(RECENT);
  return rows.map(customerView);
}

/** One customer, read only. */
export async function customerDetail(db: Executor, userId: number, fourEyesUsdt: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  const [balances, ledger, options, contracts, orders] = await Promise.all([
    balancesOf(db, userId),
    db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(desc(ledgerEntries.id)).limit(50),
    db.select().from(optionOrders).where(eq(optionOrders.userId, userId)).orderBy(desc(optionOrders.id)).limit(RECENT),
    db
      .select()
      .from(contractOrders)
      .where(eq(contractOrders.userId, userId))
      .orderBy(desc(contractOrders.id))
      .limit(RECENT),
    customerOrders(db, userId, row.username, fourEyesUsdt),
  ]);
  return {
    customer: customerView(row),
    balances: balances.map((balance) => ({
      asset: balance.asset,
      available: plain(balance.available),
      frozen: plain(balance.frozen),
    })),
    ledger: ledger.map((entry) => ({
      id: entry.id,
      asset: entry.asset,
      bucket: entry.bucket,
      amount: plain(entry.amount),
      kind: entry.kind,
      reference: entry.reference,
      created_at: entry.createdAt.toISOString(),
    })),
    ...orders,
    options: options.map((order) => ({
      id: order.id,
      coin: order.coin,
      direction: order.direction,
      amount: plain(order.amount),
      status: order.status,
      outcome: order.outcome,
      payout: order.payout === null ? null : plain(order.payout),
      created_at: order.startAt.toISOString(),
    })),
    contracts: contracts.map((order) => ({
      id: order.id,
      coin: order.coin,
      side: order.side,
      type: order.type,
      status: order.status,
      quantity: plain(order.quantity),
      created_at: order.createdAt.toISOString(),
    })),
  };
}
