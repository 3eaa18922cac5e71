// The server processes alive on this database: each renews its `server_processes` row every few
// seconds (jobs/processes.ts) and marks it stopped on a clean stop; one not seen for a while has
// stopped without saying so (killed, hung, cut off). Times are the database's clock, the same for
// every process. Rows last seen a day ago are deleted.
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import { isTrue, rowsOf, type Executor } from '../db/connection.ts';

/** This process, as its row and the reconciliation runs name it. */
export const PROCESS_ID = `${hostname()}:${process.pid}`;
/** How often a process renews its row. */
export const HEARTBEAT_MS = 5_000;
/** Not seen for longer than this: shown as stopped. */
export const STOPPED_AFTER_MS = 30_000;
/** Rows last seen longer ago than this are deleted. */
export const FORGET_AFTER_MS = 86_400_000;

export interface ProcessInfo {
  version: string;
  build: string;
  startedAt: Date;
}

/** Upserts this process's row: seen now, not stopped (a pid used again on the host takes the row over). */
export async function recordAlive(db: Executor, info: ProcessInfo, id = PROCESS_ID): Promise<void> {
  const [host = '', pid = '0'] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
  await db.execute(sql`
    insert into server_processes (id, host, pid, version, build, started_at, last_seen_at, stopped_at)
    values (${id}, ${host}, ${Number(pid)}, ${info.version}, ${info.build}, ${info.startedAt.toISOString()}::timestamptz,
      clock_timestamp(), null)
    on conflict (id) do update set host = excluded.host, pid = excluded.pid, version = excluded.version,
      build = excluded.build, started_at = excluded.started_at, last_seen_at = excluded.last_seen_at, stopped_at = null`);
}

/** A clean stop: the row says so at once (the console shows it stopped without waiting 30 s). */
export async function recordStopped(db: Executor, id = PROCESS_ID): Promise<void> {
  await db.execute(
    sql`update server_processes set stopped_at = clock_timestamp(), last_seen_at = clock_timestamp() where id = ${id}`,
  );
}

/** Deletes the rows of processes stopped or unseen for FORGET_AFTER_MS; returns how many. */
export async function forgetOldProcesses(db: Executor): Promise<number> {
  return rowsOf(
    await db.execute(sql`
      delete from server_processes where last_seen_at < clock_timestamp() - ${`${FORGET_AFTER_MS} milliseconds`}::interval
      returning id`),
  ).length;
}

export interface ProcessRow {
  id: string;
  host: string;
  pid: number;
  version: string;
  build: string;
  startedAt: Date;
  lastSeenAt: Date;
  stoppedAt: Date | null;
  /** Seen within STOPPED_AFTER_MS and not stopped. */
  alive: boolean;
}

/** Every process known, the live ones first, then by when they were last seen. */
export async function serverProcesses(db: Executor): Promise<ProcessRow[]> {
  const rows = rowsOf<{
    id: string;
    host: string;
    pid: number | string;
    version: string;
    build: string;
    started_at: Date | string;
    last_seen_at: Date | string;
    stopped_at: Date | string | null;
    alive: boolean | string;
  }>(
    await db.execute(sql`
      select id, host, pid, version, build, started_at, last_seen_at, stopped_at,
        stopped_at is null and last_seen_at >= clock_timestamp() - ${`${STOPPED_AFTER_MS} milliseconds`}::interval as alive
      from server_processes order by alive desc, last_seen_at desc, id`),
  );
  return rows.map((row) => ({
    id: row.id,
    host: row.host,
    pid: Number(row.pid),
    version: row.version,
    build: row.build,
    startedAt: new Date(row.started_at),
    lastSeenAt: new Date(row.last_seen_at),
    stoppedAt: row.stopped_at === null ? null : new Date(row.stopped_at),
    alive: isTrue(row.alive),
  }));
}
