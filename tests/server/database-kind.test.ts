// The server suite runs on two databases (tests/projects.ts): the embedded PGlite (project `server`) and a real
// PostgreSQL cluster (project `server-pg`). This file runs in both and proves each is on what it says.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/connection.ts';
import { onPostgres, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => (h = await startHarness()));
afterAll(() => h.close());

it('talks to the database its project names', async () => {
  const [row] = rowsOf<{ version: string; port: number | null }>(
    await h.database.db.execute(sql`select version() as version, inet_server_port() as port`),
  );
  if (onPostgres()) {
    expect(h.database.kind).toBe('postgres');
    expect(row!.port).toBeGreaterThan(0);
    expect(row!.version).not.toMatch(/emscripten|wasm/i);
  } else {
    expect(h.database.kind).toBe('pglite');
    expect(row!.port).toBeNull();
  }
});
