// Tick fan-out: 1,000 live-price clients on loopback; the lag from recording a feed step to each
// client receiving it.
import { request } from 'node:http';
import { migratedSnapshot, openDatabase } from '../../src/server/db/connection.ts';
import { seedMarkets, LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { systemClock } from '../../src/server/http/context.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { PRICE_STREAM_PATH } from '../../src/contract/markets.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const STEPS = 20;

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

  const lags: number[] = [];
  let sentAt = 0;
  let received = 0;
  let onAll: () => void = () => {};
  const clients = await Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise<() => void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: `/api${PRICE_STREAM_PATH}`, agent: false }, (res) => {
            let first = true;
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              if (first) {
                first = false;
                return resolve(() => req.destroy());
              }
              if (!chunk.includes('event: ticks')) return;
              lags.push(performance.now() - sentAt);
              if (++received === CLIENTS) onAll();
            });
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );

  for (let step = 0; step < STEPS; step++) {
    received = 0;
    const all = new Promise<void>((resolve) => (onAll = resolve));
    const ticks = feed.step(new Date(Date.now() + step * 1000));
    sentAt = performance.now();
    await market.record(ticks);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
  lags.sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!.toFixed(1);
  console.log(`\nTick fan-out: ${CLIENTS} stream clients on loopback, ${STEPS} steps (${lags.length} deliveries)`);
  console.log(`  lag from recording to delivery: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
  for (const close of clients) close();
  await app.close();
  await database.close();
}
