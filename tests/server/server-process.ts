// The real server as its own process, for the tests that need one (end-to-end setups, crash and
// cluster runs, the market index): started with `node` as `npm start` does (so the pid is the server's own,
// and SIGKILL kills it), on a free loopback port, its output kept in a log file the tests can read
// (codes the development sender writes), ready once it prints that it is running — an event, not a poll.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './postgres.ts';

export interface ServerProcess {
  /** http(s)://<host>:<port> (127.0.0.1 unless started on another address) */
  readonly base: string;
  readonly port: number;
  /** The file its output goes to. */
  readonly logFile: string;
  readonly child: ChildProcess;
  /** Milliseconds the server itself reported from start to listening. */
  readonly readyMs: number;
  /** Its output so far. */
  output(): string;
  /** SIGTERM (a clean stop), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL: no handler runs, nothing is flushed or closed. */
  kill(): Promise<void>;
}

export interface ServerOptions {
  /**
   * Variables on top of this process's own and the defaults below (NODE_ENV production, HOST 127.0.0.1, PORT, and
   * SHUTDOWN_DRAIN_MS 0: a test's SIGTERM stops at once unless it sets a drain).
   */
  env?: Record<string, string>;
  /** A folder for the log (a new temporary one by default). */
  work?: string;
  /** The log file's name in `work`. */
  name?: string;
  port?: number;
  /** The address it listens on (HOST) and the base names: 127.0.0.1 by default. */
  host?: string;
  /**
   * A command it runs under, e.g. `ip netns exec NAME` (a network namespace of its own): one that execs it, so the pid
   * is still the server's own.
   */
  launcher?: string[];
  /** Https: the base says so. */
  tls?: boolean;
  /**
   * How long it may take to say it is ready (240 s): a start compiles the server and migrates its database, and beside
   * the other suites and the browsers of a run on a slow machine (one core 1,312 MB/s SHA-256) starts took 70–90 s,
   * some longer than 90.
   */
  timeoutMs?: number;
  /**
   * Its scheduling priority (os.setPriority; below 0 is ahead of the test runners), where the system allows
   * it (root does): a server has its cores to itself in production, not a share of a machine running the tests.
   */
  priority?: number;
}

const READY = /is running at .*ready in (\d+) ms/;

export async function startServer({
  env = {},
  work = mkdtempSync(join(tmpdir(), 'coinvest-server-')),
  name = 'server',
  port,
  host = '127.0.0.1',
  launcher = [],
  tls = false,
  timeoutMs = 240_000,
  priority,
}: ServerOptions = {}): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const logFile = join(work, `${name}.log`);
  const log = createWriteStream(logFile);
  // The flags of `npm start` (package.json): a 32 MB young generation (src/server/OPERATIONS.md).
  const node = [process.execPath, '--max-semi-space-size=32', 'src/server/main.ts'];
  const [command, ...args] = [...launcher, ...node] as [string, ...string[]];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: host,
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
      PORT: String(listenPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (priority !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, priority);
    } catch {
      // Not allowed here (a user may only lower a priority): the server shares the machine evenly.
    }
  }
  let text = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readyMs = await new Promise<number>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(`did not start in ${timeoutMs / 1000} s`), timeoutMs);
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The ${name} ${why}: ${text}`));
    };
    const take = (chunk: Buffer) => {
      text += chunk.toString();
      log.write(chunk);
      const ready = text.match(READY);
      if (ready && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(Number(ready[1]));
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code, signal) => fail(`stopped (${signal ?? `exit ${code}`})`));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    base: `${tls ? 'https' : 'http'}://${host}:${listenPort}`,
    port: listenPort,
    logFile,
    child,
    readyMs,
    output: () => text,
    async stop(graceMs = 5_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      let timer: ReturnType<typeof setTimeout> | undefined;
      // The grace's timer is cleared once the process has gone: a long grace must not hold the test run open.
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      if (running()) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async kill() {
      if (!running()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** How an operator command ended: its exit code (0 for success) and what it printed. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr, trimmed: what the operator reads in the terminal. */
  output: string;
}

/** The operator command's entry point (`npm run ops`), by absolute path so any working folder can run it. */
const OPS_ENTRY = fileURLToPath(new URL('../../src/server/ops/main.ts', import.meta.url));

/**
 * `npm run ops -- ...argv` as its own process on this Node, as an operator runs it: on this process's variables with
 * `DATABASE_URL` empty (the embedded database in `DATA_DIR`) unless `env` names one, `env` on top. It resolves once
 * the command exits, whatever its code: the test reads the code and the text. No time limit of its own: the test's
 * limit ends a command that never exits (one starts in about 1.4 s of a core alone, and on a clean-clone run sharing
 * both cores with the suites a 30 s limit killed one).
 */
export function runOpsCommand(
  argv: string[],
  { env = {}, cwd }: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [OPS_ENTRY, ...argv],
      { env: { ...process.env, DATABASE_URL: '', ...env }, cwd },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderr,
          output: `${stdout}${stderr}`.trim(),
        }),
    );
  });
}

/**
 * `runOpsCommand` for a command that must succeed: what it printed on stdout. Throws an Error with the exit code and
 * everything it printed when it exits with any other code than 0.
 */
export async function runOpsCommandOk(
  argv: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<string> {
  const command = await runOpsCommand(argv, options);
  if (command.code !== 0) throw new Error(`ops ${argv.join(' ')} exited ${command.code}: ${command.output}`);
  return command.stdout;
}
