// Sessions: a random token goes to the device; only its SHA-256 hash is stored, so a database
// leak reveals no usable token. Revoking is setting revoked_at. A session also ends on its own
// after SESSION_IDLE_DAYS without use (or sooner, by the customer's own limit: session-idle.ts) and SESSION_MAX_DAYS
// after it began, however much it is used.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db/connection.ts';
import { preparedOnce } from '../db/prepared.ts';
import { sessions, users } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import type { SignedInSession } from '../../api-contract/sessions.ts';
import type { Translate } from '../i18n.ts';
import { USER_AGENT_MAX_LENGTH, deviceOf, maskAddress } from './devices.ts';
import { postSecurityNotice, utcMinute } from './security-notices.ts';
import { Refusal } from './refusal.ts';
import { deviceNonceOf, rememberDevice } from './remembered-devices.ts';

const DAY_MS = 86_400_000;
export const DEFAULT_SESSION_IDLE_MS = 30 * DAY_MS;
export const DEFAULT_SESSION_MAX_MS = 180 * DAY_MS;
/** last_seen_at moves at most this often per session: the server answers thousands of calls a second, a write each
 * would be too many. */
export const LAST_SEEN_STEP_MS = 5 * 60_000;

/** How long a session lasts: without use, and at most. */
export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}
export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: DEFAULT_SESSION_IDLE_MS, maxMs: DEFAULT_SESSION_MAX_MS };

/** Who is calling: the account and the session its token belongs to, with what its expiry needs (ms since epoch; the
 * customer's own idle limit in minutes). */
export interface Caller {
  userId: number;
  sessionId: number;
  signedInAt: number;
  lastSeenAt: number;
  idleMinutes: number;
}

/** Where a sign-in came from, as the request said. */
export interface SignInPlace {
  userAgent: string;
  ip: string;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new session of `userId` signed in at `now` from `place`: its token (only the hash is kept). `deviceNonce`: the
 * nonce of the remembered-device token given with it, so that ending this session forgets that device.
 */
export async function createSession(
  db: Executor,
  userId: number,
  now = new Date(),
  place: SignInPlace = { userAgent: '', ip: '' },
  deviceNonce: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const userAgent = place.userAgent.slice(0, USER_AGENT_MAX_LENGTH);
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    userAgent,
    ip: place.ip,
    device: deviceOf(userAgent),
    deviceNonce,
  });
  return token;
}

/**
 * The session that takes the place of the caller's `replacedSessionId` when a password change ends every session and
 * the same device goes on: a new session of `userId` from `place`, carrying the nonce of the remembered-device token
 * the replaced one kept, so that ending the new one from another device still forgets that device. Its token.
 */
export async function replaceSession(
  db: Executor,
  userId: number,
  replacedSessionId: number,
  now: Date,
  place: SignInPlace,
): Promise<string> {
  const [replaced] = await db
    .select({ deviceNonce: sessions.deviceNonce })
    .from(sessions)
    .where(and(eq(sessions.id, replacedSessionId), eq(sessions.userId, userId)));
  return createSession(db, userId, now, place, replaced?.deviceNonce ?? null);
}

/**
 * A sign-in (a password, or any later way): a new session, and a station message to the owner (in
 * every language, read in theirs) when it comes from a device the account never used. A device is new when
 * no earlier session of the account, ended or not, had the same browser and system ('Chrome,
 * Android'). The account's very first session (registering) is no news to its owner: no message.
 */
export async function signIn(
  db: Executor,
  userId: number,
  place: SignInPlace,
  now: Date,
  deviceNonce: string | null = null,
): Promise<string> {
  const { device, isNew } = await deviceNews(db, userId, place.userAgent);
  const token = await createSession(db, userId, now, place, deviceNonce);
  if (isNew) {
    const write = (tl: Translate) => ({
      title: tl(serverTexts.newSignInTitle),
      content: tl(serverTexts.newSignIn, {
        0: device || tl(serverTexts.unknownDevice),
        1: maskAddress(place.ip) || '—',
        2: utcMinute(now),
      }),
    });
    await postSecurityNotice(db, userId, write, now);
  }
  return token;
}

/**
 * A customer signs in, whichever way (registering, the password, a passkey): a new session (with the
 * new-device message, see signIn) and a token that remembers the device as having passed the second
 * factor turned on at `since` (null: off), so the next sign-in there asks for no code. A device that signed in by its
 * remembered token (`remembered`: one the caller checked holds and was not forgotten) keeps that token: one token a
 * device, so ending any of its sessions forgets it, and its ended sessions are listed once.
 */
export async function signInRemembered(
  db: Executor,
  userId: number,
  place: SignInPlace,
  secondFactor: { key: Buffer; since: Date | null; remembered?: string },
  now: Date,
): Promise<{ token: string; device: string }> {
  const device = secondFactor.remembered ?? rememberDevice(secondFactor.key, userId, secondFactor.since);
  return { token: await signIn(db, userId, place, now, deviceNonceOf(device)), device };
}

/**
 * True when the device given `token` (a remembered-device token of `userId`) was forgotten: the session signed in with
 * it was ended from another device (endSession). Asked only of a token whose MAC holds (isRemembered).
 */
export async function deviceForgotten(db: Executor, userId: number, token: string | undefined): Promise<boolean> {
  const nonce = deviceNonceOf(token);
  if (!nonce) return false;
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.deviceNonce, nonce), isNotNull(sessions.deviceForgottenAt)))
    .limit(1);
  return Boolean(row);
}

/** The device of `sessionId` is now remembered by the token of `deviceNonce` (a new one given to it). */
export async function rememberedAnew(db: Executor, sessionId: number, deviceNonce: string | null): Promise<void> {
  await db.update(sessions).set({ deviceNonce }).where(eq(sessions.id, sessionId));
}

/** The device of a User-Agent ('Chrome, Android') and whether it is new to the account (see signIn); asked before the
 * session is made. */
async function deviceNews(
  db: Executor,
  userId: number,
  userAgent: string,
): Promise<{ device: string; isNew: boolean }> {
  const device = deviceOf(userAgent.slice(0, USER_AGENT_MAX_LENGTH));
  const [seen] = await db
    .select({
      earlier: sql<number>`count(*)::int`,
      sameDevice: sql<number>`(count(*) filter (where ${sessions.device} = ${device}))::int`,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return { device, isNew: Boolean(seen && seen.earlier > 0 && seen.sameDevice === 0) };
}

/** A token as the app sends one: anything else is no session, without a lookup. */
export const plausibleToken = (token: string | undefined): token is string => Boolean(token) && token!.length <= 200;

/** The session of a token unless it was ended, with its customer's idle limit; whether it has expired is
 * `sessionState`'s to say (session-idle.ts; the answer is cached in memory, dropped by a change of the session's or of
 * the customer's row). */
export async function findSession(db: Db, tokenHash: string): Promise<Caller | null> {
  const statement = preparedOnce(db, 'find session', (name) =>
    db
      .select({
        sessionId: sessions.id,
        userId: sessions.userId,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        idleMinutes: users.sessionIdleMinutes,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt)))
      .prepare(name),
  );
  const [row] = await statement.execute({ tokenHash });
  return row
    ? {
        sessionId: row.sessionId,
        userId: row.userId,
        signedInAt: row.createdAt.getTime(),
        lastSeenAt: row.lastSeenAt.getTime(),
        idleMinutes: row.idleMinutes,
      }
    : null;
}

/** A session that was ended (log-out, password change, closure, freeze, another device, idle): its id and account. */
export interface EndedSession {
  sessionId: number;
  userId: number;
}

/**
 * The ended session of a token (its revoked_at set), or null for a live, expired-but-not-ended or unknown one. It signs
 * nothing in: it is asked only after the token was refused, so that a write that ended its own session can still hand
 * that session the write's stored answer (domain/idempotency.ts, replayToEndedSession).
 */
export async function findEndedSession(db: Executor, tokenHash: string): Promise<EndedSession | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNotNull(sessions.revokedAt)));
  return row ?? null;
}

/**
 * How often a session's use is written: LAST_SEEN_STEP_MS, or a fifteenth of a shorter idle limit the customer chose
 * (a minute for 15 minutes), so a session in use never looks unused for more than a small part of its limit.
 */
export const lastSeenStepOf = (session: Pick<Caller, 'idleMinutes'>) =>
  Math.min(LAST_SEEN_STEP_MS, (session.idleMinutes * 60_000) / 15);

/**
 * Notes that `session` was used at `now`, at most once per lastSeenStepOf(session): this process's later
 * calls see the new time at once, and the update skips a row another process has just moved. The
 * row's change notice then drops the cached copies everywhere, which read the new time back.
 */
export async function noteSeen(db: Executor, session: Caller, now: Date): Promise<void> {
  const step = lastSeenStepOf(session);
  if (now.getTime() - session.lastSeenAt < step) return;
  session.lastSeenAt = now.getTime();
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, session.sessionId), lt(sessions.lastSeenAt, new Date(now.getTime() - step + 1))));
}

/**
 * The account's sessions that still work at `now`, the caller's first, then the most recently used; then those that
 * ended (unused too long, too old, logged out, ended by a password change) while their device is still remembered as
 * having passed the second factor, marked `ended`: such a device signs in without a code until it is forgotten
 * (endSession), so the customer who lost it can forget it alone. A device is still remembered when two-factor has been
 * on since `rememberedSince` (secondFactorSince; null: off, nothing is remembered), the session began after that, and
 * its token's nonce was neither forgotten nor handed on to a session that still works (a password change's); of the
 * ended sessions of one token, the latest alone (one row a device, however often it signed in).
 */
export async function listSessions(
  db: Executor,
  caller: Caller,
  now: Date,
  limits: SessionLimits,
  t: Translate,
  rememberedSince: Date | null,
): Promise<SignedInSession[]> {
  // Not before 1970: a limit of many thousand days must not ask PostgreSQL for a time it cannot hold.
  const usedSince = new Date(Math.max(0, now.getTime() - limits.idleMs));
  const begunSince = new Date(Math.max(0, now.getTime() - limits.maxMs));
  const working = (table: Record<'revokedAt' | 'lastSeenAt' | 'createdAt', AnyPgColumn>) =>
    and(isNull(table.revokedAt), gt(table.lastSeenAt, usedSince), gt(table.createdAt, begunSince));
  const other = alias(sessions, 'other_sessions');
  const stillRemembered = rememberedSince
    ? and(
        isNotNull(sessions.deviceNonce),
        isNull(sessions.deviceForgottenAt),
        gt(sessions.createdAt, rememberedSince),
        notExists(
          db
            .select({ id: other.id })
            .from(other)
            .where(
              and(
                eq(other.userId, sessions.userId),
                eq(other.deviceNonce, sessions.deviceNonce),
                // One row a device: a later session of the same token stands for it.
                or(isNotNull(other.deviceForgottenAt), working(other), gt(other.id, sessions.id)),
              ),
            ),
        ),
      )
    : undefined;
  const rows = await db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, caller.userId),
        stillRemembered ? or(working(sessions), stillRemembered) : working(sessions),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  const ended = (row: (typeof rows)[number]) =>
    row.revokedAt !== null || row.lastSeenAt <= usedSince || row.createdAt <= begunSince;
  const current = rows.filter((row) => row.id === caller.sessionId);
  const others = rows.filter((row) => row.id !== caller.sessionId);
  return [...current, ...others.filter((row) => !ended(row)), ...others.filter(ended)].map((row) => ({
    id: row.id,
    device: row.device || t(serverTexts.unknownDevice),
    address: maskAddress(row.ip),
    signed_in_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    current: row.id === caller.sessionId,
    ended: ended(row),
  }));
}

/**
 * Ends one of the customer's sessions. Ended from another of their devices (`callerSessionId` another session), its
 * device is forgotten too: remembered as having passed the second factor, it asks for a code at its next sign-in (a
 * lost phone, a thief's browser); ending the caller's own session is logging out, which forgets nothing. A session
 * that had already ended (unused, logged out) while its device is still remembered (listSessions' `ended`) has that
 * device forgotten. Refuses (sessionNotFound) a session of another account, one ended and forgotten, or none.
 */
export async function endSession(
  db: Executor,
  userId: number,
  sessionId: number,
  now: Date,
  callerSessionId: number,
): Promise<void> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now, deviceForgottenAt: sessionId === callerSessionId ? null : now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (ended.length) return;
  const forgotten = await db
    .update(sessions)
    .set({ deviceForgottenAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNotNull(sessions.deviceNonce),
        isNull(sessions.deviceForgottenAt),
      ),
    )
    .returning({ id: sessions.id });
  if (!forgotten.length) throw new Refusal(texts.sessionNotFound.id);
}

export async function revokeSession(db: Executor, sessionId: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** After a password change or reset every device must log in again; "end all other sessions" keeps the caller's. */
export async function revokeAllSessions(
  db: Executor,
  userId: number,
  now: Date,
  exceptSessionId?: number,
): Promise<void> {
  const open = and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(exceptSessionId === undefined ? open : and(open, ne(sessions.id, exceptSessionId)));
}
