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

/** What the end-to-end projects share: the one server of the run (tests/e2e/global-setup.ts) and their time limits. */
const E2E_PROJECT = {
  environment: 'node',
  globalSetup: ['tests/e2e/global-setup.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // A screen waited for (expect.poll) may take a server round trip and a render on a machine also running the server
  // suites (tests/run.ts): 10 s, not vitest's 1 s. A poll that passes returns at once.
  expect: { poll: { timeout: 10_000 } },
};

export const testProjects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'unit',
      environment: 'jsdom',
      include: ['tests/unit/**/*.test.{ts,tsx}'],
      setupFiles: ['tests/unit/setup.ts'],
      // Beside the end-to-end files (tests/run.ts) a test that imports the app's modules afresh may wait
      // seconds for a core: 30 s, like the server suites, not vitest's 5 s.
      testTimeout: 30_000,
      // Two files at a time (vitest's default is one fewer than the cores: one on a 2-core machine); the
      // unit, server and server-pg projects run together and must agree on it.
      maxWorkers: 2,
    },
  },
  {
    test: {
      name: 'server',
      environment: 'node',
      include: ['tests/server/**/*.test.ts'],
      exclude: NETWORK_FILES,
      globalSetup: ['tests/server/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
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
      // The embedded database's own backup and restore: PGlite only; the mock made from the document uses no database.
      exclude: ['tests/server/backup.test.ts', 'tests/server/openapi-mock.test.ts', ...NETWORK_FILES],
      globalSetup: ['tests/server/global-setup-pg.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      maxWorkers: 2,
      // A worker runs file after file with the modules it has loaded (the server, the API contract): each file builds
      // its own app on its own database, and the server's module state is caches only.
      isolate: false,
    },
  },
  // Its own PostgreSQL, HAProxy and servers: no global setup.
  { test: { name: 'hosts', environment: 'node', include: NETWORK_FILES, testTimeout: 30_000, hookTimeout: 60_000 } },
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
