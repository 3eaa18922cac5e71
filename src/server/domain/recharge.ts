// Recharges: a customer reports a payment (crypto hash or bank receipt), an operator checks it and
// approves (credited through the ledger, cumulative recharge and VIP level updated in the same
// transaction) or rejects it with a reason the customer sees. A recharge is credited at most once.
import { serverTexts } from '../../api-contract/server-texts.ts';
import Big from 'big.js';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { constraintOf, rowsOf, tableRow, type Executor, type Tx } from '../db/connection.ts';
import { closedAccounts, rechargeChannels, rechargeOrders, users, withdrawOrders } from '../db/schema.ts';
import { customerNameColumns } from './console-closures.ts';
import {
  canonicalHash,
  FUNDS_PAGE_SIZE,
  rechargeCredit,
  type RechargeChannel,
  type RechargeFilter,
  type RechargeOrder,
  type RechargeStatus,
} from '../../api-contract/funds.ts';
import type { Chain } from '../../api-contract/payouts.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { MAX_PENDING_RECHARGES } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal, refusalOf, refuseIfBroken } from './refusal.ts';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import { fiatRateOf } from './fiat.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { isUniqueViolation } from './accounts.ts';
import { post } from './ledger.ts';
import { ownsUploads, uploadDigest } from './uploads.ts';
import { addressesShownTo, customerDepositAddress } from './deposit-addresses.ts';
import { currentLevel } from './vip.ts';
import { claimForReview, requireReason, selfNumbered, type Reviewable } from './reviews.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { checkRechargeApproval } from '../../api-contract/console.ts';
import { queueNotice } from './notices.ts';

type ChannelRow = typeof rechargeChannels.$inferSelect;
export type RechargeRow = typeof rechargeOrders.$inferSelect;

/** Units of the channel's currency per 1 credited asset: 1 for the asset itself, else the fiat rate. */
async function rateOf(db: Executor, channel: ChannelRow): Promise<string> {
  if (channel.currency === channel.asset) return '1';
  const rate = await fiatRateOf(db, channel.currency);
  if (!rate) throw new Refusal(texts.channelUnavailable.id);
  return rate.rate;
}

function toChannel(row: ChannelRow, rate: string, userId: number): RechargeChannel {
  return {
    id: row.id,
    kind: row.kind as RechargeChannel['kind'],
    name: row.name,
    currency: row.currency,
    asset: row.asset,
    chain: row.chain as Chain | null,
    address: customerDepositAddress(row, userId),
    bank_name: row.bankName,
    account_name: row.accountName,
    rate: new Big(rate).toFixed(8),
    min_amount: new Big(row.minAmount).toFixed(8),
  };
}

/** The active recharge channels as customer `userId` sees them (their own deposit address on a channel with a key). */
export async function listChannels(db: Executor, userId: number): Promise<RechargeChannel[]> {
  const rows = await db
    .select()
    .from(rechargeChannels)
    .where(eq(rechargeChannels.active, true))
    .orderBy(asc(rechargeChannels.sort), asc(rechargeChannels.id));
  return Promise.all(rows.map(async (row) => toChannel(row, await rateOf(db, row), userId)));
}

export function toRechargeOrder(row: RechargeRow): RechargeOrder {
  return {
    id: row.id,
    order_no: row.orderNo,
    kind: row.kind as RechargeOrder['kind'],
    channel_name: row.channelName,
    chain: row.chain as Chain | null,
    address: row.address,
    currency: row.currency,
    amount: new Big(row.amount).toFixed(8),
    rate: new Big(row.rate).toFixed(8),
    asset: row.asset,
    actual_amount: new Big(row.actualAmount).toFixed(8),
    hash: row.hash ?? '',
    proof: row.proof,
    block_height: row.blockHeight,
    remark: row.remark,
    reason: row.reason,
    status: row.status as RechargeStatus,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

export type RechargeRequest =
  | { kind: 'crypto'; channelId: number; amount: string; hash: string; shownAddress?: string }
  | { kind: 'bank'; channelId: number; amount: string; proof: string };

/**
 * Refuses ('An amount in THB has at most 2 decimal places!') a bank transfer of `amount` (decimal text) in the fiat
 * `currency` with more decimals than the currency's minor unit: ISO 4217's, as the runtime's CLDR data gives it
 * (THB, USD 2; JPY 0), since no bank moves a fraction of a satang.
 */
function refuseBeyondMinorUnits(amount: string, currency: string): void {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  const decimals = new Big(amount).toFixed().split('.')[1]?.length ?? 0;
  if (digits !== undefined && decimals > digits)
    throw new Refusal(serverTexts.fiatDecimals.id, { 0: currency, 1: digits });
}

/**
 * Holds the chain transaction `hash` (any spelling: canonicalHash's, in lower case) until the caller's transaction
 * ends: a recharge approved with it and a payout recorded with it, in two processes at once, each check the other and
 * write their own one after the other, so the later sees the earlier and is refused (isPayoutHash,
 * isCreditedRechargeHash); so do two payouts recorded with it (payoutWithHash). A PostgreSQL advisory lock of the
 * transaction, keyed by the hash's 64-bit text hash.
 */
export async function holdChainHash(tx: Tx, hash: string): Promise<void> {
  const key = `chain-tx:${canonicalHash(hash).toLowerCase()}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * The withdrawal whose payout its operator recorded as the transaction `hash` (any spelling: a hex hash in any letter
 * case, with or without "0x", is one transaction, as canonicalHash reads it; any other reference exactly), on the
 * network `network` (a wallet's chain, a bank's name) when given, else on any; undefined when there is none. The
 * caller holds the hash (holdChainHash) when it records a payout or credits a recharge on the answer.
 */
export async function payoutWithHash(
  db: Executor,
  hash: string,
  network?: string,
): Promise<{ id: number; orderNo: string } | undefined> {
  const canonical = canonicalHash(hash);
  const spellings = /^[0-9a-f]{64}$/.test(canonical) ? [canonical, `0x${canonical}`] : [canonical.toLowerCase()];
  const [payout] = await db
    .select({ id: withdrawOrders.id, orderNo: withdrawOrders.orderNo })
    .from(withdrawOrders)
    .where(
      and(
        // lower(hash) is what withdraw_orders_payout_hash_idx keeps.
        sql`lower(${withdrawOrders.hash}) in ${spellings}`,
        sql`${withdrawOrders.hash} <> ''`,
        spellings.length === 1 ? eq(withdrawOrders.hash, canonical) : undefined,
        network === undefined ? undefined : eq(withdrawOrders.payeeNetwork, network),
      ),
    )
    .orderBy(asc(withdrawOrders.id))
    .limit(1);
  return payout;
}

/**
 * Whether `hash` is the transaction of a withdrawal the platform paid out, as its operator recorded it (payoutWithHash,
 * on any network). Such a transaction moved the coin from the platform to a customer, so it is no deposit, though an
 * explorer shows it confirmed and of the right amount.
 */
const isPayoutHash = async (db: Executor, hash: string): Promise<boolean> =>
  (await payoutWithHash(db, hash)) !== undefined;

/**
 * Whether `hash` (a payout's, as an operator typed it) is the transaction of a credited recharge, in canonicalHash's
 * spelling: a deposit the platform received, which no payout can be. One still waiting for review is no proof either
 * way (a payout reported as a recharge before its hash was recorded waits there too: approveRecharge refuses it).
 */
export async function isCreditedRechargeHash(db: Executor, hash: string): Promise<boolean> {
  const [credited] = await db
    .select({ id: rechargeOrders.id })
    .from(rechargeOrders)
    .where(and(eq(rechargeOrders.hash, canonicalHash(hash)), eq(rechargeOrders.status, 'success')))
    .limit(1);
  return credited !== undefined;
}

/**
 * The address a recharge records as paid to: the one the app showed the customer (`shown`) when it is the caller's
 * under the channel's key, under a key the channel held before (an operator changed it after the page was shown: the
 * transfer went there, and the platform's wallet still watches it), or the channel's one address; the one shown now
 * when the app sent none (an older app; a bank channel's account).
 * @throws Refusal depositAddressUnknown for any other address (nothing the platform showed this customer).
 */
function recordedAddress(channel: ChannelRow, userId: number, shown: string | undefined): string {
  if (!shown) return customerDepositAddress(channel, userId);
  if (addressesShownTo(channel, userId).includes(shown)) return shown;
  throw new Refusal(texts.depositAddressUnknown.id);
}

/** Records a reported payment as a pending recharge; nothing is credited before the review. */
export async function submitRecharge(
  tx: Tx,
  userId: number,
  request: RechargeRequest,
  now: Date,
): Promise<RechargeRow> {
  const [channel] = await tx
    .select()
    .from(rechargeChannels)
    .where(and(eq(rechargeChannels.id, request.channelId), eq(rechargeChannels.active, true)));
  if (!channel || channel.kind !== request.kind) throw new Refusal(texts.channelUnavailable.id);
  refuseIfBroken(amountOutsideLimits(request.amount, { min: channel.minAmount }, channel.currency));
  if (channel.kind === 'bank') refuseBeyondMinorUnits(request.amount, channel.currency);

  // Serialises one user's submissions, so the pending cap holds under parallel requests; a submission racing the
  // customer's closure waits for it here and is refused, so no closed account is left with a recharge to review.
  const [customer] = await tx
    .select({ closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!customer || customer.closedAt) throw new Refusal(texts.tokenInvalid.id);
  const [pending] = await tx
    .select({ n: count() })
    .from(rechargeOrders)
    .where(and(eq(rechargeOrders.userId, userId), eq(rechargeOrders.status, 'pending')));
  if (Number(pending?.n ?? 0) >= MAX_PENDING_RECHARGES) throw new Refusal(serverTexts.tooManyPending.id);

  const address = recordedAddress(channel, userId, request.kind === 'crypto' ? request.shownAddress : undefined);
  let hash: string | null = null;
  let proof = '';
  let proofDigest: Uint8Array | null = null;
  if (request.kind === 'crypto') {
    hash = request.hash;
    const [used] = await tx
      .select({ id: rechargeOrders.id })
      .from(rechargeOrders)
      .where(and(eq(rechargeOrders.hash, hash), sql`${rechargeOrders.status} <> 'rejected'`))
      .limit(1);
    if (used) throw new Refusal(serverTexts.hashUsed.id);
    if (await isPayoutHash(tx, hash)) throw new Refusal(serverTexts.hashIsPayout.id);
  } else {
    proof = request.proof;
    if (!(await ownsUploads(tx, userId, [proof]))) throw new Refusal(texts.uploadProof.id);
    // One transfer's receipt backs one recharge, as one hash does (a rejected one's may be sent again): two recharges
    // on one receipt would each wait for an operator who sees a real receipt twice. The same picture uploaded again,
    // or by another account, is the same receipt: compared by its bytes' digest (the unique index decides a race).
    proofDigest = await uploadDigest(tx, proof);
    const [used] = await tx
      .select({ id: rechargeOrders.id })
      .from(rechargeOrders)
      .where(and(eq(rechargeOrders.proofDigest, proofDigest), sql`${rechargeOrders.status} <> 'rejected'`))
      .limit(1);
    if (used) throw new Refusal(serverTexts.proofUsed.id);
  }

  const rate = await rateOf(tx, channel);
  const credit = rechargeCredit(request.amount, rate);
  if (new Big(credit).lte(0)) throw new Refusal(texts.amountFormat.id);
  try {
    // One statement: the order inserted with its number.
    const numbered = selfNumbered(rechargeOrders, 'R', now);
    const insert = tx
      .insert(rechargeOrders)
      .values({
        id: numbered.id,
        userId,
        orderNo: numbered.orderNo,
        channelId: channel.id,
        kind: channel.kind,
        channelName: channel.name,
        chain: channel.chain,
        address,
        currency: channel.currency,
        amount: new Big(request.amount).toFixed(8),
        rate,
        asset: channel.asset,
        actualAmount: credit,
        hash,
        proof,
        proofDigest,
        createdAt: now,
      })
      .returning();
    const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`with ${numbered.with} ${insert.getSQL()}`));
    return tableRow(rechargeOrders, row!);
  } catch (error) {
    // Two parallel submissions of one hash or one receipt: the unique index lets one through.
    if (isUniqueViolation(error))
      throw new Refusal(
        constraintOf(error) === 'recharge_orders_proof_once' ? serverTexts.proofUsed.id : serverTexts.hashUsed.id,
      );
    throw error;
  }
}

const FILTER_STATUSES: Record<RechargeFilter, RechargeStatus[] | null> = {
  all: null,
  completed: ['success', 'rejected'],
  unfinished: ['pending'],
};

const NEWEST_RECHARGE_FIRST: KeysetOrder<RechargeRow> = {
  keys: [idKey(rechargeOrders.id, (row) => row.id)],
  direction: 'desc',
};

/** The caller's recharges of one filter, newest first, by cursor (`cursor` '' for the head). */
export async function listRecharges(
  db: Executor,
  userId: number,
  filter: RechargeFilter,
  cursor: string,
): Promise<CursorPage<RechargeOrder>> {
  const statuses = FILTER_STATUSES[filter];
  const where = and(eq(rechargeOrders.userId, userId), statuses ? inArray(rechargeOrders.status, statuses) : undefined);
  const listed = await keysetQuery(
    (after) => db.select().from(rechargeOrders).where(and(where, after)).$dynamic(),
    NEWEST_RECHARGE_FIRST,
    { cursor },
    FUNDS_PAGE_SIZE,
  );
  return { ...listed, lists: listed.lists.map(toRechargeOrder) };
}

/** One of the caller's recharges; another user's id answers as if it did not exist. */
export async function findRecharge(db: Executor, userId: number, id: number): Promise<RechargeOrder> {
  const [row] = await db
    .select()
    .from(rechargeOrders)
    .where(and(eq(rechargeOrders.id, id), eq(rechargeOrders.userId, userId)));
  if (!row) throw new Refusal(texts.orderNotFound.id);
  return toRechargeOrder(row);
}

/** A recharge waits for review while pending. */
const recharges: Reviewable = {
  table: rechargeOrders,
  id: rechargeOrders.id,
  waiting: 'pending',
  missing: consoleTexts.consoleRechargeNotFound,
  reviewed: consoleTexts.consoleRechargeReviewed,
};
const claimPending = (tx: Tx, id: number) => claimForReview<RechargeRow>(tx, recharges, id);

/**
 * Credits the recharge, adds it to the cumulative recharge and moves the VIP level, in `tx`. The block height and
 * remark the customer will read follow the API contract's approval rule (`checkRechargeApproval`); one that breaks it
 * is refused with its text before anything changes, and so is a recharge whose hash is a payout's (isPayoutHash).
 */
export async function approveRecharge(
  tx: Tx,
  id: number,
  details: { blockHeight?: string; remark?: string },
  now: Date,
): Promise<RechargeRow> {
  const checked = checkRechargeApproval(details);
  if ('broken' in checked) throw refusalOf(checked.broken);
  const order = await claimPending(tx, id);
  // The payee's wallet shows a payout as soon as it is sent: reported before its hash was recorded, it was taken.
  if (order.hash) await holdChainHash(tx, order.hash);
  if (order.hash && (await isPayoutHash(tx, order.hash))) throw new Refusal(consoleTexts.consoleRechargeIsPayout.id);
  // The customer's row before the balance's, the order every writer of both keeps (a closure takes the row, then the
  // balances): in the other order, a closure in flight and this approval each waited for the other's lock.
  const [user] = await tx
    .update(users)
    .set({ rechargeTotal: sql`${users.rechargeTotal} + ${order.actualAmount}` })
    .where(eq(users.id, order.userId))
    .returning({ rechargeTotal: users.rechargeTotal });
  await tx
    .update(users)
    .set({ level: await currentLevel(tx, user!.rechargeTotal) })
    .where(eq(users.id, order.userId));
  await post(
    tx,
    {
      userId: order.userId,
      asset: order.asset,
      amount: order.actualAmount,
      kind: 'recharge',
      reference: `recharge:${order.id}`,
    },
    now,
  );
  const [row] = await tx
    .update(rechargeOrders)
    .set({ status: 'success', reviewedAt: now, blockHeight: checked.blockHeight, remark: checked.remark })
    .where(eq(rechargeOrders.id, id))
    .returning();
  await queueNotice(
    tx,
    order.userId,
    { kind: 'recharge_reviewed', id, approved: true, amount: order.actualAmount, asset: order.asset, reason: '' },
    now,
  );
  return row!;
}

/** Rejects the recharge with a reason the customer sees; nothing is credited. */
export async function rejectRecharge(tx: Tx, id: number, reason: string, now: Date): Promise<RechargeRow> {
  const why = requireReason(reason);
  await claimPending(tx, id);
  const [row] = await tx
    .update(rechargeOrders)
    .set({ status: 'rejected', reason: why, reviewedAt: now })
    .where(eq(rechargeOrders.id, id))
    .returning();
  await queueNotice(
    tx,
    row!.userId,
    { kind: 'recharge_reviewed', id, approved: false, amount: row!.actualAmount, asset: row!.asset, reason: why },
    now,
  );
  return row!;
}

/** The operator's review queue: recharges in a status (or all), oldest first, each with its customer's name
 * (console-closures.ts CustomerName: a closed account's as it was). */
export function rechargeQueue(db: Executor, status: RechargeStatus | 'all', limit = 200) {
  return db
    .select({ order: rechargeOrders, ...customerNameColumns })
    .from(rechargeOrders)
    .innerJoin(users, eq(users.id, rechargeOrders.userId))
    .leftJoin(closedAccounts, eq(closedAccounts.userId, users.id))
    .where(status === 'all' ? undefined : eq(rechargeOrders.status, status))
    .orderBy(asc(rechargeOrders.id))
    .limit(limit);
}
