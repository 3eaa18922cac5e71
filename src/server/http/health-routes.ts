// What orchestrators and load balancers ask: GET /healthz (the process is alive and answers) and
// GET /readyz (it should be sent work: the database answers a cheap query, its migrations are all
// applied, and the process is not stopping: observability/health.ts). Neither is rate-limited (they are not API
// calls) nor cached.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/connection.ts';
import type { RouteModule } from './route-module.ts';

/** A database that does not answer within this is not ready (a pool exhausted, a network gone). */
const READY_TIMEOUT_MS = 2_000;

/** The migrations this code brings (drizzle's journal): all must be recorded as applied. */
const expectedMigrations = (
  JSON.parse(readFileSync(new URL('../db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

const NO_CACHE = 'no-store';

/** GET /healthz and GET /readyz, on the app's database and the process's readiness. */
export const healthRoutes: RouteModule = ({ app, services: { db }, health }) => {
  /** Once seen complete the migrations stay so: later checks only ask the database for a row. */
  let migrated = false;
  const check = async (): Promise<string | null> => {
    if (!migrated) {
      const applied = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
      )[0];
      if (Number(applied?.n ?? 0) < expectedMigrations) return 'migrations pending';
      migrated = true;
    } else await db.execute(sql`select 1`);
    return null;
  };

  app.get('/healthz', async (_request, reply) => reply.header('cache-control', NO_CACHE).send({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', NO_CACHE);
    if (health.stopping) return reply.code(503).send({ status: 'stopping' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const why = await Promise.race([
      check().catch(() => 'database unreachable'),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('database not answering'), READY_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (why !== null || health.stopping) return reply.code(503).send({ status: why ?? 'stopping' });
    return reply.send({ status: 'ready' });
  });
};
