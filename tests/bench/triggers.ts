// Conditional contract orders: the extra cost of the index step's matching with 1,000 waiting triggers on one coin
// (BTC), against the same step without them — median and max over 20 ticks that reach no trigger — and one tick that
// releases 100 of them (each stop-market then filled at the next tick). On the embedded database, and on PostgreSQL
// when BENCH_DATABASE_URL names an empty database. Runs the production matching code; the triggers are written
// straight into the table with their freezes, as placement writes them.
import { sql } from 'drizzle-orm';
import { migratedSnapshot, openDatabase, rowsOf, type Database } from '../../src/server/db/connection.ts';
import { seedMarkets } from '../../src/server/db/seed-markets.ts';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

const TRIGGERS = Number(process.env.BENCH_TRIGGERS ?? 1_000);
const TICKS = 20;

async function resetBalances({ db }: Database) {
  await db.execute(sql`
    insert into balances (user_id, asset, available, frozen)
    select user_id, asset, sum(amount) filter (where bucket = 'available'), coalesce(sum(amount) filter (where bucket = 'frozen'), 0)
    from ledger_entries group by user_id, asset
    on conflict (user_id, asset) do update set available = excluded.available, frozen = excluded.frozen`);
}

/** Writes `count` orders (a status and a trigger per g) with their freezes: buys of 0.01 BTC freeze USDT, sells BTC. */
async function insertOrders(database: Database, count: number, at: Date, kind: 'limit' | 'stop') {
  const placed = at.toISOString();
  const expires = new Date(at.getTime() + 30 * 86_400_000).toISOString();
  // Stop buys wait above 99,000 (a hundred at exactly 99,000), stop sells below 95,000; the limit rests far off.
  await database.db.execute(sql`
    insert into contract_orders (user_id, coin, side, type, status, price, trigger_price, trigger_above, quantity, fee_rate,
      frozen_asset, frozen, eligible_after, created_at, expires_at)
    select u.id, 'BTC', s.side, ${kind === 'limit' ? 'limit' : 'stop_market'}, ${kind === 'limit' ? 'open' : 'waiting'},
      ${kind === 'limit' ? sql`50000` : sql`null`}, ${kind === 'limit' ? sql`null` : sql`s.trigger`},
      ${kind === 'limit' ? sql`null` : sql`s.side = 'buy'`}, 0.01, 0.001,
      case when s.side = 'buy' then 'USDT' else 'BTC' end,
      case when s.side = 'buy' then 1100 else 0.01 end, ${placed}::timestamptz, ${placed}::timestamptz,
      ${kind === 'limit' ? sql`null` : sql`${expires}::timestamptz`}
    from generate_series(1, ${count}) g
    join users u on u.username = 'bench' || (1 + g % 100)
    cross join lateral (
      select case when ${kind === 'limit'} or g % 2 = 0 then 'buy' else 'sell' end as side,
        case when g % 2 = 0 then (case when g <= 200 then 99000 else 99000 + g end) else 95000 - g end as trigger
    ) s`);
  await database.db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference)
    select user_id, frozen_asset, b.bucket, case when b.bucket = 'available' then -frozen else frozen end, 'contract_freeze', 'contract:' || id
    from contract_orders o cross join (values ('available'), ('frozen')) b(bucket)
    where not exists (select 1 from ledger_entries e where e.reference = 'contract:' || o.id)`);
  await resetBalances(database);
}

let second = 0;
async function tickAndMatch(database: Database, base: Date, price: string) {
  const at = new Date(base.getTime() + ++second * 1000);
  await database.db.execute(
    sql`insert into price_ticks (coin, at, price) values ('BTC', ${at.toISOString()}::timestamptz, ${price})`,
  );
  const started = performance.now();
  const filled = await matchAllPairs(database.db, at);
  return { ms: performance.now() - started, filled };
}

async function quietSteps(database: Database, base: Date) {
  const times: number[] = [];
  for (let i = 0; i < TICKS; i++) {
    const { ms, filled } = await tickAndMatch(database, base, i % 2 ? '97250.00' : '97300.00');
    if (filled) throw new Error('a quiet tick filled orders');
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function run(label: string, database: Database) {
  const now = new Date();
  second = 0;
  const { db } = database;
  await seedMarkets(db, new Date(now.getTime() - 3600_000));
  await db.execute(
    sql`insert into users (username, password_hash, invite_code) select 'bench' || g, 'x', 'BENCH' || g from generate_series(1, 100) g on conflict do nothing`,
  );
  await db.execute(
    sql`insert into ledger_entries (user_id, asset, bucket, amount, kind, reference) select id, a.asset, 'available', 100000000, 'bench_grant', 'bench-triggers' from users cross join (values ('USDT'), ('BTC')) a(asset) where username like 'bench%'`,
  );
  await resetBalances(database);
  // One resting limit nothing reaches keeps BTC's matcher running on every step, with triggers or without.
  await insertOrders(database, 1, now, 'limit');
  await quietSteps(database, now); // warm-up
  const without = await quietSteps(database, now);
  await insertOrders(database, TRIGGERS, now, 'stop');
  await db.execute(sql`analyze contract_orders`);
  const withTriggers = await quietSteps(database, now);
  const releasing = await tickAndMatch(database, now, '99000.00');
  const filling = await tickAndMatch(database, now, '99000.50');
  const [counts] = rowsOf<{ waiting: number | string; filled: number | string }>(
    await db.execute(sql`select count(*) filter (where status = 'waiting') as waiting,
      count(*) filter (where status = 'filled') as filled from contract_orders`),
  );
  const mismatches = await ledgerMismatches(db);
  console.log(`  ${label}:`);
  console.log(
    `    a step reaching nothing, no triggers:            median ${ms(without.median)}, max ${ms(without.max)}`,
  );
  console.log(
    `    a step reaching nothing, ${TRIGGERS.toLocaleString('en')} waiting triggers: median ${ms(withTriggers.median)}, max ${ms(withTriggers.max)} (extra ${ms(withTriggers.median - without.median)} a step)`,
  );
  console.log(
    `    a step releasing 100 stops: ${ms(releasing.ms)}; the next, filling them: ${ms(filling.ms)} (${filling.filled} filled); waiting ${Number(counts!.waiting)}, filled ${Number(counts!.filled)}; ledger mismatches ${mismatches.length}`,
  );
  await database.close();
}

export async function triggersBench() {
  console.log(
    `\nConditional contract orders: ${TRIGGERS.toLocaleString('en')} waiting triggers on BTC, all ten pairs matched`,
  );
  await run('embedded PGlite (in memory)', await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() }));
  if (process.env.BENCH_DATABASE_URL)
    await run('PostgreSQL', await openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }));
  else console.log('  PostgreSQL: set BENCH_DATABASE_URL to an empty database to measure it');
}
