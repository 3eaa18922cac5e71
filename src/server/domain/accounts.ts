// Accounts: password hashing (argon2id), invitation codes and the user info the app sees.
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { eq, or } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { attemptCounters, users } from '../db/schema.ts';
import { PASSWORD_LIMIT, clearAttempts, countAttempt, isLimited } from './attempts.ts';
import { Refusal } from './refusal.ts';
import { texts } from '../../contract/texts.ts';
import type { UserInfo, VerificationStatus } from '../../contract/account.ts';
import type { Currency } from '../../contract/constants.ts';

export type UserRow = typeof users.$inferSelect;

// Algorithm 2 = argon2id; OWASP's minimum of 19 MiB, 2 passes.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashSecret = (secret: string) => hash(secret, ARGON2);

/** Checks a secret against a stored hash; with no hash it still spends the time (no user probing). */
let decoy: Promise<string> | null = null;
export async function verifySecret(storedHash: string | null | undefined, secret: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashSecret('decoy-password');
    await verify(await decoy, secret).catch(() => false);
    return false;
  }
  return verify(storedHash, secret).catch(() => false);
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newInviteCode(): string {
  return Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');
}

/** Login accepts the username, the mobile number or the e-mail address. */
export async function findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.username, login), eq(users.phone, login), eq(users.email, login.toLowerCase())))
    .limit(1);
  return row;
}

export async function findUser(db: Executor, id: number): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`user ${id} of a live session does not exist`);
  return row;
}

export function toUserInfo(row: UserRow): UserInfo {
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    userimg: row.avatar,
    level: row.level,
    phone: row.phone ?? '',
    email: row.email ?? '',
    invite_code: row.inviteCode,
    currency: row.currency as Currency,
    has_paypass: row.paypassHash !== null,
    recharge_total: row.rechargeTotal,
    verification: row.verification as VerificationStatus,
    advanced_verification: row.advancedVerification as VerificationStatus,
    created_at: row.createdAt.toISOString(),
  };
}

/** Postgres unique_violation: two requests raced for the same username, phone or e-mail. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

/**
 * A password check that locks after five wrong tries in 15 minutes. The key's counter row is held
 * (FOR UPDATE) while the password is checked, so guesses sent at once are tried one after another
 * and the sixth finds the lock, on every server process. With no stored hash the check still
 * spends the time and fails (no probing for accounts).
 */
export async function checkSecret(db: Executor, key: string, storedHash: string | null | undefined, secret: string, wrongTextId: string, now: Date) {
  const outcome = await db.transaction(async (tx) => {
    await tx.insert(attemptCounters).values({ key, windowStart: now, count: 0 }).onConflictDoNothing();
    await tx.select({ key: attemptCounters.key }).from(attemptCounters).where(eq(attemptCounters.key, key)).for('update');
    if (await isLimited(tx, key, PASSWORD_LIMIT, now)) return 'limited';
    if (!(await verifySecret(storedHash, secret))) {
      await countAttempt(tx, key, PASSWORD_LIMIT, now);
      return 'wrong';
    }
    await clearAttempts(tx, key);
    return 'right';
  });
  // Refused after the commit: the counted try stays counted.
  if (outcome === 'limited') throw new Refusal(texts.tooManyAttempts.id);
  if (outcome === 'wrong') throw new Refusal(wrongTextId);
}
