// A write with an Idempotency-Key is applied once: the first request claims the key, a retry
// gets the stored answer. Claims live in the database, so every server process agrees.
// The database holds only a hash of the key and the answer sealed with a key derived from it:
// an answer that carries a session token is readable only by the client that sent the request.
//
// Exactly once, even through a crash: the claim row is committed first (duplicates see it), then
// the write runs in ONE transaction that locks the claim row, applies the effect and stores the
// answer (`holdIdempotencyKey` … `completeIdempotencyKey` on that transaction). A process that dies
// before the commit leaves no effect and an unlocked pending claim, which the retry takes over at
// once: a pending claim whose row nobody holds belongs to a request that is no longer running.
//
// A write that ends its own session (closing the account, changing the login password, freezing the account, logging
// out) and whose answer was lost is sent again with the same key and the token it was sent with, which now signs
// nothing in: the login check would refuse it before the stored answer is read, and a customer whose account closed
// would be told only that their login expired. So the statement that stores the answer also records the session that
// sent the write when that session is ended by then (`ended_session_id`; it sees the write's own revocation, or,
// rarely, a log-out of the same session committed while the write ran: either way a write that session made).
// Such a token, refused by the login check, still receives that one stored answer (replayToEndedSession) and the
// write-outcome lookup's answer for that key (writeOutcomeForEndedSession), and nothing else: the same session (not
// another of the account), the same scope and key, the same fingerprint, an answer stored; no handler runs and no key
// is claimed or given up. Sessions end by a mark (revoked_at) and are never deleted, so the ended token is still known
// by its hash while it authenticates nothing (the login check reads live sessions only). The answer was sealed for
// exactly that request, and a password change's answer carries the new session's token: the same request sent again
// receives what it would have received the first time.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { preparedOnce } from '../db/prepared.ts';
import { atCommit } from '../db/transaction-control.ts';
import { idempotencyKeys, sessions } from '../db/schema.ts';
import { RET_OK } from '../../api-contract/envelope.ts';
import type { WriteOutcomeState } from '../../api-contract/write-outcome.ts';

/** How long a duplicate waits for the first copy of a request to answer before it says "busy". */
const WAIT_FOR_FIRST_MS = 5_000;

/** The stored row of one client key within a scope (user and path). */
export interface ScopedKey {
  id: string;
  secret: Buffer;
}

/** The scope of a write's key: who sent it (a customer's id, `operator N`, or `anon`) and the write's path. */
export const writeScope = (who: number | string, path: string): string => `${who}:${path}`;

/** The stored row's id and the answer's sealing key of `clientKey` within `scope` (writeScope). */
export function idempotencyScope(scope: string, clientKey: string): ScopedKey {
  return {
    id: createHash('sha256').update(`${scope}\n${clientKey}`).digest('hex'),
    secret: createHash('sha256').update(`seal\n${scope}\n${clientKey}`).digest(),
  };
}

function seal(secret: Buffer, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function unseal(secret: Buffer, sealed: string): unknown {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'));
}

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; response: unknown } | { kind: 'mismatch' } | { kind: 'busy' };

export async function claimIdempotencyKey(
  db: Db,
  { id: key, secret }: ScopedKey,
  fingerprint: string,
  now: Date,
): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  // Every keyed write's first statement: prepared once, not built each time.
  const claim = preparedOnce(db, 'claim idempotency key', (name) =>
    db
      .insert(idempotencyKeys)
      .values({
        key: sql.placeholder('key'),
        fingerprint: sql.placeholder('fingerprint'),
        createdAt: sql.placeholder('createdAt'),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
      .prepare(name),
  );
  for (;;) {
    const inserted = await claim.execute({ key, fingerprint, createdAt: now });
    if (inserted.length) return { kind: 'claimed' };

    const [existing] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!existing) continue; // released between the two statements: try to claim again
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.response !== null) return { kind: 'replay', response: unseal(secret, existing.response as string) };

    // The claimer holds its row while it runs; a row nobody holds is left by a request that died.
    if (await unheldPendingClaim(db, key)) return { kind: 'claimed' };
    if (Date.now() > deadline) return { kind: 'busy' };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when the key's claim is pending and no transaction holds it (its request is gone). */
async function unheldPendingClaim(db: Db, key: string): Promise<boolean> {
  const result = await db.execute(
    sql`select key from idempotency_keys where key = ${key} and response is null for update skip locked`,
  );
  return rowsOf(result).length > 0;
}

/**
 * What may be inlined in a statement sent with a BEGIN or a COMMIT (db/transaction-control.ts): a key's id (SHA-256 in
 * hex) and a sealed answer (base64).
 */
const HEX_ID = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * First step of the transaction that applies a keyed write: locks the claim row and says whether this transaction is
 * the one to apply the write, or another copy already answered while this one waited. The row claimed just before is
 * there as a rule, so it is looked for first; a failed attempt may have released it, and then it is made again.
 */
export async function holdIdempotencyKey(
  tx: Executor,
  { id: key, secret }: ScopedKey,
  fingerprint: string,
  now: Date,
): Promise<Claim> {
  // Without parameters (the key's id is hex), so on PostgreSQL it goes in one round trip with the transaction's BEGIN
  // (db/transaction-control.ts).
  const lockSql = HEX_ID.test(key)
    ? sql.raw(`select fingerprint, response from idempotency_keys where key = '${key}' for update`)
    : sql`select fingerprint, response from idempotency_keys where key = ${key} for update`;
  const held = async () => rowsOf<{ fingerprint: string; response: unknown }>(await tx.execute(lockSql));
  let [row] = await held();
  // A copy that failed may delete its pending claim while this one waits for it: claim it again.
  for (let tries = 0; !row && tries < 3; tries++) {
    await tx.insert(idempotencyKeys).values({ key, fingerprint, createdAt: now }).onConflictDoNothing();
    [row] = await held();
  }
  if (!row) throw new Error('the idempotency claim could not be held');
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.response !== null) return { kind: 'replay', response: unseal(secret, row.response as string) };
  return { kind: 'claimed' };
}

/**
 * Stores the answer; call it on the transaction that applied the write, so both commit together. With `withCommit`
 * on PostgreSQL the update goes in the COMMIT's round trip (db/transaction-control.ts): one round trip fewer while the
 * transaction holds its locks, and an error of the update then rejects the commit instead of this call. A caller that
 * must see the update's own error here (a refusal answered in a failed transaction, handle.ts) leaves it off.
 * `sessionId`: the customer's session that sent the write (none for an operator's or a signed-out write); the same
 * statement records it as `ended_session_id` when the write's transaction has ended it (see the top of this file).
 */
export async function completeIdempotencyKey(
  db: Executor,
  { id, secret }: ScopedKey,
  response: unknown,
  { withCommit = false, sessionId }: { withCommit?: boolean; sessionId?: number } = {},
): Promise<void> {
  const sealed = seal(secret, response);
  const session = sessionId !== undefined && Number.isSafeInteger(sessionId) ? sessionId : undefined;
  if (
    withCommit &&
    HEX_ID.test(id) &&
    BASE64.test(sealed) &&
    // The column is jsonb: the sealed answer is stored as a JSON string, as drizzle stores it. The session's id is an
    // integer, checked above.
    atCommit(
      db,
      `update idempotency_keys set response = to_jsonb('${sealed}'::text)${
        session === undefined
          ? ''
          : `, ended_session_id = (select id from sessions where id = ${session} and revoked_at is not null)`
      } where key = '${id}'`,
    )
  )
    return;
  await db
    .update(idempotencyKeys)
    .set({
      response: sealed,
      ...(session === undefined
        ? {}
        : {
            endedSessionId: sql`(select ${sessions.id} from ${sessions} where ${sessions.id} = ${session} and ${sessions.revokedAt} is not null)`,
          }),
    })
    .where(eq(idempotencyKeys.key, id));
}

/**
 * The stored answer of the write sent under `scopedKey` with `fingerprint` by the session `sessionId`, when that write
 * ended that very session (its `ended_session_id`): `{ response }`, unsealed. Null for any other key, scope, body or
 * session, and for a key with no answer stored: the caller then refuses the token as it would have. Reads only.
 */
export async function replayToEndedSession(
  db: Db,
  { id, secret }: ScopedKey,
  fingerprint: string,
  sessionId: number,
): Promise<{ response: unknown } | null> {
  const [row] = await db
    .select({ response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.key, id),
        eq(idempotencyKeys.fingerprint, fingerprint),
        eq(idempotencyKeys.endedSessionId, sessionId),
        isNotNull(idempotencyKeys.response),
      ),
    );
  return row ? { response: unseal(secret, row.response as string) } : null;
}

export async function releaseIdempotencyKey(db: Db, { id }: ScopedKey): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.key, id), isNull(idempotencyKeys.response)));
}

/** A pending claim this young (server clock) may belong to a request still preparing its transaction. */
const PENDING_YOUNG_MS = 60_000;
/** The fingerprint of a key given up by `writeOutcomeOf`: no request's (those are SHA-256 in hex). */
const GIVEN_UP = 'given up: never received';

/** What `writeOutcomeOf` found of one key (api-contract/write-outcome.ts says what each state means). */
export interface KeyOutcome {
  state: WriteOutcomeState;
  /** The stored refusal's envelope msg (`refused` only). */
  msg: string | null;
  /** When the key was first claimed (null for `not_received` and `expired`). */
  receivedAt: Date | null;
}

/**
 * What became of the write sent under `scopedKey` (idempotencyScope of the same caller and path). Its stored answer
 * says applied (ret 1) or refused (any other ret, with its msg). A pending claim is `in_progress` while a transaction
 * holds it or it is younger than PENDING_YOUNG_MS (the request may still be working before its transaction); an older
 * one nobody holds was left by a request that died before anything was written. That key, and a key never claimed,
 * is given up in the same transaction that says so: a row with a fingerprint no request has and an answer of its own,
 * so a copy arriving later is refused as a reused key and "nothing was done" stays true.
 * `mayBeDeleted`: the client sent the write so long ago that its key may be past the retention of keys
 * (api-contract/write-outcome.ts keyMayBeDeleted). Such a key not found is `expired`, and nothing is given up: it may
 * have been applied and deleted since (jobs/idempotency-retention.ts), and "never received" would let the client place
 * it again. Its row, when found, is locked first, so the retention job, which skips locked rows, cannot delete it
 * between the look and the answer.
 */
export async function writeOutcomeOf(
  db: Db,
  scopedKey: ScopedKey,
  now: Date,
  { mayBeDeleted }: { mayBeDeleted: boolean },
): Promise<KeyOutcome> {
  const { id: key, secret } = scopedKey;
  return db.transaction(async (tx) => {
    if (mayBeDeleted) {
      // Waits for a transaction applying it (or deleting it): then it is found with its answer, or gone.
      const found = rowsOf(await tx.execute(sql`select key from idempotency_keys where key = ${key} for update`));
      if (!found.length) return { state: 'expired', msg: null, receivedAt: null };
    }
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ key, fingerprint: GIVEN_UP, createdAt: now, response: seal(secret, null) })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { state: 'not_received', msg: null, receivedAt: null };
    const [row] = rowsOf<{ fingerprint: string; response: unknown; created_at: Date | string }>(
      await tx.execute(
        sql`select fingerprint, response, created_at from idempotency_keys where key = ${key} for update skip locked`,
      ),
    );
    // Held by the transaction applying it.
    if (!row) return { state: 'in_progress', msg: null, receivedAt: null };
    const receivedAt = new Date(row.created_at);
    if (row.fingerprint === GIVEN_UP) return { state: 'not_received', msg: null, receivedAt: null };
    if (row.response !== null) {
      const answer = unseal(secret, row.response as string) as { ret?: number; msg?: string } | null;
      return answer?.ret === RET_OK
        ? { state: 'applied', msg: null, receivedAt }
        : { state: 'refused', msg: answer?.msg ?? null, receivedAt };
    }
    if (now.getTime() - receivedAt.getTime() < PENDING_YOUNG_MS) return { state: 'in_progress', msg: null, receivedAt };
    await tx
      .update(idempotencyKeys)
      .set({ fingerprint: GIVEN_UP, response: seal(secret, null) })
      .where(and(eq(idempotencyKeys.key, key), isNull(idempotencyKeys.response)));
    return { state: 'not_received', msg: null, receivedAt: null };
  });
}

/**
 * What `writeOutcomeOf` says of the write sent under `scopedKey`, asked by the session `sessionId` after that write
 * ended it (its `ended_session_id`): applied, or refused with its msg. Null for any other key (never received, pending,
 * another session's): the caller refuses the ended token as it would have. Reads only: nothing is given up, since an
 * ended session may ask about nothing but the write that ended it.
 */
export async function writeOutcomeForEndedSession(
  db: Db,
  { id, secret }: ScopedKey,
  sessionId: number,
): Promise<KeyOutcome | null> {
  const [row] = await db
    .select({ response: idempotencyKeys.response, createdAt: idempotencyKeys.createdAt })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.key, id),
        eq(idempotencyKeys.endedSessionId, sessionId),
        isNotNull(idempotencyKeys.response),
      ),
    );
  if (!row) return null;
  const answer = unseal(secret, row.response as string) as { ret?: number; msg?: string } | null;
  return answer?.ret === RET_OK
    ? { state: 'applied', msg: null, receivedAt: row.createdAt }
    : { state: 'refused', msg: answer?.msg ?? null, receivedAt: row.createdAt };
}
