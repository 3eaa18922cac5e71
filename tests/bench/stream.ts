// Tick fan-out: live-price clients (10,000, or BENCH_CLIENTS) on loopback, in a process of their own
// (stream-clients.ts); the lag from recording a feed step to each client receiving it. Twice: the feed
// in the server's own process (embedded PGlite), then a server on PostgreSQL following the steps
// another server process records (stream-recorder.ts; the database is BENCH_DATABASE_URL, which
// must be empty, or else a throwaway cluster).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migratedSnapshot, openDatabase, type Database } from '../../src/server/db/connection.ts';
import { seedMarkets, LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { lease } from '../../src/server/market/lease.ts';
import { createMarket, type Market } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';
import { postgresBinaries, startPostgres, type PostgresCluster } from '../server/postgres.ts';
import { testAppOptions, testServices } from '../server/test-app.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10_000);
const STEPS = 20;
const STEP_GAP_MS = 1500;

const coins = LISTED_COINS.map((coin) => ({
  code: coin.code,
  startPrice: coin.startPrice,
  volatility: Number(coin.volatility),
  priceDecimals: coin.priceDecimals,
}));

/** A child on Node (its own TypeScript support), talking to this process directly over the IPC channel (a command's
 * relay would drop a large last message). */
export const forkTs = (file: string, args: string[]) =>
  fork(fileURLToPath(new URL(file, import.meta.url)), args, {
    execPath: process.execPath,
    execArgv: [],
    serialization: 'advanced',
  });

/** The next message of a type from a child; fails if the child stops first. */
export function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('exit', onExit).off('message', onMessage);
      resolve(message as T);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`${child.spawnargs.at(-1)}: the child stopped (${code}) before '${type}'`));
    child.on('message', onMessage).once('exit', onExit);
  });
}

export async function serve(database: Database, market: Market) {
  const app = await buildApp(
    testServices({ db: database.db, clock: systemClock, market, sender: { send: async () => {} } }),
    testAppOptions({ addressRateLimitPerMinute: 1_000_000 }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

/** Each client's deliveries: the step ids in the order they came, and when each came. */
type Deliveries = [ids: number[], times: number[]][];

/** `count` price-stream clients in a process of their own (stream-clients.ts); their deliveries when asked (then they
 * close). */
export async function streamClients(port: number, count: number) {
  const child = forkTs('./stream-clients.ts', [String(port), `/api${PRICE_STREAM_PATH}`, String(count)]);
  const { ms } = await nextMessage<{ ms: number }>(child, 'connected');
  return {
    connectedMs: ms,
    async deliveries(): Promise<Deliveries> {
      const report = nextMessage<{ deliveries: Deliveries }>(child, 'report');
      child.send({ type: 'report' });
      return (await report).deliveries;
    },
  };
}

/**
 * The lags of each client's first delivery of each step from the times `since(step id)` gives (none:
 * a step not measured, such as the opening snapshot), and the deliveries repeated or out of order.
 */
export function deliveryLags(deliveries: Deliveries, since: (id: number) => readonly number[] | undefined) {
  const lags: number[] = [];
  let twice = 0;
  let outOfOrder = 0;
  for (const [ids, times] of deliveries) {
    const seen = new Set<number>();
    let last = 0;
    ids.forEach((id, i) => {
      if (id < last) outOfOrder += 1;
      last = Math.max(last, id);
      const from = since(id);
      if (!from) return;
      if (seen.has(id)) return void (twice += 1);
      seen.add(id);
      for (const at of from) lags.push(times[i]! - at);
    });
  }
  return { lags, twice, outOfOrder };
}

/** "p50 3 ms, p99 12 ms, max 40 ms" of a list of milliseconds. */
export function spread(lags: number[]) {
  const sorted = Float64Array.from(lags).sort();
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0) : '–';
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

/** Connects the clients, records the steps 1.5 s apart (`record` says when each began) and prints what reached them. */
async function measure(label: string, port: number, record: (at: Date) => Promise<number>) {
  const clients = await streamClients(port, CLIENTS);
  const recordedAt = new Map<number, number[]>();
  for (let step = 0; step < STEPS; step++) {
    const at = new Date(Date.now() + step * 1000);
    recordedAt.set(at.getTime(), [await record(at)]);
    await new Promise((resolve) => setTimeout(resolve, STEP_GAP_MS));
  }
  const { lags, twice, outOfOrder } = deliveryLags(await clients.deliveries(), (id) => recordedAt.get(id));
  console.log(
    `\nTick fan-out, ${label}: ${CLIENTS.toLocaleString('en')} stream clients on loopback (another process, connected in ${(clients.connectedMs / 1000).toFixed(1)} s), ${STEPS} steps`,
  );
  console.log(
    `  ${lags.length.toLocaleString('en')} of ${(CLIENTS * STEPS).toLocaleString('en')} deliveries (${twice} twice, ${outOfOrder} out of order); lag from recording to delivery: ${spread(lags)}`,
  );
}

/** The feed in the server's own process: it records each step and fans it out. */
async function feedInProcess() {
  const database = await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() });
  await seedMarkets(database.db, new Date());
  const feed = simulatedFeed({ coins, seed: 1, clock: systemClock });
  const market = createMarket(database.db, feed, systemClock);
  const { app, port } = await serve(database, market);
  try {
    await measure("the feed in the server's process (embedded PGlite)", port, async (at) => {
      const recordedAt = Date.now();
      await market.record(feed.step(at));
      return recordedAt;
    });
  } finally {
    await app.close();
    await database.close();
  }
}

/** Two server processes on PostgreSQL: another one holds the feed lease and records; this one follows and fans out. */
async function feedInAnotherProcess() {
  let cluster: PostgresCluster | null = null;
  if (!process.env.BENCH_DATABASE_URL && !postgresBinaries()) {
    return console.log(
      '\nTick fan-out from another process: PostgreSQL not installed (apt-get install -y postgresql), or set BENCH_DATABASE_URL to an empty database',
    );
  }
  const url = process.env.BENCH_DATABASE_URL ?? (cluster = await startPostgres()).url();
  const database = await openDatabase({ kind: 'postgres', url });
  let recorder: ChildProcess | null = null;
  let market: Market | null = null;
  try {
    await seedMarkets(database.db, new Date());
    recorder = forkTs('./stream-recorder.ts', [url]);
    await nextMessage(recorder, 'leading');
    // This process never runs a feed: it follows what the recorder records.
    const idle = { name: 'idle', simulated: true, seeded: true, exchanges: 0, start: () => {}, stop: async () => {} };
    market = createMarket(database.db, idle, systemClock, (error) => console.error('following failed', error), {
      lease: lease(database.db, 'price-feed'),
      changes: database.changes(),
    });
    market.start();
    const { app, port } = await serve(database, market);
    try {
      const child = recorder;
      await measure('recorded by another process (PostgreSQL)', port, async (at) => {
        const recorded = nextMessage<{ recordedAt: number }>(child, 'recorded');
        child.send({ type: 'step', at: at.getTime() });
        return (await recorded).recordedAt;
      });
    } finally {
      await app.close();
    }
  } finally {
    if (recorder?.connected) {
      const exited = new Promise((resolve) => recorder!.once('exit', resolve));
      recorder.send({ type: 'stop' });
      await exited;
    }
    await market?.stop();
    await database.close();
    await cluster?.stop();
  }
}

export async function streamBench() {
  await feedInProcess();
  await feedInAnotherProcess();
}
