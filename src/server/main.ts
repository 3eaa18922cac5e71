// Start: config → database (migrated) → demo data → HTTP. Stops cleanly on SIGINT/SIGTERM.
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { DEMO_ACCOUNT, seedDemo } from './db/seed.ts';
import { buildApp } from './http/app.ts';
import { systemClock } from './http/context.ts';
import { outboxSender } from './domain/code-sender.ts';

const started = performance.now();
const config = loadConfig();
const database = await openDatabase(config.database);
const app = await buildApp(
  { db: database.db, clock: systemClock, sender: outboxSender(database.db, (line) => app.log.info(line)) },
  {
    webRoot: config.webRoot,
    corsOrigins: config.corsOrigins,
    trustProxyHops: config.trustProxyHops || undefined,
    authRateLimitPerMinute: config.authRateLimitPerMinute,
    logger: { level: config.logLevel },
  },
);
if (config.seedDemo) await seedDemo(database.db);

await app.listen({ port: config.port, host: config.host });
const where = config.database.kind === 'postgres' ? 'PostgreSQL' : `embedded database in ${'dataDir' in config.database ? config.database.dataDir : 'memory'}`;
console.log(
  [
    '',
    `Coinvest is running at http://localhost:${config.port} (${where}), ready in ${Math.round(performance.now() - started)} ms.`,
    config.seedDemo ? `Demo account: ${DEMO_ACCOUNT.username} / ${DEMO_ACCOUNT.password} (payment password ${DEMO_ACCOUNT.paypass}).` : '',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
