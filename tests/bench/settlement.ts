// Settlement throughput: 100,000 due options on the embedded database and on PostgreSQL (the
// database BENCH_DATABASE_URL names, which must be empty, or else a throwaway cluster like the
// server tests'), settled by the production job code; then the ledger check: the entries sum to
// the balances, user by user and in total.
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { seedMarkets } from '../../src/server/db/seed-markets.ts';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import { settleAllDue, SETTLEMENT_BATCH } from '../../src/server/jobs/settlement.ts';
import { onEachDatabase } from './databases.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
/** BENCH_PUSH_USERS: how many of the 100 customers subscribed a browser to push notifications (each settled order of
 * theirs queues one). */
const PUSH_USERS = Number(process.env.BENCH_PUSH_USERS ?? 0);

async function prepare(database: Database, now: Date) {
  const { db } = database;
  await seedMarkets(db, now);
  await db.execute(
    sql`insert into users (username, password_hash, invite_code) select 'bench' || g, 'x', 'BENCH' || g from generate_series(1, 100) g on conflict do nothing`,
  );
  const start = new Date(now.getTime() - 120_000).toISOString();
  const end = new Date(now.getTime() - 60_000).toISOString();
  await db.execute(
    sql`insert into price_ticks (coin, at, price) values ('BTC', ${start}::timestamptz, 97000), ('BTC', ${end}::timestamptz, 97100), ('BTC', ${now.toISOString()}::timestamptz, 97150) on conflict do nothing`,
  );
  await db.execute(sql`
    insert into option_orders (user_id, coin, product_id, direction, amount, minutes, yield_rate, start_price, start_price_at, start_at, end_at)
    select u.id, 'BTC', 1, case when g % 2 = 0 then 'up' else 'down' end, 10, 1, 0.8, 97000, ${start}::timestamptz, ${start}::timestamptz, ${end}::timestamptz
    from generate_series(1, ${ORDERS}) g join users u on u.username = 'bench' || (1 + g % 100)`);
  // The stakes, as the ledger would hold them after placement: a grant, then a debit per order.
  await db.execute(
    sql`insert into ledger_entries (user_id, asset, bucket, amount, kind, reference) select id, 'USDT', 'available', 1000000, 'bench_grant', 'bench' from users where username like 'bench%'`,
  );
  await db.execute(
    sql`insert into ledger_entries (user_id, asset, bucket, amount, kind, reference) select user_id, 'USDT', 'available', -amount, 'option_stake', 'option:' || id from option_orders`,
  );
  await db.execute(
    sql`insert into balances (user_id, asset, available) select user_id, 'USDT', sum(amount) from ledger_entries group by user_id on conflict (user_id, asset) do update set available = excluded.available`,
  );
  await db.execute(sql`
    insert into push_subscriptions (user_id, endpoint, p256dh, auth) select id, 'https://push.example/' || id, 'key', 'secret'
    from users where username like 'bench%' order by id limit ${PUSH_USERS}`);
  if (database.kind === 'postgres') await db.execute(sql`analyze`);
}

async function run(label: string, database: Database) {
  const now = new Date();
  await prepare(database, now);
  const started = performance.now();
  const settled = await settleAllDue(database.db, now);
  const seconds = (performance.now() - started) / 1000;
  const mismatches = await ledgerMismatches(database.db);
  const [totals] = rowsOf<{ entries: string; balances: string; payouts: string }>(
    await database.db.execute(sql`
      select (select coalesce(sum(amount), 0) from ledger_entries)::text as entries,
        (select coalesce(sum(available + frozen), 0) from balances)::text as balances,
        (select count(*) from ledger_entries where kind = 'option_payout')::text as payouts`),
  );
  const [queued] = rowsOf<{ notices: string }>(
    await database.db.execute(sql`select count(*)::text as notices from outbox where channel = 'push'`),
  );
  console.log(
    `  ${label}: ${settled.toLocaleString('en')} orders in ${seconds.toFixed(1)} s = ${Math.round(settled / seconds).toLocaleString('en')} orders/s (${PUSH_USERS} of 100 customers subscribed: ${queued!.notices} push notices queued)`,
  );
  console.log(
    `    ledger: ${totals!.payouts} payout entries; sum of entries ${totals!.entries} = sum of balances ${totals!.balances}: ${totals!.entries === totals!.balances ? 'yes' : 'NO'}; balances that differ from their entries: ${mismatches.length}`,
  );
  await database.close();
}

export async function settlementBench() {
  console.log(
    `\nSettlement of ${ORDERS.toLocaleString('en')} due options (batches of ${SETTLEMENT_BATCH}, one transaction each)`,
  );
  await onEachDatabase(run);
}
