// The risk figure (api-contract/risk.ts): once per UTC day, of the customers whose options settled in
// the 30 days before that day's start, how many lost money on them overall, read from the ledger and
// stored in `risk_figures`. The window ends at the day's start, so a day's figure never changes
// once stored: it is computed once, by whichever process comes first (an advisory lock and the
// day's row), on the job's pace or on the first read of a day no job has reached yet.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { RISK_WINDOW_DAYS, riskPercent, type RiskFigure } from '../../api-contract/risk.ts';
import { USDT } from './ledger.ts';

/** Computations of any process wait for each other on this advisory lock (a constant every process agrees on). */
const RISK_LOCK = 0x7269736b;
/**
 * A day's figure is computed this long after the day began: a settlement started just before
 * midnight, and stamped before it, has committed by then. Until then the day before is "today".
 */
export const RISK_GRACE_MS = 10_000;

const DAY_MS = 86_400_000;

/** The UTC day whose figure is the current one at `now`. */
export const riskDayAt = (now: Date): string => new Date(now.getTime() - RISK_GRACE_MS).toISOString().slice(0, 10);

interface StoredFigure {
  day: string;
  traders: number;
  losers: number;
}

async function storedFigure(db: Executor, day: string): Promise<StoredFigure | null> {
  const [row] = rowsOf<{ traders: number | string; losers: number | string }>(
    await db.execute(sql`select traders, losers from risk_figures where day = ${day}`),
  );
  return row ? { day, traders: Number(row.traders), losers: Number(row.losers) } : null;
}

/**
 * Computes and stores `day`'s figure unless it is stored already; true when this call stored it.
 * A customer counts as a trader with at least one option that settled in the window as a win, a
 * loss or a tie (a void order never opened or found no price: it was refunded and traded nothing),
 * and as a loser when the sum of the ledger's option entries of those orders (the stakes, negative,
 * and the payouts) is below zero.
 */
export async function computeRiskFigure(db: Db, day: string, now: Date): Promise<boolean> {
  const to = new Date(`${day}T00:00:00.000Z`);
  const from = new Date(to.getTime() - RISK_WINDOW_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RISK_LOCK})`);
    if (await storedFigure(tx, day)) return false;
    // Only real money counts: the USDT entries of the option rules, of real orders (a practice order's entries are
    // the practice account's own asset, and its trader is no trader of real money).
    const stored = rowsOf(
      await tx.execute(sql`
        with settled as (
          select o.id, o.user_id from option_orders o
          where o.status = 'settled' and o.outcome in ('win', 'loss', 'tie') and not o.practice
            and o.settled_at >= ${from.toISOString()}::timestamptz and o.settled_at < ${to.toISOString()}::timestamptz
        ), results as (
          select s.user_id, sum(l.amount) as net
          from settled s
          join ledger_entries l on l.kind in ('option_stake', 'option_payout') and l.reference = 'option:' || s.id
            and l.user_id = s.user_id and l.asset = ${USDT} and l.bucket = 'available'
          group by s.user_id
        )
        insert into risk_figures (day, traders, losers, computed_at)
        select ${day}, count(*)::int, (count(*) filter (where net < 0))::int, ${now.toISOString()}::timestamptz
        from results
        on conflict (day) do nothing
        returning day`),
    );
    return stored.length > 0;
  });
}

/** The job's run: stores the current day's figure if no process has yet; true when this call stored it. */
export async function ensureRiskFigure(db: Db, now: Date): Promise<boolean> {
  const day = riskDayAt(now);
  if (await storedFigure(db, day)) return false;
  return computeRiskFigure(db, day, now);
}

/** A day's stored figure, per database: it never changes, so each process reads it once. */
const latest = new WeakMap<Db, StoredFigure>();

/** The current figure as the API contract answers it; computed first when no job has stored it yet (a fresh start). */
export async function currentRiskFigure(db: Db, now: Date): Promise<RiskFigure> {
  const day = riskDayAt(now);
  let figure = latest.get(db);
  if (figure?.day !== day) {
    figure = (await storedFigure(db, day)) ?? undefined;
    if (!figure) {
      await computeRiskFigure(db, day, now);
      figure = (await storedFigure(db, day))!;
    }
    latest.set(db, figure);
  }
  return { day, traders: figure.traders, losers: figure.losers, percent: riskPercent(figure.losers, figure.traders) };
}
