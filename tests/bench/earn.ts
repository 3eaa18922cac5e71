// Day-end earn throughput: one interest day for 100,000 liquidity holders and one lock-up day for
// 100,000 orders on the embedded database (and on PostgreSQL when BENCH_DATABASE_URL names an empty
// database), run by the production scheduler (runDueDays), one job and one transaction at a time.
import { sql } from 'drizzle-orm';
import { migratedSnapshot, openDatabase, rowsOf, type Database } from '../../src/server/db/connection.ts';
import { FIRST_LADDER, seedEarn } from '../../src/server/db/seed-earn.ts';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import { dayEnd, dayStart } from '../../src/server/domain/earn-days.ts';
import { DEFAULT_EARN_TIMEZONE } from '../../src/api-contract/earn-days.ts';
import { DAILY_JOBS, runDueDays } from '../../src/server/jobs/daily.ts';
import { addDays } from '../../src/api-contract/earn.ts';

const HOLDERS = Number(process.env.BENCH_HOLDERS ?? 100_000);
const ORDERS = Number(process.env.BENCH_LOCKUPS ?? 100_000);
const ZONE = DEFAULT_EARN_TIMEZONE;
/** The day the jobs close; every holder subscribed the day before, so all of them earn on it. */
const DAY = '2026-11-23';
const BEFORE = addDays(DAY, -1);

/** Users, their subscriptions and lock-up orders, the ledger entries a subscription posts, and balances summing them.
 * */
async function prepare(database: Database) {
  const { db } = database;
  const subscribed = new Date(dayStart(BEFORE, ZONE).getTime() + 10 * 3600_000).toISOString();
  const today = new Date(dayStart(DAY, ZONE).getTime() + 10 * 3600_000).toISOString();
  await seedEarn(db, new Date(subscribed), ZONE);
  await db.execute(
    sql`insert into liquidity_rates (day, ladder, published_at) values (${DAY}, ${JSON.stringify(FIRST_LADDER)}::jsonb, ${subscribed}::timestamptz) on conflict do nothing`,
  );
  await db.execute(
    sql`insert into users (username, password_hash, invite_code) select 'earn' || g, 'x', 'EARN' || g from generate_series(1, ${HOLDERS}::int) g`,
  );
  await db.execute(
    sql`insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at) select id, 'USDT', 'available', 1000000, 'bench_grant', 'earn-bench', ${subscribed}::timestamptz from users where username like 'earn%'`,
  );

  // Principals across the ladder's three tiers, all 8 decimals used; a tenth add money on the day, a tenth take some
  // out at once.
  await db.execute(sql`
    insert into liquidity_records (user_id, kind, amount, day, status, created_at)
    select id, 'subscribe', 10 + (id * 7919) % 50000 + ((id::bigint * 104729) % 100000000) / 100000000.0, ${BEFORE}, 'done', ${subscribed}::timestamptz
    from users where username like 'earn%'`);
  await db.execute(sql`
    insert into liquidity_records (user_id, kind, mode, amount, day, status, created_at, paid_at)
    select user_id, case when user_id % 10 = 1 then 'subscribe' else 'redeem' end, case when user_id % 10 = 1 then null else 'quick' end,
      round(amount / 3, 8), ${DAY}, 'done', ${today}::timestamptz, case when user_id % 10 = 1 then null else ${today}::timestamptz end
    from liquidity_records where kind = 'subscribe' and day = ${BEFORE} and user_id % 10 in (1, 2)`);
  await db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
    select user_id, 'USDT', 'available', case when kind = 'subscribe' then -amount else amount end, case when kind = 'subscribe' then 'yuebao_in' else 'yuebao_out' end, 'yuebao:' || id, created_at from liquidity_records
    union all
    select user_id, 'YUEBAO', 'available', case when kind = 'subscribe' then amount else -amount end, case when kind = 'subscribe' then 'yuebao_in' else 'yuebao_out' end, 'yuebao:' || id, created_at from liquidity_records`);

  // One 7-day order per user (cycling when there are more orders than users); a seventh end on the day.
  await db.execute(sql`
    with bench as (select id, row_number() over (order by id) - 1 as n from users where username like 'earn%')
    insert into lockup_orders (user_id, product_id, name, amount, days, daily_rate, daily_income, start_day, end_day, created_at)
    select b.id, p.id, p.name, 100 + g % 50000 + (g % 997) / 100.0, 7, p.daily_rate, trunc((100 + g % 50000 + (g % 997) / 100.0) * p.daily_rate, 8),
      to_char(${DAY}::date - (g % 7), 'YYYY-MM-DD'), to_char(${DAY}::date - (g % 7) + 6, 'YYYY-MM-DD'), ${subscribed}::timestamptz
    from generate_series(0, ${ORDERS - 1}::int) g
    join bench b on b.n = g % ${HOLDERS}::int
    join lateral (select id, name, daily_rate from lockup_products where days = 7 order by id limit 1) p on true`);
  await db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
    select user_id, 'USDT', 'available', -amount, 'lockup_subscribe', 'lockup:' || id, created_at from lockup_orders
    union all
    select user_id, 'REGULAR', 'available', amount, 'lockup_subscribe', 'lockup:' || id, created_at from lockup_orders`);
  await db.execute(sql`
    insert into balances (user_id, asset, available, frozen)
    select user_id, asset, coalesce(sum(amount) filter (where bucket = 'available'), 0), coalesce(sum(amount) filter (where bucket = 'frozen'), 0)
    from ledger_entries group by user_id, asset
    on conflict (user_id, asset) do update set available = excluded.available, frozen = excluded.frozen`);
  // The days before are done: each job has exactly DAY left to run.
  await db.execute(
    sql`insert into daily_runs (job, day, done_at) values ('yuebao-interest', ${BEFORE}, now()), ('lockup-income', ${BEFORE}, now())`,
  );
  // A live database has planner statistics (autovacuum); a bulk load does not until analysed.
  if (database.kind === 'postgres') await db.execute(sql`analyze`);
}

async function timed(database: Database, job: string, now: Date) {
  const started = performance.now();
  const done = await runDueDays(
    database.db,
    now,
    ZONE,
    DAILY_JOBS.filter((each) => each.name === job),
  );
  const seconds = (performance.now() - started) / 1000;
  if (done.length !== 1 || done[0]!.day !== DAY)
    throw new Error(`${job} ran ${done.map((d) => d.day).join(', ') || 'nothing'}, not ${DAY}`);
  return { rows: done[0]!.rows, seconds };
}

async function run(label: string, database: Database) {
  const setup = performance.now();
  await prepare(database);
  const prepared = (performance.now() - setup) / 1000;
  const now = new Date(dayEnd(DAY, ZONE).getTime() + 60_000);
  const interest = await timed(database, 'yuebao-interest', now);
  const lockup = await timed(database, 'lockup-income', now);
  const mismatches = await ledgerMismatches(database.db);
  const [ended] = rowsOf<{ n: number | string }>(
    await database.db.execute(sql`select count(*) as n from lockup_orders where status = 'end'`),
  );
  const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en');
  console.log(`  ${label} (setup ${prepared.toFixed(1)} s):`);
  console.log(
    `    interest: ${interest.rows.toLocaleString('en')} holders credited in ${interest.seconds.toFixed(1)} s = ${rate(interest.rows, interest.seconds)} holders/s`,
  );
  console.log(
    `    lock-up: ${lockup.rows.toLocaleString('en')} orders paid (${Number(ended?.n ?? 0).toLocaleString('en')} ended, principal back) in ${lockup.seconds.toFixed(1)} s = ${rate(lockup.rows, lockup.seconds)} orders/s`,
  );
  console.log(`    ledger mismatches after: ${mismatches.length}`);
  if (interest.rows !== HOLDERS || lockup.rows !== ORDERS)
    console.log(`    WRONG: expected ${HOLDERS} holders and ${ORDERS} orders`);
  await database.close();
}

export async function earnBench() {
  console.log(
    `\nDay-end earn jobs: one day's interest for ${HOLDERS.toLocaleString('en')} holders, one day's lock-up income for ${ORDERS.toLocaleString('en')} orders (one transaction per job)`,
  );
  await run('embedded PGlite (in memory)', await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() }));
  if (process.env.BENCH_DATABASE_URL)
    await run('PostgreSQL', await openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }));
  else console.log('  PostgreSQL: set BENCH_DATABASE_URL to an empty database to measure it');
}
