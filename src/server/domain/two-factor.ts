// Two-factor authentication: an authenticator app (TOTP, RFC 6238) set up with a QR code
// and confirmed with a first code, ten one-time recovery codes, and `requireSecondFactor`, the one
// check every protected call makes. A used code cannot be used twice: the newest accepted step is
// kept and a code of that step or an older one is refused; a recovery code is marked used.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { recoveryCodes, twoFactors, users } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { RECOVERY_CODE_COUNT, type TwoFactorSetup, type TwoFactorStatus } from '../../api-contract/two-factor.ts';
import { AUTHENTICATOR_CODE } from '../../api-contract/fields.ts';
import { clearAttempts, countAttempt, heldCount, LockedOut, lockOf, tooManyAttempts, type Limit } from './attempts.ts';
import { checkLoginPasswordOf, checkPayPasswordOf, findUser, type PreparedSecrets, type UserRow } from './accounts.ts';
import { Refusal } from './refusal.ts';
import { base32Encode, matchingStep, otpauthUri } from './totp.ts';
import { openSecret, recoveryCodeDigest, sealSecret } from './two-factor-key.ts';

/** The name authenticator apps list the account under. */
export const TWO_FACTOR_ISSUER = 'Coinvest';
/** RFC 4226, section 4, recommends 160 bits. */
const SECRET_BYTES = 20;
/** Five wrong codes (authenticator or recovery, any call) lock the account's second factor for 15 minutes. */
export const SECOND_FACTOR_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };
const counterName = (userId: number) => `second-factor:${userId}`;

type TwoFactorRow = typeof twoFactors.$inferSelect;

async function rowOf(db: Executor, userId: number): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
  return row;
}

/** True when the user's protected calls need a code. */
export async function hasSecondFactor(db: Executor, userId: number): Promise<boolean> {
  return Boolean((await rowOf(db, userId))?.confirmedAt);
}

/**
 * The moment devices are remembered from, which a remembered device's token is bound to: when two-factor was turned
 * on, or the later moment the customer ended their other sessions (forgetRememberedDevices); null while two-factor is
 * off.
 */
export async function secondFactorSince(db: Executor, userId: number): Promise<Date | null> {
  const row = await rowOf(db, userId);
  if (!row?.confirmedAt) return null;
  const forgotten = row.devicesForgottenAt;
  return forgotten && forgotten > row.confirmedAt ? forgotten : row.confirmedAt;
}

/**
 * Forgets every device remembered as having passed the second factor (with two-factor on): each asks for a code at
 * its next sign-in, from `now` on. Answers the moment devices are remembered from (secondFactorSince), null when
 * two-factor is off (no device is asked for a code then, none needs forgetting).
 */
export async function forgetRememberedDevices(db: Executor, userId: number, now: Date): Promise<Date | null> {
  await db
    .update(twoFactors)
    .set({ devicesForgottenAt: now })
    .where(and(eq(twoFactors.userId, userId), isNotNull(twoFactors.confirmedAt)));
  return secondFactorSince(db, userId);
}

export async function twoFactorStatusOf(db: Executor, userId: number): Promise<TwoFactorStatus> {
  const row = await rowOf(db, userId);
  if (!row?.confirmedAt) return { enabled: false, confirmed_at: null, recovery_codes_left: 0 };
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return { enabled: true, confirmed_at: row.confirmedAt.toISOString(), recovery_codes_left: Number(left?.n ?? 0) };
}

/** A new secret, not in force until confirmed; a setup begun earlier and never confirmed is replaced. */
export async function beginSetup(db: Executor, userId: number, key: Buffer, now: Date): Promise<TwoFactorSetup> {
  if (await hasSecondFactor(db, userId)) throw new Refusal(serverTexts.twoFactorAlreadyOn.id);
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  const secret = randomBytes(SECRET_BYTES);
  const sealed = sealSecret(key, userId, secret);
  // Only an unconfirmed row is replaced: a setup confirmed meanwhile (another tab) stays as it is.
  const [written] = await db
    .insert(twoFactors)
    .values({ userId, secret: sealed, confirmedAt: null, lastStep: 0, createdAt: now })
    .onConflictDoUpdate({
      target: twoFactors.userId,
      set: { secret: sealed, lastStep: 0, createdAt: now },
      setWhere: isNull(twoFactors.confirmedAt),
    })
    .returning({ userId: twoFactors.userId });
  if (!written) throw new Refusal(serverTexts.twoFactorAlreadyOn.id);
  const base32 = base32Encode(secret);
  return { secret: base32, uri: otpauthUri(TWO_FACTOR_ISSUER, user?.username ?? String(userId), base32) };
}

/**
 * The login password, then the first code from the app, turn two-factor on (a wrong password uses
 * no code); answers the ten recovery codes, shown this once. `prepared`: the password verified before
 * the call's transaction (PreparedSecrets), if it was.
 */
export async function confirmSetup(
  db: Executor,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  given: { code: string; password: string },
  key: Buffer,
  now: Date,
  prepared?: PreparedSecrets,
): Promise<string[]> {
  const userId = user.id;
  const row = await rowOf(db, userId);
  if (row?.confirmedAt) throw new Refusal(serverTexts.twoFactorAlreadyOn.id);
  if (!row) throw new Refusal(serverTexts.twoFactorSetupFirst.id);
  await checkLoginPasswordOf(db, user, given.password, 'password', now, prepared);
  await checkCode(db, userId, given.code, key, now, { pending: row.secret, recovery: false });
  return db.transaction(async (tx) => {
    // Only the secret the code was checked against is turned on. Two confirmations at once (two tabs, two codes): the
    // first turns it on, the second is refused; a setup begun again meanwhile (another tab) replaced that secret with
    // one the customer's app may not hold: refused, its own code confirms it.
    const confirmed = await tx
      .update(twoFactors)
      .set({ confirmedAt: now })
      .where(and(eq(twoFactors.userId, userId), isNull(twoFactors.confirmedAt), eq(twoFactors.secret, row.secret)))
      .returning({ userId: twoFactors.userId });
    if (!confirmed.length)
      throw new Refusal(
        (await hasSecondFactor(tx, userId)) ? serverTexts.twoFactorAlreadyOn.id : serverTexts.twoFactorSetupReplaced.id,
      );
    return replaceRecoveryCodes(tx, userId, key, now);
  });
}

/** Ten new recovery codes in place of the old ones (a code from the app is asked first). */
export async function renewRecoveryCodes(
  db: Executor,
  userId: number,
  code: string,
  key: Buffer,
  now: Date,
): Promise<string[]> {
  if (!(await hasSecondFactor(db, userId))) throw new Refusal(serverTexts.twoFactorNotOn.id);
  await checkCode(db, userId, code, key, now, { recovery: false });
  return db.transaction((tx) => replaceRecoveryCodes(tx, userId, key, now));
}

/**
 * Turns two-factor off with a code (an authenticator code, or a recovery code when the phone is
 * lost) and the login password, checked in that order; the secret and the recovery codes go.
 * `prepared`: the password verified before the call's transaction (PreparedSecrets), if it was.
 */
export async function turnOff(
  db: Executor,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  given: { otp: string; password: string },
  key: Buffer,
  now: Date,
  prepared?: PreparedSecrets,
): Promise<TwoFactorStatus> {
  if (!(await hasSecondFactor(db, user.id))) throw new Refusal(serverTexts.twoFactorNotOn.id);
  await checkCode(db, user.id, given.otp, key, now);
  // The login password's own counter: the same lock as changing the password.
  await checkLoginPasswordOf(db, user, given.password, 'password', now, prepared);
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, user.id));
  });
  return { enabled: false, confirmed_at: null, recovery_codes_left: 0 };
}

/**
 * THE check of a protected call (withdraw, add a payee, change the payment password, the phone or
 * the e-mail): nothing when the user has two-factor off; otherwise the code (authenticator or
 * recovery) must be given, right and unused, and is used up here. Callers check it before the
 * request's own secrets (payment password, a code sent by SMS). Signing in on a new device will call
 * it too, after the password.
 */
export async function requireSecondFactor(
  db: Executor,
  userId: number,
  code: string | undefined,
  key: Buffer,
  now: Date,
): Promise<void> {
  if (!(await hasSecondFactor(db, userId))) return;
  if (!code) throw new Refusal(texts.enterAuthenticatorCode.id);
  await checkCode(db, userId, code, key, now);
}

/**
 * The check of the calls that guard the account against an intruder without being withdrawals (turning the address
 * lock off, freezing and unfreezing the account): the second factor when the caller has two-factor on, else the
 * payment password (the fund password that already guards every withdrawal). Refuses with the prompt of what is
 * missing (no payment password set, none typed, no code) or wrong; a wrong one counts toward its limit.
 * `prepared`: the payment password verified before the call's transaction (http/secrets-ahead.ts), if it was.
 */
export async function requireSecondFactorOrPayPassword(
  db: Executor,
  userId: number,
  { otp, paypass }: { otp?: string | undefined; paypass?: string | undefined },
  key: Buffer,
  now: Date,
  prepared: PreparedSecrets | undefined,
): Promise<void> {
  if (await hasSecondFactor(db, userId)) return requireSecondFactor(db, userId, otp, key, now);
  const user = await findUser(db, userId);
  if (!user.paypassHash) throw new Refusal(texts.noPayPassword.id);
  if (!paypass) throw new Refusal(texts.enterPayPassword.id, undefined, 'paypass');
  await checkPayPasswordOf(db, user, paypass, 'paypass', now, prepared);
}

/** A code's fate: right (and now used up), wrong, an authenticator code already used, a recovery code already used, the
 * setup it was checked for replaced by another (not a guess: not counted), or not tried because the limit holds. */
type Outcome = 'right' | 'wrong' | 'used' | 'recovery used' | 'replaced' | LockedOut;

/**
 * Checks a code and uses it up, counting a wrong one toward the account's limit. The counter's row
 * is held while checking, so guesses on one account run one at a time on every server process; the
 * outcome is refused after the commit, so a counted guess stays counted.
 */
async function checkCode(
  db: Executor,
  userId: number,
  code: string,
  key: Buffer,
  now: Date,
  options: { pending?: string; recovery?: boolean } = {},
): Promise<void> {
  const name = counterName(userId);
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const locked = lockOf(await heldCount(tx, name, SECOND_FACTOR_LIMIT, now), SECOND_FACTOR_LIMIT);
    if (locked) return locked;
    const result = AUTHENTICATOR_CODE.test(code)
      ? await useAuthenticatorCode(tx, userId, code, key, now, options.pending)
      : options.recovery === false
        ? 'wrong'
        : await useRecoveryCode(tx, userId, code, key, now);
    if (result === 'right') await clearAttempts(tx, name);
    else if (result !== 'replaced') await countAttempt(tx, name, SECOND_FACTOR_LIMIT, now);
    return result;
  });
  if (outcome instanceof LockedOut) throw tooManyAttempts(outcome.until, now);
  if (outcome === 'used') throw new Refusal(serverTexts.authenticatorCodeUsed.id);
  if (outcome === 'recovery used') throw new Refusal(serverTexts.recoveryCodeUsed.id);
  if (outcome === 'replaced') throw new Refusal(serverTexts.twoFactorSetupReplaced.id);
  if (outcome === 'wrong') throw new Refusal(texts.authenticatorCodeWrong.id);
}

/**
 * Uses up an authenticator code of the account's secret in force, or, with `pending` (the sealed secret of a setup
 * being confirmed), of that pending secret: 'replaced' when another setup took its place before the code was used up
 * (another tab began the setup again), so a confirmation never turns on a secret its code was not checked against.
 */
async function useAuthenticatorCode(
  tx: Executor,
  userId: number,
  code: string,
  key: Buffer,
  now: Date,
  pending: string | undefined,
): Promise<Outcome> {
  const row = await rowOf(tx, userId);
  if (!row || Boolean(row.confirmedAt) === (pending !== undefined)) return 'wrong';
  if (pending !== undefined && row.secret !== pending) return 'replaced';
  const step = matchingStep(openSecret(key, userId, row.secret), code, now);
  if (step === null) return 'wrong';
  // One statement decides: of two requests with the same code, only one moves the step, and only while the secret it
  // was checked against is still the account's.
  const moved = await tx
    .update(twoFactors)
    .set({ lastStep: step })
    .where(and(eq(twoFactors.userId, userId), lt(twoFactors.lastStep, step), eq(twoFactors.secret, row.secret)))
    .returning({ userId: twoFactors.userId });
  if (moved.length) return 'right';
  if ((await rowOf(tx, userId))?.secret === row.secret) return 'used';
  return pending === undefined ? 'wrong' : 'replaced';
}

/** Uses up a recovery code of the user's current set: 'right' the first time, 'recovery used' once it was used (the
 * customer is told so and picks another), 'wrong' for any other code, one of a set since replaced included. */
async function useRecoveryCode(tx: Executor, userId: number, code: string, key: Buffer, now: Date): Promise<Outcome> {
  const digest = recoveryCodeDigest(key, userId, normalRecoveryCode(code));
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, digest), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (used.length) return 'right';
  const [spent] = await tx
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, digest), isNotNull(recoveryCodes.usedAt)));
  return spent ? 'recovery used' : 'wrong';
}

/** "abcde-fghij", "ABCDEFGHIJ": one spelling, the one shown. */
const normalRecoveryCode = (code: string) => {
  const letters = code.replace(/[\s-]/g, '').toUpperCase();
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
};

async function replaceRecoveryCodes(tx: Executor, userId: number, key: Buffer, now: Date): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    normalRecoveryCode(base32Encode(randomBytes(7)).slice(0, 10)),
  );
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryCodeDigest(key, userId, code), createdAt: now })));
  return codes;
}
