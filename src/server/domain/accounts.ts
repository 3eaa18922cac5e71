// Accounts: password hashing (argon2id), invitation codes and the user info the app sees.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { rowsOf, sqlStateOf, type Executor, type Tx } from '../db/connection.ts';
import { users } from '../db/schema.ts';
import {
  LockedOut,
  PASSWORD_LIMIT,
  clearAttempts,
  countAttempt,
  countOf,
  heldCount,
  limitReached,
  lockOf,
  tooManyAttempts,
} from './attempts.ts';
import type { CodeChannel } from './code-sender.ts';
import { Refusal, type TextId } from './refusal.ts';
import { avatarCopy } from './uploads.ts';
import { canonicalMobile } from './phone-numbers.ts';
import { holdersOfPhone } from './phone-duplicates.ts';
import { PHONE } from '../../api-contract/fields.ts';
import { canonicalEmail } from '../../api-contract/email-address.ts';
import { texts } from '../../api-contract/texts.ts';
import type { UserInfo, VerificationStatus } from '../../api-contract/account.ts';
import type { Currency } from '../../api-contract/constants.ts';

export type UserRow = typeof users.$inferSelect;

import { hashSecret, verifySecret } from '../secret-hash.ts';

// The hashing itself sits below the domain (the seeds hash the demo account's passwords with it).
export { hashSecret, verifySecret };

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newInviteCode(): string {
  return Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');
}

/**
 * A username folded to the one form two names that are "the same name" share: compatibility forms composed (Unicode
 * NFKC: a full-width "ｈｏｌｄｅｒ" is "holder") and then lower case, as the database folds them. Usernames are
 * compared by it everywhere a name is looked up or checked for availability, so "Holder" can neither register beside
 * "holder" nor be told its password is wrong for typing "HOLDER"; the name is kept and shown as registered. The
 * database's unique index users_username_key_idx is on this same expression (migration 0037). Case beyond ASCII folds
 * as the database's character classification says (PGlite: Unicode; a PostgreSQL initialised without a locale: ASCII
 * only). `name`: the column, or a typed name.
 */
export const usernameKey = (name: string | SQL | AnyColumn) =>
  typeof name === 'string' ? sql`lower(normalize(${name}::text, NFKC))` : sql`lower(normalize(${name}, NFKC))`;

/**
 * A condition: `column` (a username, or an e-mail address) starts with the text an operator `typed`, both folded by
 * usernameKey, so a search finds a name as login finds it ("ＨＯＬＤＥＲ" and "Holder" find "holder@example.com"). The
 * typed text is folded first and its LIKE wildcards escaped after: NFKC turns a full-width "％" or "＿" into "%" or
 * "_", which then match themselves and nothing else. Everything typed reaches the database as a parameter.
 */
export const usernameStartsWith = (column: AnyColumn, typed: string) => {
  const escaped = [...LIKE_ESCAPES].reduce<SQL>(
    (text, [wildcard, escape]) => sql`replace(${text}, ${wildcard}::text, ${escape}::text)`,
    usernameKey(typed),
  );
  return sql`${usernameKey(column)} like ${escaped} || '%'`;
};
/** What LIKE reads specially, each with its escape (backslash, LIKE's escape character); the backslash first. */
const LIKE_ESCAPES = new Map([
  ['\\', '\\\\'],
  ['%', '\\%'],
  ['_', '\\_'],
]);

/** The same fold in the application, for what never reaches the database as a name (login counters' keys). */
export const foldedUsername = (name: string) => name.normalize('NFKC').toLowerCase();

/**
 * The id of an account other than `exceptUserId`, open or closed, whose username is `name` under usernameKey; undefined
 * when the name is free. A closed account's row keeps a name no login can be (closedUsername).
 */
export async function usernameHolder(db: Executor, name: string, exceptUserId?: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`${usernameKey(users.username)} = ${usernameKey(name)}`,
        exceptUserId === undefined ? undefined : ne(users.id, exceptUserId),
      ),
    )
    .limit(1);
  return row?.id;
}

/**
 * The accounts (ids, oldest first, in groups) whose usernames are one name under usernameKey: legacy pairs an older
 * release let register, which keep the database from its unique index on the folded name (migration 0037, decision
 * 0009 beside the database code). Empty once they are resolved, and at once when the index exists. Read at start,
 * which says so in the server log.
 */
export async function usernamesAlike(db: Executor): Promise<number[][]> {
  // With the index in place no two can exist: a start then reads no table (a million accounts grouped cost seconds).
  const indexed = rowsOf(await db.execute(sql`select 1 from pg_indexes where indexname = 'users_username_key_idx'`));
  if (indexed.length) return [];
  const rows = rowsOf<{ ids: number[] }>(
    await db.execute(sql`
      select array_agg(${users.id} order by ${users.id}) as ids from ${users}
      group by ${usernameKey(users.username)} having count(*) > 1 order by min(${users.id})`),
  );
  return rows.map((row) => row.ids.map(Number));
}

/**
 * Login accepts the username (in any letter case, usernameKey), the mobile number (written any way that reads as the
 * same E.164 number, or exactly as stored) or the e-mail address (read as `canonicalEmail` keeps it: any case, a dot
 * after the domain). The username written exactly as registered is preferred, then the number, then the e-mail
 * address, then the username in another case; where legacy accounts hold names differing only by case and none is
 * typed exactly, the oldest account. A closed account is found by none of them (domain/closure.ts).
 */
export async function findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  const number = PHONE.test(login) ? canonicalMobile(login) : null;
  const phones = number === null ? [login] : [login, number];
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        isNull(users.closedAt),
        or(
          eq(users.username, login),
          inArray(users.phone, phones),
          eq(users.email, canonicalEmail(login)),
          sql`${usernameKey(users.username)} = ${usernameKey(login)}`,
        ),
      ),
    )
    .orderBy(
      sql`case when ${users.username} = ${login} then 0 when ${users.phone} = ${number} then 1
        when ${users.email} = ${canonicalEmail(login)} or ${users.phone} = ${login} then 2 else 3 end`,
      asc(users.id),
    )
    .limit(1);
  return row;
}

/**
 * Rewrites the stored e-mail addresses kept before `canonicalEmail` read a domain as IDNA does (full-width letters, the
 * Thai SARA AM composed, a label's ASCII form 'xn--…' as its letters) in their canonical spelling, so login and a
 * password reset find them as typed now; a username that was the address follows it. An address whose canonical
 * spelling another account holds stays as it is (its owner still signs in by it: findUserByLogin folds the username).
 * Runs at start: PostgreSQL cannot spell an address as the app does. Idempotent; only addresses with a character
 * beyond ASCII or a domain label starting 'xn--' are read. Answers how many were rewritten.
 */
export async function storeEmailsCanonical(db: Executor): Promise<number> {
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(sql`${users.email} ~ '[^\\x01-\\x7f]' or ${users.email} ~* '[@.]xn--'`);
  let rewritten = 0;
  for (const row of rows) {
    const email = canonicalEmail(row.email!);
    if (email === row.email) continue;
    const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (holder) continue;
    const changed = await db
      .update(users)
      .set({ email, ...(row.username === row.email ? { username: email } : {}) })
      .where(and(eq(users.id, row.id), eq(users.email, row.email!)))
      .returning({ id: users.id });
    rewritten += changed.length;
  }
  return rewritten;
}

export async function findUser(db: Executor, id: number): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`user ${id} of a live session does not exist`);
  return row;
}

/**
 * Takes the customer's `users` row FOR KEY SHARE in `tx` until it ends and refuses (ret 0, "Your login has expired,
 * please log in again!") when the account is closed: a credit the customer asked for (a check-in, a reward claimed)
 * that raced their own closure waits for the closure's lock on that row (closure.ts) and then sees it, so no closed
 * account is credited. The request passed the login check before the closure ended its sessions, hence that text.
 * `strength` 'no key update' also makes the customer's writes that take it pass one at a time (FOR KEY SHARE, an
 * order's, does not wait for it).
 */
export async function holdOpenAccount(
  tx: Executor,
  userId: number,
  strength: 'key share' | 'no key update' = 'key share',
): Promise<void> {
  const [row] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, userId)).for(strength);
  if (!row || row.closedAt) throw new Refusal(texts.tokenInvalid.id);
}

/** The account whose phone (sms: E.164, see phone-numbers.ts) or e-mail address this is. */
export async function findUserByContact(
  db: Executor,
  channel: CodeChannel,
  address: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(isNull(users.closedAt), channel === 'sms' ? eq(users.phone, address) : eq(users.email, address)))
    .limit(1);
  return row;
}

const contactTaken = (channel: CodeChannel) =>
  new Refusal(channel === 'sms' ? serverTexts.phoneTaken.id : serverTexts.emailTaken.id);

/**
 * Whether an account other than `exceptUserId` holds this phone (E.164; an account listed as holding the same handset
 * under another spelling counts) or e-mail address.
 */
export async function contactHeld(
  db: Executor,
  channel: CodeChannel,
  address: string,
  exceptUserId?: number,
): Promise<boolean> {
  const holders =
    channel === 'sms' ? await holdersOfPhone(db, address) : [(await findUserByContact(db, channel, address))?.id];
  return holders.some((id) => id !== undefined && id !== exceptUserId);
}

/**
 * Refuses ("already registered", for the phone or the e-mail) an address that is already the username of an account
 * other than `exceptUserId` in any letter case (usernameHolder), or its phone or e-mail (contactHeld): registering,
 * asking for a sign-up code, and a new phone or e-mail that would become the account's username.
 */
export async function refuseTakenContact(
  db: Executor,
  channel: CodeChannel,
  address: string,
  exceptUserId?: number,
): Promise<void> {
  if (
    (await usernameHolder(db, address, exceptUserId)) !== undefined ||
    (await contactHeld(db, channel, address, exceptUserId))
  )
    throw contactTaken(channel);
}

/**
 * The open account an invitation code belongs to (typed in any case); an unknown code is refused, and so is a closed
 * account's: nobody is invited by an account that no longer exists for its customer (it could never be rewarded).
 */
export async function findInviter(db: Executor, inviteCode: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.inviteCode, inviteCode.toUpperCase()), isNull(users.closedAt)))
    .limit(1);
  if (!row) throw new Refusal(serverTexts.inviteCodeUnknown.id);
  return row;
}

/**
 * Opens an account registered with a phone (sms) or e-mail address: the address is its username,
 * nickname and contact; only the passwords' hashes are stored (the ones `prepared` made ahead, if any). A race for
 * the address is refused.
 */
export async function createAccount(
  db: Executor,
  account: {
    channel: CodeChannel;
    address: string;
    password: string;
    paypass: string;
    currency: Currency;
    invitedBy: number | null;
  },
  now: Date,
  prepared?: PreparedSecrets,
): Promise<UserRow> {
  const { channel, address } = account;
  const hashed = (secret: string) => prepared?.hashOf(secret) ?? hashSecret(secret);
  const [passwordHash, paypassHash] = await Promise.all([hashed(account.password), hashed(account.paypass)]);
  try {
    const [user] = await db
      .insert(users)
      .values({
        username: address,
        phone: channel === 'sms' ? address : null,
        email: channel === 'email' ? address : null,
        passwordHash,
        paypassHash,
        nickname: address,
        currency: account.currency,
        inviteCode: newInviteCode(),
        invitedBy: account.invitedBy,
        createdAt: now,
      })
      .returning();
    return user!;
  } catch (error) {
    if (isUniqueViolation(error)) throw contactTaken(channel);
    throw error;
  }
}

/** Saves a user's profile changes; a phone or e-mail another account took meanwhile is refused. */
export async function saveProfile(db: Executor, userId: number, changes: Partial<UserRow>): Promise<UserRow> {
  try {
    const [row] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw contactTaken(changes.phone ? 'sms' : 'email');
    throw error;
  }
}

/**
 * Makes the user's own uploaded picture their avatar: a copy of it, served to the owner (and reviewers) only like any
 * picture. A picture sent as a document or a receipt is refused (domain/uploads.ts avatarCopy).
 */
export async function changeAvatar(tx: Tx, userId: number, url: string): Promise<UserRow> {
  const avatar = await avatarCopy(tx, userId, url);
  if (!avatar) throw new Refusal(texts.uploadFailed.id);
  const [row] = await tx.update(users).set({ avatar }).where(eq(users.id, userId)).returning();
  return row!;
}

/**
 * Sets a user's login password (its hash only; the one `prepared` made ahead for it, if any). `replacing`: the stored
 * hash the old password was proved against (a change by the signed-in owner); the password is then set only while that
 * is still the stored one, so a change whose proof a reset or another change overtook sets nothing. Answers whether it
 * was set.
 */
export async function setPassword(
  db: Executor,
  userId: number,
  password: string,
  prepared?: PreparedSecrets,
  replacing?: string | null,
): Promise<boolean> {
  const set = await db
    .update(users)
    .set({ passwordHash: prepared?.hashOf(password) ?? (await hashSecret(password)) })
    .where(
      and(
        eq(users.id, userId),
        replacing === undefined ? undefined : sql`${users.passwordHash} is not distinct from ${replacing}`,
      ),
    )
    .returning({ id: users.id });
  return set.length > 0;
}

/**
 * Whether the user's login password is still the one stored as `hash` (the hash a typed password was just verified
 * against); when it is, the users row is held (FOR SHARE) until the transaction `tx` ends, so a change or reset of the
 * password waits for it and then ends what it made (a session). False once the password changed after it was read.
 */
export async function passwordStillIs(tx: Executor, userId: number, hash: string | null): Promise<boolean> {
  const rows = rowsOf(
    await tx.execute(
      sql`select 1 from ${users} where ${users.id} = ${userId} and ${users.passwordHash} is not distinct from ${hash} for share`,
    ),
  );
  return rows.length > 0;
}

/**
 * Sets a user's pay password (its hash only; the one `prepared` made ahead for it, if any) and answers the row.
 * `replacing`: the stored hash (null: none) the call was proved against (the old payment password); the password is
 * then set only while that is still the stored one, so a change whose proof another change overtook sets nothing and
 * answers undefined.
 */
export async function setPayPassword(
  db: Executor,
  userId: number,
  paypass: string,
  prepared?: PreparedSecrets,
  replacing?: string | null,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ paypassHash: prepared?.hashOf(paypass) ?? (await hashSecret(paypass)) })
    .where(
      and(
        eq(users.id, userId),
        replacing === undefined ? undefined : sql`${users.paypassHash} is not distinct from ${replacing}`,
      ),
    )
    .returning();
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
  return sqlStateOf(error) === '23505';
}

/**
 * The name of an account's payment-password counter (attempts.ts): one for every call that checks the payment
 * password, so five wrong tries anywhere lock it everywhere.
 */
export const payPasswordCounter = (userId: number) => `paypass:${userId}`;

/**
 * The name of an account's login-password counter (attempts.ts): one for every signed-in call that asks for the login
 * password (checkLoginPasswordOf); the login itself counts apart (login-guessing.ts).
 */
export const loginPasswordCounter = (userId: number) => `password:${userId}`;

/**
 * A request's secrets prepared before its transaction opens, so that no transaction waits for argon2id (about 13 ms of
 * a core a check or a hash, on a pool of libuv threads that may be busy): a verdict for each secret typed against a
 * stored hash, which checkSecret takes instead of verifying while it holds the counter's row, and the hash of each new
 * secret the call will store, which setPassword and setPayPassword take instead of hashing. One request's, a few
 * entries. Filled by a route's `ahead` work (http/secrets-ahead.ts).
 */
export class PreparedSecrets {
  readonly #verdicts = new Map<string, boolean>();
  readonly #hashes = new Map<string, string>();
  #limited = false;

  /**
   * Verifies `secret` against `storedHash` now, unless the counter `key` is already at its limit (read without a
   * lock): then nothing is hashed and checkSecret refuses as before, so a locked-out account costs no hashing. The
   * count that decides is the one checkSecret reads with the row held; this verdict only spares it the hashing.
   */
  async verify(db: Executor, key: string, storedHash: string | null | undefined, secret: string, now: Date) {
    if (limitReached(await countOf(db, key, PASSWORD_LIMIT, now), PASSWORD_LIMIT)) {
      this.#limited = true;
      return;
    }
    this.#verdicts.set(verdictKey(storedHash, secret), await verifySecret(storedHash, secret));
  }

  /** Verifies ahead the login password `typed` for checkLoginPasswordOf: on its counter, against its stored hash. */
  verifyLoginPassword(db: Executor, user: Pick<UserRow, 'id' | 'passwordHash'>, typed: string, now: Date) {
    return this.verify(db, loginPasswordCounter(user.id), user.passwordHash, typed, now);
  }

  /** Verifies ahead the payment password `typed` for checkPayPasswordOf: on its counter, against its stored hash. */
  verifyPayPassword(db: Executor, user: Pick<UserRow, 'id' | 'paypassHash'>, typed: string, now: Date) {
    return this.verify(db, payPasswordCounter(user.id), user.paypassHash, typed, now);
  }

  /** The verdict for this stored hash and secret, if it was verified ahead; undefined otherwise. */
  verdictOf(storedHash: string | null | undefined, secret: string): boolean | undefined {
    return this.#verdicts.get(verdictKey(storedHash, secret));
  }

  /**
   * True when a secret was verified ahead, every one was right and none was skipped at its counter's limit: only then
   * is a new secret worth hashing ahead (a call refused for a wrong one stores nothing, and a call proved by a code
   * alone hashes no more than it did before its code was checked).
   */
  allRight(): boolean {
    return !this.#limited && this.#verdicts.size > 0 && [...this.#verdicts.values()].every(Boolean);
  }

  /** Hashes a new secret the call will store (argon2id, as hashSecret). */
  async hash(secret: string): Promise<void> {
    if (!this.#hashes.has(secret)) this.#hashes.set(secret, await hashSecret(secret));
  }

  /** The hash made ahead for this new secret, if any. */
  hashOf(secret: string): string | undefined {
    return this.#hashes.get(secret);
  }
}

/** A verdict's key: the stored hash (or none) and the secret typed; a newer hash (the secret changed) misses. */
const verdictKey = (storedHash: string | null | undefined, secret: string) => `${storedHash ?? ''}\n${secret}`;

/**
 * The request field that carried a password a signed-in caller typed, as the call's API contract input names it:
 * `oldpass` (changing the login password), `oldpaypass` (changing the payment password with the old one), `password`
 * (the login password of a passkey's creation, two-factor on or off, a new phone or e-mail; the console's password
 * change), `paypass` (a withdrawal, the address lock turned off, freezing or unfreezing), `secret` (closing the
 * account).
 */
export type SecretField = 'oldpass' | 'oldpaypass' | 'password' | 'paypass' | 'secret';

/**
 * What checkSecret refuses a wrong secret with: the text (`text`, "The payment password is wrong!") and the request
 * field that carried the secret (`field`). Both refusals of the check name that field, so the form shows them under the
 * box the customer typed in, never as a toast apart from it.
 */
export interface WrongSecret {
  text: TextId;
  field: SecretField;
}

/**
 * A password check of a signed-in caller that locks after five wrong tries in 15 minutes on the counter `key`: per
 * account, since only its owner reaches it (a customer's login and payment passwords: checkLoginPasswordOf and
 * checkPayPasswordOf; an operator's password change; the login's own check is login-guessing.ts). The key's counter
 * row is held (locked) while the outcome is decided, so guesses sent at once are decided one after another and the
 * sixth finds the lock, on every server process. With no stored hash the check still spends the time and fails.
 * `prepared`: the request's secrets verified before its transaction (PreparedSecrets); one found there is not hashed
 * again with the row held. Throws a Refusal about `wrong.field`: `tooManyAttemptsWait` at the limit (with the time
 * left until its window ends), `wrong.text` when wrong (that try counted and committed).
 */
export async function checkSecret(
  db: Executor,
  key: string,
  storedHash: string | null | undefined,
  secret: string,
  wrong: WrongSecret,
  now: Date,
  prepared?: PreparedSecrets,
) {
  const ahead = prepared?.verdictOf(storedHash, secret);
  const outcome = await db.transaction(async (tx) => {
    const locked = lockOf(await heldCount(tx, key, PASSWORD_LIMIT, now), PASSWORD_LIMIT);
    if (locked) return locked;
    if (!(ahead ?? (await verifySecret(storedHash, secret)))) {
      await countAttempt(tx, key, PASSWORD_LIMIT, now);
      return 'wrong';
    }
    await clearAttempts(tx, key);
    return 'right';
  });
  // Refused after the commit: the counted try stays counted.
  if (outcome instanceof LockedOut) {
    const locked = tooManyAttempts(outcome.until, now);
    locked.field = wrong.field;
    throw locked;
  }
  if (outcome === 'wrong') throw new Refusal(wrong.text, undefined, wrong.field);
}

/**
 * The check of the login password a signed-in customer typed (`typed`) where a call asks for it: changing the
 * password, a new phone or e-mail, a passkey's creation options, turning two-factor on or off, closing the account.
 * One rule for all of them: one counter per account (loginPasswordCounter), so five wrong tries in 15 minutes on any of
 * these calls lock every one of them, even for the right password, until the window ends; the count is exact on every
 * server process (checkSecret holds the counter's row while deciding). Each call checks it at its own place among its
 * other checks. `prepared`: the password verified before the call's transaction (PreparedSecrets.verifyLoginPassword),
 * if it was. `field`: the request field that carried the password. Throws a Refusal about `field`: too many attempts at
 * the limit (with the time left), else `wrong` when wrong (that try counted): the login password is wrong, or the
 * password change's own "the old password is wrong".
 */
export function checkLoginPasswordOf(
  db: Executor,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  typed: string,
  field: SecretField,
  now: Date,
  prepared?: PreparedSecrets,
  wrong: TextId = serverTexts.wrongLoginPassword.id,
): Promise<void> {
  return checkSecret(
    db,
    loginPasswordCounter(user.id),
    user.passwordHash,
    typed,
    { text: wrong, field },
    now,
    prepared,
  );
}

/**
 * The check of the payment password a signed-in customer typed (`typed`) where a call asks for it: a withdrawal,
 * changing it with the old one, the address lock turned off or the account frozen or unfrozen with two-factor off,
 * closing the account. One rule for all of them: one counter per account (payPasswordCounter), so five wrong tries in
 * 15 minutes on any of these calls lock every one of them until the window ends, exact on every server process
 * (checkSecret). With no payment password set it still spends the time and refuses as wrong (the calls that prompt for
 * one first do so before). `prepared`: the password verified before the call's transaction
 * (PreparedSecrets.verifyPayPassword), if it was. `field`: the request field that carried the password. Throws a
 * Refusal about `field`: too many attempts at the limit, else "the payment password is wrong" (that try counted).
 */
export function checkPayPasswordOf(
  db: Executor,
  user: Pick<UserRow, 'id' | 'paypassHash'>,
  typed: string,
  field: SecretField,
  now: Date,
  prepared?: PreparedSecrets,
): Promise<void> {
  return checkSecret(
    db,
    payPasswordCounter(user.id),
    user.paypassHash,
    typed,
    { text: serverTexts.wrongPayPassword.id, field },
    now,
    prepared,
  );
}
