// Starts the real server (production mode, serving the built PWA from dist/) on a free port with
// a fresh embedded database; its log is kept so tests can read the codes the outbox sender wrote.
// The end-to-end projects of one vitest run (e2e and e2e-after, whose files run two at a time, and
// e2e-alone, whose timed files run after them one at a time) use this one server: vitest runs each
// project's global setup in its own module instance but in one process, so the server is kept on
// globalThis and stopped after the last.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, type ServerProcess } from '../server/server-process.ts';

interface SharedRun {
  server: Promise<ServerProcess>;
  /** A database folder made by a server's first start (own-server.ts copies it). */
  seeded: Promise<string>;
  work: string;
  webRoot: string;
  users: number;
}
const shared = globalThis as typeof globalThis & { coinvestE2eRun?: SharedRun };

export default async function setup(project: TestProject) {
  // E2E_WEB_ROOT: another build folder (`vite build --outDir …`), so parallel work need not share dist/.
  const webRoot = process.env.E2E_WEB_ROOT || 'dist';
  if (!existsSync(join(webRoot, 'index.html')))
    throw new Error(`Build the PWA first (npm run build): the end-to-end tests drive ${webRoot}/.`);
  if (!shared.coinvestE2eRun) {
    const work = mkdtempSync(join(tmpdir(), 'coinvest-e2e-'));
    // PAYEE_COOLING_HOURS=0: journeys add a bank card and withdraw to it at once; payee-cooling.test.ts runs its own
    // server with the default.
    // PUSH_SERVICE_HOSTS: push.test.ts's stand-in subscription (headless Chromium has no push service of its own).
    // FEED_INTERVAL_MS=200: a market step every 4 s of the 20× clock, not every second. A step costs the idle
    // server ~7 ms of CPU (recording and the matcher's check): 20 steps a second kept it at 23 % of a core, 5 at
    // 15 %, beside the suites that need the core (tests/run.ts). A quote stays fresh for 10 market seconds
    // (500 ms here): a step every 200 ms leaves about 250 ms for a busy machine. Settlement takes the last tick within
    // those 10 s before an option's end, and the simulator scales each move to the market time it covers.
    // priority -5: ahead of the suites and browsers beside it. At an even share, a machine running `npm test` held
    // it back up to 950 ms at times: static files served in 0.9 s, nine gaps of over 10 market seconds between
    // steps in one run (a quote going stale, an option ending without a price).
    const server = startServer({
      work,
      priority: -5,
      env: {
        // The embedded database, as `npm start` runs it, whatever the shell's DATABASE_URL: the server suite runs most
        // files on PostgreSQL (tests/projects.ts), so the journeys are where the whole product runs on PGlite.
        DATABASE_URL: '',
        DATA_DIR: join(work, 'data'),
        WEB_ROOT: webRoot,
        AUTH_RATE_LIMIT: '1000',
        CLOCK_SPEED: '20',
        FEED_INTERVAL_MS: '200',
        PAYEE_COOLING_HOURS: '0',
        PUSH_SERVICE_HOSTS: 'push.example.invalid',
      },
    });
    shared.coinvestE2eRun = { server, seeded: seededFolder(work, webRoot), work, webRoot, users: 0 };
  }
  const run = shared.coinvestE2eRun;
  run.users += 1;
  let server: ServerProcess;
  let seeded: string;
  try {
    [server, seeded] = await Promise.all([run.server, run.seeded]);
  } catch (error) {
    // One of the two did not start (a loaded machine): the other, started, must not outlive the run.
    run.users -= 1;
    if (run.users === 0) {
      shared.coinvestE2eRun = undefined;
      await run.server.then((started) => started.stop()).catch(() => undefined);
    }
    throw error;
  }
  project.provide('baseUrl', server.base);
  project.provide('seededData', seeded);
  project.provide('serverLog', server.logFile);
  project.provide('dataDir', join(run.work, 'data'));
  project.provide('webRoot', run.webRoot);
  project.provide('runDir', run.work);
  project.provide('artifacts', join(process.cwd(), 'test-results', 'screens'));
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.coinvestE2eRun = undefined;
    await server.stop();
  };
}

/**
 * The database folder a server leaves after its first start (migrated, with the demo data) and a clean stop. A file
 * that runs a server of its own starts it on a copy (own-server.ts): a first start costs about 6 s of a core more than
 * a start on a folder that has it (11.2 s against 5.1 s, measured), and a dozen files do it.
 */
async function seededFolder(work: string, webRoot: string): Promise<string> {
  const dataDir = join(work, 'seeded');
  const server = await startServer({
    work,
    name: 'seeding server',
    env: { DATABASE_URL: '', DATA_DIR: dataDir, WEB_ROOT: webRoot, LOG_LEVEL: 'warn' },
  });
  // A clean stop, however long the machine takes: a folder copied after a SIGKILL would make every copy recover it.
  await server.stop(120_000);
  if (existsSync(join(dataDir, '.server.lock')))
    throw new Error(`The seeding server did not stop cleanly: its lock is still in ${dataDir}`);
  return dataDir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverLog: string;
    /** The server's embedded database folder: the operator command reaches the server through it. */
    dataDir: string;
    /** A database folder after a server's first start, to copy (own-server.ts). */
    seededData: string;
    /** The built PWA the server serves (dist/ unless E2E_WEB_ROOT names another). */
    webRoot: string;
    /** A folder of this run, shared by the files (the second build, the demo account's lock). */
    runDir: string;
    artifacts: string;
  }
}
