// Opens the database: embedded PGlite (a folder, or memory in tests) by default, PostgreSQL when
// DATABASE_URL is set. One schema and one set of migrations serve both.
import { mkdirSync, openSync, closeSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { embeddedChanges, listeningConnections, postgresChanges, type Changes } from './changes.ts';
import { timePglite, timePool } from '../observability/db-metrics.ts';
import { nameStatements } from './named-statements.ts';
import { sendBeginFirst, shareRoundTrips } from './transaction-control.ts';
import { getTableColumns, sql, type InferSelectModel, type SQL } from 'drizzle-orm';

// Made without the schema: nothing uses drizzle's relational queries (db.query), and with it every transaction and
// savepoint built one query builder per table (74) it would never use.
export type Db = PgDatabase<PgQueryResultHKT>;
/** What db.transaction hands its work. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Domain functions take either: inside a transaction always pass `tx`, never the outer db. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  /**
   * The same database for the calls declared read-only (http/handle.ts): on PostgreSQL a pool of its own
   * (READ_POOL_SIZE connections), so a read never queues for a connection behind write transactions that hold the
   * main pool's while their process's event loop is busy; the embedded database's one connection otherwise (`db`).
   * A read-only call that writes (a session's last use, say) still writes to the one database: it is a second pool,
   * not a replica.
   */
  reads: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs `work` while no other server process starting on this database runs its own (a PostgreSQL
   * advisory lock): migrations and first-start seeding, which several processes starting at once
   * would otherwise race. The embedded database has one process: it just runs it.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** The change notices of this database (db/changes.ts), opened on first use (a server's, not an operator command's).
   * */
  changes(log?: (error: unknown) => void): Changes;
  close(): Promise<void>;
}

/** Opens the notices once, on first use; close() closes them if they were. */
function onDemand(open: (log: (error: unknown) => void) => Changes) {
  let changes: Changes | null = null;
  return {
    changes: (log: (error: unknown) => void = () => {}) => (changes ??= open(log)),
    close: async () => changes?.close(),
  };
}

/** The advisory lock key of start-up work (any constant both sides agree on). */
const STARTUP_LOCK = 0x636f696e;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** `dataDir` holds the database (pglite/) and the lock file of the process using it. */
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory'; snapshot?: Blob };

/** Connections a process holds for its writes and everything else (node-postgres's pool size). */
const POOL_SIZE = 10;
/**
 * Connections a process holds for read-only calls beside them. At 10,000 customers on two cores (the capacity bench,
 * two processes) reads waited behind write transactions for the main pool (20 of 20 busy, 14 of them idle in a
 * transaction, up to 17 queries waiting); with this pool beside it, 3–6 waited at most and reads' p99 fell in each of
 * the runs compared (figures in tests/bench/README.md, Capacity).
 */
const READ_POOL_SIZE = 4;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const listening = listeningConnections();
    const pool = new pg.Pool({ connectionString: target.url, max: POOL_SIZE, Client: listening.Client });
    // Its connections listen too: a read-only call that writes hears its own change before its answer, as any other.
    const readPool = new pg.Pool({ connectionString: target.url, max: READ_POOL_SIZE, Client: listening.Client });
    // An idle connection lost (a database restart): the pool drops it and opens another when next needed.
    for (const each of [pool, readPool])
      each.on('error', (error) => console.error(`A database connection was lost: ${error.message}`));
    // A statement with parameters that a transaction begins with goes in one exchange with its BEGIN: the innermost
    // layer, so the statement is named and timed as any other first.
    for (const each of [pool, readPool]) sendBeginFirst(each);
    // Their statements with parameters named, so PostgreSQL parses and plans each once a connection.
    for (const each of [pool, readPool]) nameStatements(each);
    // Each statement's time and the pools' use, in the metrics.
    const uncountPools = [timePool(pool), timePool(readPool)];
    // A transaction's BEGIN and COMMIT go in the round trips of the statements beside them. Installed after the timing,
    // so it wraps it: the metrics time and count what is sent, a BEGIN that went with a statement not apart.
    for (const each of [pool, readPool]) shareRoundTrips(each);
    const db = drizzlePg(pool) as unknown as Db;
    const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
      const session = await pool.connect();
      try {
        await session.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        try {
          return await work();
        } finally {
          await session.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
        }
      } finally {
        session.release();
      }
    };
    await exclusive(() => migratePg(drizzlePg(pool), { migrationsFolder }));
    const notices = onDemand((log) => postgresChanges(target.url, listening.subscribe, log));
    return {
      db,
      reads: drizzlePg(readPool) as unknown as Db,
      kind: 'postgres',
      exclusive,
      changes: notices.changes,
      close: async () => {
        for (const uncount of uncountPools) uncount();
        await notices.close();
        await Promise.all([pool.end(), readPool.end()]);
      },
    };
  }
  const releaseLock = target.kind === 'pglite' ? lockDataDir(target.dataDir) : () => {};
  try {
    const client =
      target.kind === 'pglite'
        ? await PGlite.create(join(target.dataDir, 'pglite'))
        : await PGlite.create({ loadDataDir: target.snapshot });
    timePglite(client);
    const db = drizzlePglite(client);
    await migratePglite(db, { migrationsFolder });
    const notices = onDemand(() => embeddedChanges(client));
    return {
      db: db as unknown as Db,
      reads: db as unknown as Db,
      kind: 'pglite',
      exclusive: (work) => work(),
      changes: notices.changes,
      close: async () => {
        await notices.close();
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** A migrated empty in-memory database, dumped so tests can load it in about a second. */
export async function migratedSnapshot(): Promise<Blob> {
  const client = await PGlite.create();
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}

/** Two processes on one PGlite folder corrupt it: the second one must refuse to start. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, '.server.lock');
  try {
    closeSync(openSync(lockFile, 'wx'));
  } catch {
    const holder = Number(readFileSync(lockFile, 'utf8'));
    if (holder && isAlive(holder)) {
      throw new Error(
        `The database folder ${dataDir} is in use by process ${holder}. Stop it first, or use PostgreSQL (DATABASE_URL) to run several servers.`,
      );
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => {
    try {
      unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
}

/** The live process (a running server) that holds an embedded database folder, or null. */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  try {
    const holder = Number(readFileSync(join(dataDir, '.server.lock'), 'utf8'));
    return holder && isAlive(holder) ? holder : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return pid !== process.pid;
  } catch {
    return false;
  }
}

/** Rows of a raw `db.execute(sql…)` from either driver (both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}

/**
 * A row of `table` read by raw SQL (the columns of an insert's `returning *` in a CTE, by their database names), as
 * Drizzle's own select gives it: each column under its key in the schema, read through that column's mapping (a
 * timestamp a Date, a numeric its decimal string, jsonb its value), a missing or null column null.
 */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

/** A boolean column or expression as either driver answers it (true, or the text 'true'); false for null. */
export const isTrue = (value: unknown) => value === true || String(value) === 'true';

/** The answers of SQL boolean expressions, read in one statement: `{ name: sql\`exists (…)\` }` → `{ name: true }`. */
export async function sqlFlags<K extends string>(
  db: Executor,
  conditions: Record<K, SQL>,
): Promise<Record<K, boolean>> {
  const names = Object.keys(conditions) as K[];
  const [row] = rowsOf<Record<K, unknown>>(
    await db.execute(
      sql`select ${sql.join(
        names.map((name) => sql`${conditions[name]} as ${sql.identifier(name)}`),
        sql`, `,
      )}`,
    ),
  );
  return Object.fromEntries(names.map((name) => [name, isTrue(row?.[name])])) as Record<K, boolean>;
}

/** True when `db` is PostgreSQL (DATABASE_URL), which several server processes may share; false on the embedded PGlite.
 * */
export function sharedByProcesses(db: Db): boolean {
  return (db as unknown as { $client?: unknown }).$client instanceof pg.Pool;
}

/**
 * The SQLSTATE of a database error (PostgreSQL's five-character code, e.g. 23505 unique_violation, 25P02
 * in_failed_sql_transaction), on either driver and under drizzle's wrapping (the driver's error as its cause);
 * undefined for anything else.
 */
export function sqlStateOf(error: unknown): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  const found = typeof code === 'string' ? code : cause?.code;
  return typeof found === 'string' ? found : undefined;
}

/** The constraint or index a database error names (a unique violation's index), on either driver and under drizzle's
 * wrapping; undefined when it names none. */
export function constraintOf(error: unknown): string | undefined {
  const { constraint, cause } = (error ?? {}) as { constraint?: unknown; cause?: { constraint?: unknown } };
  const found = typeof constraint === 'string' ? constraint : cause?.constraint;
  return typeof found === 'string' ? found : undefined;
}
