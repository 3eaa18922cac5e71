// Retention of Idempotency-Keys: every keyed write stores its key with its sealed answer (domain/idempotency.ts), about
// 1.1 KB a row on PostgreSQL, so at the capacity bench's mix (10,000 customers, an order a minute each) the table would
// grow by some 14 million rows a day without end. Keys older than IDEMPOTENCY_KEY_RETENTION_MS are deleted, in batches
// of 10,000 rows oldest first, each its own short statement. The write-outcome lookup answers such a key `expired`,
// never `not_received` (api-contract/write-outcome.ts), and the app stops sending a write again under a key that old.
// Safe with any number of processes: each batch takes its rows with FOR UPDATE SKIP LOCKED, so two runs share the work,
// and a key a request or a lookup holds is left for the next run.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { IDEMPOTENCY_KEY_RETENTION_MS } from '../../api-contract/constants.ts';
import { RETENTION_BATCH, affectedRows, type Thinned } from './retention.ts';

/**
 * Deletes the Idempotency-Keys received (`created_at`, the server's clock) before `now` less `keepMs` (ms; default
 * IDEMPOTENCY_KEY_RETENTION_MS). The job passes the earlier of the server's clock and real time as `now`, so a key goes
 * only once both have passed its horizon (the device that asks about it counts in real time). Answers the rows deleted
 * and the delete statements run.
 */
export async function deleteOldIdempotencyKeys(
  db: Db,
  now: Date,
  { keepMs = IDEMPOTENCY_KEY_RETENTION_MS, batch = RETENTION_BATCH }: { keepMs?: number; batch?: number } = {},
): Promise<Thinned> {
  const horizon = new Date(now.getTime() - keepMs).toISOString();
  const result: Thinned = { deleted: 0, batches: 0 };
  for (;;) {
    const deleted = affectedRows(
      await db.execute(sql`
        delete from idempotency_keys where key in (
          select key from idempotency_keys where created_at < ${horizon}::timestamptz
          order by created_at limit ${batch} for update skip locked)`),
    );
    result.batches++;
    result.deleted += deleted;
    if (deleted < batch) break;
  }
  return result;
}
