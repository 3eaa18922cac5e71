// This process's row in `server_processes` (domain/server-processes.ts): renewed every HEARTBEAT_MS
// from start, marked stopped on a clean stop (start.ts). The rows of processes gone for a day are
// deleted by a job of schedule.ts.
import type { Db } from '../db/connection.ts';
import { HEARTBEAT_MS, recordAlive, recordStopped, type ProcessInfo } from '../domain/server-processes.ts';
import { schedule } from './schedule.ts';

/** Renews the row at once and every HEARTBEAT_MS; stop() marks it stopped. */
export function startHeartbeat(db: Db, info: ProcessInfo, log: (error: unknown) => void): { stop(): Promise<void> } {
  const job = schedule(() => recordAlive(db, info), undefined, log, { everyMs: HEARTBEAT_MS, unref: true });
  return {
    async stop() {
      await job.stop();
      await recordStopped(db).catch(log);
    },
  };
}
