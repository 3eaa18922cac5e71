// The test projects of `vitest` (vite.config.ts `test.projects`); tests/run.ts and package.json's scripts name them.
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The end-to-end files that run after the others, once the suites are done too (tests/run.ts):
 * - E2E_AFTER (project e2e-after), two at a time: those that time their own servers (several processes on one
 *   database, SIGKILLed and started again) with little room to spare beside the suites, and offline-screens (its
 *   markers wait on the worker's network timeout, which a machine busy with the suites can overrun; beside the other
 *   end-to-end files its waits hold a browser's place that they would use, so the whole takes longer, not shorter);
 * - E2E_ALONE (project e2e-alone), one at a time and last: those that time the app.
 */
const e2eFiles = (...names: string[]) => names.map((name) => `tests/e2e/${name}.test.ts`);
const E2E_AFTER = e2eFiles('cluster', 'index-cluster', 'crash', 'offline-screens');
const E2E_ALONE = e2eFiles('first-screen', 'repeat-visit');
/**
 * The file that makes network namespaces, links and a bridge (project `hosts`): Chromium takes each of those changes
 * for a change of network and aborts its requests in flight (net::ERR_NETWORK_CHANGED), so it runs before any browser
 * does (tests/run.ts), not beside them in the PostgreSQL suite.
 */
const NETWORK_FILES = ['tests/server/two-hosts-pg.test.ts'];

const serverFiles = (...names: string[]) => names.map((name) => `tests/server/${name}.test.ts`);
/*
 * Where a server test file runs: once, on the database where its risk lives. Both engines run the same SQL (the same
 * migrations, queries and driver-independent code), and PostgreSQL runs a file 3–10 times faster than the embedded
 * PGlite here, so by default a file runs on PostgreSQL (project `server-pg`): the general behaviour, and everything
 * about locking, concurrency, two processes, the SQL dialect or the `pg` driver. A new file lands there unless it is
 * named below. Project `server` (PGlite) runs what is about the embedded database itself, a smoke set of the money
 * paths, the files both projects need, and the files that open no database. tests/unit/test-projects.test.ts keeps
 * these lists true to the folder.
 */
/**
 * About the embedded database itself, PGlite only: its backup and restore; a server process started as `npm start`
 * starts it (the embedded database in a folder: market index, entry at the next tick, Prometheus watching); the
 * operator command on a stopped server, which opens the server's database folder itself.
 */
export const EMBEDDED_FILES = serverFiles('backup', 'entry-fairness', 'index-server', 'production-guard', 'prometheus');
/**
 * The smoke set, on PGlite as well as on PostgreSQL: the embedded engine is the one `npm start` runs, so it runs the
 * money paths once through the calls — money in (recharge), money out (withdraw), an option bought and settled
 * (options-calls), contracts frozen, filled and revoked (contracts-calls), stops and take-profit / stop-loss pairs
 * released, filled and expired with their batch fills (contract-triggers), the referral reward paid once a friend
 * (referrals), and every way the ledger posts (ledger-kinds). The end-to-end journeys run on PGlite too
 * (tests/e2e/global-setup.ts).
 */
export const EMBEDDED_SMOKE = serverFiles(
  'contract-triggers',
  'contracts-calls',
  'ledger-kinds',
  'options-calls',
  'recharge',
  'referrals',
  'withdraw',
);
/**
 * On both databases, whole, as each runs code of its own there: database-kind proves each project runs on the engine
 * it names; cached-answers tests the change notices (delivered with the commit in the embedded database, LISTEN and a
 * heartbeat on PostgreSQL; its tests of another process run on PostgreSQL only); rate-limits tests the request
 * counters (in the process's memory on the embedded database, a table every process shares on PostgreSQL); receipts
 * signs and verifies settlement receipts from the orders' records of either engine (its numeric and jsonb columns);
 * liabilities builds the proof-of-liabilities tree of 10,000 customers from the ledger on each engine; write-outcome
 * says what became of a write whose answer was lost on the engine `npm start` runs too (its case of a key held by
 * another transaction needs a second connection: PostgreSQL only); usernames-ignore-case folds names by the engine's
 * own lower() and normalize() (its unique index and its migration too), whose letter case beyond ASCII follows each
 * engine's character classification.
 */
export const BOTH_FILES = serverFiles(
  'cached-answers',
  'database-kind',
  'liabilities',
  'rate-limits',
  'receipts',
  'usernames-ignore-case',
  'write-outcome',
);
/**
 * No database at all (pure functions, stand-ins, the OpenAPI mock): once, in project `server`, which needs nothing
 * installed.
 */
export const NO_DATABASE_FILES = serverFiles(
  'index-streams',
  'openapi-mock',
  'options-domain',
  'price-fanout',
  'refusal',
  'trades-fifo',
);

/** Every worker's first setup file: the server's resolve hook for installed packages (tests/resolve-hook.ts). */
const RESOLVE_HOOK = 'tests/resolve-hook.ts';

// Time limits: they catch a hang; they time nothing, and a run is short of CPU throughout (its cores 97–100 %
// busy), so a test's time grows with the machine's slowness. On 2026-12-01 a clean-clone run on a core hashing 1,312
// MB/s SHA-256 (the usual figure 1,967) took 2,326 s and 4,587 core-seconds, 2.3 times the usual: server tests took
// 22–28 s of a 30 s limit and some end-to-end ones 96 s of 120. The defaults below leave three times a usual run's
// time: 90 s a test in the unit and server projects (hooks 180 s), 300 s in the end-to-end ones.
/** What the end-to-end projects share: the one server of the run (tests/e2e/global-setup.ts) and their time limits. */
const E2E_PROJECT = {
  environment: 'node',
  globalSetup: ['tests/e2e/global-setup.ts'],
  setupFiles: [RESOLVE_HOOK],
  testTimeout: 300_000,
  hookTimeout: 300_000,
  // A screen waited for (expect.poll) may take a server round trip and a render on a machine also running the server
  // suites (tests/run.ts): 10 s, not vitest's 1 s. A poll that passes returns at once.
  expect: { poll: { timeout: 10_000 } },
  // A worker runs file after file with the modules it has loaded (playwright-core, the helpers, the API contract): the
  // helpers hold no state of their own, each file launches its own browser. Measured on 8 files: the workers' CPU
  // 17.3 s isolated, 12.0 s not (vitest's import time 22.1 s → 7.1 s), so about 0.7 s of a core a file.
  isolate: false,
};

export const testProjects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'unit',
      // On Node: a file that needs a DOM (it renders, or the module it tests reads window, document or storage) says
      // so in its first line, `// @vitest-environment jsdom`; a jsdom costs about a second a file.
      environment: 'node',
      include: ['tests/unit/**/*.test.{ts,tsx}'],
      setupFiles: [RESOLVE_HOOK, 'tests/unit/setup.ts'],
      // Beside the end-to-end files (tests/run.ts) a test that imports the app's modules afresh may wait
      // seconds for a core: 90 s, like the server suites, not vitest's 5 s (see the note on time limits above).
      testTimeout: 90_000,
      // Two files at a time (vitest's default is one fewer than the cores: one on a 2-core machine); the
      // unit, server and server-pg projects run together and must agree on it.
      maxWorkers: 2,
    },
  },
  {
    test: {
      name: 'server',
      environment: 'node',
      include: [...EMBEDDED_FILES, ...EMBEDDED_SMOKE, ...BOTH_FILES, ...NO_DATABASE_FILES],
      globalSetup: ['tests/server/global-setup.ts'],
      setupFiles: [RESOLVE_HOOK],
      testTimeout: 90_000,
      hookTimeout: 180_000,
      maxWorkers: 2,
      // A worker runs file after file with the modules it has loaded (the server, the API contract): each file builds
      // its own app on its own database, and the server's module state is caches only.
      isolate: false,
    },
  },
  {
    test: {
      name: 'server-pg',
      environment: 'node',
      include: ['tests/server/**/*.test.ts'],
      exclude: [...EMBEDDED_FILES, ...NO_DATABASE_FILES, ...NETWORK_FILES],
      globalSetup: ['tests/server/global-setup-pg.ts'],
      setupFiles: [RESOLVE_HOOK],
      testTimeout: 90_000,
      hookTimeout: 180_000,
      maxWorkers: 2,
      // A worker runs file after file with the modules it has loaded (the server, the API contract): each file builds
      // its own app on its own database, and the server's module state is caches only.
      isolate: false,
    },
  },
  // Its own PostgreSQL, HAProxy and servers: no global setup.
  {
    test: {
      name: 'hosts',
      environment: 'node',
      include: NETWORK_FILES,
      setupFiles: [RESOLVE_HOOK],
      testTimeout: 90_000,
      hookTimeout: 180_000,
    },
  },
  {
    test: {
      ...E2E_PROJECT,
      name: 'e2e',
      include: ['tests/e2e/**/*.test.ts'],
      exclude: [...E2E_AFTER, ...E2E_ALONE],
      // Two files at a time (three starved the shared server's clock on a busy 2-core machine). Files that use
      // the shared server's demo account take turns (tests/e2e/demo-account.ts). A groupOrder of its own: a run
      // of every project would otherwise mix e2e's worker count with the others'.
      maxWorkers: 2,
      sequence: { groupOrder: 9 },
    },
  },
  // Two at a time once the others are done.
  { test: { ...E2E_PROJECT, name: 'e2e-after', include: E2E_AFTER, maxWorkers: 2, sequence: { groupOrder: 10 } } },
  // The files that time the app, one at a time after e2e-after.
  {
    test: {
      ...E2E_PROJECT,
      name: 'e2e-alone',
      include: E2E_ALONE,
      fileParallelism: false,
      sequence: { groupOrder: 11 },
    },
  },
];
