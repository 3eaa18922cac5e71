// The databases a bench measures: the embedded one in memory, then PostgreSQL — the database
// BENCH_DATABASE_URL names (it must be empty), or else a throwaway cluster like the server tests'.
import { migratedSnapshot, openDatabase, type Database } from '../../src/server/db/connection.ts';
import { postgresBinaries, startPostgres } from '../server/postgres.ts';

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
