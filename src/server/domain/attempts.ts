// Counters of failed logins, wrong passwords and code requests, kept in the database so that
// every server process enforces the same limits.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { attemptCounters } from '../db/schema.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/** Five wrong passwords lock that account's login (or password check) for 15 minutes. */
export const PASSWORD_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };
/** Ten codes a day to one phone or e-mail address. */
export const CODE_DAILY_LIMIT: Limit = { max: 10, windowMs: 24 * 60 * 60_000 };

export async function isLimited(db: Executor, key: string, limit: Limit, now: Date): Promise<boolean> {
  const [row] = await db.select().from(attemptCounters).where(eq(attemptCounters.key, key));
  return !!row && row.count >= limit.max && now.getTime() - row.windowStart.getTime() < limit.windowMs;
}

/** Counts one attempt; a window that has passed starts again at 1. */
export async function countAttempt(db: Executor, key: string, limit: Limit, now: Date): Promise<number> {
  const windowOpenedAfter = new Date(now.getTime() - limit.windowMs);
  const [row] = await db
    .insert(attemptCounters)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: attemptCounters.key,
      set: {
        count: sql`case when ${attemptCounters.windowStart} < ${windowOpenedAfter.toISOString()}::timestamptz then 1 else ${attemptCounters.count} + 1 end`,
        windowStart: sql`case when ${attemptCounters.windowStart} < ${windowOpenedAfter.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${attemptCounters.windowStart} end`,
      },
    })
    .returning({ count: attemptCounters.count });
  return row!.count;
}

export async function clearAttempts(db: Executor, key: string): Promise<void> {
  await db.delete(attemptCounters).where(eq(attemptCounters.key, key));
}
