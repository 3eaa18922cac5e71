// Start: config → database (migrated) → demo data → market feed → HTTP → jobs.
// Stops cleanly on SIGINT/SIGTERM.
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { DEMO_ACCOUNT, seedDemo } from './db/seed.ts';
import { seedMarkets } from './db/seed-markets.ts';
import { seedFunds } from './db/seed-funds.ts';
import { buildApp } from './http/app.ts';
import { acceleratedClock, systemClock } from './http/context.ts';
import { outboxSender } from './domain/code-sender.ts';
import { createFeed } from './market/feeds.ts';
import { createMarket } from './market/market.ts';
import { startSettlementJob } from './jobs/settlement.ts';
import { runOperatorCommand } from './ops/commands.ts';
import { serveOperatorCommands } from './ops/socket.ts';

const started = performance.now();
const config = loadConfig();
const clock = config.clockSpeed > 1 ? acceleratedClock(config.clockSpeed) : systemClock;
const database = await openDatabase(config.database);
const { db } = database;
if (config.seedDemo) await seedDemo(db);
await seedMarkets(db, config.seedDemo ? DEMO_ACCOUNT.username : null, clock.now());
await seedFunds(db, config.seedDemo ? DEMO_ACCOUNT.username : null, clock.now());

const feed = await createFeed(db, { name: config.priceFeed, seed: config.feedSeed, clock, intervalMs: Math.max(20, 1000 / config.clockSpeed) });
let log: (message: string, error?: unknown) => void = (message, error) => console.error(message, error);
const market = createMarket(db, feed, clock, (error) => log('recording ticks failed', error));
const app = await buildApp(
  { db, clock, market, sender: outboxSender(db, (line) => app.log.info(line)) },
  {
    webRoot: config.webRoot,
    corsOrigins: config.corsOrigins,
    trustProxyHops: config.trustProxyHops || undefined,
    authRateLimitPerMinute: config.authRateLimitPerMinute,
    logger: { level: config.logLevel },
  },
);
log = (message, error) => app.log.error({ err: error }, message);

market.start();
const settlement = startSettlementJob(db, clock, (error) => log('settlement run failed', error), Math.max(50, 1000 / config.clockSpeed));

await app.listen({ port: config.port, host: config.host });
// The embedded database has one process: the operator command reaches it through this server.
const stopOperatorSocket =
  config.database.kind === 'pglite'
    ? await serveOperatorCommands(config.database.dataDir, (argv) => runOperatorCommand({ db, now: clock.now(), production: config.production }, argv))
    : async () => {};
const where = config.database.kind === 'postgres' ? 'PostgreSQL' : `embedded database in ${'dataDir' in config.database ? config.database.dataDir : 'memory'}`;
console.log(
  [
    '',
    `Coinvest is running at http://localhost:${config.port} (${where}), ready in ${Math.round(performance.now() - started)} ms.`,
    `Prices: ${feed.simulated ? 'simulated feed' : feed.name}${config.clockSpeed > 1 ? `, test clock at ${config.clockSpeed}× real time` : ''}.`,
    config.seedDemo ? `Demo account: ${DEMO_ACCOUNT.username} / ${DEMO_ACCOUNT.password} (payment password ${DEMO_ACCOUNT.paypass}).` : '',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stopOperatorSocket();
  await settlement.stop();
  await market.stop();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
