// The books' check: every few minutes one server process reads the whole ledger against what the
// tables hold and records the result in `reconciliation_runs`. It only reports: a mismatch is never
// corrected here, it is named in the run's row and, the first time it is seen, in the audit log
// (operator 'system'), so people look at it. What must hold:
// - `available`/`frozen`: each balance (user, asset) equals the sum of its ledger entries, bucket by bucket;
// - `negative`: no balance is below zero (the database refuses it too);
// - `reserve`: a frozen balance equals what is reserved against it: withdrawals in review (amount + fee),
//   contract orders open, filling or waiting (their `frozen` of `frozen_asset`), standard liquidity redemptions not
//   paid yet (YUEBAO, submitted or waiting) — the only postings to the frozen bucket (domain/withdraw.ts,
//   contracts.ts, liquidity.ts); a practice order's reserve is of the practice account's asset (practice:BTC…);
// - `lockup`: the REGULAR balance equals the principal of the lock-up orders still processing (domain/lockup.ts);
// - `option_payout`: a settled option order has exactly one `option_payout` entry, referenced `option:<id>`,
//   of its payout when that is above zero (a win, a tie, a void refund); a loss pays 0 and has none, the
//   ledger posting no zero amount (ledger.ts postRows); a payout entry of an order not settled is one too;
// - `exposure`: the house's running exposure per coin and direction (house_exposure, kept by triggers) equals what a
//   win of its open options of real money would pay, summed from the orders (house-limits.ts openPayoutSql); the
//   customer is 0 (the house's own figure), the target `exposure:<coin>:<direction>`.
// All of it is one SQL statement, so it reads one snapshot of the database: a transfer committed midway
// cannot look like a hole. Amounts stay numeric in SQL and travel as decimal strings.
import { sql } from 'drizzle-orm';
import { isTrue, rowsOf, type Db, type Tx } from '../db/connection.ts';
import { LIQUIDITY_ASSET, REGULAR_ASSET } from '../../api-contract/earn.ts';
import { SYSTEM_OPERATOR, type ReconciliationMismatch } from '../../api-contract/console.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { USDT, ledgerAssetSql } from './ledger.ts';
import { openOptionSql, openPayoutSql } from './house-limits.ts';
import { PROCESS_ID } from './server-processes.ts';

export type Mismatch = ReconciliationMismatch;

/** The audit log's actor of what the server finds by itself. */
export const SYSTEM: Actor = { operatorId: null, name: SYSTEM_OPERATOR, address: 'local' };
export const MISMATCH_ACTION = 'reconciliation.mismatch';
/** A run names at most this many mismatches (a ledger broken everywhere must not make a row of megabytes). */
export const MISMATCHES_LISTED = 1000;
/** Runs of any process wait for each other on this advisory lock (any constant every process agrees on). */
const RECONCILE_LOCK = 0x7265636f;

export interface ReconciliationRun {
  id: number;
  startedAt: Date;
  finishedAt: Date;
  process: string;
  ok: boolean;
  checkedBalances: number;
  mismatches: Mismatch[];
  /** Mismatches the previous run had not named: the ones this run wrote to the audit log. */
  audited: number;
}

const amount = (value: ReturnType<typeof sql>) => sql`(${value})::numeric(36, 8)::text`;

/** The checks above over the whole database, in one statement: what disagrees and how many balances were read. */
async function check(tx: Tx): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const [row] = rowsOf<{ checked: number | string; mismatches: Mismatch[] | string | null }>(
    await tx.execute(sql`
      with ledger as (
        select user_id, asset,
          coalesce(sum(amount) filter (where bucket = 'available'), 0) as available,
          coalesce(sum(amount) filter (where bucket = 'frozen'), 0) as frozen
        from ledger_entries group by user_id, asset
      ), books as (
        select coalesce(b.user_id, l.user_id) as user_id, coalesce(b.asset, l.asset) as asset,
          coalesce(b.available, 0) as available, coalesce(b.frozen, 0) as frozen,
          coalesce(l.available, 0) as ledger_available, coalesce(l.frozen, 0) as ledger_frozen
        from balances b full join ledger l on l.user_id = b.user_id and l.asset = b.asset
      ), reserves as (
        select user_id, asset, sum(amount) as reserved from (
          select user_id, asset, total as amount from withdraw_orders where status = 'review'
          union all
          select user_id, ${ledgerAssetSql(sql`frozen_asset`, sql`practice`)}, frozen from contract_orders
          where status in ('open', 'filling', 'waiting')
          union all
          select user_id, ${LIQUIDITY_ASSET}::text, amount from liquidity_records
          where kind = 'redeem' and mode = 'standard' and status in ('submitted', 'waiting')
        ) r group by user_id, asset
      ), held as (
        select b.user_id, b.asset, b.frozen, coalesce(r.reserved, 0) as reserved
        from balances b left join reserves r on r.user_id = b.user_id and r.asset = b.asset
        union all
        select r.user_id, r.asset, 0, r.reserved from reserves r
        where not exists (select 1 from balances b where b.user_id = r.user_id and b.asset = r.asset)
      ), locked as (
        select coalesce(b.user_id, o.user_id) as user_id, coalesce(b.available, 0) as available,
          coalesce(o.principal, 0) as principal
        from (select user_id, available from balances where asset = ${REGULAR_ASSET}) b
        full join (
          select user_id, sum(amount) as principal from lockup_orders where status = 'processing' group by user_id
        ) o on o.user_id = b.user_id
      ), payouts as (
        select reference, min(user_id) as user_id, count(*)::int as entries, sum(amount) as total
        from ledger_entries where kind = 'option_payout' group by reference
      ), found as (
        select 'available' as kind, 'balance:' || user_id || ':' || asset as target, user_id, asset,
          ${amount(sql`ledger_available`)} as expected, ${amount(sql`available`)} as found
        from books where available <> ledger_available
        union all
        select 'frozen', 'balance:' || user_id || ':' || asset, user_id, asset,
          ${amount(sql`ledger_frozen`)}, ${amount(sql`frozen`)}
        from books where frozen <> ledger_frozen
        union all
        select 'negative', 'balance:' || user_id || ':' || asset, user_id, asset,
          '0.00000000', ${amount(sql`least(available, frozen)`)}
        from balances where available < 0 or frozen < 0
        union all
        select 'reserve', 'balance:' || user_id || ':' || asset, user_id, asset,
          ${amount(sql`reserved`)}, ${amount(sql`frozen`)}
        from held where frozen <> reserved
        union all
        select 'lockup', 'balance:' || user_id || ':' || ${REGULAR_ASSET}::text, user_id, ${REGULAR_ASSET}::text,
          ${amount(sql`principal`)}, ${amount(sql`available`)}
        from locked where available <> principal
        union all
        select 'option_payout', coalesce('option:' || o.id, p.reference), coalesce(o.user_id, p.user_id),
          ${ledgerAssetSql(sql`${USDT}::text`, sql`coalesce(o.practice, false)`)},
          case when o.id is not null and o.payout > 0 then ${amount(sql`o.payout`)} else 'none' end,
          case when p.entries is null then 'none' when p.entries = 1 then ${amount(sql`p.total`)}
            else p.entries || ' entries, ' || ${amount(sql`p.total`)} end
        from (select id, user_id, payout, practice from option_orders where status = 'settled') o
        full join payouts p on p.reference = 'option:' || o.id
        where case when o.id is null then true
          when coalesce(o.payout, 0) = 0 then p.entries is not null
          else p.entries is distinct from 1 or p.total <> o.payout end
        union all
        select 'exposure', 'exposure:' || coalesce(e.coin, s.coin) || ':' || coalesce(e.direction, s.direction), 0,
          ${USDT}::text, ${amount(sql`coalesce(s.payout, 0)`)}, ${amount(sql`coalesce(e.open_payout, 0)`)}
        from house_exposure e
        full join (
          select o.coin, o.direction, sum(${openPayoutSql}) as payout from option_orders o where ${openOptionSql}
          group by o.coin, o.direction
        ) s on s.coin = e.coin and s.direction = e.direction
        where coalesce(e.open_payout, 0) <> coalesce(s.payout, 0)
      )
      select (select count(*) from balances)::int as checked,
        coalesce((
          select json_agg(json_build_object('kind', kind, 'target', target, 'user_id', user_id, 'asset', asset,
            'expected', expected, 'found', found))
          from (select * from found order by kind, user_id, target limit ${MISMATCHES_LISTED}) listed
        ), '[]'::json) as mismatches`),
  );
  const listed = typeof row?.mismatches === 'string' ? JSON.parse(row.mismatches) : (row?.mismatches ?? []);
  return {
    checked: Number(row?.checked ?? 0),
    mismatches: (listed as Mismatch[]).map((item) => ({ ...item, user_id: Number(item.user_id) })),
  };
}

/** What makes two runs' mismatches the same one: what disagrees, not by how much (it may keep moving). */
const keyOf = (mismatch: Pick<Mismatch, 'kind' | 'target'>) => `${mismatch.kind} ${mismatch.target}`;

/** One run in `tx`, whose advisory lock the caller holds: the checks, the run's row, the audit entries of new ones. */
async function runIn(tx: Tx, process: string): Promise<ReconciliationRun> {
  const [started] = rowsOf<{ at: Date | string }>(await tx.execute(sql`select clock_timestamp() as at`));
  const { checked, mismatches } = await check(tx);
  const [previous] = rowsOf<{ mismatches: Mismatch[] | string }>(
    await tx.execute(sql`select mismatches from reconciliation_runs order by id desc limit 1`),
  );
  const before = previous
    ? ((typeof previous.mismatches === 'string' ? JSON.parse(previous.mismatches) : previous.mismatches) as Mismatch[])
    : [];
  const known = new Set(before.map(keyOf));
  const fresh = mismatches.filter((mismatch) => !known.has(keyOf(mismatch)));
  const [run] = rowsOf<{ id: number; started_at: Date | string; finished_at: Date | string }>(
    await tx.execute(sql`
      insert into reconciliation_runs (started_at, finished_at, process, ok, checked_balances, mismatches)
      values (${new Date(started!.at).toISOString()}::timestamptz, clock_timestamp(), ${process}, ${mismatches.length === 0},
        ${checked}, ${JSON.stringify(mismatches)}::jsonb)
      returning id, started_at, finished_at`),
  );
  const finishedAt = new Date(run!.finished_at);
  for (const mismatch of fresh)
    await appendAudit(
      tx,
      SYSTEM,
      MISMATCH_ACTION,
      mismatch.target,
      {
        before: { check: mismatch.kind, user_id: mismatch.user_id, asset: mismatch.asset, amount: mismatch.expected },
        after: { check: mismatch.kind, user_id: mismatch.user_id, asset: mismatch.asset, amount: mismatch.found },
      },
      finishedAt,
    );
  return {
    id: Number(run!.id),
    startedAt: new Date(run!.started_at),
    finishedAt,
    process,
    ok: mismatches.length === 0,
    checkedBalances: checked,
    mismatches,
    audited: fresh.length,
  };
}

/** Runs the check now (the operator command), after any run in progress in any process has finished. */
export function reconcileNow(db: Db, process = PROCESS_ID): Promise<ReconciliationRun> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RECONCILE_LOCK})`);
    return runIn(tx, process);
  });
}

/**
 * The job's run: only when no run of any process started within the last `everyMs` (the database's
 * clock, the same for every process) and none is running now (the lock is taken without waiting;
 * the run's row commits before the lock is let go, so the next process to get it sees the row).
 * Null when it was not this process's turn.
 */
export function reconcileIfDue(db: Db, everyMs: number, process = PROCESS_ID): Promise<ReconciliationRun | null> {
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean | string }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${RECONCILE_LOCK}) as locked`),
    );
    if (!isTrue(lock?.locked)) return null;
    const [due] = rowsOf<{ due: boolean | string }>(
      await tx.execute(sql`
        select not exists (
          select 1 from reconciliation_runs where started_at > clock_timestamp() - ${`${everyMs} milliseconds`}::interval
        ) as due`),
    );
    if (!isTrue(due?.due)) return null;
    return runIn(tx, process);
  });
}

/** The latest run, or null before the first. */
export async function latestReconciliation(db: Db | Tx): Promise<Omit<ReconciliationRun, 'audited'> | null> {
  const [row] = rowsOf<{
    id: number;
    started_at: Date | string;
    finished_at: Date | string;
    process: string;
    ok: boolean | string;
    checked_balances: number | string;
    mismatches: Mismatch[] | string;
  }>(
    await db.execute(sql`
      select id, started_at, finished_at, process, ok, checked_balances, mismatches
      from reconciliation_runs order by id desc limit 1`),
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    startedAt: new Date(row.started_at),
    finishedAt: new Date(row.finished_at),
    process: row.process,
    ok: isTrue(row.ok),
    checkedBalances: Number(row.checked_balances),
    mismatches: typeof row.mismatches === 'string' ? JSON.parse(row.mismatches) : row.mismatches,
  };
}
