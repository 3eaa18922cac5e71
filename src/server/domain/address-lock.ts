// The withdrawal address lock (api-contract/address-lock.ts). One row per customer who ever turned it on: `on_since`
// set while on, `off_at` set while a turning-off waits. A turning-off that has come due is settled the first time the
// customer's lock is read after it (their own lock call, a withdrawal, the payee lists), in one conditional update,
// so it is told once whichever process gets there first; the notice is dated when it took effect. Until it is
// settled, a due turning-off already counts as off, so nobody waits longer than the 24 hours.
import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { addressLocks } from '../db/schema.ts';
import {
  ADDRESS_LOCK_COOLING_HOURS,
  ADDRESS_LOCK_DELAY_HOURS,
  type AddressLock,
} from '../../api-contract/address-lock.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { Refusal } from './refusal.ts';
import { noticeSecurityChange } from './security-notices.ts';
import { refuseWhileFrozen } from './account-freeze.ts';
import { payeeWaitMs, type BankCardRow, type WalletRow } from './payouts.ts';
import { Period } from '../../api-contract/period-text.ts';

const HOUR = 3_600_000;
export const ADDRESS_LOCK_DELAY_MS = ADDRESS_LOCK_DELAY_HOURS * HOUR;
export const ADDRESS_LOCK_COOLING_MS = ADDRESS_LOCK_COOLING_HOURS * HOUR;

type LockRow = typeof addressLocks.$inferSelect;

/** On at `now`: turned on, and no turning-off has come due. */
export const isOn = (row: LockRow | undefined, now: Date) => !!row?.onSince && !(row.offAt && row.offAt <= now);

export function toAddressLock(row: LockRow | undefined, now: Date): AddressLock {
  const on = isOn(row, now);
  const offAt = on ? (row!.offAt ?? null) : null;
  return {
    on,
    on_since: on ? row!.onSince!.toISOString() : null,
    off_at: offAt?.toISOString() ?? null,
    off_seconds: offAt ? Math.max(0, Math.ceil((offAt.getTime() - now.getTime()) / 1000)) : 0,
  };
}

/** The row as it stands, read only (the console's view). */
export async function lockRowOf(db: Executor, userId: number): Promise<LockRow | undefined> {
  const [row] = await db.select().from(addressLocks).where(eq(addressLocks.userId, userId));
  return row;
}

/** The customer's lock at `now`, settling (and telling) a turning-off that has come due. */
export async function addressLockOf(db: Executor, userId: number, now: Date): Promise<AddressLock> {
  const row = await lockRowOf(db, userId);
  if (row?.offAt && row.offAt <= now) {
    const [settled] = await db
      .update(addressLocks)
      .set({ onSince: null, offAt: null, updatedAt: now })
      .where(and(eq(addressLocks.userId, userId), isNotNull(addressLocks.offAt), lte(addressLocks.offAt, now)))
      .returning();
    // Another request settled it first: it told the customer.
    if (settled) await noticeSecurityChange(db, userId, 'addressLockOff', row.offAt);
    return toAddressLock(settled ?? (await lockRowOf(db, userId)), now);
  }
  return toAddressLock(row, now);
}

/** Turns it on at once (and keeps it on when a turning-off was waiting); told only when it was off. */
export async function lockAddresses(db: Executor, userId: number, now: Date): Promise<AddressLock> {
  const before = await addressLockOf(db, userId, now);
  const [row] = await db
    .insert(addressLocks)
    .values({ userId, onSince: now, offAt: null, updatedAt: now })
    .onConflictDoUpdate({
      target: addressLocks.userId,
      set: { onSince: before.on ? new Date(before.on_since!) : now, offAt: null, updatedAt: now },
    })
    .returning();
  if (!before.on) await noticeSecurityChange(db, userId, 'addressLockOn', now);
  return toAddressLock(row, now);
}

/**
 * Asks to turn it off: it takes effect ADDRESS_LOCK_DELAY_MS later. The caller has checked the second factor. A
 * turning-off already waiting keeps its time (asking again does not move it, nor tells again).
 */
export async function askUnlock(db: Executor, userId: number, now: Date): Promise<AddressLock> {
  const lock = await addressLockOf(db, userId, now);
  if (!lock.on) throw new Refusal(serverTexts.addressLockNotOn.id);
  // Turning it off changes where money may go: a frozen account changes no payee.
  await refuseWhileFrozen(db, userId, now);
  if (lock.off_at) return lock;
  const [row] = await db
    .update(addressLocks)
    .set({ offAt: new Date(now.getTime() + ADDRESS_LOCK_DELAY_MS), updatedAt: now })
    .where(and(eq(addressLocks.userId, userId), isNotNull(addressLocks.onSince), isNull(addressLocks.offAt)))
    .returning();
  // Asked twice at once: the one that set the time tells it.
  if (!row) return toAddressLock(await lockRowOf(db, userId), now);
  await noticeSecurityChange(db, userId, 'addressLockOffAsked', now);
  return toAddressLock(row, now);
}

/** Cancels a turning-off waiting: immediate. */
export async function keepAddressLock(db: Executor, userId: number, now: Date): Promise<AddressLock> {
  const lock = await addressLockOf(db, userId, now);
  if (!lock.on) throw new Refusal(serverTexts.addressLockNotOn.id);
  if (!lock.off_at) return lock;
  const [row] = await db
    .update(addressLocks)
    .set({ offAt: null, updatedAt: now })
    .where(eq(addressLocks.userId, userId))
    .returning();
  return toAddressLock(row, now);
}

/**
 * With the lock on, a withdrawal goes only to a saved payee (the caller found it among the customer's own) whose
 * cooling-off is over (payeeWaitMs: the wait it was given when saved) and that was saved ADDRESS_LOCK_COOLING_MS ago
 * or more; the refusal says the longer of the two waits.
 */
export async function refuseUnlockedPayee(
  db: Executor,
  userId: number,
  payee: BankCardRow | WalletRow | undefined,
  coolingMs: number,
  now: Date,
): Promise<void> {
  const lock = await addressLockOf(db, userId, now);
  if (!lock.on) return;
  const waitMs = Math.max(payee ? payeeWaitMs(payee, coolingMs) : coolingMs, ADDRESS_LOCK_COOLING_MS);
  if (!payee || payee.userId !== userId || payee.createdAt.getTime() + waitMs > now.getTime())
    throw new Refusal(serverTexts.addressLocked.id, { 0: new Period(waitMs) });
}
