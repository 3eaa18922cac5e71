// Withdrawals: the amount plus its fee is frozen at once (the request and the freeze are one
// transaction); an operator pays it out (the frozen funds leave) or rejects it with a reason the
// customer sees (the frozen funds come back). Each outcome posts once, whatever is retried.
import Big from 'big.js';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { tableRow, type Executor, type Tx } from '../db/connection.ts';
import { closedAccounts, users, withdrawOrders, withdrawRules } from '../db/schema.ts';
import { customerNameColumns } from './console-closures.ts';
import {
  FUNDS_PAGE_SIZE,
  withdrawFee,
  type PayeeKind,
  type WithdrawFilter,
  type WithdrawOrder,
  type WithdrawRule,
  type WithdrawStatus,
} from '../../api-contract/funds.ts';
import { maskBankNumber, type Chain } from '../../api-contract/payouts.ts';
import { ADDRESS_PROBLEM_TEXTS } from '../../api-contract/add-wallet.ts';
import { readAddress } from '../../api-contract/chain-address.ts';
import { BANK_NAMES, BANK_PAYOUT_CURRENCY, type BankCode } from '../../api-contract/constants.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal, refuseIfBroken, refusalOf } from './refusal.ts';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import { fiatRateOf } from './fiat.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { balancesOf, freezeWithin, insertedRow, post, unfreeze } from './ledger.ts';
import type { BankCardRow, WalletRow } from './payouts.ts';
import { claimForReview, requireReason, selfNumbered, type Reviewable } from './reviews.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { checkPayoutReference } from '../../api-contract/console.ts';
import type { OpenWithdrawal } from '../../api-contract/console-service.ts';
import { holdChainHash, isCreditedRechargeHash, payoutWithHash } from './recharge.ts';
import { queueNotice } from './notices.ts';
import { payoutHoldOf, refuseWhileFrozen } from './account-freeze.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';

export type WithdrawRow = typeof withdrawOrders.$inferSelect;

/** A withdrawal's ledger entries are under `withdraw:<order id>`: its freeze, its payout or its return. */
const WITHDRAW_REFERENCE_PREFIX = 'withdraw:';
const withdrawReference = (id: number) => `${WITHDRAW_REFERENCE_PREFIX}${id}`;
type RuleRow = typeof withdrawRules.$inferSelect;

export async function ruleFor(db: Executor, asset: string): Promise<RuleRow> {
  const [rule] = await db.select().from(withdrawRules).where(eq(withdrawRules.asset, asset));
  if (!rule) throw new Refusal(texts.invalidRequest.id);
  return rule;
}

export async function withdrawRuleFor(db: Executor, userId: number, asset: string): Promise<WithdrawRule> {
  const rule = await ruleFor(db, asset);
  const held = (await balancesOf(db, userId)).find((balance) => balance.asset === asset);
  return {
    asset,
    fee_rate: new Big(rule.feeRate).toString(),
    min_amount: new Big(rule.minAmount).toFixed(8),
    max_amount: new Big(rule.maxAmount).toFixed(8),
    available: new Big(held?.available ?? 0).toFixed(8),
  };
}

/** The minimum and maximum amount of one withdrawal (the rule's), checked before the password is. */
export function checkLimits(amount: string, rule: RuleRow): void {
  refuseIfBroken(amountOutsideLimits(amount, { min: rule.minAmount, max: rule.maxAmount }, rule.asset));
}

export function toWithdrawOrder(row: WithdrawRow): WithdrawOrder {
  return {
    id: row.id,
    order_no: row.orderNo,
    target: row.target as PayeeKind,
    asset: row.asset,
    amount: new Big(row.amount).toFixed(8),
    fee_rate: new Big(row.feeRate).toString(),
    fee: new Big(row.fee).toFixed(8),
    total: new Big(row.total).toFixed(8),
    actual_amount: new Big(row.actualAmount).toFixed(8),
    payee_name: row.payeeName,
    // The full bank number stays with the operator who pays it; the customer sees its end.
    payee_account: row.target === 'bank' ? maskBankNumber(row.payeeAccount) : row.payeeAccount,
    payee_network: row.payeeNetwork,
    fiat_currency: row.fiatCurrency,
    fiat_rate: row.fiatRate ? new Big(row.fiatRate).toFixed(8) : '',
    fiat_amount: row.fiatAmount ? new Big(row.fiatAmount).toFixed(2) : '',
    status: row.status as WithdrawStatus,
    reason: row.reason,
    hash: row.hash,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

export type Payee = { kind: 'bank'; card: BankCardRow } | { kind: 'wallet'; wallet: WalletRow };

/**
 * The address a withdrawal to this wallet is sent to, in its chain's one spelling (EIP-55 for EVM, lower-case bech32).
 * A wallet saved before addresses were read by their standards may fail them (a mistyped checksum was taken then):
 * refused with the reason, so the customer deletes it and adds it again rather than funds going to a wrong address.
 */
export function payeeAddressOf(wallet: WalletRow): string {
  const reading = readAddress(wallet.chain as Chain, wallet.address);
  if (!reading.ok) throw refusalOf(ADDRESS_PROBLEM_TEXTS[reading.problem]);
  return reading.address;
}

/** Opens the withdrawal and freezes amount + fee in `tx`; a short balance refuses and writes nothing. */
export async function requestWithdrawal(
  tx: Tx,
  userId: number,
  payee: Payee,
  amount: string,
  rule: RuleRow,
  now: Date,
): Promise<WithdrawRow> {
  // A frozen account asks for no withdrawal (checked in this transaction: a freeze committed first is seen).
  await refuseWhileFrozen(tx, userId, now);
  const fee = withdrawFee(amount, rule.feeRate);
  const total = new Big(amount).plus(fee).toFixed(8);
  const details =
    payee.kind === 'bank'
      ? {
          payeeId: payee.card.id,
          payeeName: payee.card.realName,
          payeeAccount: payee.card.bankNumber,
          payeeNetwork: BANK_NAMES[payee.card.bankCode as BankCode] ?? payee.card.bankCode,
        }
      : {
          payeeId: payee.wallet.id,
          payeeName: payee.wallet.alias,
          payeeAccount: payeeAddressOf(payee.wallet),
          payeeNetwork: payee.wallet.chain,
        };
  let fiat: { fiatCurrency: string; fiatRate: string; fiatAmount: string } | null = null;
  if (payee.kind === 'bank') {
    const rate = await fiatRateOf(tx, BANK_PAYOUT_CURRENCY);
    if (rate)
      fiat = {
        fiatCurrency: rate.code,
        fiatRate: rate.rate,
        fiatAmount: new Big(amount).times(rate.rate).round(2, Big.roundDown).toFixed(2),
      };
  }
  // One statement: the order inserted with its number, then amount + fee frozen under its reference (both buckets of
  // the balance row, two entries), so the account's row is held from then on for the commit's round trip only.
  const numbered = selfNumbered(withdrawOrders, 'W', now);
  const insert = tx
    .insert(withdrawOrders)
    .values({
      id: numbered.id,
      userId,
      orderNo: numbered.orderNo,
      target: payee.kind,
      asset: rule.asset,
      amount: new Big(amount).toFixed(8),
      feeRate: rule.feeRate,
      fee,
      total,
      actualAmount: new Big(amount).toFixed(8),
      ...details,
      ...(fiat ?? {}),
      createdAt: now,
    })
    .returning();
  return tableRow(
    withdrawOrders,
    await freezeWithin(
      tx,
      { userId, asset: rule.asset, amount: total, kind: 'withdraw_freeze' },
      insertedRow(sql`${numbered.with}, placed as (${insert.getSQL()})`, WITHDRAW_REFERENCE_PREFIX),
      now,
    ),
  );
}

const FILTER_STATUSES: Record<WithdrawFilter, WithdrawStatus[] | null> = {
  all: null,
  processing: ['review'],
  completed: ['success', 'fail'],
  review: ['review'],
  success: ['success'],
  fail: ['fail'],
};

const NEWEST_WITHDRAWAL_FIRST: KeysetOrder<WithdrawRow> = {
  keys: [idKey(withdrawOrders.id, (row) => row.id)],
  direction: 'desc',
};

/** The caller's withdrawals of one filter, newest first, by cursor (`cursor` '' for the head). */
export async function listWithdrawals(
  db: Executor,
  userId: number,
  filter: WithdrawFilter,
  cursor: string,
): Promise<CursorPage<WithdrawOrder>> {
  const statuses = FILTER_STATUSES[filter];
  const where = and(eq(withdrawOrders.userId, userId), statuses ? inArray(withdrawOrders.status, statuses) : undefined);
  const listed = await keysetQuery(
    (after) => db.select().from(withdrawOrders).where(and(where, after)).$dynamic(),
    NEWEST_WITHDRAWAL_FIRST,
    { cursor },
    FUNDS_PAGE_SIZE,
  );
  return { ...listed, lists: listed.lists.map(toWithdrawOrder) };
}

/**
 * The customer's withdrawals still in review, newest first (the first page of their own 'review' list), as the
 * console shows them beside the customer's service conversation; amounts as decimal strings in the order's asset.
 */
export async function openWithdrawals(db: Executor, userId: number): Promise<OpenWithdrawal[]> {
  const { lists } = await listWithdrawals(db, userId, 'review', '');
  return lists.map((order) => ({
    id: order.id,
    order_no: order.order_no,
    amount: new Big(order.amount).toString(),
    asset: order.asset,
    created_at: order.created_at,
  }));
}

/**
 * One of the customer's withdrawals, saying at `now` whether their account's freeze holds it (in review only).
 * @throws Refusal orderNotFound for another customer's or an unknown id.
 */
export async function findWithdrawal(db: Executor, userId: number, id: number, now: Date): Promise<WithdrawOrder> {
  const [row] = await db
    .select()
    .from(withdrawOrders)
    .where(and(eq(withdrawOrders.id, id), eq(withdrawOrders.userId, userId)));
  if (!row) throw new Refusal(texts.orderNotFound.id);
  return { ...toWithdrawOrder(row), held: await heldByFreeze(db, row, now) };
}

/** The freeze holding a withdrawal in review (payoutHoldOf); a decided one is held by nothing. */
export const heldByFreeze = async (db: Executor, row: WithdrawRow, now: Date) =>
  row.status === 'review' ? payoutHoldOf(db, row.userId, now) : null;

/** A withdrawal waits for review in 'review'. */
const withdrawals: Reviewable = {
  table: withdrawOrders,
  id: withdrawOrders.id,
  waiting: 'review',
  missing: consoleTexts.consoleWithdrawalNotFound,
  reviewed: consoleTexts.consoleWithdrawalReviewed,
};
const claimInReview = (tx: Tx, id: number) => claimForReview<WithdrawRow>(tx, withdrawals, id);

/**
 * Paid out: the frozen amount + fee leaves the platform. The payout's reference (`details.hash`), which the customer
 * reads and copies, follows the API contract's rule (`checkPayoutReference`) from every entry point; one that breaks it
 * is refused with its text before anything changes, and so is the hash of a credited recharge (isCreditedRechargeHash)
 * and one already recorded for another withdrawal on the same chain (payoutWithHash), about the field `hash`.
 */
export async function approveWithdrawal(
  tx: Tx,
  id: number,
  details: { hash?: string },
  now: Date,
): Promise<WithdrawRow> {
  const reference = checkPayoutReference(details.hash);
  if ('broken' in reference) throw refusalOf(reference.broken);
  // The deposit wallet's history lists deposits beside payouts: a credited deposit's hash names no payout.
  if (reference.hash) await holdChainHash(tx, reference.hash);
  if (reference.hash && (await isCreditedRechargeHash(tx, reference.hash)))
    throw new Refusal(consoleTexts.consolePayoutIsRecharge.id);
  const order = await claimInReview(tx, id);
  // One transaction pays one withdrawal (the platform pays each by a transfer of its own, no batches): a hash already
  // recorded on this chain would show two customers one payout, and one of them was never paid. The hash is held above,
  // so two operators recording it at once, in two processes, are taken one after the other and the later sees it.
  const recorded = reference.hash ? await payoutWithHash(tx, reference.hash, order.payeeNetwork) : undefined;
  if (recorded) throw new Refusal(consoleTexts.consolePayoutHashUsed.id, { 0: recorded.orderNo }, 'hash');
  // The customer froze the account: the withdrawal is held (its funds stay frozen) until they unfreeze it. Rejecting
  // it stays possible: the funds then return to the customer's balance, never leave.
  await refuseWhileFrozen(tx, order.userId, now, serverTexts.accountFrozenHeld);
  await post(
    tx,
    {
      userId: order.userId,
      asset: order.asset,
      amount: new Big(order.total).neg().toFixed(8),
      kind: 'withdraw_paid',
      reference: withdrawReference(id),
      bucket: 'frozen',
    },
    now,
  );
  const [row] = await tx
    .update(withdrawOrders)
    .set({ status: 'success', hash: reference.hash, reviewedAt: now })
    .where(eq(withdrawOrders.id, id))
    .returning();
  await queueNotice(
    tx,
    order.userId,
    { kind: 'withdraw_reviewed', id, approved: true, amount: order.amount, asset: order.asset, reason: '' },
    now,
  );
  return row!;
}

/** Rejected with a reason the customer sees: the frozen amount + fee returns to the balance. */
export async function rejectWithdrawal(tx: Tx, id: number, reason: string, now: Date): Promise<WithdrawRow> {
  const why = requireReason(reason);
  const order = await claimInReview(tx, id);
  const reference = withdrawReference(id);
  await unfreeze(tx, order.userId, order.asset, order.total, 'withdraw_return', reference, now);
  const [row] = await tx
    .update(withdrawOrders)
    .set({ status: 'fail', reason: why, reviewedAt: now })
    .where(eq(withdrawOrders.id, id))
    .returning();
  await queueNotice(
    tx,
    order.userId,
    { kind: 'withdraw_reviewed', id, approved: false, amount: order.amount, asset: order.asset, reason: why },
    now,
  );
  return row!;
}

/** The operator's review queue: withdrawals in a status (or all), oldest first, each with its customer's name
 * (console-closures.ts CustomerName: a closed account's as it was). */
export function withdrawalQueue(db: Executor, status: WithdrawStatus | 'all', limit = 200) {
  return db
    .select({ order: withdrawOrders, ...customerNameColumns })
    .from(withdrawOrders)
    .innerJoin(users, eq(users.id, withdrawOrders.userId))
    .leftJoin(closedAccounts, eq(closedAccounts.userId, users.id))
    .where(status === 'all' ? undefined : eq(withdrawOrders.status, status))
    .orderBy(asc(withdrawOrders.id))
    .limit(limit);
}
