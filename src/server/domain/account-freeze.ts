// The customer's own freeze of the account (api-contract/account-freeze.ts). One `account_freezes` row per customer who
// ever froze: `frozen_since` set while frozen, `unfreeze_at` set while an unfreezing waits. An unfreezing that has come
// due is settled the first time the customer's freeze is read after it, in one conditional update, so it is told (a
// security notice) and audited once whichever process gets there first; until then a due one already counts as
// unfrozen, so nobody waits longer than the 24 hours.
//
// Under concurrency: a freeze takes the customer's `users` row FOR UPDATE before it writes its row, and every order,
// withdrawal request, withdrawal payout and payee change reads the freeze (refuseWhileFrozen; an order or a paid play
// through refusePreTrade, domain/pre-trade-checks.ts) only after taking the same row FOR KEY SHARE in its own
// transaction, in an earlier statement (holdCustomerRow). So on PostgreSQL an order either committed before the freeze
// took the row, or waits for the freeze to commit and then reads it (a new statement in READ COMMITTED sees it):
// nothing is accepted after a freeze committed. FOR KEY SHARE leaves ordinary updates of the customer's row (a profile
// change) unblocked.
import { and, eq, isNotNull, isNull, lte, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { accountFreezes, users } from '../db/schema.ts';
import {
  ACCOUNT_UNFREEZE_DELAY_HOURS,
  type AccountFreeze,
  type PayoutHold,
} from '../../api-contract/account-freeze.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { Refusal, type TextId } from './refusal.ts';
import { postSecurityNotice, utcMinute } from './security-notices.ts';
import { revokeAllSessions } from './sessions.ts';

/** How long an unfreezing waits, in milliseconds. */
export const ACCOUNT_UNFREEZE_DELAY_MS = ACCOUNT_UNFREEZE_DELAY_HOURS * 3_600_000;

type FreezeRow = typeof accountFreezes.$inferSelect;

/** The customer on their own account, as the audit log names them: `customer:<id>`, from the request's address. */
export const customerActor = (userId: number, address: string): Actor => ({
  operatorId: null,
  name: `customer:${userId}`,
  address,
});

/** Frozen at `now`: frozen, and no unfreezing has come due. */
export const isFrozen = (row: FreezeRow | undefined, now: Date) =>
  !!row?.frozenSince && !(row.unfreezeAt && row.unfreezeAt <= now);

/** The row as the customer reads it at `now`. */
export function toAccountFreeze(row: FreezeRow | undefined, now: Date): AccountFreeze {
  const frozen = isFrozen(row, now);
  const unfreezeAt = frozen ? (row!.unfreezeAt ?? null) : null;
  return {
    frozen,
    frozen_since: frozen ? row!.frozenSince!.toISOString() : null,
    unfreeze_at: unfreezeAt?.toISOString() ?? null,
    unfreeze_seconds: unfreezeAt ? Math.max(0, Math.ceil((unfreezeAt.getTime() - now.getTime()) / 1000)) : 0,
  };
}

/** The row as it stands, read only. */
export async function freezeRowOf(db: Executor, userId: number): Promise<FreezeRow | undefined> {
  const [row] = await db.select().from(accountFreezes).where(eq(accountFreezes.userId, userId));
  return row;
}

/** The customer's freeze at `now`, settling (telling and auditing) an unfreezing that has come due. */
export async function accountFreezeOf(db: Executor, userId: number, now: Date): Promise<AccountFreeze> {
  const row = await freezeRowOf(db, userId);
  if (row?.frozenSince && row.unfreezeAt && row.unfreezeAt <= now) {
    const [settled] = await db
      .update(accountFreezes)
      .set({ frozenSince: null, unfreezeAt: null, updatedAt: now })
      .where(
        and(
          eq(accountFreezes.userId, userId),
          isNotNull(accountFreezes.unfreezeAt),
          lte(accountFreezes.unfreezeAt, now),
        ),
      )
      .returning();
    // Another request settled it first: it told the customer and wrote the audit entry.
    if (settled) {
      const when = utcMinute(row.unfreezeAt);
      await postSecurityNotice(
        db,
        userId,
        (tl) => ({
          title: tl(serverTexts.accountUnfrozenTitle),
          content: tl(serverTexts.accountUnfrozen, { 0: when }),
        }),
        row.unfreezeAt,
      );
      await appendAudit(
        db,
        customerActor(userId, ''),
        'account.unfreeze',
        `user:${userId}`,
        { before: row, after: settled },
        now,
      );
    }
    return toAccountFreeze(settled ?? (await freezeRowOf(db, userId)), now);
  }
  return toAccountFreeze(row, now);
}

/**
 * Freezes the account at `now` and ends every session of it (the caller has checked the secret). Already frozen: it
 * stays frozen since its first moment, and an unfreezing waiting is cancelled. Told and audited unless it changed
 * nothing.
 */
export async function freezeAccount(tx: Tx, actor: Actor, userId: number, now: Date): Promise<AccountFreeze> {
  // Every order's check waits on this lock (see the top of this file).
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const before = await accountFreezeOf(tx, userId, now);
  const [row] = await tx
    .insert(accountFreezes)
    .values({ userId, frozenSince: now, unfreezeAt: null, updatedAt: now })
    .onConflictDoUpdate({
      target: accountFreezes.userId,
      set: { frozenSince: before.frozen ? new Date(before.frozen_since!) : now, unfreezeAt: null, updatedAt: now },
    })
    .returning();
  await revokeAllSessions(tx, userId, now);
  if (!before.frozen || before.unfreeze_at)
    await appendAudit(tx, actor, 'account.freeze', `user:${userId}`, { before, after: toAccountFreeze(row, now) }, now);
  if (!before.frozen)
    await postSecurityNotice(
      tx,
      userId,
      (tl) => ({
        title: tl(serverTexts.accountFrozenTitle),
        content: tl(serverTexts.accountFrozenNotice, { 0: utcMinute(now) }),
      }),
      now,
    );
  return toAccountFreeze(row, now);
}

/**
 * Asks to unfreeze: it takes effect ACCOUNT_UNFREEZE_DELAY_MS later (the caller has checked the secret). An
 * unfreezing already waiting keeps its time (asking again neither moves it nor tells again). Refused when not frozen.
 */
export async function askUnfreeze(tx: Tx, actor: Actor, userId: number, now: Date): Promise<AccountFreeze> {
  const before = await accountFreezeOf(tx, userId, now);
  if (!before.frozen) throw new Refusal(serverTexts.accountNotFrozen.id);
  if (before.unfreeze_at) return before;
  const [row] = await tx
    .update(accountFreezes)
    .set({ unfreezeAt: new Date(now.getTime() + ACCOUNT_UNFREEZE_DELAY_MS), updatedAt: now })
    .where(
      and(eq(accountFreezes.userId, userId), isNotNull(accountFreezes.frozenSince), isNull(accountFreezes.unfreezeAt)),
    )
    .returning();
  // Asked twice at once: the one that set the time tells it.
  if (!row) return toAccountFreeze(await freezeRowOf(tx, userId), now);
  const after = toAccountFreeze(row, now);
  await appendAudit(tx, actor, 'account.unfreeze-ask', `user:${userId}`, { before, after }, now);
  await postSecurityNotice(
    tx,
    userId,
    (tl) => ({
      title: tl(serverTexts.accountUnfreezeAskedTitle),
      content: tl(serverTexts.accountUnfreezeAsked, { 0: utcMinute(now) }),
    }),
    now,
  );
  return after;
}

/** Cancels an unfreezing waiting: immediate, audited. Refused when not frozen; nothing waiting changes nothing. */
export async function keepFrozen(tx: Tx, actor: Actor, userId: number, now: Date): Promise<AccountFreeze> {
  const before = await accountFreezeOf(tx, userId, now);
  if (!before.frozen) throw new Refusal(serverTexts.accountNotFrozen.id);
  if (!before.unfreeze_at) return before;
  const [row] = await tx
    .update(accountFreezes)
    .set({ unfreezeAt: null, updatedAt: now })
    .where(eq(accountFreezes.userId, userId))
    .returning();
  const after = toAccountFreeze(row, now);
  await appendAudit(tx, actor, 'account.unfreeze-cancel', `user:${userId}`, { before, after }, now);
  return after;
}

/**
 * Takes the customer's `users` row FOR KEY SHARE in `tx` until it ends, so a freeze committing meanwhile is waited for
 * and a freeze read in a later statement sees it; `alsoTake`: other locks the write holds to its end (SQL expressions,
 * such as pg_advisory_xact_lock(…)), taken in the same statement, so they cost no round trip of their own.
 */
export async function holdCustomerRow(tx: Executor, userId: number, alsoTake: readonly SQL[] = []): Promise<void> {
  const taken = Object.fromEntries(alsoTake.map((lock, at) => [`taken${at}`, lock]));
  await tx
    .select({ id: users.id, ...taken })
    .from(users)
    .where(eq(users.id, userId))
    .for('key share');
}

/** Refuses with `text` when `row` (the customer's freeze, read after holdCustomerRow) is frozen at `now`. */
export function refuseIfFrozen(
  row: FreezeRow | null | undefined,
  now: Date,
  text: { id: TextId } = serverTexts.accountFrozen,
): void {
  if (isFrozen(row ?? undefined, now)) throw new Refusal(text.id);
}

/**
 * The one check of everything a frozen account may not do: an order (options, contracts, liquidity, lock-up), a
 * withdrawal asked for or paid out, a payee added, removed or renamed, the address lock turned off. Called in that
 * write's transaction before anything is written; it takes the customer's row FOR KEY SHARE first (holdCustomerRow), so
 * a freeze committing meanwhile is waited for and seen. Refuses with `text` (the customer's refusal unless the caller
 * says). An order and a paid play check it with the time-out in refusePreTrade (domain/pre-trade-checks.ts).
 */
export async function refuseWhileFrozen(
  tx: Executor,
  userId: number,
  now: Date,
  text: { id: TextId } = serverTexts.accountFrozen,
): Promise<void> {
  await holdCustomerRow(tx, userId);
  refuseIfFrozen(await freezeRowOf(tx, userId), now, text);
}

/**
 * What holds the customer's withdrawals in review at `now`: their freeze (approving one is refused by refuseWhileFrozen
 * until it ends), or null when the account is not frozen. Read only: an unfreezing come due already counts as done.
 */
export async function payoutHoldOf(db: Executor, userId: number, now: Date): Promise<PayoutHold | null> {
  const row = await freezeRowOf(db, userId);
  if (!isFrozen(row, now)) return null;
  return { frozen_since: row!.frozenSince!.toISOString(), unfreeze_at: row!.unfreezeAt?.toISOString() ?? null };
}

/** Every account frozen at `now`, the most recently frozen first, with the unfreezing waiting if any (the console). */
export async function frozenAccounts(db: Executor, now: Date) {
  const rows = await db
    .select({ row: accountFreezes, username: users.username })
    .from(accountFreezes)
    .innerJoin(users, eq(users.id, accountFreezes.userId))
    .where(isNotNull(accountFreezes.frozenSince));
  return rows
    .filter(({ row }) => isFrozen(row, now))
    .sort((a, b) => b.row.frozenSince!.getTime() - a.row.frozenSince!.getTime())
    .map(({ row, username }) => ({
      user_id: row.userId,
      username,
      frozen_since: row.frozenSince!.toISOString(),
      unfreeze_at: row.unfreezeAt?.toISOString() ?? null,
    }));
}
