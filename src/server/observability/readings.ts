// What the scrape-time gauges show, read from the database when Prometheus asks: the coins halted
// (market_halts), the settlement's lag (option_orders_due_idx), the outbox's queue (its partial
// index of queued rows), the latest reconciliation (reconciliation_runs_started_idx) and the
// index's exchanges (feed-exchanges.ts). Each is one indexed read of a few rows.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/connection.ts';
import type { Clock } from '../domain/clock.ts';
import type { ExchangeReading } from './feed-exchanges.ts';
import type { Readings } from './metrics.ts';

export function databaseReadings(
  db: Db,
  clock: Clock,
  exchanges: (() => Promise<ExchangeReading[]>) | null = null,
): () => Promise<Readings> {
  return async () => {
    const now = clock.now();
    const at = now.toISOString();
    const [coins, settlement, outbox, reconciliation, feed] = await Promise.all([
      db.execute(sql`
        select c.code as coin, (h.coin is not null) as halted
        from coins c left join market_halts h on h.coin = c.code
        where c.active order by c.sort, c.code`),
      db.execute(sql`
        select count(*)::int as due, min(end_at) as oldest
        from option_orders where status = 'holding' and end_at <= ${at}::timestamptz`),
      db.execute(sql`
        select channel, count(*)::int as queued, min(next_attempt_at) as overdue_since
        from outbox where status = 'queued' group by channel order by channel`),
      db.execute(sql`
        select started_at, ok,
          case jsonb_typeof(mismatches)
            when 'array' then jsonb_array_length(mismatches)
            when 'object' then (select count(*)::int from jsonb_object_keys(mismatches))
            else 0 end as mismatches
        from reconciliation_runs order by started_at desc, id desc limit 1`),
      exchanges ? exchanges() : Promise.resolve([]),
    ]);
    const ageSeconds = (since: unknown, base: number) =>
      since ? Math.max(0, (base - new Date(since as string).getTime()) / 1000) : 0;
    const due = rowsOf<{ due: number; oldest: string | Date | null }>(settlement)[0];
    const latest = rowsOf<{ started_at: string | Date; ok: boolean; mismatches: number }>(reconciliation)[0];
    return {
      coins: rowsOf<{ coin: string; halted: boolean }>(coins),
      settlement: { due: Number(due?.due ?? 0), oldestSeconds: ageSeconds(due?.oldest, now.getTime()) },
      // The outbox runs on real time (its retries wait real seconds), not on the market clock.
      outbox: rowsOf<{ channel: string; queued: number; overdue_since: string | Date | null }>(outbox).map((row) => ({
        channel: row.channel,
        queued: Number(row.queued),
        overdueSeconds: ageSeconds(row.overdue_since, Date.now()),
      })),
      reconciliation: latest
        ? { ok: latest.ok, mismatches: Number(latest.mismatches), at: new Date(latest.started_at) }
        : null,
      exchanges: feed,
    };
  };
}
