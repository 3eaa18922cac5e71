// The databases a bench measures: the embedded one in memory, then PostgreSQL — the database
// BENCH_DATABASE_URL names (it must be empty), or else a throwaway cluster like the server tests'.
import { migratedSnapshot, openDatabase, type Database } from '../../src/server/db/connection.ts';
import { postgresBinaries, startPostgres } from '../server/postgres.ts';
import { seedDemo, DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { grantDemoBalances } from '../../src/server/domain/demo.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { LISTED_COINS, seedMarkets } from '../../src/server/db/seed-markets.ts';
import { createMarket, type Market } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';

/** Runs `run` on each database in turn; `run` closes the database it is given. */
export async function onEachDatabase(run: (label: string, database: Database) => Promise<void>): Promise<void> {
  await run('embedded PGlite (in memory)', await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() }));
  if (process.env.BENCH_DATABASE_URL) {
    await run('PostgreSQL', await openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }));
  } else if (postgresBinaries()) {
    const cluster = await startPostgres();
    try {
      await run(
        'PostgreSQL (throwaway cluster, fsync off)',
        await openDatabase({ kind: 'postgres', url: cluster.url() }),
      );
    } finally {
      await cluster.stop();
    }
  } else
    console.log(
      '  PostgreSQL: not installed (apt-get install -y postgresql), or set BENCH_DATABASE_URL to an empty database',
    );
}

/** The demo account and markets on `database`, and a simulated feed stepping once a second as on a live server (the
 * coin list changes with it); the market is started, its first step recorded. */
export async function demoMarket(database: Database): Promise<Market> {
  await seedDemo(database.db);
  await seedMarkets(database.db, new Date());
  await grantDemoBalances(database.db, DEMO_ACCOUNT.username, new Date());
  const feed = simulatedFeed({
    coins: LISTED_COINS.map((coin) => ({
      code: coin.code,
      startPrice: coin.startPrice,
      volatility: Number(coin.volatility),
      priceDecimals: coin.priceDecimals,
    })),
    seed: 1,
    clock: systemClock,
  });
  const market = createMarket(database.db, feed, systemClock);
  await market.record(feed.step(new Date()));
  market.start();
  return market;
}
