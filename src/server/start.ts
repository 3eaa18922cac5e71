// Start: config → database (migrated) → demo data → market feed → HTTP → jobs.
// Stops cleanly on SIGINT/SIGTERM.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { claimKeyCheck, recordProduction } from './domain/config-entries.ts';
import { DEMO_ACCOUNT, seedDemo } from './db/seed.ts';
import { seedMarkets } from './db/seed-markets.ts';
import { seedFunds } from './db/seed-funds.ts';
import { storeWalletAddressesChecksummed } from './domain/payouts.ts';
import { grantDemoBalances } from './domain/demo.ts';
import { bringPhonesToE164 } from './domain/phone-duplicates.ts';
import { storeEmailsCanonical, usernamesAlike } from './domain/accounts.ts';
import { seedEarn } from './db/seed-earn.ts';
import { seedWelfare } from './db/seed-welfare.ts';
import { buildApp } from './http/app.ts';
import { appSettings, serviceSettings } from './http/settings.ts';
import { protocolsOf } from './http/secure-server.ts';
import { acceleratedClock, systemClock } from './domain/clock.ts';
import { outboxSender } from './domain/code-sender.ts';
import { developmentTransport } from './delivery/development.ts';
import { emailTransport } from './delivery/email.ts';
import { smsTransport } from './delivery/sms.ts';
import { pushTransport } from './delivery/push.ts';
import { vapidKeys } from './domain/push-subscriptions.ts';
import type { Transport } from './delivery/transport.ts';
import { keyCheck, loadTwoFactorKey } from './domain/two-factor-key.ts';
import { loadReceiptKeys } from './domain/receipt-keys.ts';
import { createFeed } from './market/feeds.ts';
import { createMarket } from './market/market.ts';
import { startJobs } from './jobs/schedule.ts';
import { lease } from './market/lease.ts';
import { superviseWorkers } from './workers.ts';
import { describeDelivery } from './delivery/settings.ts';
import { runOperatorCommand } from './ops/commands.ts';
import { serveOperatorCommands } from './ops/socket.ts';
import { createHealth } from './observability/health.ts';
import { keepFeedExchanges, timeSteps } from './observability/feed-exchanges.ts';
import { buildInfo } from './build-info.ts';
import { startHeartbeat } from './jobs/processes.ts';

const started = performance.now();
const config = loadConfig();
// WORKERS=N (PostgreSQL): this process only supervises N workers, each running everything below.
if (config.workers > 1 && cluster.isPrimary) await superviseWorkers(config);
const clock =
  config.clockSpeed > 1 ? acceleratedClock(config.clockSpeed, config.clockOrigin ?? undefined) : systemClock;
const database = await openDatabase(config.database);
const { db } = database;
// Once production, always production: the operator command then refuses test balances here, whatever its shell says.
if (config.production) await recordProduction(db, clock.now());
// Processes starting together on one empty PostgreSQL would both seed it: one at a time.
await database.exclusive(async () => {
  // Stored mobile numbers to E.164; accounts sharing a handset are listed (npm run ops -- phones), never merged.
  const phones = await db.transaction((tx) => bringPhonesToE164(tx, clock.now()));
  if (phones.converted || phones.duplicates || phones.notMobile)
    console.log(
      `Mobile numbers: ${phones.converted} brought to E.164; ${phones.duplicates} accounts share a handset and ${phones.notMobile} hold no mobile number, listed by \`npm run ops -- phones\``,
    );
  // Legacy accounts whose usernames differ by letter case alone keep the unique index on usernames off (decision 0009).
  const alike = await usernamesAlike(db);
  if (alike.length)
    console.log(
      `Usernames: ${alike.length} groups of accounts differ by letter case alone (users ${alike.map((ids) => ids.join(' and ')).join('; ')}); new ones are refused, and the unique index users_username_key_idx waits until they are resolved (src/server/db/decisions/0009-usernames-ignore-case.md)`,
    );
  if (config.seedDemo) await seedDemo(db);
  await seedMarkets(db, clock.now());
  await seedFunds(db);
  await storeWalletAddressesChecksummed(db);
  await storeEmailsCanonical(db);
  if (config.seedDemo) await grantDemoBalances(db, DEMO_ACCOUNT.username, clock.now());
  await seedEarn(db, clock.now(), config.earnTimeZone);
  await seedWelfare(db);
});

/** What the market index reports (connections, halts, backfill): the server log once it exists. */
let info: (line: string) => void = (line) => console.log(line);
let log: (message: string, error?: unknown) => void = (message, error) => console.error(message, error);
const changes = database.changes((error) => log('change notices interrupted', error));
const feed = await createFeed(db, {
  name: config.priceFeed,
  seed: config.feedSeed,
  clock,
  intervalMs: config.feedIntervalMs ?? Math.max(20, 1000 / config.clockSpeed),
  exchanges: config.indexExchanges,
  log: (line) => info(line),
  // An operator's change of a pair's tick applies from the feed's next step, in whichever process holds it.
  changes,
});
// The metrics: each step's recording timed; the index's exchanges as every process sees them (the holder writes them).
timeSteps(feed);
const feedExchanges = keepFeedExchanges(db, feed, clock, { log: (error) => log('feed_exchanges not written', error) });
/** /readyz: turned not-ready first when the process stops. */
const health = createHealth();
// Every process serves the market; on PostgreSQL only the holder of the 'price-feed' lease runs the feed, the
// others follow the recorded ticks: at once when the change notice of a step arrives, else every
// 250 ms (faster on an accelerated test clock). The embedded database serves one process (its lock file proves it):
// that process runs the feed alone, with no lease to renew every second and confirm at every step.
const market = createMarket(db, feed, clock, (error) => log('price feed failed', error), {
  lease: database.kind === 'pglite' ? undefined : lease(db, 'price-feed'),
  followIntervalMs: Math.max(20, Math.min(250, config.feedIntervalMs ?? 1000 / config.clockSpeed)),
  changes,
});
// One key for every process on this database (two hosts with their own key files would turn down each other's codes).
const twoFactorKey = loadTwoFactorKey(config.twoFactorKey, config.twoFactorKeyFile);
await claimKeyCheck(db, 'two_factor_key_check', keyCheck(twoFactorKey));
// The keys settlement receipts are signed with (every process of this database must be given the same ones).
const receiptKeys = loadReceiptKeys(config.receiptKeys, config.receiptKeysFile, clock.now());
// Outgoing messages by channel; a channel without a transport here goes to the server log (delivery/development.ts).
const transports: Partial<Record<string, Transport>> = {};
if (config.delivery.email) transports.email = emailTransport(config.delivery.email);
if (config.delivery.sms) transports.sms = smsTransport(config.delivery.sms);
// Web Push: the VAPID key pair is made on the first start and kept in the database, so every process signs with it.
await vapidKeys(db);
transports.push = pushTransport(db, { subject: config.vapidSubject });
/** The version and build this process runs (the console's system page, its row in server_processes). */
const build = buildInfo(config.webRoot, config.buildId);
/** Set once the jobs run: a queued code is sent at once, not at the delivery job's next tick. */
let deliverNow = () => {};
const app = await buildApp(
  {
    ...serviceSettings(config),
    db,
    reads: database.reads,
    clock,
    market,
    sender: outboxSender(db, () => deliverNow()),
    changes,
    twoFactorKey,
    receiptKeys,
    build,
  },
  {
    ...appSettings(config),
    logger: { level: config.logLevel },
    tls: config.tls ? { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) } : null,
    metricsToken: config.metricsToken,
    health,
    feedExchanges: feedExchanges?.states ?? null,
  },
);
log = (message, error) => app.log.error({ err: error }, message);
info = (line) => app.log.info(line);

// The price feed runs on the holder of its lease only (market.start() takes the lease or follows; its writes are
// fenced).
market.start();
// Every periodic job, and which process runs which (jobs/schedule.ts).
const delivery = {
  transports,
  fallback: developmentTransport((line) => info(line)),
  retrySeconds: config.delivery.retrySeconds,
};
const jobs = startJobs({
  db,
  clock,
  clockSpeed: config.clockSpeed,
  market,
  timeZone: config.earnTimeZone,
  delivery,
  reconcileEveryMs: config.reconcileEveryMs,
  log,
});
deliverNow = jobs.deliverNow;
// This process's row in server_processes, renewed every 5 s (the console's system page lists the live ones).
const heartbeat = startHeartbeat(db, { ...build, startedAt: new Date(performance.timeOrigin) }, (error) =>
  log('process heartbeat failed', error),
);

await app.listen({ port: config.port, host: config.host });
// The embedded database has one process: the operator command reaches it through this server.
const stopOperatorSocket =
  config.database.kind === 'pglite'
    ? await serveOperatorCommands(config.database.dataDir, (argv) =>
        runOperatorCommand(
          {
            db,
            now: clock.now(),
            production: config.production,
            earnTimeZone: config.earnTimeZone,
            twoFactorKey,
            fourEyesUsdt: config.operatorConsole.fourEyesUsdt,
            rewardCaps: config.operatorConsole.rewardCaps,
          },
          argv,
        ),
      )
    : async () => {};
// Before the line that says it runs: whoever starts it may stop it from that moment on, and the stop is clean.
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  // Not ready first, still serving: a load balancer checking /readyz every second moves the traffic away meanwhile.
  health.stopping = true;
  if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
  await stopOperatorSocket();
  await jobs.stop();
  await market.stop();
  await app.close();
  await feedExchanges?.stop();
  await heartbeat.stop();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const scheme = config.tls ? 'https' : 'http';
const feedDescription = !feed.simulated
  ? `market index of ${config.indexExchanges.map((exchange) => exchange.label).join(', ')} (the median of their fresh prices; a coin without two is halted)`
  : feed.seeded
    ? `simulated feed REPLAYING FEED_SEED=${config.feedSeed}: anyone who knows the seed can compute every price (tests and replays only; the app labels it "Simulated · replay")`
    : 'simulated feed, drawn from a cryptographic random source (no one can know a price before it is recorded)';
// Addresses a phone on the same network can open (OPERATIONS.md beside this file: "On a phone").
const lanAddresses = ['0.0.0.0', '::'].includes(config.host)
  ? Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === 'IPv4' && !address.internal)
      .map((address) => `${scheme}://${address!.address}:${config.port}`)
  : [];
const where =
  config.database.kind === 'postgres'
    ? 'PostgreSQL'
    : `embedded database in ${'dataDir' in config.database ? config.database.dataDir : 'memory'}`;
console.log(
  [
    '',
    `Coinvest is running at ${scheme}://localhost:${config.port} (${protocolsOf(Boolean(config.tls))}; ${where}), ready in ${Math.round(performance.now() - started)} ms.`,
    lanAddresses.length
      ? `On this network: ${lanAddresses.join(', ')}${config.tls ? '' : ' (plain http: works, but offline use and installing need https, see src/server/OPERATIONS.md)'}.`
      : '',
    `Messages: ${describeDelivery(config.delivery)}.`,
    `Prices: ${feedDescription}${config.clockSpeed > 1 ? `, test clock at ${config.clockSpeed}× real time` : ''}.`,
    config.seedDemo
      ? `Demo account: ${DEMO_ACCOUNT.username} / ${DEMO_ACCOUNT.password} (payment password ${DEMO_ACCOUNT.paypass}).`
      : '',
    '',
  ].join('\n'),
);
