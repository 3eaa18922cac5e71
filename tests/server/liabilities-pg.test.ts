// The day's proof of liabilities is built once across server processes: two real servers start together on one
// PostgreSQL holding customers, both run the daily job at start (each one's metrics count a finished run), and the
// day has exactly one tree, built by one of them, whose proofs the stand-alone verifier accepts. PostgreSQL only (the
// server-pg project): the embedded database serves one process.
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import type { ServerProcess } from './server-process.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { verifyProof } from '../../src/api-contract/liabilities-verify.ts';
import { everyLiabilityProof } from '../../src/server/domain/liabilities.ts';

const TOKEN = 'liabilities-metrics-token';

function scrape(base: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${base}/metrics`,
      { agent: false, headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(body));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

/** The finished runs of the daily liabilities job a process's metrics count. */
async function finishedRuns(base: string): Promise<number> {
  const series = 'coinvest_job_duration_seconds_count{job="liabilities"} ';
  const line = (await scrape(base)).split('\n').find((one) => one.startsWith(series));
  return line ? Number(line.slice(series.length)) : 0;
}

describe('the daily proof of liabilities across two server processes on one PostgreSQL', () => {
  let processes: ProcessesOnPostgres;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    // The database first, with customers and their entries; then both processes at once.
    processes = await processesOnPostgres([], { METRICS_TOKEN: TOKEN });
    await processes.database.db.execute(sql`
      insert into users (username, password_hash, invite_code, created_at)
      select 'pg' || n, 'x', 'P' || n, now() - interval '2 days' from generate_series(1, 500) n`);
    await processes.database.db.execute(sql`
      insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
      select id, 'USDT', 'available', id % 100 + 1, 'test_credit', 'pg:' || id, now() - interval '2 days' from users`);
    servers = await Promise.all([processes.start('first'), processes.start('second')]);
  }, 180_000);

  afterAll(() => processes?.stop());

  it('builds the day’s tree once, and its every proof verifies', async () => {
    // Each process has finished its first run (at start): both looked for the day's tree.
    for (const server of servers)
      await expect.poll(() => finishedRuns(server.base), { timeout: 60_000 }).toBeGreaterThan(0);
    const trees = rowsOf<{
      id: number;
      day: string;
      built_by: string;
      leaves: number;
      root_hash: string;
      totals: string[];
    }>(
      await processes.database.db.execute(
        sql`select id, day, built_by, leaves, root_hash, totals from liability_roots`,
      ),
    );
    expect(trees).toHaveLength(1);
    const [tree] = trees;
    const pids = servers.map((server) => String(server.child.pid));
    expect(pids).toContain(tree!.built_by.split(':').at(-1));
    expect(tree!.leaves).toBe(500);
    // 500 customers holding 1..100 USDT by their id's remainder.
    const [{ total }] = rowsOf<{ total: string }>(
      await processes.database.db.execute(
        sql`select (sum(amount) * 100000000)::numeric(60, 0)::text as total from ledger_entries`,
      ),
    ) as [{ total: string }];
    expect(tree!.totals).toEqual([total]);
    const proofs = await everyLiabilityProof(processes.database.db, Number(tree!.id));
    for (const proof of proofs) expect(await verifyProof(proof, tree!.root_hash)).toMatchObject({ ok: true });
    expect(proofs).toHaveLength(500);
  }, 120_000);
});
