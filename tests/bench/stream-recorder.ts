// The stream bench's other server process: on the same PostgreSQL it holds the feed lease and
// records each step stream.ts asks for, as the process running the feed would; the bench's own
// server follows what it records. Usage (forked with an IPC channel): stream-recorder.ts <database url>;
// `{ type: 'step', at }` answers `{ type: 'recorded', id, recordedAt }`, `{ type: 'stop' }` ends it.
import { openDatabase } from '../../src/server/db/connection.ts';
import { LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { lease } from '../../src/server/market/lease.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';

const database = await openDatabase({ kind: 'postgres', url: process.argv[2]! });
const feed = simulatedFeed({
  coins: LISTED_COINS.map((coin) => ({
    code: coin.code,
    startPrice: coin.startPrice,
    volatility: Number(coin.volatility),
    priceDecimals: coin.priceDecimals,
  })),
  seed: 2,
  clock: systemClock,
});
// The feed steps only when the bench asks: starting it does nothing.
const market = createMarket(
  database.db,
  { ...feed, start: () => {}, stop: async () => {} },
  systemClock,
  (error) => console.error('recording failed', error),
  {
    lease: lease(database.db, 'price-feed'),
  },
);
market.start();
while (!market.leads()) await new Promise((resolve) => setTimeout(resolve, 20));
process.send!({ type: 'leading' });

process.on('message', async (message: { type: 'step'; at: number } | { type: 'stop' }) => {
  if (message.type === 'step') {
    const ticks = feed.step(new Date(message.at));
    const recordedAt = Date.now();
    await market.record(ticks);
    process.send!({ type: 'recorded', id: message.at, recordedAt });
  } else {
    await market.stop();
    await database.close();
    process.disconnect();
  }
});
