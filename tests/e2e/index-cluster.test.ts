// The market index across processes, for real: two server processes on one throwaway PostgreSQL
// with PRICE_FEED=index, reading three local exchange stand-ins (one shared test clock, 20× real
// time, on which the stand-ins time their trades). Only the process holding the feed lease connects
// to the exchanges — one set of connections at a time — and the other follows through the database.
// SIGKILL the holder: the other opens its own connections and the index ticks again within 5 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type PostgresCluster } from '../server/postgres.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { standInEnv, startStandIns, tradeBtc, type StandIn } from '../server/exchange-standins.ts';

const SPEED = 20;
const origin = Date.now();
const marketNow = () => new Date(origin + (Date.now() - origin) * SPEED);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(join(tmpdir(), 'coinvest-index-cluster-'));
let postgres: PostgresCluster;
let sql: pg.Client;
let stands: StandIn[] = [];
const servers: ServerProcess[] = [];
let trades: ReturnType<typeof tradeBtc> | undefined;

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('indexcluster');
  stands = await startStandIns();
  const env = {
    DATABASE_URL: url,
    WEB_ROOT: '',
    LOG_LEVEL: 'warn',
    WORKERS: '',
    CLOCK_SPEED: String(SPEED),
    CLOCK_ORIGIN: String(origin),
    ...standInEnv(stands),
  };
  // Both at once on the empty database.
  servers.push(...(await Promise.all(['A', 'B'].map((name) => startServer({ work, name, env })))));
  trades = tradeBtc(stands, { now: marketNow });
  sql = new pg.Client({ connectionString: url });
  await sql.connect();
}, 180_000);

afterAll(async () => {
  await trades?.stop();
  await sql?.end();
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(stands.map((stand) => stand.close()));
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
});

const rateOf = async (server: ServerProcess) =>
  (
    (await (await fetch(`${server.base}/api/coin/data/rate?code=BTC`, { headers: { lang: 'en' } })).json()) as {
      data: { price: string; at: string } | null;
    }
  ).data;

async function feedHolder(): Promise<ServerProcess> {
  const { rows } = await sql.query<{ holder: string }>(
    `select holder from leases where name = 'price-feed' and expires_at > clock_timestamp()`,
  );
  const pid = Number(rows[0]?.holder.split(':')[1]);
  const server = servers.find((candidate) => candidate.child.pid === pid);
  if (!server) throw new Error(`the feed is held by ${rows[0]?.holder ?? 'no one'}, not by a server of this test`);
  return server;
}

it('quotes the same index price on both processes, with one set of exchange connections', async () => {
  for (const server of servers)
    await expect.poll(async () => (await rateOf(server))?.price, { timeout: 30_000 }).toBe('97190.83');
  // Held while the feed records 40 s of market time (2 s here, in which the follower asked for the lease twice): the
  // follower never connects.
  const lastBtc = async () =>
    (
      await sql.query<{ last: Date }>(`select max(at) as last from price_ticks where coin = 'BTC'`)
    ).rows[0]!.last.getTime();
  const from = await lastBtc();
  await expect.poll(lastBtc, { timeout: 20_000 }).toBeGreaterThanOrEqual(from + 40_000);
  expect(stands.map((stand) => stand.open)).toEqual([1, 1, 1]);
  const { rows } = await sql.query<{ constituents: { exchange: string }[] }>(
    `select constituents from price_ticks where coin = 'BTC' order by at desc limit 1`,
  );
  expect(rows[0]!.constituents.map((c) => c.exchange)).toEqual(['binance', 'kraken', 'okx']);
});

it('moves the exchange connections and the index to the other process within 5 s when the holder is killed', async () => {
  const holder = await feedHolder();
  const survivor = servers.find((server) => server !== holder)!;
  const before = stands.map((stand) => stand.connections);
  await holder.kill();
  const killed = Date.now();
  const { rows } = await sql.query<{ last: Date }>(`select max(at) as last from price_ticks where coin = 'BTC'`);
  const lastOfDead = rows[0]!.last.getTime();
  for (;;) {
    const { rows: now } = await sql.query<{ last: Date }>(`select max(at) as last from price_ticks where coin = 'BTC'`);
    if (now[0]!.last.getTime() > lastOfDead) break;
    if (Date.now() - killed > 10_000) throw new Error('no index tick within 10 s of the SIGKILL');
    await sleep(20);
  }
  const takeover = Date.now() - killed;
  console.log(
    `index feed takeover: ${takeover} ms from SIGKILL of the holder to the first index tick recorded by the other process`,
  );
  expect(takeover).toBeLessThan(5_000);
  expect(await feedHolder()).toBe(survivor);
  // The survivor opened its own connections; the dead process's are gone: still one set.
  await expect.poll(() => stands.map((stand) => stand.open), { timeout: 5_000 }).toEqual([1, 1, 1]);
  expect(stands.map((stand, i) => stand.connections - before[i]!)).toEqual([1, 1, 1]);
  await expect.poll(async () => (await rateOf(survivor))?.price).toBe('97190.83');
});
