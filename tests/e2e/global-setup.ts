// Starts the real server (production mode, serving the built PWA from dist/) on a free port with
// a fresh embedded database; its log is kept so tests can read the codes the outbox sender wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../server/postgres.ts';


let server: ChildProcess | null = null;

export default async function setup(project: TestProject) {
  // E2E_WEB_ROOT: another build folder (`vite build --outDir …`), so parallel work need not share dist/.
  const webRoot = process.env.E2E_WEB_ROOT || 'dist';
  if (!existsSync(join(webRoot, 'index.html'))) throw new Error(`Build the PWA first (npm run build): the end-to-end tests drive ${webRoot}/.`);
  const work = mkdtempSync(join(tmpdir(), 'coinvest-e2e-'));
  const port = await freePort();
  const logFile = join(work, 'server.log');
  writeFileSync(logFile, '');
  const log = createWriteStream(logFile);
  server = spawn('node_modules/.bin/tsx', ['src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(work, 'data'), WEB_ROOT: webRoot, AUTH_RATE_LIMIT: '1000', CLOCK_SPEED: '20' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);

  const deadline = Date.now() + 60_000;
  while (!readFileSync(logFile, 'utf8').includes('is running at')) {
    const problem = server.exitCode !== null ? 'stopped' : Date.now() > deadline ? 'did not start in 60 s' : null;
    if (problem) {
      server.kill('SIGKILL');
      throw new Error(`The server ${problem}: ${readFileSync(logFile, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('serverLog', logFile);
  project.provide('dataDir', join(work, 'data'));
  project.provide('webRoot', webRoot);
  project.provide('artifacts', join(process.cwd(), 'test-results', 'screens'));

  return async () => {
    if (!server || server.exitCode !== null) return;
    const stopped = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverLog: string;
    /** The server's embedded database folder: the operator command reaches the server through it. */
    dataDir: string;
    /** The built PWA the server serves (dist/ unless E2E_WEB_ROOT names another). */
    webRoot: string;
    artifacts: string;
  }
}
