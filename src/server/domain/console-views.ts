// What the console shows a reviewer, read only: the queues and their counts, one order with what it
// is weighed against, a customer's balances, ledger and orders. Reads use the review rules' own
// queues (recharge.ts, withdraw.ts, certification.ts); nothing here writes.
import { waitingConversations } from './service-chat.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { lockRowOf, toAddressLock } from './address-lock.ts';
import Big from 'big.js';
import { and, count, desc, eq, gte, inArray, lt, notLike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import {
  bankCards,
  certifications,
  closedAccounts,
  contractOrders,
  ledgerEntries,
  optionOrders,
  rechargeOrders,
  sessions,
  users,
  wallets,
  withdrawOrders,
} from '../db/schema.ts';
import {
  BALANCE_HISTORY_DAYS,
  BALANCE_HISTORY_MAX,
  type BalanceHistory,
  type ConsoleClosure,
  type ConsoleRecharge,
  type ConsoleWithdrawal,
  type PayeeAge,
  type UsdtTotals,
} from '../../api-contract/console.ts';
import { rechargeQueue, type RechargeRow } from './recharge.ts';
import { heldByFreeze, withdrawalQueue, type WithdrawRow } from './withdraw.ts';
import { certificationQueue, type CertificationRow } from './certification.ts';
import { PRACTICE_ASSETS, balancesOf, USDT } from './ledger.ts';
import { usernameStartsWith } from './accounts.ts';
import { UPLOADS_PATH } from './uploads.ts';
import { FOUR_EYES, approvalRecordsOf, approvalsNeeded, approvalsOf, type FourEyesKind } from './operator-reviews.ts';
import { Refusal } from './refusal.ts';
import { phoneStartsWith } from './phone-numbers.ts';
import { protectionForConsole } from './protection.ts';
import { payeeUsableAt } from './payouts.ts';
import { closuresOf, customerNames, formerContactStartsWith, type CustomerName } from './console-closures.ts';

/** How many of each list the console shows at most. */
const RECENT = 20;
const plain = (value: string) => new Big(value).toString();
const iso = (at: Date | null) => at?.toISOString() ?? null;
/** '/api/uploads/<id>' → '<id>': the console reads it with its own token. */
const uploadId = (url: string) => (url.startsWith(UPLOADS_PATH) ? url.slice(UPLOADS_PATH.length) : url);

/** A recharge as the console shows it, its customer named by `name` (customerNames). */
export function rechargeView(
  row: RechargeRow,
  name: CustomerName,
  four: { approvals: string[]; needed: number },
): ConsoleRecharge {
  return {
    id: row.id,
    order_no: row.orderNo,
    user_id: row.userId,
    username: name.username,
    closed: name.closed,
    kind: row.kind,
    channel: row.channelName,
    chain: row.chain,
    address: row.address,
    currency: row.currency,
    amount: plain(row.amount),
    rate: plain(row.rate),
    asset: row.asset,
    actual_amount: plain(row.actualAmount),
    usdt_value: row.asset === USDT ? plain(row.actualAmount) : null,
    hash: row.hash,
    receipt: row.proof ? uploadId(row.proof) : null,
    block_height: row.blockHeight,
    remark: row.remark,
    reason: row.reason,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    reviewed_at: iso(row.reviewedAt),
    approvals: four.approvals,
    approvals_needed: four.needed,
  };
}

/** A withdrawal as the console shows it, its customer named by `name` (customerNames), with its four eyes' state. */
export function withdrawalView(
  row: WithdrawRow,
  name: CustomerName,
  four: { approvals: string[]; needed: number },
): ConsoleWithdrawal {
  return {
    id: row.id,
    order_no: row.orderNo,
    user_id: row.userId,
    username: name.username,
    closed: name.closed,
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
    usdt_value: row.asset === USDT ? plain(row.amount) : null,
    status: row.status,
    reason: row.reason,
    hash: row.hash,
    created_at: row.createdAt.toISOString(),
    reviewed_at: iso(row.reviewedAt),
    approvals: four.approvals,
    approvals_needed: four.needed,
  };
}

/** A certification as the console shows it, its customer named by `name` (customerNames). */
export const certificationView = (row: CertificationRow, name: CustomerName) => ({
  id: row.id,
  user_id: row.userId,
  username: name.username,
  closed: name.closed,
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

/** The customer's CustomerName; an id that names nobody, an empty name. */
export const nameOf = async (db: Executor, userId: number): Promise<CustomerName> =>
  (await customerNames(db, [userId])).get(userId) ?? { username: '', closed: false };

/** Refuses a customer id that names nobody. */
export async function customerExists(db: Executor, userId: number): Promise<void> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
}

/** An item's four eyes as the console shows it: its approvals' operators (`approved` when the caller has read them
 * already, approvalRecordsOf) and how many it needs for what it moves (`worth`). */
async function fourEyesOf(
  db: Executor,
  kind: FourEyesKind,
  id: number,
  worth: { asset: string; amount: string },
  fourEyesUsdt: string,
  approved?: { operator: string }[],
) {
  return {
    approvals: approved ? approved.map((approval) => approval.operator) : await approvalsOf(db, id, kind),
    needed: await approvalsNeeded(db, worth, fourEyesUsdt),
  };
}

/** A withdrawal as the console lists it, with its approvals' operators and how many it needs (four eyes).
 * `approved`: its approvals when the caller has read them already (approvalRecordsOf). */
export async function withdrawalWithApprovals(
  db: Executor,
  row: WithdrawRow,
  name: CustomerName,
  fourEyesUsdt: string,
  approved?: { operator: string }[],
): Promise<ConsoleWithdrawal> {
  return withdrawalView(row, name, await fourEyesOf(db, FOUR_EYES.withdrawal, row.id, row, fourEyesUsdt, approved));
}

/** A recharge as the console lists it, with its approvals' operators and how many it needs for what it credits (four
 * eyes). `approved`: its approvals when the caller has read them already (approvalRecordsOf). */
export async function rechargeWithApprovals(
  db: Executor,
  row: RechargeRow,
  name: CustomerName,
  fourEyesUsdt: string,
  approved?: { operator: string }[],
): Promise<ConsoleRecharge> {
  const worth = { asset: row.asset, amount: row.actualAmount };
  return rechargeView(row, name, await fourEyesOf(db, FOUR_EYES.recharge, row.id, worth, fourEyesUsdt, approved));
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

export async function rechargeList(db: Executor, status: Parameters<typeof rechargeQueue>[1], fourEyesUsdt: string) {
  return Promise.all(
    (await rechargeQueue(db, status)).map(({ order, username, closed }) =>
      rechargeWithApprovals(db, order, { username, closed: Boolean(closed) }, fourEyesUsdt),
    ),
  );
}

export async function withdrawalList(
  db: Executor,
  status: Parameters<typeof withdrawalQueue>[1],
  fourEyesUsdt: string,
) {
  return Promise.all(
    (await withdrawalQueue(db, status)).map(({ order, username, closed }) =>
      withdrawalWithApprovals(db, order, { username, closed: Boolean(closed) }, fourEyesUsdt),
    ),
  );
}

export async function certificationList(db: Executor, status: Parameters<typeof certificationQueue>[1]) {
  const rows = await certificationQueue(db, status);
  const names = await customerNames(
    db,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => certificationView(row, names.get(row.userId) ?? { username: '', closed: false }));
}

/** A recharge for its review page, with who approved it so far and when (four eyes); `operator`: the caller. */
export async function rechargeDetail(db: Executor, id: number, fourEyesUsdt: string, operator: string) {
  const [row] = await db.select().from(rechargeOrders).where(eq(rechargeOrders.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  const approved = await approvalRecordsOf(db, row.id, FOUR_EYES.recharge);
  return {
    ...(await rechargeWithApprovals(db, row, await nameOf(db, row.userId), fourEyesUsdt, approved)),
    approved_by_you: approved.some((approval) => approval.operator === operator),
    approved: approved.map((approval) => ({ operator: approval.operator, at: approval.at.toISOString() })),
  };
}

export async function certificationDetail(db: Executor, id: number) {
  const [row] = await db.select().from(certifications).where(eq(certifications.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return certificationView(row, await nameOf(db, row.userId));
}

const DAY_MS = 86_400_000;
const SUCCESS = 'success';

/** A customer's orders in USDT, all of them, summed by the database (numeric: exact). */
async function usdtTotals(db: Executor, userId: number): Promise<UsdtTotals> {
  const sumWhere = (column: AnyColumn, status: SQL) =>
    sql<string>`coalesce(sum(${column}) filter (where ${status}), 0)`;
  const [deposits] = await db
    .select({
      credited: sumWhere(rechargeOrders.actualAmount, sql`${rechargeOrders.status} = ${SUCCESS}`),
      waiting: sumWhere(rechargeOrders.actualAmount, sql`${rechargeOrders.status} = 'pending'`),
    })
    .from(rechargeOrders)
    .where(and(eq(rechargeOrders.userId, userId), eq(rechargeOrders.asset, USDT)));
  const [withdrawals] = await db
    .select({
      paid: sumWhere(withdrawOrders.amount, sql`${withdrawOrders.status} = ${SUCCESS}`),
      waiting: sumWhere(withdrawOrders.amount, sql`${withdrawOrders.status} = 'review'`),
    })
    .from(withdrawOrders)
    .where(and(eq(withdrawOrders.userId, userId), eq(withdrawOrders.asset, USDT)));
  const others = async (table: typeof rechargeOrders | typeof withdrawOrders, statuses: string[]) =>
    Number(
      (
        await db
          .select({ n: count() })
          .from(table)
          .where(and(eq(table.userId, userId), sql`${table.asset} <> ${USDT}`, inArray(table.status, statuses)))
      )[0]?.n ?? 0,
    );
  const credited = new Big(deposits?.credited ?? 0);
  const paid = new Big(withdrawals?.paid ?? 0);
  return {
    deposits_credited: credited.toString(),
    deposits_waiting: plain(deposits?.waiting ?? '0'),
    withdrawals_paid: paid.toString(),
    withdrawals_waiting: plain(withdrawals?.waiting ?? '0'),
    net: credited.minus(paid).toString(),
    not_in_usdt:
      (await others(rechargeOrders, [SUCCESS, 'pending'])) + (await others(withdrawOrders, [SUCCESS, 'review'])),
  };
}

type LedgerRow = typeof ledgerEntries.$inferSelect;

/**
 * The USDT balance after each posting of the last BALANCE_HISTORY_DAYS days, from its newest BALANCE_HISTORY_MAX
 * entries at most, oldest first; the balance before them is the sum of every earlier entry (the ledger is the
 * balance's whole story). A posting's entries (one event: the same kind, reference and time, one per bucket, adjacent
 * in the ledger's order) make one point; a posting cut in two by the cap is left to the opening balance whole.
 */
async function balanceHistory(db: Executor, userId: number, now: Date): Promise<BalanceHistory> {
  const since = new Date(now.getTime() - BALANCE_HISTORY_DAYS * DAY_MS);
  const newest = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.asset, USDT), gte(ledgerEntries.createdAt, since)))
    .orderBy(desc(ledgerEntries.seq))
    .limit(BALANCE_HISTORY_MAX + 1);
  const samePosting = (a: LedgerRow | undefined, b: LedgerRow | undefined) =>
    a !== undefined &&
    b !== undefined &&
    a.kind === b.kind &&
    a.reference === b.reference &&
    a.createdAt.getTime() === b.createdAt.getTime();
  const listed = newest.slice(0, BALANCE_HISTORY_MAX).reverse();
  // The cap fell inside a posting: its newer half goes to the opening balance too.
  while (samePosting(listed[0], newest[BALANCE_HISTORY_MAX])) listed.shift();
  const bucketSum = (bucket: string) =>
    sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.bucket} = ${bucket}), 0)`;
  const [opening] = await db
    .select({ available: bucketSum('available'), frozen: bucketSum('frozen') })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.userId, userId),
        eq(ledgerEntries.asset, USDT),
        listed[0] ? lt(ledgerEntries.seq, listed[0].seq) : undefined,
      ),
    );
  let available = new Big(opening?.available ?? 0);
  let frozen = new Big(opening?.frozen ?? 0);
  const start = { available: available.toString(), frozen: frozen.toString() };
  const points: BalanceHistory['points'] = [];
  listed.forEach((entry, index) => {
    const change = new Big(entry.amount);
    if (entry.bucket === 'frozen') frozen = frozen.plus(change);
    else available = available.plus(change);
    const previous = samePosting(listed[index - 1], entry) ? points.pop() : undefined;
    const changed = (bucket: string, before: string | undefined) =>
      new Big(before ?? 0).plus(entry.bucket === bucket ? change : 0).toString();
    points.push({
      at: previous?.at ?? entry.createdAt.toISOString(),
      kind: entry.kind,
      available_change: changed('available', previous?.available_change),
      frozen_change: changed('frozen', previous?.frozen_change),
      available: available.toString(),
      frozen: frozen.toString(),
      total: available.plus(frozen).toString(),
    });
  });
  return { since: since.toISOString(), opening: start, points, capped: newest.length > BALANCE_HISTORY_MAX };
}

/** When the withdrawal's bank card or wallet was saved and whether its cooling-off (the rule of domain/payouts.ts)
 * is over; null when the customer deleted it since. */
async function payeeAge(db: Executor, row: WithdrawRow, coolingMs: number, now: Date): Promise<PayeeAge | null> {
  const [payee] =
    row.target === 'bank'
      ? await db
          .select({ createdAt: bankCards.createdAt, usableAt: bankCards.usableAt })
          .from(bankCards)
          .where(and(eq(bankCards.id, row.payeeId), eq(bankCards.userId, row.userId)))
      : await db
          .select({ createdAt: wallets.createdAt, usableAt: wallets.usableAt })
          .from(wallets)
          .where(and(eq(wallets.id, row.payeeId), eq(wallets.userId, row.userId)));
  if (!payee) return null;
  const usableAt = payeeUsableAt(payee, coolingMs);
  return {
    saved_at: payee.createdAt.toISOString(),
    usable_at: usableAt.toISOString(),
    cooled: usableAt <= now,
    saved_before_seconds: Math.max(0, Math.floor((row.createdAt.getTime() - payee.createdAt.getTime()) / 1000)),
  };
}

/** A customer's latest deposits and withdrawals, their USDT totals and balance history: the withdrawal and recharge
 * pages' side column. */
export async function customerHistory(
  db: Executor,
  userId: number,
  fourEyesUsdt: string,
  now: Date,
  name?: CustomerName,
) {
  const customer = name ?? (await nameOf(db, userId));
  const orders = await customerOrders(db, userId, customer, fourEyesUsdt);
  return {
    deposits: orders.recharges,
    withdrawals: orders.withdrawals,
    totals: await usdtTotals(db, userId),
    balance_history: await balanceHistory(db, userId, now),
  };
}

async function customerOrders(db: Executor, userId: number, name: CustomerName, fourEyesUsdt: string) {
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
    recharges: await Promise.all(recharges.map((row) => rechargeWithApprovals(db, row, name, fourEyesUsdt))),
    withdrawals: await Promise.all(withdrawals.map((row) => withdrawalWithApprovals(db, row, name, fourEyesUsdt))),
  };
}

/** A withdrawal beside the customer's deposits, withdrawals and latest sign-ins (address in full: the reviewer looks
 * for a stranger). */
export async function withdrawalDetail(
  db: Executor,
  id: number,
  fourEyesUsdt: string,
  payee: { coolingMs: number; now: Date },
) {
  const [row] = await db.select().from(withdrawOrders).where(eq(withdrawOrders.id, id));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  const name = await nameOf(db, row.userId);
  const history = await customerHistory(db, row.userId, fourEyesUsdt, payee.now, name);
  const signIns = await db
    .select({ at: sessions.createdAt, ip: sessions.ip, device: sessions.device })
    .from(sessions)
    .where(eq(sessions.userId, row.userId))
    .orderBy(desc(sessions.id))
    .limit(RECENT);
  const approved = await approvalRecordsOf(db, row.id);
  return {
    withdrawal: await withdrawalWithApprovals(db, row, name, fourEyesUsdt, approved),
    payee: await payeeAge(db, row, payee.coolingMs, payee.now),
    address_lock: toAddressLock(await lockRowOf(db, row.userId), payee.now),
    held: await heldByFreeze(db, row, payee.now),
    approved: approved.map((approval) => ({ operator: approval.operator, at: approval.at.toISOString() })),
    ...history,
    sign_ins: signIns.map((signIn) => ({ at: signIn.at.toISOString(), ip: signIn.ip, device: signIn.device })),
  };
}

const customerView = (row: typeof users.$inferSelect, closed: ConsoleClosure | null) => ({
  id: row.id,
  username: row.username,
  phone: row.phone,
  email: row.email,
  nickname: row.nickname,
  level: row.level,
  verification: row.verification,
  advanced_verification: row.advancedVerification,
  created_at: row.createdAt.toISOString(),
  closed,
});

/**
 * Customers whose username or e-mail address starts with `text` in any letter case or compatibility form, folded as
 * login folds a name (accounts.ts usernameStartsWith), or whose mobile number starts with it written any way
 * (phoneStartsWith); a closed account also by the username, mobile number or e-mail address it held when it closed
 * (console-closures.ts), so a former customer is still found by what they remember. At most RECENT, by username (a
 * closed account's as it was).
 */
export async function findCustomers(db: Executor, text: string) {
  const rows = await db
    .select({ user: users })
    .from(users)
    .leftJoin(closedAccounts, eq(closedAccounts.userId, users.id))
    .where(
      or(
        usernameStartsWith(users.username, text),
        phoneStartsWith(users.phone, text),
        usernameStartsWith(users.email, text),
        formerContactStartsWith(text),
      ),
    )
    .orderBy(sql`coalesce(${closedAccounts.username}, ${users.username})`, users.id)
    .limit(RECENT);
  const closures = await closuresOf(
    db,
    rows.filter(({ user }) => user.closedAt).map(({ user }) => user.id),
  );
  return rows.map(({ user }) => customerView(user, closures.get(user.id) ?? null));
}

/**
 * One customer, read only (their own limits and time-out as in force at `now`). Real money only: the practice
 * account's virtual balances, entries and orders are left out (nothing an operator weighs is in them).
 */
export async function customerDetail(db: Executor, userId: number, fourEyesUsdt: string, now: Date) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  const closed = row.closedAt ? ((await closuresOf(db, [userId])).get(userId) ?? null) : null;
  const [balances, ledger, options, contracts, orders, protection] = await Promise.all([
    balancesOf(db, userId),
    db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), notLike(ledgerEntries.asset, PRACTICE_ASSETS)))
      .orderBy(desc(ledgerEntries.seq))
      .limit(50),
    db
      .select()
      .from(optionOrders)
      .where(and(eq(optionOrders.userId, userId), eq(optionOrders.practice, false)))
      .orderBy(desc(optionOrders.id))
      .limit(RECENT),
    db
      .select()
      .from(contractOrders)
      .where(and(eq(contractOrders.userId, userId), eq(contractOrders.practice, false)))
      .orderBy(desc(contractOrders.id))
      .limit(RECENT),
    // A closed account's orders under the name it had, which the operator searched for.
    customerOrders(db, userId, { username: closed?.username ?? row.username, closed: Boolean(closed) }, fourEyesUsdt),
    protectionForConsole(db, userId, now),
  ]);
  return {
    customer: customerView(row, closed),
    protection,
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
      dust_conversion: order.dustConversion,
      created_at: order.createdAt.toISOString(),
    })),
  };
}
