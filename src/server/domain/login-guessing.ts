// Login guessing is bounded without letting a stranger lock the owner out (SECURITY.md beside this file):
// - per account and client address (an IPv6 address by its /64): five wrong passwords lock that
//   address out of that account for 15 minutes; the owner at another address is not affected;
// - per account, from all addresses: after 20 wrong passwords within a day, each further attempt has
//   to wait from the last wrong one, 30 s doubling up to 15 minutes, so a guesser with many addresses
//   gets about 120 guesses a day. It only slows, and it does not hold an address the account signed
//   in from (or reset its password from) within 30 days;
// - a right password clears that address's own count only, and makes it a known address.
// An unknown login name is counted the same way (by the name typed, folded as usernames are: any letter case or
// compatibility form is one name), so the answers never tell whether an account exists. A name typed in another case
// than an account's finds that account (accounts.ts findUserByLogin) and counts on it: casing multiplies no attempts.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { isIPv6 } from 'node:net';
import type { Executor } from '../db/connection.ts';
import {
  clearAttempts,
  count,
  countOf,
  heldCount,
  LockedOut,
  lockOf,
  PASSWORD_LIMIT,
  tooManyAttempts,
  windowEnd,
  type Limit,
} from './attempts.ts';
import { foldedUsername, verifySecret } from './accounts.ts';
import { Refusal } from './refusal.ts';

/** Wrong passwords of one account from one address before that address is locked out of it. */
export const LOGIN_ADDRESS_LIMIT: Limit = PASSWORD_LIMIT;
/** Wrong passwords of one account from all addresses before each further attempt waits. */
export const LOGIN_ACCOUNT_LIMIT: Limit = { max: 20, windowMs: 24 * 3600_000 };
export const LOGIN_DELAY_FIRST_MS = 30_000;
export const LOGIN_DELAY_MAX_MS = 15 * 60_000;
/** An address the account signed in from within this time is not held by the account-wide delay. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;

/** Who is guessed at: an account, or the login name typed when no account has it; or a console operator's name (the
 * console's sign-in, domain/operators.ts: the same rules, counters of its own). Both names are counted folded as
 * usernames are (accounts.ts foldedUsername), so no spelling of a name gets attempts of its own. */
export type LoginSubject = { userId: number } | { name: string } | { operator: string };

/**
 * The client address as login guessing counts it: IPv4 as it is, IPv6 by its /64, the network of one
 * subscriber (who can draw any number of addresses from it, and whose privacy addresses change daily).
 */
export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const split = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const [left = '', right] = ip.split('%')[0]!.split('::');
  const head = split(left);
  const tail = right === undefined ? [] : split(right);
  const groups = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

const subjectName = (subject: LoginSubject) =>
  'userId' in subject
    ? `account:${subject.userId}`
    : 'operator' in subject
      ? `operator:${foldedUsername(subject.operator)}`
      : `name:${foldedUsername(subject.name)}`;
const accountCounter = (subject: LoginSubject) => `login:${subjectName(subject)}`;
const addressCounter = (subject: LoginSubject, ip: string) => `login:${subjectName(subject)}@${addressGroup(ip)}`;
const knownAddress = (subject: LoginSubject, ip: string) => `login-known:${subjectName(subject)}@${addressGroup(ip)}`;
const KNOWN: Limit = { max: 1, windowMs: KNOWN_ADDRESS_MS };

/** How long after the latest wrong password the next attempt waits, with `failures` wrong ones in the window. */
export function accountDelayMs(failures: number): number {
  if (failures < LOGIN_ACCOUNT_LIMIT.max) return 0;
  return Math.min(LOGIN_DELAY_MAX_MS, LOGIN_DELAY_FIRST_MS * 2 ** (failures - LOGIN_ACCOUNT_LIMIT.max));
}

/**
 * One guess at `subject` from `address` under the rules above: a LockedOut when that address is locked out or held by
 * the delay (nothing is tried), until the later of the two ends; else `attempt`'s answer, and one that `isRight` does
 * not accept is counted against the address and the subject. A right one `proves` the owner (default): the address's
 * count starts again and it becomes known — a step that is not the last of a sign-in (the console's password before
 * its code) proves nothing. The subject's counter row is held during the attempt, so guesses sent at once from
 * anywhere are tried one after another and each sees the counts the others left, on every server process.
 */
export async function guessFrom<T>(
  db: Executor,
  subject: LoginSubject,
  address: string,
  now: Date,
  attempt: (tx: Executor) => Promise<T>,
  isRight: (answer: T) => boolean,
  proves = true,
): Promise<T | LockedOut> {
  return db.transaction(async (tx) => {
    const failures = await heldCount(tx, accountCounter(subject), LOGIN_ACCOUNT_LIMIT, now);
    const lockedOut = lockOf(
      await countOf(tx, addressCounter(subject, address), LOGIN_ADDRESS_LIMIT, now),
      LOGIN_ADDRESS_LIMIT,
    );
    // The delay runs from the latest wrong password, and no longer than the day's window that counts them.
    const heldUntil = failures
      ? Math.min(
          failures.lastAt.getTime() + accountDelayMs(failures.count),
          windowEnd(failures, LOGIN_ACCOUNT_LIMIT).getTime(),
        )
      : 0;
    const held =
      now.getTime() < heldUntil && !(await countOf(tx, knownAddress(subject, address), KNOWN, now)) ? heldUntil : 0;
    // Locked out and held at once: the next attempt waits for both.
    const until = Math.max(lockedOut?.until.getTime() ?? 0, held);
    if (until > now.getTime()) return new LockedOut(new Date(until));
    const answer = await attempt(tx);
    if (!isRight(answer)) {
      await count(tx, addressCounter(subject, address), LOGIN_ADDRESS_LIMIT, now);
      await count(tx, accountCounter(subject), LOGIN_ACCOUNT_LIMIT, now);
    } else if (proves) await signedInFrom(tx, subject, address, now);
    return answer;
  });
}

/** Checks a login password from `address` and refuses (wrong, or too many attempts with the time left to wait). */
export async function checkLoginPassword(
  db: Executor,
  subject: LoginSubject,
  address: string,
  storedHash: string | null | undefined,
  password: string,
  now: Date,
) {
  const right = await guessFrom(db, subject, address, now, () => verifySecret(storedHash, password), Boolean);
  // Refused after the commit: the counted try stays counted.
  if (right instanceof LockedOut) throw tooManyAttempts(right.until, now);
  if (!right) throw new Refusal(serverTexts.wrongCredentials.id);
}

/**
 * The owner proved themselves from `address` (the right password, or a reset by code): that
 * address's count starts again and it is known to the account for the next 30 days.
 */
export async function signedInFrom(db: Executor, subject: LoginSubject, address: string, now: Date) {
  await clearAttempts(db, addressCounter(subject, address));
  await clearAttempts(db, knownAddress(subject, address));
  await count(db, knownAddress(subject, address), KNOWN, now);
}
