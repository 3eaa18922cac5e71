// Sends the queued messages (domain/delivery.ts): claims due rows, hands each to its channel's
// transport outside any transaction, records the outcome. Every server process runs it; the claims
// keep them apart. A channel without a configured transport goes to the fallback (the development
// transport: the server log), so nothing waits for ever for a transport that will never come.
import type { Db } from '../db/connection.ts';
import { CLAIM_BATCH, CLAIM_LEASE_MS, DEFAULT_RETRY_SECONDS, claimDue, recordOutcome } from '../domain/delivery.ts';
import type { Outcome, Transport } from '../delivery/transport.ts';
import { countDelivery } from '../observability/metrics.ts';

export interface DeliverySettings {
  /** By channel: 'email', 'sms', 'push', … (open: a new channel adds its transport here). */
  transports: Partial<Record<string, Transport>>;
  /** For every channel without its own transport. */
  fallback: Transport;
  retrySeconds?: readonly number[];
  leaseMs?: number;
  batch?: number;
}

/** Sends everything due as of `now()`; answers how many tries were made. */
export async function deliverDue(
  db: Db,
  settings: DeliverySettings,
  now: () => Date = () => new Date(),
): Promise<number> {
  const {
    transports,
    fallback,
    retrySeconds = DEFAULT_RETRY_SECONDS,
    leaseMs = CLAIM_LEASE_MS,
    batch = CLAIM_BATCH,
  } = settings;
  let tried = 0;
  for (;;) {
    const rows = await claimDue(db, now(), { limit: batch, leaseMs });
    await Promise.all(
      rows.map(async (row) => {
        const transport = transports[row.channel] ?? fallback;
        let outcome: Outcome;
        try {
          outcome = await transport.send(row);
        } catch (error) {
          outcome = { sent: false, retry: true, error: error instanceof Error ? error.message : String(error) };
        }
        countDelivery(row.channel, await recordOutcome(db, row, outcome, now(), retrySeconds));
      }),
    );
    tried += rows.length;
    // A short batch: nothing more is due, or the rest is claimed by another process right now.
    if (rows.length < batch) return tried;
  }
}
