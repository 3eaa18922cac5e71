// Passkeys: WebAuthn discoverable credentials, checked by @simplewebauthn/server. A
// challenge is handed out, kept in the database (the answer may reach another process) and taken
// once: the first answer deletes it, whatever its outcome. A passkey signs in on its own — it is
// something the owner has, unlocked by something they are or know (user verification is required) —
// so it needs no second factor; adding one needs the login password and the second factor.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Executor } from '../db/connection.ts';
import { passkeys, webauthnChallenges } from '../db/schema.ts';
import {
  PASSKEY_CHALLENGE_SECONDS,
  PASSKEY_LIMIT,
  type CeremonyOptions,
  type Passkey,
} from '../../api-contract/passkeys.ts';
import { texts } from '../../api-contract/texts.ts';
import type { Translate } from '../i18n.ts';
import type { UserRow } from './accounts.ts';
import { USER_AGENT_MAX_LENGTH, deviceOf } from './devices.ts';
import { Refusal } from './refusal.ts';
import { postSecurityNotice, utcMinute } from './security-notices.ts';

export const RELYING_PARTY_NAME = 'Coinvest';

/** The site passkeys belong to (its domain) and the page origins allowed to use them. */
export interface RelyingParty {
  id: string;
  origins: string[];
}

/** WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS; unset, each request's own host decides (see relyingPartyOf). */
export interface RelyingPartyConfig {
  id: string | null;
  origins: string[];
}

/**
 * The relying party of a request. Configured: that one. Otherwise the page's origin, when it names
 * the host the request was sent to (or an origin allowed to call from another host): a passkey made
 * on https://app.example.com belongs to app.example.com. The browser binds every answer to the
 * page's origin and the passkey to its domain, so a page elsewhere can neither use nor make ours.
 */
export function relyingPartyOf(
  config: RelyingPartyConfig,
  origin: string | undefined,
  host: string | undefined,
  corsOrigins: readonly string[] = [],
): RelyingParty {
  if (config.id) return { id: config.id, origins: config.origins.length ? config.origins : [`https://${config.id}`] };
  if (origin) {
    try {
      const url = new URL(origin);
      if (url.origin === origin && (url.host === host || corsOrigins.includes(origin)))
        return { id: url.hostname, origins: [origin] };
    } catch {
      // Not a URL: no relying party.
    }
  }
  throw new Refusal(texts.passkeyUnavailable.id);
}

type Purpose = 'register' | 'login';

async function keepChallenge(db: Executor, challenge: string, purpose: Purpose, userId: number | null, now: Date) {
  // The expired ones go as new ones come: the table holds a few minutes' worth.
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db
    .insert(webauthnChallenges)
    .values({ challenge, purpose, userId, expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000) });
}

/**
 * Takes a live challenge of `purpose` (of `userId` when given) once: true if it was there. Called by
 * the library with the challenge the browser signed, so an answer to an old or a foreign challenge fails.
 */
async function takeChallenge(
  db: Executor,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
  now: Date,
): Promise<boolean> {
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, now),
        userId === null ? sql`true` : eq(webauthnChallenges.userId, userId),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length > 0;
}

/** The challenge inside a browser's answer (clientDataJSON), or '' when it has none. */
function challengeIn(answer: { response?: { clientDataJSON?: unknown } }): string {
  try {
    const data = JSON.parse(
      Buffer.from(String(answer.response?.clientDataJSON ?? ''), 'base64url').toString('utf8'),
    ) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

/** The browser's answer as an object, or a refusal: what the library checks next is its content. */
function parseAnswer<T>(text: string): T {
  try {
    const answer = JSON.parse(text) as unknown;
    if (
      answer &&
      typeof answer === 'object' &&
      typeof (answer as { id?: unknown }).id === 'string' &&
      typeof (answer as { response?: unknown }).response === 'object'
    )
      return answer as T;
  } catch {
    // Falls through to the refusal.
  }
  throw new Refusal(texts.passkeyFailed.id);
}

/** What became of an answer's challenge: not looked at yet, found and taken, or not there (expired, answered). */
type ChallengeSeen = { state: 'unasked' | 'taken' | 'gone' };

/** The library's check, with a challenge that is gone refused as timed out and anything else wrong as failed. */
async function verified<R extends { verified: boolean }>(
  check: (take: (challenge: string) => Promise<boolean>) => Promise<R>,
  take: (challenge: string) => Promise<boolean>,
): Promise<R> {
  const seen: ChallengeSeen = { state: 'unasked' };
  const taking = async (challenge: string) => {
    seen.state = (await take(challenge)) ? 'taken' : 'gone';
    return seen.state === 'taken';
  };
  let result: R;
  try {
    result = await check(taking);
  } catch {
    throw new Refusal(seen.state === 'gone' ? serverTexts.passkeyTimedOut.id : texts.passkeyFailed.id);
  }
  if (!result.verified) throw new Refusal(texts.passkeyFailed.id);
  return result;
}

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  synced: row.backedUp,
});

export async function listPasskeys(db: Executor, userId: number): Promise<Passkey[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
  return rows.map(toPasskey);
}

/** The library's options as the answer carries them (JSON the browser's WebAuthn call takes as it is). */
const asAnswer = (options: { challenge: string }): CeremonyOptions => ({
  options: options as unknown as CeremonyOptions['options'],
});

/** The passkey's user handle: the account id's digits (nothing personal; the discoverable answer carries it back). */
const userHandle = (userId: number) => Buffer.from(String(userId), 'utf8');

/** Options to make a passkey for `user` (who has just given their password and second factor). */
export async function creationOptions(
  db: Executor,
  user: Pick<UserRow, 'id' | 'username' | 'nickname'>,
  party: RelyingParty,
  now: Date,
): Promise<CeremonyOptions> {
  const existing = await db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= PASSKEY_LIMIT) throw new Refusal(serverTexts.passkeyLimit.id);
  const options = await generateRegistrationOptions({
    rpName: RELYING_PARTY_NAME,
    rpID: party.id,
    userName: user.username,
    userID: userHandle(user.id),
    userDisplayName: user.nickname || user.username,
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await keepChallenge(db, options.challenge, 'register', user.id, now);
  return asAnswer(options);
}

/** Keeps the passkey the browser made for `userId` against a live challenge of theirs; the owner gets a station
 * message. */
export async function addPasskey(
  db: Executor,
  userId: number,
  credential: string,
  party: RelyingParty,
  userAgent: string,
  now: Date,
  t: Translate,
): Promise<Passkey> {
  const response = parseAnswer<RegistrationResponseJSON>(credential);
  const result = await verified(
    (expectedChallenge) =>
      verifyRegistrationResponse({
        response,
        expectedChallenge,
        expectedOrigin: party.origins,
        expectedRPID: party.id,
        requireUserVerification: true,
      }),
    (challenge) => takeChallenge(db, challenge, 'register', userId, now),
  );
  if (!result.verified) throw new Refusal(texts.passkeyFailed.id);
  const { credential: made, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
  const device = deviceOf(userAgent.slice(0, USER_AGENT_MAX_LENGTH));
  return db.transaction(async (tx) => {
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    if (Number(count) >= PASSKEY_LIMIT) throw new Refusal(serverTexts.passkeyLimit.id);
    const [row] = await tx
      .insert(passkeys)
      .values({
        id: made.id,
        userId,
        publicKey: made.publicKey,
        counter: made.counter,
        transports: made.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name: device || t(serverTexts.unknownDevice),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    // The same authenticator again (it was listed as excluded): nothing new is kept.
    if (!row) throw new Refusal(texts.passkeyFailed.id);
    const write = (tl: Translate) => ({
      title: tl(serverTexts.passkeyAddedTitle),
      content: tl(serverTexts.passkeyAdded, { 0: row.name, 1: utcMinute(now) }),
    });
    await postSecurityNotice(tx, userId, write, now);
    return toPasskey(row);
  });
}

export async function removePasskey(db: Executor, userId: number, id: string): Promise<void> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  if (!removed.length) throw new Refusal(texts.passkeyNotFound.id);
}

/** Options to sign in with any passkey of this site: the browser offers the ones it holds. */
export async function signInOptions(db: Executor, party: RelyingParty, now: Date): Promise<CeremonyOptions> {
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
  });
  await keepChallenge(db, options.challenge, 'login', null, now);
  return asAnswer(options);
}

/**
 * The account a sign-in answer points at, read only: its passkey's owner when that passkey is stored and the answer's
 * user handle (when the browser gives one) agrees; null for anything else (no such passkey, not an answer). The sign-in
 * history counts a refused answer against this account; passkeyOwner alone decides whether it signs in.
 */
export async function claimedPasskeyOwner(db: Executor, credential: string): Promise<number | null> {
  let response: AuthenticationResponseJSON;
  try {
    response = parseAnswer<AuthenticationResponseJSON>(credential);
  } catch {
    return null;
  }
  const [stored] = await db.select({ userId: passkeys.userId }).from(passkeys).where(eq(passkeys.id, response.id));
  const handle = response.response.userHandle;
  if (!stored || (handle && Buffer.from(handle, 'base64url').toString('utf8') !== String(stored.userId))) return null;
  return stored.userId;
}

/**
 * The account a passkey answer proves, once its signature checks out against a live sign-in
 * challenge; its counter moves forward (a counter that goes back means a cloned authenticator: refused).
 */
export async function passkeyOwner(db: Executor, credential: string, party: RelyingParty, now: Date): Promise<number> {
  const response = parseAnswer<AuthenticationResponseJSON>(credential);
  const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, response.id));
  // The user handle, when the browser gives it, must be the passkey's account.
  const handle = response.response.userHandle;
  if (!stored || (handle && Buffer.from(handle, 'base64url').toString('utf8') !== String(stored.userId))) {
    // The challenge is spent all the same.
    await takeChallenge(db, challengeIn(response), 'login', null, now);
    throw new Refusal(serverTexts.passkeyNotRecognised.id);
  }
  const result = await verified(
    (expectedChallenge) =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: party.origins,
        expectedRPID: party.id,
        credential: {
          id: stored.id,
          publicKey: new Uint8Array(stored.publicKey),
          counter: stored.counter,
          transports: stored.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      }),
    (challenge) => takeChallenge(db, challenge, 'login', null, now),
  );
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  // Two answers signed with one counter value (a replay, a clone) cannot both pass: the row moves once.
  const moved = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: now, backedUp: credentialBackedUp })
    .where(
      and(
        eq(passkeys.id, stored.id),
        stored.counter === 0 && newCounter === 0 ? sql`true` : lt(passkeys.counter, newCounter),
      ),
    )
    .returning({ userId: passkeys.userId });
  if (!moved.length) throw new Refusal(texts.passkeyFailed.id);
  return moved[0]!.userId;
}

/**
 * Whether the passkey of a sign-in answer (`credential`, which passkeyOwner accepted) is still `userId`'s; when it is,
 * its row is held (FOR SHARE) until the transaction `tx` ends, so removing it waits for the session the sign-in makes
 * in `tx`, and a password reset after that ends the session with the others. False once it was removed meanwhile.
 */
export async function passkeyStillHeld(tx: Executor, credential: string, userId: number): Promise<boolean> {
  const { id } = parseAnswer<AuthenticationResponseJSON>(credential);
  const held = await tx
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .for('share');
  return held.length > 0;
}
