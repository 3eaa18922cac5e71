// Tick fan-out: live-price clients (1,000, or BENCH_CLIENTS) on loopback, in a process of their own;
// the lag from recording a feed step to each client receiving it.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migratedSnapshot, openDatabase } from '../../src/server/db/connection.ts';
import { seedMarkets, LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { systemClock } from '../../src/server/http/context.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { PRICE_STREAM_PATH } from '../../src/contract/markets.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const STEPS = 20;
const STEP_GAP_MS = 1500;

export async function streamBench() {
  const database = await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() });
  await seedMarkets(database.db, null, new Date());
  const feed = simulatedFeed({
    coins: LISTED_COINS.map((coin) => ({ code: coin.code, startPrice: coin.startPrice, volatility: Number(coin.volatility), priceDecimals: coin.priceDecimals })),
    seed: 1,
    clock: systemClock,
  });
  const market = createMarket(database.db, feed, systemClock);
  const app = await buildApp({ db: database.db, clock: systemClock, market, sender: { send: async () => {} } }, { rateLimitPerMinute: 1_000_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  const clients = fork(fileURLToPath(new URL('./stream-clients.ts', import.meta.url)), [String(port), `/api${PRICE_STREAM_PATH}`, String(CLIENTS)], {
    execPath: 'node_modules/.bin/tsx',
    execArgv: [],
  });
  await new Promise<void>((resolve, reject) => {
    clients.once('message', () => resolve());
    clients.once('exit', (code) => reject(new Error(`the stream clients stopped (${code})`)));
  });

  // Steps 1.5 s apart: each delivery belongs to the last step recorded before it arrived.
  const sentAt: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    const ticks = feed.step(new Date(Date.now() + step * 1000));
    sentAt.push(Date.now());
    await market.record(ticks);
    await new Promise((resolve) => setTimeout(resolve, STEP_GAP_MS));
  }
  const arrivals = await new Promise<number[]>((resolve) => {
    clients.on('message', (message: { type: string; arrivals?: number[] }) => message.type === 'arrivals' && resolve(message.arrivals!));
    clients.send({ type: 'report' });
  });
  // What arrived before the first step is the stream's opening snapshot.
  const lags = arrivals.filter((at) => at >= sentAt[0]!).map((at) => at - sentAt.findLast((sent) => sent <= at)!).sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!.toFixed(0);
  console.log(`\nTick fan-out: ${CLIENTS.toLocaleString('en')} stream clients on loopback (another process), ${STEPS} steps`);
  console.log(`  ${lags.length.toLocaleString('en')} of ${(CLIENTS * STEPS).toLocaleString('en')} deliveries; lag from recording to delivery: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
  await app.close();
  await database.close();
}
