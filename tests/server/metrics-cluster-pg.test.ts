// WORKERS=2 on PostgreSQL, priced by the market index on the exchange stand-ins: one scrape of
// /metrics, whichever worker answers it, counts the requests both processes served and shows each
// process's own figures under its pid; the worker holding the feed writes the exchanges' state to
// feed_exchanges for the other processes. PostgreSQL only (the server-pg project): WORKERS needs it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openTestDatabase } from './harness.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { standInEnv, startStandIns, tradeBtc, type StandIn } from './exchange-standins.ts';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';

const TOKEN = 'cluster-metrics-token-77c';

/** A GET on a connection of its own (no keep-alive): the cluster hands each new connection to the next worker. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent: false, headers: { ...headers, connection: 'close' } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics of WORKERS=2 on PostgreSQL', () => {
  let database: Database;
  let server: ServerProcess;
  let stands: StandIn[] = [];
  let trades: { stop(): Promise<void> } | null = null;

  beforeAll(async () => {
    database = await openTestDatabase();
    const [{ name }] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`)) as [
      { name: string },
    ];
    stands = await startStandIns();
    server = await startServer({
      env: {
        NODE_ENV: 'development',
        DATABASE_URL: inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`),
        WEB_ROOT: '',
        WORKERS: '2',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        METRICS_TOKEN: TOKEN,
        ...standInEnv(stands),
      },
    });
    trades = tradeBtc(stands, { everyMs: 200 });
  }, 180_000);

  afterAll(async () => {
    await trades?.stop();
    await server?.stop(15_000);
    await Promise.all(stands.map((stand) => stand.close()));
    await database?.close();
  });

  const scrape = async () => {
    const answer = await get(`${server.base}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The pids whose resident memory a scrape shows: every process's own figure, under its pid. */
  const pids = (text: string) =>
    new Set([...text.matchAll(/^coinvest_process_resident_memory_bytes\{pid="(\d+)"\}/gm)].map((match) => match[1]));

  it('one scrape counts the requests of both processes and shows each one under its pid', async () => {
    // Both workers up (the first one's start line resolved the start).
    await expect.poll(async () => pids(await scrape()).size, { timeout: 60_000, interval: 500 }).toBe(2);
    const series = 'coinvest_http_requests_total{route="/api/coin/lists",method="GET",status="200"}';
    expect(sample(await scrape(), series)).toBeUndefined();
    for (let n = 0; n < 20; n++) expect((await get(`${server.base}/api/coin/lists`)).status).toBe(200);
    // Whichever worker answers the scrape (each scrape is a new connection, handed round), the sum is the same.
    for (let n = 0; n < 4; n++) {
      const text = await scrape();
      expect(sample(text, series)).toBe(20);
      expect(pids(text).size).toBe(2);
      // Read from the database: one value, not one per process added up.
      expect(sample(text, 'coinvest_settlement_due_orders')).toBe(0);
    }
    // The combined text is as clean as one process's.
    if (existsSync('/usr/bin/promtool')) {
      const checked = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: await scrape(), encoding: 'utf8' });
      expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
    }
  }, 120_000);

  it('the worker holding the feed writes feed_exchanges; every scrape shows the exchanges connected', async () => {
    await expect
      .poll(
        async () =>
          rowsOf<{ exchange: string; connected: boolean; btc: string | null }>(
            await database.db.execute(
              sql`select exchange, connected, coins->>'BTC' as btc from feed_exchanges order by exchange`,
            ),
          ).map((row) => `${row.exchange} ${row.connected} ${row.btc ? 'traded' : '-'}`),
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(['binance true traded', 'kraken true traded', 'okx true traded']);
    for (let n = 0; n < 4; n++) {
      const text = await scrape();
      for (const exchange of ['binance', 'okx', 'kraken'])
        expect(sample(text, `coinvest_feed_exchange_connected{exchange="${exchange}"}`), exchange).toBe(1);
    }
  }, 60_000);
});
