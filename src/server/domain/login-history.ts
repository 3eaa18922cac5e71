// The sign-in history (SECURITY.md beside this file, "Sign-in history"): every sign-in to an account and every failed
// attempt against it, with when, the device (browser and system read from the User-Agent, as the Devices page names
// them), the address partly hidden and a rough place where the server's optional offline table knows it, and how it
// was tried (password, passkey, code). A failed attempt is a known account's wrong password, authenticator code or
// passkey; a login name no account has records nothing, and recording never changes an answer (the caller sees only
// the usual refusal). A failed attempt from a device the account never signed in from also posts a security notice to
// the owner, at most one per device and UTC day. Rows older than 90 days are neither read nor kept (the ten-minute
// counter clean-up job deletes them).
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { serverTexts } from '../../api-contract/server-texts.ts';
import {
  LOGIN_HISTORY_DAYS,
  LOGIN_HISTORY_PAGE_SIZE,
  type LoginMethod,
  type LoginRecord,
} from '../../api-contract/login-history.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import type { Executor } from '../db/connection.ts';
import { loginHistory, sessions } from '../db/schema.ts';
import type { Translate } from '../i18n.ts';
import { USER_AGENT_MAX_LENGTH, deviceOf, maskAddress } from './devices.ts';
import { idKey, keysetQuery, timeKey, type KeysetOrder } from './paged-query.ts';
import { Refusal } from './refusal.ts';
import { postSecurityNotice, utcMinute } from './security-notices.ts';
import type { SignInPlace } from './sessions.ts';

/** How long a row is kept and shown, in ms (90 days). */
export const LOGIN_HISTORY_MS = LOGIN_HISTORY_DAYS * 86_400_000;

/** Where an attempt came from and how it was tried; `country` is the rough place (ISO 3166 code) or null. */
export interface LoginAttempt extends SignInPlace {
  method: LoginMethod;
  country: string | null;
}

const rowOf = (userId: number, attempt: LoginAttempt, succeeded: boolean, at: Date) => ({
  userId,
  at,
  succeeded,
  method: attempt.method,
  device: deviceOf(attempt.userAgent.slice(0, USER_AGENT_MAX_LENGTH)),
  address: maskAddress(attempt.ip),
  country: attempt.country,
});

/** Records a sign-in of `userId` at `now` (call it in the sign-in's transaction, after the session is made). */
export async function recordSignIn(db: Executor, userId: number, attempt: LoginAttempt, now: Date): Promise<void> {
  await db.insert(loginHistory).values(rowOf(userId, attempt, true, now));
}

/**
 * Records a failed attempt against `userId` at `now` and, when its device (browser and system) never signed in to the
 * account, posts the owner a security notice in `t`'s language — at most one per device and UTC day: the row that
 * raises it carries the day, unique per account and device, so attempts at once raise one. Method 'code' (a wrong
 * authenticator code after the right password) makes the notice say the password is known. The notice is for the
 * owner; the caller of the attempt is answered as before.
 */
export async function recordFailedAttempt(
  db: Executor,
  userId: number,
  attempt: LoginAttempt,
  now: Date,
): Promise<void> {
  const row = rowOf(userId, attempt, false, now);
  if (!(await isNewDevice(db, userId, row.device))) {
    await db.insert(loginHistory).values(row);
    return;
  }
  const noticed = await db
    .insert(loginHistory)
    .values({ ...row, noticeDay: now.toISOString().slice(0, 10) })
    .onConflictDoNothing()
    .returning({ id: loginHistory.id });
  if (!noticed.length) {
    await db.insert(loginHistory).values(row);
    return;
  }
  const write = (tl: Translate) => ({
    title: tl(serverTexts.failedSignInTitle),
    content: tl(attempt.method === 'code' ? serverTexts.failedCodeSignIn : serverTexts.failedSignIn, {
      0: row.device || tl(serverTexts.unknownDevice),
      1: row.address || '—',
      2: utcMinute(now),
    }),
  });
  await postSecurityNotice(db, userId, write, now);
}

/** Whether no session of the account, ended or not, had this device (the rule of the new sign-in notice). */
async function isNewDevice(db: Executor, userId: number, device: string): Promise<boolean> {
  const [seen] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.device, device)))
    .limit(1);
  return !seen;
}

/**
 * Runs `attempt` (a sign-in step that refuses a wrong password, code or passkey) and, when it refuses with one of
 * `failures` (text ids), records a failed attempt against `userId` before refusing the same way; any other refusal
 * (too many attempts, a code still to give) records nothing. The refusal reaches the caller unchanged.
 */
export async function recordingFailure<T>(
  db: Executor,
  userId: number,
  attempt: LoginAttempt,
  failures: readonly string[],
  now: Date,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Refusal && failures.includes(error.textId))
      await recordFailedAttempt(db, userId, attempt, now);
    throw error;
  }
}

type Row = typeof loginHistory.$inferSelect;
const NEWEST_FIRST: KeysetOrder<Row> = {
  keys: [timeKey(loginHistory.at, (row) => row.at), idKey(loginHistory.id, (row) => row.id)],
  direction: 'desc',
};

/** The account's sign-ins and failed attempts of the 90 days before `now`, newest first, one page after `cursor`.
 * @throws Refusal (the request is not valid) for a cursor that is not one of this list's. */
export async function listLoginHistory(
  db: Executor,
  userId: number,
  cursor: string,
  now: Date,
): Promise<CursorPage<LoginRecord>> {
  const since = new Date(now.getTime() - LOGIN_HISTORY_MS);
  const page = await keysetQuery(
    (after) =>
      db
        .select()
        .from(loginHistory)
        .where(and(eq(loginHistory.userId, userId), gte(loginHistory.at, since), after))
        .$dynamic(),
    NEWEST_FIRST,
    { cursor },
    LOGIN_HISTORY_PAGE_SIZE,
  );
  return {
    next: page.next,
    lists: page.lists.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      succeeded: row.succeeded,
      method: row.method as LoginMethod,
      device: row.device,
      address: row.address,
      country: row.country,
    })),
  };
}

/** Deletes the rows older than 90 days before `now`, `batch` at a time; answers how many. */
export async function deleteOldLoginHistory(db: Executor, now: Date, batch = 10_000): Promise<number> {
  const before = new Date(now.getTime() - LOGIN_HISTORY_MS);
  let deleted = 0;
  for (;;) {
    const old = db.select({ id: loginHistory.id }).from(loginHistory).where(lt(loginHistory.at, before)).limit(batch);
    const rows = await db.delete(loginHistory).where(inArray(loginHistory.id, old)).returning({ id: loginHistory.id });
    deleted += rows.length;
    if (rows.length < batch) return deleted;
  }
}
