// Contract matching with a deep book: the cost of a recorded tick that crosses no resting order
// (it must not grow with the book: the partial price indexes keep it from reading the book), and
// the time to fill 10,000 orders one tick crosses — on the embedded database, and on PostgreSQL
// when BENCH_DATABASE_URL names an empty database. Runs the production matching code.
import { sql } from 'drizzle-orm';
import { migratedSnapshot, openDatabase, rowsOf, type Database } from '../../src/server/db/connection.ts';
import { seedMarkets } from '../../src/server/db/seed-markets.ts';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

const BOOK = Number(process.env.BENCH_BOOK ?? 100_000);
const CROSSED = Number(process.env.BENCH_CROSSED ?? 10_000);
const QUIET_TICKS = 20;

/** `count` resting BTC limits that no price between 96,000 and 98,500 crosses: buys below, sells above, frozen through
 * the ledger. */
async function rest(
  database: Database,
  count: number,
  from: number,
  at: Date,
  buyPrice: (g: string) => ReturnType<typeof sql>,
  sellPrice: (g: string) => ReturnType<typeof sql>,
) {
  const { db } = database;
  const placedAt = at.toISOString();
  await db.execute(sql`
    insert into contract_orders (user_id, coin, side, type, status, price, quantity, fee_rate, frozen_asset, frozen, eligible_after, created_at)
    select u.id, 'BTC', s.side, 'limit', 'open', s.price, 0.01, 0.001, s.asset, s.frozen, ${placedAt}::timestamptz, ${placedAt}::timestamptz
    from generate_series(${from}::int, ${from + count - 1}::int) g
    join users u on u.username = 'bench' || (1 + g % 100)
    cross join lateral (
      select case when g % 2 = 0 then 'buy' else 'sell' end as side,
        case when g % 2 = 0 then ${buyPrice('g')} else ${sellPrice('g')} end as price
    ) p
    cross join lateral (
      select p.side as side, p.price as price,
        case when p.side = 'buy' then 'USDT' else 'BTC' end as asset,
        case when p.side = 'buy' then ceil(p.price * 0.01 * 100000000) / 100000000 + ceil(ceil(p.price * 0.01 * 100000000) / 100000000 * 0.001 * 100000000) / 100000000 else 0.01 end as frozen
    ) s`);
  // The freezes, as placement writes them: out of available, into frozen.
  await db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference)
    select user_id, frozen_asset, b.bucket, case when b.bucket = 'available' then -frozen else frozen end, 'contract_freeze', 'contract:' || id
    from contract_orders o cross join (values ('available'), ('frozen')) b(bucket)
    where o.id > (select coalesce(max(id), 0) - ${count} from contract_orders)`);
  await resetBalances(database);
}

async function resetBalances(database: Database) {
  await database.db.execute(sql`
    insert into balances (user_id, asset, available, frozen)
    select user_id, asset, sum(amount) filter (where bucket = 'available'), coalesce(sum(amount) filter (where bucket = 'frozen'), 0) from ledger_entries group by user_id, asset
    on conflict (user_id, asset) do update set available = excluded.available, frozen = excluded.frozen`);
}

async function prepare(database: Database, now: Date) {
  const { db } = database;
  await seedMarkets(db, new Date(now.getTime() - 3600_000));
  await db.execute(
    sql`insert into users (username, password_hash, invite_code) select 'bench' || g, 'x', 'BENCH' || g from generate_series(1, 100) g on conflict do nothing`,
  );
  await db.execute(
    sql`insert into ledger_entries (user_id, asset, bucket, amount, kind, reference) select id, a.asset, 'available', 100000000, 'bench_grant', 'bench-matching' from users cross join (values ('USDT'), ('BTC')) a(asset) where username like 'bench%'`,
  );
  await resetBalances(database);
}

let second = 0;
/** Records one BTC tick a second after the last, straight into the table (the feed's insert), and runs the matcher. */
async function tickAndMatch(database: Database, base: Date, price: string): Promise<{ ms: number; filled: number }> {
  const at = new Date(base.getTime() + ++second * 1000);
  await database.db.execute(
    sql`insert into price_ticks (coin, at, price) values ('BTC', ${at.toISOString()}::timestamptz, ${price})`,
  );
  const started = performance.now();
  const filled = await matchAllPairs(database.db, at);
  return { ms: performance.now() - started, filled };
}

async function quietTicks(database: Database, base: Date): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < QUIET_TICKS; i++) {
    const { ms, filled } = await tickAndMatch(database, base, i % 2 ? '97250.00' : '97300.00');
    if (filled) throw new Error('a quiet tick filled orders');
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return `median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (all ten pairs)`;
}

async function run(label: string, database: Database) {
  const now = new Date();
  second = 0;
  await prepare(database, now);
  const buys = (g: string) => sql.raw(`90000 + (${g} % 6000)`);
  const sells = (g: string) => sql.raw(`98500 + (${g} % 6000)`);
  await rest(database, 1_000, 1, now, buys, sells);
  const small = await quietTicks(database, now);
  await rest(database, BOOK - 1_000, 1_001, now, buys, sells);
  const large = await quietTicks(database, now);
  // Orders one tick crosses, among the deep book: buys at 97,200 and sells at 97,100.
  await rest(
    database,
    CROSSED,
    BOOK + 1,
    now,
    () => sql.raw('97200'),
    () => sql.raw('97100'),
  );
  await database.db.execute(sql`analyze contract_orders`);
  const crossing = await tickAndMatch(database, now, '97150.00');
  const [open] = rowsOf<{ n: number | string }>(
    await database.db.execute(sql`select count(*) as n from contract_orders where status = 'open'`),
  );
  const mismatches = await ledgerMismatches(database.db);
  console.log(`  ${label}:`);
  console.log(`    a tick crossing nothing, book of 1,000: ${small}`);
  console.log(`    a tick crossing nothing, book of ${BOOK.toLocaleString('en')}: ${large}`);
  console.log(
    `    one tick crossing ${CROSSED.toLocaleString('en')} of ${(BOOK + CROSSED).toLocaleString('en')}: ${crossing.filled.toLocaleString('en')} filled in ${(crossing.ms / 1000).toFixed(2)} s = ${Math.round(crossing.filled / (crossing.ms / 1000)).toLocaleString('en')} orders/s; still open ${Number(open!.n).toLocaleString('en')}; ledger mismatches ${mismatches.length}`,
  );
  await database.close();
}

export async function matchingBench() {
  console.log(
    `\nContract matching with ${BOOK.toLocaleString('en')} resting limit orders (batches of 2,000, one transaction each)`,
  );
  await run('embedded PGlite (in memory)', await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() }));
  if (process.env.BENCH_DATABASE_URL)
    await run('PostgreSQL', await openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }));
  else console.log('  PostgreSQL: set BENCH_DATABASE_URL to an empty database to measure it');
}
