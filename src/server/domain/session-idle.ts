// The customer's own idle limit on their sessions (Settings): a session unused for longer ends at its next call, and is
// ended for good (revoked), as if logged out. The server's own limit (SESSION_IDLE_DAYS) applies when it is shorter;
// a session past only that one simply counts as expired, as before the choice existed.
import { eq } from 'drizzle-orm';
import type { SessionIdleMinutes } from '../../api-contract/sessions.ts';
import type { Executor } from '../db/connection.ts';
import { users } from '../db/schema.ts';
import type { Caller, SessionLimits } from './sessions.ts';

const MINUTE_MS = 60_000;

/** The customer's chosen limit, in minutes (30 days, 43,200, unless they chose another). */
export async function sessionIdleMinutesOf(db: Executor, userId: number): Promise<SessionIdleMinutes> {
  const [row] = await db.select({ minutes: users.sessionIdleMinutes }).from(users).where(eq(users.id, userId));
  return (row?.minutes ?? 43_200) as SessionIdleMinutes;
}

/** Keeps `minutes` (one of SESSION_IDLE_CHOICES, checked by the contract and by the column's constraint). */
export async function chooseSessionIdleMinutes(db: Executor, userId: number, minutes: SessionIdleMinutes) {
  await db.update(users).set({ sessionIdleMinutes: minutes }).where(eq(users.id, userId));
}

/** How long `session` may go unused, in ms: the shorter of the customer's choice and the server's limit. */
export const idleLimitOf = (session: Pick<Caller, 'idleMinutes'>, limits: SessionLimits) =>
  Math.min(limits.idleMs, session.idleMinutes * MINUTE_MS);

/**
 * What a session found at `now` (ms since epoch) is: 'live'; 'expired' past the server's limits (unused too long, or
 * begun too long ago); 'idle' past the customer's own shorter limit, which the caller ends (revokes).
 */
export function sessionState(
  session: Pick<Caller, 'signedInAt' | 'lastSeenAt' | 'idleMinutes'>,
  now: number,
  limits: SessionLimits,
): 'live' | 'expired' | 'idle' {
  const unused = now - session.lastSeenAt;
  if (unused >= limits.idleMs || now - session.signedInAt >= limits.maxMs) return 'expired';
  return unused >= idleLimitOf(session, limits) ? 'idle' : 'live';
}
