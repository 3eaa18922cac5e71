// Real server processes on one fresh PostgreSQL test database, for the server-pg tests that run several servers on
// the same data: the database opened (the test reads and writes it too), its url handed to every process with the
// variables those tests share, and one stop for afterAll that ends every process and removes the database.
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { openTestDatabase } from './harness.ts';
import { startServer, type ServerProcess } from './server-process.ts';

export interface ProcessesOnPostgres {
  /** The test database, open here for the test's own statements. */
  readonly database: Database;
  /** The database's url, each process's DATABASE_URL. */
  readonly url: string;
  /** The processes started at once, in the order of their names: the test's to change, stop() does not read it. */
  readonly servers: ServerProcess[];
  /** One more process on the same database with the same variables (one started again after a kill, say). */
  start(name: string): Promise<ServerProcess>;
  /**
   * Stops every process started here (those started later too, and those still starting), then removes the database,
   * even when a process would not stop.
   */
  stop(): Promise<void>;
}

/**
 * A fresh test database and the processes `names` on it (each name also its log file's), all started at once.
 * `env` adds to or overrides the shared variables: the development build, no web root, one process each (no
 * WORKERS), no demo data, warnings only. If anything fails on the way, what was started is stopped again.
 */
export async function processesOnPostgres(
  names: string[],
  env: Record<string, string> = {},
): Promise<ProcessesOnPostgres> {
  const database = await openTestDatabase();
  const starting: Promise<ServerProcess>[] = [];
  const stop = async () => {
    const started = await Promise.allSettled(starting);
    const stopped = await Promise.allSettled(
      started.map((server) => (server.status === 'fulfilled' ? server.value.stop() : undefined)),
    );
    await database.close();
    const failed = stopped.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    const [{ name }] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`)) as [
      { name: string },
    ];
    const url = inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`);
    const variables = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      WEB_ROOT: '',
      WORKERS: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    };
    const start = (server: string) => {
      const started = startServer({ name: server, env: variables });
      starting.push(started);
      return started;
    };
    const servers = await Promise.all(names.map((server) => start(server)));
    return { database, url, servers, start, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
