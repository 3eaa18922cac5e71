// The review queues as a reviewer works them all day: each item with how long it has waited (by the server's clock),
// oldest first, late past its kind's target (api-contract/console-queues.ts QUEUE_TARGET_MINUTES), searched by order
// number or customer, a page at a time; and claims (`review_claims`), so two reviewers do not work one item.
//
// A claim is taken in one statement (insert … on conflict do update where the claim ran out or is the caller's own),
// so of two reviewers in two tabs or two server processes exactly one holds it. It is advice for people: the decision
// still locks the order's row (reviews.ts claimForReview) whoever holds the claim, and every decision releases it
// (operator-reviews.ts). Taking over another operator's live claim is explicit and audited ('review.takeover').
import { and, asc, eq, gt, ilike, inArray, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import Big from 'big.js';
import {
  CLAIM_MINUTES,
  QUEUE_PAGE_SIZE,
  QUEUE_TARGET_MINUTES,
  type QueueItem,
  type ReviewClaim,
  type ReviewKind,
} from '../../api-contract/console-queues.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import type { Executor, Tx } from '../db/connection.ts';
import {
  certifications,
  closedAccounts,
  operators,
  rechargeOrders,
  reviewClaims,
  users,
  withdrawOrders,
} from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { FOUR_EYES, approvalsNeeded, countingApproval, type FourEyesKind } from './operator-reviews.ts';
import { alreadyReviewed } from './reviews.ts';
import { countedKeysetQuery, idKey, timeKey, type KeysetOrder } from './paged-query.ts';
import { Refusal, type TextId } from './refusal.ts';
import { phoneStartsWith } from './phone-numbers.ts';
import { usernameStartsWith } from './accounts.ts';
import { formerContactStartsWith } from './console-closures.ts';

/** Where each kind's items live, the status of one that waits, and what a queue row shows of it. */
interface Source {
  table: PgTable;
  id: PgColumn;
  userId: PgColumn;
  status: PgColumn;
  createdAt: PgColumn;
  waiting: string;
  orderNo: PgColumn | SQL<string>;
  amount: PgColumn | SQL<string | null>;
  unit: PgColumn | SQL<string>;
  detail: SQL<string>;
  missing: { id: TextId };
  reviewed: { id: TextId };
  /** Four eyes (operator-reviews.ts): where its approvals are kept, and what its approval moves (a recharge: what it
   * credits); none for a kind one reviewer decides. */
  fourEyes?: { kind: FourEyesKind; asset: PgColumn; amount: PgColumn };
}
const SOURCES: Record<ReviewKind, Source> = {
  recharge: {
    table: rechargeOrders,
    id: rechargeOrders.id,
    userId: rechargeOrders.userId,
    status: rechargeOrders.status,
    createdAt: rechargeOrders.createdAt,
    waiting: 'pending',
    orderNo: rechargeOrders.orderNo,
    amount: rechargeOrders.amount,
    unit: rechargeOrders.currency,
    detail: sql<string>`coalesce(nullif(${rechargeOrders.channelName}, ''), ${rechargeOrders.kind})`,
    missing: consoleTexts.consoleRechargeNotFound,
    reviewed: consoleTexts.consoleRechargeReviewed,
    fourEyes: { kind: FOUR_EYES.recharge, asset: rechargeOrders.asset, amount: rechargeOrders.actualAmount },
  },
  withdrawal: {
    table: withdrawOrders,
    id: withdrawOrders.id,
    userId: withdrawOrders.userId,
    status: withdrawOrders.status,
    createdAt: withdrawOrders.createdAt,
    waiting: 'review',
    orderNo: withdrawOrders.orderNo,
    amount: withdrawOrders.amount,
    unit: withdrawOrders.asset,
    detail: sql<string>`${withdrawOrders.target}`,
    missing: consoleTexts.consoleWithdrawalNotFound,
    reviewed: consoleTexts.consoleWithdrawalReviewed,
    fourEyes: { kind: FOUR_EYES.withdrawal, asset: withdrawOrders.asset, amount: withdrawOrders.amount },
  },
  certification: {
    table: certifications,
    id: certifications.id,
    userId: certifications.userId,
    status: certifications.status,
    createdAt: certifications.createdAt,
    waiting: 'review',
    orderNo: sql<string>`''`,
    amount: sql<string | null>`null`,
    unit: sql<string>`''`,
    detail: sql<string>`${certifications.level} || ' · ' || ${certifications.name}`,
    missing: consoleTexts.consoleCertificationNotFound,
    reviewed: consoleTexts.consoleCertificationReviewed,
  },
};

const minutes = (count: number) => count * 60_000;
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
/** A claim on this source's row that has not run out at `now`. */
const liveClaimOn = (kind: ReviewKind, now: Date) =>
  and(eq(reviewClaims.kind, kind), eq(reviewClaims.itemId, SOURCES[kind].id), gt(reviewClaims.expiresAt, now));

/** Which queue, which of its items ('waiting' or 'all'), a search ('' for none) and where the page starts. */
export interface QueueFilter {
  kind: ReviewKind;
  status: 'waiting' | 'all';
  query: string;
  /** A previous page's `next`; '' for the oldest items. */
  cursor: string;
}

/** A queue's order: oldest first, by the time each item was made (to the ms), then its id. */
const oldestFirst = (source: Source): KeysetOrder<{ id: number; createdAt: Date }> => ({
  keys: [timeKey(source.createdAt, (row) => row.createdAt), idKey(source.id, (row) => row.id)],
  direction: 'asc',
});

/**
 * One page of a queue, oldest first, after `filter.cursor`, with each item's wait, lateness and live claim, the cursor
 * of the next page (null on the last) and how many items the filtered queue holds.
 * @throws Refusal for a cursor that is not this list's.
 */
export async function reviewQueue(db: Executor, filter: QueueFilter, now: Date, fourEyesUsdt: string) {
  const { kind, query } = filter;
  const source = SOURCES[kind];
  const where: (SQL | undefined)[] = [];
  if (filter.status === 'waiting') where.push(eq(source.status, source.waiting));
  if (query) {
    const prefix = likePrefix(query);
    where.push(
      or(
        kind === 'certification' ? undefined : ilike(source.orderNo as PgColumn, prefix),
        usernameStartsWith(users.username, query),
        phoneStartsWith(users.phone, query),
        usernameStartsWith(users.email, query),
        // A closed account's row keeps none of its own: it is found by what it held when it closed.
        formerContactStartsWith(query),
      ),
    );
  }
  const items = (after?: SQL) =>
    db
      .select({
        id: sql<number>`${source.id}`.mapWith(Number),
        orderNo: sql<string>`${source.orderNo}`,
        userId: sql<number>`${source.userId}`.mapWith(Number),
        // A closed account under the username it held until then (its row's is `closed:<id>`), marked closed.
        username: sql<string>`coalesce(${closedAccounts.username}, ${users.username})`,
        closed: sql<boolean>`${closedAccounts.userId} is not null`,
        amount: sql<string | null>`${source.amount}`,
        unit: sql<string>`${source.unit}`,
        detail: source.detail,
        status: sql<string>`${source.status}`,
        createdAt: sql`${source.createdAt}`.mapWith((value) => source.createdAt.mapFromDriverValue(value) as Date),
        claimedBy: operators.name,
        worthAsset: source.fourEyes ? sql<string>`${source.fourEyes.asset}` : sql<string>`''`,
        worthAmount: source.fourEyes ? sql<string>`${source.fourEyes.amount}` : sql<string>`'0'`,
      })
      .from(source.table)
      .innerJoin(users, eq(users.id, source.userId))
      .leftJoin(closedAccounts, eq(closedAccounts.userId, users.id))
      .leftJoin(reviewClaims, liveClaimOn(kind, now))
      .leftJoin(operators, eq(operators.id, reviewClaims.operatorId))
      .where(and(...where, after))
      .$dynamic();
  const { lists, next, total } = await countedKeysetQuery(
    db,
    items,
    oldestFirst(source),
    { cursor: filter.cursor },
    QUEUE_PAGE_SIZE,
  );
  const approvals = new Map<number, string[]>();
  const needed = new Map<number, number>();
  const four = source.fourEyes;
  if (four && lists.length > 0) {
    const ids = lists.map((row) => row.id);
    const rows = await db
      .select({ item: sql<number>`${four.kind.item}`.mapWith(Number), operator: sql<string>`${four.kind.operator}` })
      .from(four.kind.table)
      .where(and(inArray(four.kind.item, ids), countingApproval(db, four.kind)))
      .orderBy(asc(four.kind.at));
    for (const row of rows) approvals.set(row.item, [...(approvals.get(row.item) ?? []), row.operator]);
    for (const row of lists)
      needed.set(row.id, await approvalsNeeded(db, { asset: row.worthAsset, amount: row.worthAmount }, fourEyesUsdt));
  }
  const target = QUEUE_TARGET_MINUTES[kind];
  return {
    lists: lists.map((row): QueueItem => {
      const waiting = row.status === source.waiting;
      const waitingSeconds = waiting ? Math.max(0, Math.floor((now.getTime() - row.createdAt.getTime()) / 1000)) : null;
      return {
        id: row.id,
        order_no: row.orderNo ?? '',
        user_id: row.userId,
        username: row.username,
        closed: row.closed,
        amount: row.amount === null ? null : new Big(row.amount).toString(),
        unit: row.unit,
        detail: row.detail,
        status: row.status,
        created_at: row.createdAt.toISOString(),
        waiting_seconds: waitingSeconds,
        late: waitingSeconds !== null && waitingSeconds > target * 60,
        approvals: approvals.get(row.id) ?? [],
        approvals_needed: needed.get(row.id) ?? 1,
        claimed_by: waiting ? (row.claimedBy ?? null) : null,
      };
    }),
    next,
    total,
    target_minutes: target,
  };
}

/** The operator claiming, and the actor its audit entries name. */
export interface Claimant {
  operatorId: number;
  name: string;
  actor: Actor;
}

async function itemStatus(
  db: Executor,
  kind: ReviewKind,
  id: number,
): Promise<{ status: string; orderNo: string } | null> {
  const source = SOURCES[kind];
  const [row] = await db
    .select({ status: sql<string>`${source.status}`, orderNo: sql<string>`${source.orderNo}` })
    .from(source.table)
    .where(eq(source.id, id));
  return row ?? null;
}

/** Who holds the item now (a claim that ran out is nobody's). */
export async function claimOf(db: Executor, kind: ReviewKind, id: number, me: number, now: Date): Promise<ReviewClaim> {
  const [row] = await db
    .select({ claim: reviewClaims, holder: operators.name })
    .from(reviewClaims)
    .innerJoin(operators, eq(operators.id, reviewClaims.operatorId))
    .where(and(eq(reviewClaims.kind, kind), eq(reviewClaims.itemId, id), gt(reviewClaims.expiresAt, now)));
  if (!row) return { kind, id, holder: null, mine: false, claimed_at: null, expires_at: null };
  return {
    kind,
    id,
    holder: row.holder,
    mine: row.claim.operatorId === me,
    claimed_at: row.claim.claimedAt.toISOString(),
    expires_at: row.claim.expiresAt.toISOString(),
  };
}

/**
 * Claims (or renews) the item for `who`, in one statement: an existing claim is replaced only when it ran out or is
 * `who`'s own, so of two callers at once exactly one holds it. The answer says who holds it after. With `takeOver` a
 * live claim of another operator is replaced too, and the audit log records it (in `tx`, with the claim).
 */
export async function claimItem(
  tx: Tx,
  who: Claimant,
  kind: ReviewKind,
  id: number,
  now: Date,
  takeOver = false,
): Promise<ReviewClaim> {
  const source = SOURCES[kind];
  const item = await itemStatus(tx, kind, id);
  if (item === null) throw new Refusal(source.missing.id, { id: String(id) });
  if (item.status !== source.waiting) throw alreadyReviewed(source.reviewed, { id, ...item });
  const before = takeOver ? await claimOf(tx, kind, id, who.operatorId, now) : null;
  const expiresAt = new Date(now.getTime() + minutes(CLAIM_MINUTES));
  await tx
    .insert(reviewClaims)
    .values({ kind, itemId: id, operatorId: who.operatorId, claimedAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [reviewClaims.kind, reviewClaims.itemId],
      set: {
        operatorId: who.operatorId,
        // A renewal keeps the time the claim began; a new holder starts now.
        claimedAt: sql`case when ${reviewClaims.operatorId} = ${who.operatorId} and ${reviewClaims.expiresAt} > ${now}
          then ${reviewClaims.claimedAt} else excluded.claimed_at end`,
        expiresAt,
      },
      setWhere: takeOver
        ? undefined
        : or(lte(reviewClaims.expiresAt, now), eq(reviewClaims.operatorId, who.operatorId)),
    });
  const after = await claimOf(tx, kind, id, who.operatorId, now);
  if (before?.holder && !before.mine)
    await appendAudit(
      tx,
      who.actor,
      'review.takeover',
      `${kind}:${id}`,
      { before: { holder: before.holder, expires_at: before.expires_at }, after: { holder: after.holder } },
      now,
    );
  return after;
}

/** Gives up `who`'s claim on the item; another operator's claim stays. Answers who holds it after. */
export async function releaseItem(db: Executor, operatorId: number, kind: ReviewKind, id: number, now: Date) {
  await db
    .delete(reviewClaims)
    .where(and(eq(reviewClaims.kind, kind), eq(reviewClaims.itemId, id), eq(reviewClaims.operatorId, operatorId)));
  return claimOf(db, kind, id, operatorId, now);
}

/** How many waiting items are looked at for the next one: the oldest few that nobody holds when asked. */
const NEXT_CANDIDATES = 10;

/**
 * The oldest item of the queue that waits and that nobody else holds (a withdrawal or recharge `who` approved already
 * waits for a second reviewer and is skipped), claimed for `who`; null when there is none. Two reviewers asking at once
 * get two different items: a candidate claimed in between is passed over.
 */
export async function claimNext(db: Executor, who: Claimant, kind: ReviewKind, now: Date): Promise<ReviewClaim | null> {
  const source = SOURCES[kind];
  const othersClaim = db
    .select({ one: sql`1` })
    .from(reviewClaims)
    .where(
      and(
        eq(reviewClaims.kind, kind),
        eq(reviewClaims.itemId, source.id),
        gt(reviewClaims.expiresAt, now),
        sql`${reviewClaims.operatorId} <> ${who.operatorId}`,
      ),
    );
  const four = source.fourEyes?.kind;
  const approvedByMe =
    four &&
    db
      .select({ one: sql`1` })
      .from(four.table)
      .where(and(eq(four.item, source.id), eq(four.operator, who.name)));
  const candidates = await db
    .select({ id: sql<number>`${source.id}`.mapWith(Number) })
    .from(source.table)
    .where(
      and(
        eq(source.status, source.waiting),
        notExists(othersClaim),
        approvedByMe ? notExists(approvedByMe) : undefined,
      ),
    )
    .orderBy(asc(source.createdAt), asc(source.id))
    .limit(NEXT_CANDIDATES);
  for (const { id } of candidates) {
    const claim = await db.transaction(async (tx) => {
      try {
        return await claimItem(tx, who, kind, id, now);
      } catch (failure) {
        // Decided in the meantime: the next candidate.
        if (failure instanceof Refusal) return null;
        throw failure;
      }
    });
    if (claim?.mine) return claim;
  }
  return null;
}
