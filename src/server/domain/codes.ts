// Verification codes (6 digits, resend after 60 s): issued to a phone or e-mail address,
// consumed once, dead after five wrong tries or ten minutes.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { verificationCodes } from '../db/schema.ts';
import { CODE_RESEND_SECONDS, CODE_TTL_MINUTES } from '../../api-contract/constants.ts';
import { Period } from '../../api-contract/period-text.ts';
import { Refusal } from './refusal.ts';
import { CODE_DAILY_LIMIT, count, tooManyAttempts, windowEnd } from './attempts.ts';
import type { CodeChannel } from './code-sender.ts';

const MAX_WRONG_TRIES = 5;

/** Codes are keyed by where they were sent: `sms:0812345678`, `email:a@b.co`. */
export const codeTarget = (channel: CodeChannel, address: string) => `${channel}:${address}`;

const hashCode = (target: string, code: string) => createHash('sha256').update(`${target}:${code}`).digest('hex');

/** A new code for `target`, refused within 60 s of the last one (with the time left of the 60 s) and past ten a day
 * (with the time left until the day's window ends). */
export async function issueCode(db: Executor, target: string, now: Date): Promise<string> {
  const [last] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(eq(verificationCodes.target, target))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const resendWaitMs = last ? last.createdAt.getTime() + CODE_RESEND_SECONDS * 1000 - now.getTime() : 0;
  if (resendWaitMs > 0) throw new Refusal(serverTexts.codeTooSoon.id, { 0: new Period(resendWaitMs) });
  const asked = await count(db, `code:${target}`, CODE_DAILY_LIMIT, now);
  if (asked.count > CODE_DAILY_LIMIT.max) throw tooManyAttempts(windowEnd(asked, CODE_DAILY_LIMIT), now);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.insert(verificationCodes).values({
    target,
    codeHash: hashCode(target, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
  });
  return code;
}

/** The latest live code of `target` (not used up, not expired at `now`), if any; read without a lock. */
async function latestLive(db: Executor, target: string, now: Date) {
  const [live] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.target, target),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return live;
}

/**
 * Whether `code` matches the latest live code of `target`, read without a lock and without using up a try: what a
 * call's work before its transaction asks (http/secrets-ahead.ts) to decide whether the new secrets it stores are
 * worth hashing ahead. It decides nothing: the call's own consumeCode or verifyCode does, counting a wrong try.
 */
export async function codeMatches(db: Executor, target: string, code: string, now: Date): Promise<boolean> {
  const live = await latestLive(db, target, now);
  return live !== undefined && live.codeHash === hashCode(target, code);
}

/** The id of the latest live code of `target` if `code` matches it; otherwise refuses, a wrong code using up one of its
 * tries. */
async function liveMatching(db: Executor, target: string, code: string, now: Date): Promise<number> {
  const live = await latestLive(db, target, now);
  if (!live) throw new Refusal(serverTexts.codeWrong.id);
  if (live.codeHash !== hashCode(target, code)) {
    // Counted in SQL, not read-then-written, so concurrent wrong guesses each use up a try.
    await db
      .update(verificationCodes)
      .set({
        failedTries: sql`${verificationCodes.failedTries} + 1`,
        consumedAt: sql`case when ${verificationCodes.failedTries} + 1 >= ${MAX_WRONG_TRIES} then ${now.toISOString()}::timestamptz else ${verificationCodes.consumedAt} end`,
      })
      .where(eq(verificationCodes.id, live.id));
    throw new Refusal(serverTexts.codeWrong.id);
  }
  return live.id;
}

/**
 * Checks `code` against the latest live code of `target` without using it up: a request that also
 * needs the second factor checks the sent code first (no stranger reaches the authenticator code's
 * limit), and uses it up only once everything else was right.
 */
export async function verifyCode(db: Executor, target: string, code: string, now: Date): Promise<void> {
  await liveMatching(db, target, code, now);
}

/** Uses up the latest live code of `target` if `code` matches it; otherwise refuses. */
export async function consumeCode(db: Executor, target: string, code: string, now: Date): Promise<void> {
  const id = await liveMatching(db, target, code, now);
  const used = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  if (!used.length) throw new Refusal(serverTexts.codeWrong.id);
}
