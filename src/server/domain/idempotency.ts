// A write with an Idempotency-Key is applied once: the first request claims the key, a retry
// gets the stored answer. Claims live in the database, so every server process agrees.
// The database holds only a hash of the key and the answer sealed with a key derived from it:
// an answer that carries a session token is readable only by the client that sent the request.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { idempotencyKeys } from '../db/schema.ts';

/** A claim left pending this long (its process died mid-request) may be taken again. */
const STALE_CLAIM_MS = 5 * 60_000;
const WAIT_FOR_FIRST_MS = 5_000;

/** The stored row of one client key within a scope (user and path). */
export interface ScopedKey {
  id: string;
  secret: Buffer;
}

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
  | { kind: 'claimed' }
  | { kind: 'replay'; response: unknown }
  | { kind: 'mismatch' }
  | { kind: 'busy' };

export async function claimIdempotencyKey(db: Db, { id: key, secret }: ScopedKey, fingerprint: string, now: Date): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ key, fingerprint, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { kind: 'claimed' };

    const [existing] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!existing) continue; // released between the two statements: try to claim again
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.response !== null) return { kind: 'replay', response: unseal(secret, existing.response as string) };

    const stale = await db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(and(eq(idempotencyKeys.key, key), isNull(idempotencyKeys.response), lt(idempotencyKeys.createdAt, new Date(now.getTime() - STALE_CLAIM_MS))))
      .returning({ key: idempotencyKeys.key });
    if (stale.length) return { kind: 'claimed' };
    if (Date.now() > deadline) return { kind: 'busy' };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function completeIdempotencyKey(db: Db, { id, secret }: ScopedKey, response: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ response: seal(secret, response) }).where(eq(idempotencyKeys.key, id));
}

export async function releaseIdempotencyKey(db: Db, { id }: ScopedKey): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.key, id), isNull(idempotencyKeys.response)));
}
