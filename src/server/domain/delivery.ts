// The queue of outgoing messages (the `outbox` table): a message is enqueued in the transaction
// that decides it; the delivery job (jobs/delivery.ts) claims due rows, sends them outside any
// transaction and records the outcome here. A claim is a lease (`claimed_until`): a process that
// dies holding one leaves the row to be taken up again once the lease has run out. Delivery runs on
// real time (retries wait real seconds), whatever the business clock says.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { outbox } from '../db/schema.ts';
import type { Channel, OutboxRow, Outcome } from '../delivery/transport.ts';

export interface OutgoingMessage {
  channel: Channel;
  target: string;
  /** 'code', or a notice kind. */
  kind: string;
  userId?: number | null;
  language: string;
  subject?: string;
  body: string;
  html?: string | null;
  payload?: unknown;
}

/** Seconds to wait after the 1st, 2nd, … failed try; one more try than delays, then `failed`. */
export const DEFAULT_RETRY_SECONDS = [10, 30, 120, 600] as const;
/** How long a claim holds a row: longer than any transport may take (their time-outs are ~20 s). */
export const CLAIM_LEASE_MS = 60_000;
export const CLAIM_BATCH = 50;

/** Queues one message; answers its row id. `now` is when it is first due. */
export async function enqueue(db: Executor, message: OutgoingMessage, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({
      channel: message.channel,
      target: message.target,
      kind: message.kind,
      userId: message.userId ?? null,
      language: message.language,
      subject: message.subject ?? '',
      body: message.body,
      html: message.html ?? null,
      payload: message.payload ?? null,
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: outbox.id });
  return row!.id;
}

/**
 * Claims up to `limit` due rows for `leaseMs` and counts the try, in one statement (its own
 * transaction): rows another process holds are skipped, not waited for.
 */
export async function claimDue(
  db: Executor,
  now: Date,
  { limit = CLAIM_BATCH, leaseMs = CLAIM_LEASE_MS } = {},
): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, 'queued'),
        lte(outbox.nextAttemptAt, now),
        or(isNull(outbox.claimedUntil), lte(outbox.claimedUntil, now)),
      ),
    )
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
}

/**
 * Records how a claimed row's try went: sent; queued again after its backoff; or failed after the
 * last try or a failure trying again cannot mend. Written only while the claim is still ours (a
 * lease that ran out belongs to whoever took the row up). Answers the row's new status, or null.
 */
export async function recordOutcome(
  db: Executor,
  row: Pick<OutboxRow, 'id' | 'attempts' | 'claimedUntil'>,
  outcome: Outcome,
  now: Date,
  retrySeconds: readonly number[] = DEFAULT_RETRY_SECONDS,
): Promise<'sent' | 'queued' | 'failed' | null> {
  const ours = and(
    eq(outbox.id, row.id),
    row.claimedUntil ? eq(outbox.claimedUntil, row.claimedUntil) : isNull(outbox.claimedUntil),
  );
  const delay = retrySeconds[row.attempts - 1];
  const changes = outcome.sent
    ? { status: 'sent' as const, sentAt: now, claimedUntil: null }
    : outcome.retry && delay !== undefined
      ? {
          status: 'queued' as const,
          nextAttemptAt: new Date(now.getTime() + delay * 1000),
          claimedUntil: null,
          lastError: outcome.error.slice(0, 500),
        }
      : { status: 'failed' as const, claimedUntil: null, lastError: outcome.error.slice(0, 500) };
  const written = await db.update(outbox).set(changes).where(ours).returning({ id: outbox.id });
  return written.length ? changes.status : null;
}

/** How long a message is kept once sent or failed: a code (in clear in its body) a day, a notice 90 days. */
export const KEEP_CODES_MS = 24 * 3600_000;
export const KEEP_NOTICES_MS = 90 * 24 * 3600_000;

/** Deletes the messages kept long enough (never a queued one); answers how many. Idempotent: every process may run it.
 * */
export async function pruneOutbox(db: Executor, now: Date): Promise<number> {
  const done = inArray(outbox.status, ['sent', 'failed']);
  const codes = and(done, eq(outbox.kind, 'code'), lte(outbox.createdAt, new Date(now.getTime() - KEEP_CODES_MS)));
  const notices = and(
    done,
    sql`${outbox.kind} <> 'code'`,
    lte(outbox.createdAt, new Date(now.getTime() - KEEP_NOTICES_MS)),
  );
  const deleted = await db.delete(outbox).where(or(codes, notices)).returning({ id: outbox.id });
  return deleted.length;
}

export type DeliveryState = 'sending' | 'sent' | 'failed';

/** Where a message stands, as the customer may learn it (no address, no error text). */
export async function deliveryState(
  db: Executor,
  id: number,
): Promise<{ state: DeliveryState; attempts: number } | null> {
  const [row] = await db
    .select({ status: outbox.status, attempts: outbox.attempts })
    .from(outbox)
    .where(eq(outbox.id, id));
  if (!row) return null;
  return { state: row.status === 'queued' ? 'sending' : (row.status as DeliveryState), attempts: row.attempts };
}

/** What the operator sees: counts by status and the last `count` messages, newest first. */
export async function outboxSummary(db: Executor, count: number) {
  const counts = await db
    .select({ status: outbox.status, count: sql<number>`count(*)::int` })
    .from(outbox)
    .groupBy(outbox.status);
  const byStatus = { queued: 0, sent: 0, failed: 0 };
  for (const { status, count: n } of counts) byStatus[status as keyof typeof byStatus] = Number(n);
  const last = await db.select().from(outbox).orderBy(desc(outbox.id)).limit(count);
  return { byStatus, last };
}

/**
 * The customer's handle on a queued message: its id and a MAC of it, so the status call answers
 * only for messages this server queued for the caller, and ids cannot be walked.
 */
export function deliveryReference(id: number, key: Buffer): string {
  return `${id}.${mac(id, key)}`;
}

/** The row id behind a reference, or null when it is not one of ours. */
export function deliveryIdOf(reference: string, key: Buffer): number | null {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(reference);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(mac(id, key));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

const mac = (id: number, key: Buffer) =>
  createHmac('sha256', key).update(`delivery-reference:${id}`).digest('base64url').slice(0, 22);
