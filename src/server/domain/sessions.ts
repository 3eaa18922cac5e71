// Sessions: a random token goes to the device; only its SHA-256 hash is stored, so a database
// leak reveals no usable token. Revoking is setting revoked_at.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { sessions } from '../db/schema.ts';

/** Who is calling: the account and the session its token belongs to. */
export interface Caller {
  userId: number;
  sessionId: number;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Executor, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({ userId, tokenHash: hashToken(token) });
  return token;
}

/** A token as the app sends one: anything else is no session, without a lookup. */
export const plausibleToken = (token: string | undefined): token is string => Boolean(token) && token!.length <= 200;

export async function findSession(db: Executor, tokenHash: string): Promise<Caller | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  return row ?? null;
}

export async function revokeSession(db: Executor, sessionId: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** After a password change or reset every device must log in again. */
export async function revokeAllSessions(db: Executor, userId: number, now: Date, exceptSessionId?: number): Promise<void> {
  const open = and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(exceptSessionId === undefined ? open : and(open, ne(sessions.id, exceptSessionId)));
}
