// Retention of price ticks: one row per coin and second adds up (10 coins ≈ 860,000 rows a day), so
// the job thins `price_ticks` to what is still needed — the last 48 hours (the stream's catch-up,
// the 24 h figures), every tick an open option may still settle from, every tick the contract matching
// has not applied yet, every tick a waiting price alert has yet to weigh (with the 24 hours before it, which a move
// is measured against), and each coin's latest price.
// The one-minute candles (the charts) are never touched. Deletes go in batches of 10,000 rows, each
// its own short statement, so no lock is held for long. Idempotent: any process could run it; the
// server runs it on the feed's lease holder only, hourly and once shortly after start.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/connection.ts';
import { PRICE_ALERT_MOVE_HOURS } from '../../api-contract/price-alerts.ts';

export const TICK_RETENTION_MS = 48 * 3600_000;
export const RETENTION_BATCH = 10_000;

export interface Thinned {
  deleted: number;
  /** Delete statements run (each at most `batch` rows). */
  batches: number;
}

/** Deletes the price ticks nothing needs any more, as of `now` (the market clock). */
export async function thinPriceTicks(
  db: Db,
  now: Date,
  options: { keepMs?: number; batch?: number } = {},
): Promise<Thinned> {
  const { keepMs = TICK_RETENTION_MS, batch = RETENTION_BATCH } = options;
  const recentFrom = new Date(now.getTime() - keepMs).toISOString();
  const listed = rowsOf<{ code: string }>(await db.execute(sql`select code from coins order by code`));
  const result: Thinned = { deleted: 0, batches: 0 };
  for (const { code } of listed) {
    // Keep from the earliest of: 48 h ago; the coin's latest tick; the acceptance of the earliest
    // option still opening; and the tick the earliest open option of the coin settles from — the last one at or before
    // its end (settlement's rule: later
    // orders settle from that one or a later one). No tick at or before it yet: keep from its end.
    const [row] = rowsOf<{ keep_from: Date | string | null }>(
      await db.execute(sql`
        select least(
          ${recentFrom}::timestamptz,
          (select max(at) from price_ticks where coin = ${code}),
          (select coalesce((select max(t.at) from price_ticks t where t.coin = ${code} and t.at <= o.min_end), o.min_end)
             from (select min(end_at) as min_end from option_orders where status = 'holding' and coin = ${code}) o),
          -- Orders still waiting for their start tick (the first after they were accepted): it is yet to come, or just came.
          (select min(start_at) from option_orders where status = 'opening' and coin = ${code}),
          -- Ticks the contract matching has not applied yet (it may have been down): they can still fill orders.
          (select matched_through from contract_pairs where coin = ${code}),
          -- Ticks the price alerts have not weighed yet (they may have been down), from the coin's mark or a new alert's
          -- own place, and the day before them a move is measured against: they can still fire a waiting alert.
          (select least(
              (select m.checked_through from price_alert_marks m where m.coin = ${code}),
              (select min(greatest(a.created_at, a.checked_through)) from price_alerts a
                where a.coin = ${code} and a.fired_at is null and a.checked_through is not null)
            ) - ${`${PRICE_ALERT_MOVE_HOURS} hours`}::interval
            where exists (select 1 from price_alerts a where a.coin = ${code} and a.fired_at is null))
        ) as keep_from`),
    );
    if (!row?.keep_from) continue;
    const keepFrom = new Date(row.keep_from).toISOString();
    for (;;) {
      const deleted = affectedRows(
        await db.execute(sql`
          delete from price_ticks where coin = ${code} and at in (
            select at from price_ticks where coin = ${code} and at < ${keepFrom}::timestamptz order by at limit ${batch})`),
      );
      result.batches++;
      result.deleted += deleted;
      if (deleted < batch) break;
    }
  }
  return result;
}

/** Rows a raw statement changed, from either driver (pg: rowCount, PGlite: affectedRows). */
export function affectedRows(result: unknown): number {
  const { rowCount, affectedRows } = result as { rowCount?: number | null; affectedRows?: number };
  return Number(rowCount ?? affectedRows ?? 0);
}
