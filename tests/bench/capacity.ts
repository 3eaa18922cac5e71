// Capacity: how many customers one machine holds. Simulated customers (capacity-customers.ts, in
// load-generator processes of their own) each keep the live price stream open, refresh a list or a
// balance every 10–30 s, place an option or contract order about once a minute and read a page of
// history now and then, against the real server started with WORKERS=2 on a throwaway PostgreSQL
// (simulated price feed). The customers are made straight in the database — users, sessions and
// opening balances through the ledger, with the server's own hashing — not by thousands of register
// calls. Steps of 1k, 2k, 5k, 10k and 20k customers (or those named: `npm run bench -- capacity
// 1000,2000`), each held and measured for CAPACITY_SECONDS (60) after CAPACITY_SETTLE_SECONDS (15)
// of settling; per step the calls a second, p50/p99 by kind of call, tick → stream client lag,
// CPU of the server's processes, PostgreSQL and the generators (from /proc), database time,
// event-loop delay and pool use (the server's /metrics), errors and time-outs, what is closest to
// its limit, and PASS/FAIL against the targets stated in the header.
// Another target instead of its own server: CAPACITY_URL (a server or a balancer in front of
// several), with CAPACITY_DATABASE_URL (its database, where the customers are made),
// CAPACITY_METRICS_URLS (each host's own base, comma separated; default CAPACITY_URL) and
// CAPACITY_METRICS_TOKEN, CAPACITY_PROCESSES (label=pid,…: processes of this machine whose CPU,
// children included, is shown: hosts, the balancer). Or from code: runCapacity(target, steps). CAPACITY_PROFILE=folder:
// the server's processes write CPU profiles (.cpuprofile, for Chrome's DevTools) there as they stop.
// CAPACITY_STATEMENTS=N (own server only): PostgreSQL loads pg_stat_statements, and each step prints its N statements
// that took the most of PostgreSQL's time (calls, total and mean ms, the text).
import { calibrationText } from '../machine-calibration.ts';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../src/server/db/connection.ts';
import { sessions, users } from '../../src/server/db/schema.ts';
import { hashSecret } from '../../src/server/secret-hash.ts';
import { hashToken } from '../../src/server/domain/sessions.ts';
import { USDT, postRows } from '../../src/server/domain/ledger.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';
import { freePort, postgresBinaries, startPostgres } from '../server/postgres.ts';
import { nextMessage } from './stream.ts';
import type { CallFigures, CallKind, NewCustomer, Report, Setup } from './capacity-customers.ts';
import {
  Histogram,
  byPid,
  childrenOf,
  commandOf,
  cpuSeconds,
  fileLimits,
  machineCpu,
  ms,
  openFiles,
  parseMetrics,
  postmasterOn,
  total,
  type Sample,
} from './capacity-probes.ts';

const TARGET = { customers: 10_000, writesP99: 250, readsP99: 100, tickP99: 1_000 };
const DEFAULT_STEPS = [1_000, 2_000, 5_000, 10_000, 20_000];
const SECONDS = Number(process.env.CAPACITY_SECONDS ?? 60);
/** How many of a step's statements to print by PostgreSQL's time (0: none; pg_stat_statements is then not loaded). */
const TOP_STATEMENTS = Number(process.env.CAPACITY_STATEMENTS ?? 0);
const SETTLE_SECONDS = Number(process.env.CAPACITY_SETTLE_SECONDS ?? 15);
/**
 * How many of the statements that connections idle in a transaction ran last to print (0: none), read with PostgreSQL's
 * activity every ACTIVITY_MS: how often each was seen, and how long it had been answered, on average and at most (ms).
 * The transaction's next statement was not sent yet: its connection and locks wait on the server.
 */
const IDLE_STATEMENTS = Number(process.env.CAPACITY_IDLE_STATEMENTS ?? 0);
/**
 * The metrics are read this often while a step is measured (the event-loop delay is each reading's, since the last).
 */
const SAMPLE_MS = 5_000;
/** PostgreSQL's activity (statements running, connections idle in a transaction, lock waits) is read this often. */
const ACTIVITY_MS = 1_000;
/** Each customer's opening balance. */
const GRANT_USDT = '100000';
// Enough that a generator never queues calls of its own: a phone sends its call at once, and what waits is the server's
// to say.
const CALL_SOCKETS = Number(process.env.CAPACITY_CALL_SOCKETS ?? 4_000);
const TIMEOUT_MS = Number(process.env.CAPACITY_TIMEOUT_MS ?? 10_000);
const CORES = availableParallelism();

/** What the bench loads: its own server, or one given (a balancer in front of hosts). */
export interface CapacityTarget {
  /** How it is printed: "one server, WORKERS=2, on a throwaway PostgreSQL". */
  label: string;
  /** http://host:port where the customers connect. */
  base: string;
  /** Its database, where the customers are made. */
  databaseUrl: string;
  /** Each host's own base to read /metrics from, with the token; none: no server-side figures. */
  metrics: { bases: string[]; token: string } | null;
  /** Processes of this machine whose CPU is shown (with all their children), by label. */
  processes(): { label: string; pid: number }[];
  stop(): Promise<void>;
}

// ---- The target ------------------------------------------------------------------------------------

/** The descendants of `pid`, itself first. */
function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]!));
  return all;
}

/**
 * The real server (src/server/main.ts) with WORKERS=2 (or `workers`) on `databaseUrl`, as `npm start` runs it, its
 * output in a log file (one line a request at the production level, LOG_LEVEL=info unless CAPACITY_LOG_LEVEL says
 * otherwise): ready once every worker said it is running. `env` adds to its environment (a host behind a balancer).
 */
export async function startServer(
  databaseUrl: string,
  work: string,
  { workers = 2, name = 'server', env = {} }: { workers?: number; name?: string; env?: Record<string, string> } = {},
) {
  const port = await freePort();
  const logFile = join(work, `${name}.log`);
  const token = env.METRICS_TOKEN ?? randomBytes(16).toString('hex');
  const out = openSync(logFile, 'a');
  // CAPACITY_PROFILE=folder: each server process (the workers inherit it) writes a CPU profile there as it stops.
  const profile = process.env.CAPACITY_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CAPACITY_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--max-semi-space-size=32', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      WORKERS: String(workers),
      DATABASE_URL: databaseUrl,
      METRICS_TOKEN: token,
      WEB_ROOT: '',
      DATA_DIR: work,
      SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: process.env.CAPACITY_LOG_LEVEL ?? 'info',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const deadline = Date.now() + 120_000;
  const log = () => readFileSync(logFile, 'utf8');
  while ((log().match(/is running at/g) ?? []).length < workers) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start:\n${log().slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    token,
    child,
    logFile,
    async stop() {
      const pids = tree(child.pid!);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      }
      // Its workers too, should the supervisor have gone without them.
      for (const pid of pids)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
    },
  };
}

/** A throwaway PostgreSQL and the server with WORKERS=2 on it. */
export async function ownTarget(): Promise<CapacityTarget> {
  if (!postgresBinaries()) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql).');
  const cluster = await startPostgres({
    settings: TOP_STATEMENTS > 0 ? ['shared_preload_libraries=pg_stat_statements'] : [],
  });
  const work = mkdtempSync(join(tmpdir(), 'coinvest-capacity-'));
  try {
    const tcpUrl = await cluster.createDatabase('coinvest');
    // The server reaches PostgreSQL by its Unix socket, as one on the same machine does (CAPACITY_PG_SOCKET=off: over
    // TCP on loopback, as from another machine but without the network's own time). At 5,000 customers the socket
    // saved about a seventh of the server's CPU and of PostgreSQL's (one run each: 70 → 60 % and 47 → 40 % of a core).
    const socket = process.env.CAPACITY_PG_SOCKET !== 'off';
    const databaseUrl = socket ? cluster.socketUrl('coinvest') : tcpUrl;
    const server = await startServer(databaseUrl, work);
    return {
      label:
        `one server, WORKERS=2, simulated feed, on a throwaway PostgreSQL (fsync off) over ` +
        `${socket ? 'its Unix socket' : 'TCP on loopback'}, log ${server.logFile}`,
      base: server.base,
      databaseUrl,
      metrics: { bases: [server.base], token: server.token },
      processes: () => [{ label: 'server', pid: server.child.pid! }],
      async stop() {
        await server.stop();
        await cluster.stop();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** CAPACITY_URL and its companions (see the header). */
function givenTarget(): CapacityTarget {
  const base = process.env.CAPACITY_URL!.replace(/\/$/, '');
  const databaseUrl = process.env.CAPACITY_DATABASE_URL;
  if (!databaseUrl)
    throw new Error('CAPACITY_URL needs CAPACITY_DATABASE_URL: the customers are made in its database.');
  const token = process.env.CAPACITY_METRICS_TOKEN;
  const processes = (process.env.CAPACITY_PROCESSES ?? '')
    .split(',')
    .filter(Boolean)
    .map((item) => {
      const [label, pid] = item.split('=');
      return { label: label!, pid: Number(pid) };
    });
  return {
    label: `the server at ${base}`,
    base,
    databaseUrl,
    metrics: token
      ? { bases: (process.env.CAPACITY_METRICS_URLS ?? base).split(',').map((url) => url.replace(/\/$/, '')), token }
      : null,
    processes: () => processes,
    stop: async () => {},
  };
}

// ---- Customers -------------------------------------------------------------------------------------

/**
 * `count` customers in the target's database, each with a session and GRANT_USDT posted through the ledger: users in
 * batches (one password hash for all: hashing is made slow on purpose), sessions by their token's hash, the balances in
 * one posting of rows. Their stream's source address: one of its own on loopback (the server counts anonymous calls
 * per address), unless the target is elsewhere.
 */
async function makeCustomers(database: Database, count: number, loopback: boolean): Promise<NewCustomer[]> {
  const tag = Date.now().toString(36);
  const [passwordHash, paypassHash] = await Promise.all([hashSecret('capacity-1234'), hashSecret('123456')]);
  const made: NewCustomer[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += 1_000) {
    const size = Math.min(1_000, count - start);
    const ids = await database.db
      .insert(users)
      .values(
        Array.from({ length: size }, (_, i) => ({
          username: `cap_${tag}_${start + i}`,
          passwordHash,
          paypassHash,
          nickname: `Customer ${start + i}`,
          inviteCode: `CP${tag}${start + i}`.toUpperCase(),
        })),
      )
      .returning({ id: users.id });
    const tokens = ids.map(() => randomBytes(32).toString('base64url'));
    await database.db.insert(sessions).values(
      ids.map(({ id }, i) => ({
        userId: id,
        tokenHash: hashToken(tokens[i]!),
        createdAt: now,
        lastSeenAt: now,
        userAgent: 'coinvest-capacity-bench',
        device: 'Bench',
      })),
    );
    tokens.forEach((token, i) => {
      const n = start + i;
      made.push({ token, address: loopback ? `127.10.${Math.floor(n / 250)}.${(n % 250) + 1}` : null });
    });
  }
  await database.db.transaction((tx) =>
    postRows(
      tx,
      sql`select id as user_id, ${USDT}::text as asset, 'available'::text as bucket, ${GRANT_USDT}::numeric as amount,
        'demo_grant'::text as kind, 'capacity:' || id as reference from users where username like ${`cap_${tag}_%`}`,
      now,
    ),
  );
  return made;
}

/** What the customers order: the option products and, per contract pair, a market buy's total (USDT). */
async function tradables(base: string): Promise<Pick<Setup, 'products' | 'pairs'>> {
  const read = async <T>(path: string) => {
    const answer = (await (await fetch(`${base}/api${path}`, { headers: { lang: 'en' } })).json()) as {
      data: { lists: T[] };
    };
    return answer.data.lists;
  };
  const products = await read<{ id: number; code: string }>('/coin/option/products');
  const pairs = await read<{ code: string; min_notional: string }>('/coin/trans/pairs');
  return {
    products: products.map(({ id, code }) => ({ id, code })),
    pairs: pairs.map(({ code, min_notional }) => ({
      code,
      total: new Big(min_notional).times(2).gt(10) ? new Big(min_notional).times(2).toFixed() : '10',
    })),
  };
}

// ---- Generators ------------------------------------------------------------------------------------

/** A load generator on Node (its own TypeScript support), talking to this process directly. */
function startGenerator(setup: Setup): ChildProcess {
  const child = fork(fileURLToPath(new URL('./capacity-customers.ts', import.meta.url)), [], {
    execPath: process.execPath,
    execArgv: [],
    serialization: 'advanced',
  });
  child.send(setup);
  return child;
}

// ---- Measuring -------------------------------------------------------------------------------------

/** The readings of the servers' /metrics asked for in a step, and those answered (200) within 10 s. */
interface Readings {
  asked: number;
  answered: number;
}

/** Every host's /metrics now, merged; `readings` counts what was asked and answered. */
async function scrape(target: CapacityTarget, readings: Readings): Promise<Map<string, Sample[]> | null> {
  if (!target.metrics) return null;
  const merged = new Map<string, Sample[]>();
  for (const base of target.metrics.bases) {
    readings.asked += 1;
    try {
      const answer = await fetch(`${base}/metrics`, {
        headers: { authorization: `Bearer ${target.metrics.token}` },
        signal: AbortSignal.timeout(10_000),
      });
      // A refusal (busy: 503; a wrong token: 401) carries no figures.
      if (!answer.ok) throw new Error(`/metrics answered ${answer.status}`);
      for (const [name, samples] of parseMetrics(await answer.text()))
        merged.set(name, [...(merged.get(name) ?? []), ...samples]);
      readings.answered += 1;
    } catch {
      // A host not answering now: its figures are missing from this sample.
    }
  }
  return merged;
}

/** CPU seconds of every process of each group now (the group's process and all its children). */
function cpuNow(groups: { label: string; pid: number }[]) {
  return groups.map(({ label, pid }) => ({
    label,
    pids: new Map(tree(pid).map((one) => [one, cpuSeconds(one) ?? 0])),
  }));
}

interface Window {
  seconds: number;
  calls: Map<string, CallFigures & { latency: Histogram }>;
  lag: Histogram;
  deliveries: number;
  steps: number;
  streams: number;
  drops: number;
  reconnectFailures: number;
  reasons: Map<string, number>;
  generatorCpu: number;
  generatorLoopP99: number;
  /** CPU share (1 = one core) by group, and by process within it. */
  groups: { label: string; share: number; processes: { pid: number; name: string; share: number }[] }[];
  machine: number;
  metrics: {
    statements: number;
    statementSeconds: number;
    /** The API calls the server answered (the stream's excepted). */
    served: number;
    /** The API calls each server process answered, by pid: how evenly the processes shared them. */
    servedByPid: Map<string, number>;
    loopP99: Map<string, number>;
    poolBusy: number;
    poolMax: number;
    poolWaiting: number;
    openFiles: Map<string, { open: number; max: number }>;
    memory: Map<string, number>;
    streamClients: number | null;
    cpu: Map<string, number>;
    /** The readings of /metrics asked for over the step (its first and last among them), and those answered. */
    readings: Readings;
  } | null;
  lockWaits: number;
  activeStatements: number;
  /** Connections the server held in a transaction while PostgreSQL had nothing to do for them. */
  idleInTransaction: number;
  /** The step's statements that took the most of PostgreSQL's time (CAPACITY_STATEMENTS). */
  topStatements: string[];
  /** What connections idle in a transaction had run last, most seen first (CAPACITY_IDLE_STATEMENTS). */
  idleStatements: string[];
  generatorFiles: { open: number; max: number };
}

/** The TOP_STATEMENTS statements of PostgreSQL's time since the step's reset, one line each. */
async function statementsByTime(database: Database): Promise<string[]> {
  const rows = rowsOf<{ calls: number | string; total: number | string; mean: number | string; query: string }>(
    await database.db.execute(sql`select calls, total_exec_time as total, mean_exec_time as mean, query
      from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc limit ${TOP_STATEMENTS}`),
  );
  return rows.map(
    (row) =>
      `${String(row.calls).padStart(8)} calls ${Number(row.total).toFixed(0).padStart(7)} ms ` +
      `(${Number(row.mean).toFixed(2)} ms)  ${row.query.replace(/\s+/g, ' ').slice(0, 160)}`,
  );
}

async function measure(
  target: CapacityTarget,
  database: Database,
  generators: ChildProcess[],
  postgresPid: number | null,
): Promise<Window> {
  const groups = () => [...target.processes(), ...(postgresPid ? [{ label: 'PostgreSQL', pid: postgresPid }] : [])];
  const readings: Readings = { asked: 0, answered: 0 };
  const first = await scrape(target, readings);
  const cpuBefore = cpuNow(groups());
  const cpuFrom = performance.now();
  const machineBefore = machineCpu();
  const selfBefore = process.cpuUsage();
  if (TOP_STATEMENTS > 0) await database.db.execute(sql`select pg_stat_statements_reset()`);
  for (const generator of generators) generator.send({ type: 'measure' });
  const started = performance.now();
  const loops = new Map<string, number>();
  let poolBusy = 0;
  let poolWaiting = 0;
  let lockWaits = 0;
  let activeStatements = 0;
  let idleInTransaction = 0;
  /** Per statement text (its first 110 characters): how often seen last in an idle transaction, for how long (ms). */
  const idleQueries = new Map<string, { count: number; ms: number; max: number }>();
  const files = new Map<string, { open: number; max: number }>();
  const generatorFiles = { open: 0, max: Infinity };
  let last = first;
  let scraped = started;
  while (performance.now() - started < SECONDS * 1000) {
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(ACTIVITY_MS, SECONDS * 1000 - (performance.now() - started))),
    );
    // PostgreSQL's activity every second; the metrics every SAMPLE_MS and at the end.
    const due = performance.now() - scraped >= SAMPLE_MS - 100 || performance.now() - started >= SECONDS * 1000;
    if (due) scraped = performance.now();
    const sample = due ? await scrape(target, readings) : null;
    if (sample) {
      last = sample;
      for (const [pid, value] of byPid(sample, 'coinvest_nodejs_eventloop_lag_p99_seconds'))
        loops.set(pid, Math.max(loops.get(pid) ?? 0, value * 1000));
      poolBusy = Math.max(poolBusy, total(sample, 'coinvest_db_pool_connections', { state: 'busy' }) ?? 0);
      poolWaiting = Math.max(poolWaiting, total(sample, 'coinvest_db_pool_waiting_queries') ?? 0);
      const open = byPid(sample, 'coinvest_process_open_fds');
      const max = byPid(sample, 'coinvest_process_max_fds');
      for (const [pid, value] of open)
        if (value > (files.get(pid)?.open ?? 0)) files.set(pid, { open: value, max: max.get(pid) ?? Infinity });
    }
    const [activity] = rowsOf<{ active: number; waiting: number; idle: number }>(
      await database.db.execute(sql`select count(*) filter (where state = 'active')::int as active,
        count(*) filter (where state = 'idle in transaction')::int as idle,
        count(*) filter (where wait_event_type = 'Lock')::int as waiting
        from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`),
    );
    if (IDLE_STATEMENTS > 0) {
      const idleRows = rowsOf<{ query: string; ms: number }>(
        await database.db.execute(sql`select left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query,
          (extract(epoch from clock_timestamp() - state_change) * 1000)::float8 as ms
          from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`),
      );
      for (const row of idleRows) {
        const seen = idleQueries.get(row.query) ?? { count: 0, ms: 0, max: 0 };
        seen.count += 1;
        seen.ms += row.ms;
        seen.max = Math.max(seen.max, row.ms);
        idleQueries.set(row.query, seen);
      }
    }
    activeStatements = Math.max(activeStatements, activity?.active ?? 0);
    lockWaits = Math.max(lockWaits, activity?.waiting ?? 0);
    idleInTransaction = Math.max(idleInTransaction, activity?.idle ?? 0);
    for (const generator of generators) {
      const found = openFiles(generator.pid!);
      if (found && found.open > generatorFiles.open) Object.assign(generatorFiles, found);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuNow(groups());
  const topStatements = TOP_STATEMENTS > 0 ? await statementsByTime(database) : [];
  // Shares of the time between the two readings (reading /proc takes a while on a busy machine).
  const cpuWindow = (performance.now() - cpuFrom) / 1000;
  const machineAfter = machineCpu();
  const self = process.cpuUsage(selfBefore);
  const reports = await Promise.all(
    generators.map((generator) => {
      const report = nextMessage<Report>(generator, 'report');
      generator.send({ type: 'report' });
      return report;
    }),
  );

  const calls = new Map<string, CallFigures & { latency: Histogram }>();
  const lag = new Histogram();
  const steps = new Set<number>();
  const reasons = new Map<string, number>();
  for (const report of reports) {
    for (const [name, figures] of Object.entries(report.calls)) {
      const sum = calls.get(name) ?? {
        ...figures,
        latency: new Histogram(),
        ok: 0,
        refused: 0,
        errors: 0,
        timeouts: 0,
      };
      sum.latency.merge(figures.latency);
      sum.ok += figures.ok;
      sum.refused += figures.refused;
      sum.errors += figures.errors;
      sum.timeouts += figures.timeouts;
      calls.set(name, sum);
    }
    lag.merge(report.lag);
    for (const id of report.stepIds) steps.add(id);
    for (const [reason, count] of report.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + count);
  }
  const counterDelta = (name: string) => (total(last ?? new Map(), name) ?? 0) - (total(first ?? new Map(), name) ?? 0);
  const api = (metrics: Map<string, Sample[]> | null, name: string) =>
    (metrics?.get(name) ?? [])
      .filter(({ labels }) => labels.route?.startsWith('/api/') && !labels.route.endsWith(PRICE_STREAM_PATH))
      .reduce((sum, sample) => sum + sample.value, 0);
  const apiDelta = (name: string) => api(last, name) - api(first, name);
  /** The API calls each process answered in the window, by its pid. */
  const servedByPid = () => {
    const byProcess = (metrics: Map<string, Sample[]> | null) => {
      const sums = new Map<string, number>();
      for (const sample of metrics?.get('coinvest_http_request_duration_seconds_count') ?? [])
        if (sample.labels.route?.startsWith('/api/') && !sample.labels.route.endsWith(PRICE_STREAM_PATH))
          sums.set(sample.labels.pid ?? '', (sums.get(sample.labels.pid ?? '') ?? 0) + sample.value);
      return sums;
    };
    const before = byProcess(first);
    return new Map([...byProcess(last)].map(([pid, after]) => [pid, after - (before.get(pid) ?? 0)]));
  };
  const cpuByPid = (metrics: Map<string, Sample[]> | null) =>
    byPid(metrics ?? new Map(), 'coinvest_process_cpu_seconds_total');
  const cpuFirst = cpuByPid(first);
  return {
    seconds,
    calls,
    lag,
    deliveries: reports.reduce((sum, report) => sum + report.deliveries, 0),
    steps: steps.size,
    streams: reports.reduce((sum, report) => sum + report.streams, 0),
    drops: reports.reduce((sum, report) => sum + report.drops, 0),
    reconnectFailures: reports.reduce((sum, report) => sum + report.reconnectFailures, 0),
    reasons,
    generatorCpu: reports.reduce((sum, report) => sum + report.cpuSeconds, 0) + (self.user + self.system) / 1e6,
    generatorLoopP99: Math.max(...reports.map((report) => report.loopP99)),
    groups: cpuAfter.map(({ label, pids }) => {
      const before = cpuBefore.find((group) => group.label === label)?.pids ?? new Map<number, number>();
      const processes = [...pids]
        .filter(([pid]) => before.has(pid))
        .map(([pid, after], i) => ({
          pid,
          // The group's own process first: a server's supervisor, whose node children are its workers.
          name:
            i === 0
              ? label === 'server'
                ? 'supervisor'
                : label
              : commandOf(pid) === 'node'
                ? 'worker'
                : commandOf(pid),
          share: (after - before.get(pid)!) / cpuWindow,
        }));
      return { label, share: processes.reduce((sum, one) => sum + one.share, 0), processes };
    }),
    // Busy over all the time the cores counted, in cores.
    machine: ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * CORES,
    metrics: last
      ? {
          statements: counterDelta('coinvest_db_query_duration_seconds_count'),
          statementSeconds: counterDelta('coinvest_db_query_duration_seconds_sum'),
          served: apiDelta('coinvest_http_request_duration_seconds_count'),
          servedByPid: servedByPid(),
          loopP99: loops,
          poolBusy,
          poolMax: total(last, 'coinvest_db_pool_max_connections') ?? 0,
          poolWaiting,
          openFiles: files,
          memory: byPid(last, 'coinvest_process_resident_memory_bytes'),
          streamClients: total(last, 'coinvest_stream_clients'),
          cpu: new Map(
            [...cpuByPid(last)].map(([pid, value]) => [pid, (value - (cpuFirst.get(pid) ?? value)) / seconds]),
          ),
          readings,
        }
      : null,
    lockWaits,
    activeStatements,
    idleInTransaction,
    topStatements,
    idleStatements: [...idleQueries]
      .sort((a, b) => b[1].count - a[1].count)
      .slice(0, IDLE_STATEMENTS)
      .map(
        ([query, seen]) =>
          `${seen.count}× ${(seen.ms / seen.count).toFixed(1)} ms on average, at most ${seen.max.toFixed(0)}: ${query}`,
      ),
    generatorFiles,
  };
}

// ---- Printing --------------------------------------------------------------------------------------

export const pct = (share: number) => `${Math.round(share * 100)} %`;
export const count = (n: number) => Math.round(n).toLocaleString('en');

function byKind(window: Window, kind: CallKind) {
  const latency = new Histogram();
  let answered = 0;
  let refused = 0;
  let errors = 0;
  let timeouts = 0;
  for (const figures of window.calls.values()) {
    if (figures.kind !== kind) continue;
    latency.merge(figures.latency);
    answered += figures.ok + figures.refused;
    refused += figures.refused;
    errors += figures.errors;
    timeouts += figures.timeouts;
  }
  return { latency, answered, refused, errors, timeouts, p50: latency.quantile(0.5), p99: latency.quantile(0.99) };
}

const verdict = (value: number | null, limit: number) =>
  value === null ? 'no samples' : `${value <= limit ? 'PASS' : 'FAIL'} (${ms(value)})`;

export interface StepResult {
  customers: number;
  rate: number;
  reads: number | null;
  writes: number | null;
  history: number | null;
  tick: number | null;
  server: number;
  generator: number;
  machine: number;
  failures: number;
  first: string;
}

/**
 * The resources a step presses on, each with its share of the point where it stops serving well (1 and over:
 * saturated), in the order of a simple rule: the cores (the machine's, or one process's single core), the database
 * pool, database locks, the event loop, open files, then the load generator itself. What saturates first is the first
 * saturated in that order (an event loop is late because its core is busy, not the other way round); with none
 * saturated, the one nearest its limit.
 */
function pressures(window: Window) {
  const list: { what: string; ratio: number; change: string }[] = [];
  const ours = window.groups.reduce((sum, group) => sum + group.share, 0) + window.generatorCpu / window.seconds;
  list.push({
    what:
      `CPU of the machine: ${pct(window.machine / CORES)} of ${CORES} cores (limit 90 %; of it this bench's processes ` +
      `${pct(ours / CORES)}, other work ${pct(Math.max(0, window.machine - ours) / CORES)})`,
    ratio: window.machine / CORES / 0.9,
    change:
      window.machine - ours > ours
        ? 'other work took most of the cores: run again on an idle machine'
        : 'the cores: less CPU a call (statements a call, above), more cores, or a second host behind a balancer',
  });
  for (const group of window.groups)
    for (const one of group.processes)
      if (one.share > 0.3)
        list.push({
          what: `one core: ${group.label} ${one.name} ${one.pid} at ${pct(one.share)} (its JavaScript runs on one core; limit 90 %)`,
          ratio: one.share / 0.9,
          change: 'one process is the limit while cores are free: more WORKERS',
        });
  if (window.metrics) {
    const pool = window.metrics.poolMax ? window.metrics.poolBusy / window.metrics.poolMax : 0;
    list.push({
      what:
        `database pool: ${window.metrics.poolBusy} of ${window.metrics.poolMax} connections busy at once, up to ` +
        `${window.metrics.poolWaiting} queries waiting for one (${window.idleInTransaction} held idle in a transaction: ` +
        `the server, not PostgreSQL, kept them)`,
      ratio: window.metrics.poolWaiting > 0 ? Math.max(1, pool) : pool * 0.9,
      change:
        window.idleInTransaction * 2 >= window.metrics.poolBusy
          ? 'transactions wait on the server between statements (its event loop): free the loop before a larger pool'
          : 'a larger pool (10 connections a process, src/server/db/connection.ts) or fewer statements a call',
    });
  }
  if (window.lockWaits)
    list.push({
      what: `database locks: up to ${window.lockWaits} statements at once waiting for one`,
      ratio: 0.8 + window.lockWaits / 20,
      change: 'calls queue on the same lock (pg_locks names it): narrower locks or shorter transactions holding them',
    });
  const loop = window.metrics ? Math.max(0, ...window.metrics.loopP99.values()) : 0;
  list.push({
    what: `server event-loop delay p99 ${ms(loop)} (limit 100 ms)`,
    ratio: loop / 100,
    change: 'work blocking the event loop with cores to spare: move it off the request path (or to more WORKERS)',
  });
  for (const [pid, files] of window.metrics?.openFiles ?? [])
    list.push({
      what: `open files of server process ${pid}: ${files.open} of ${files.max}`,
      ratio: files.open / files.max / 0.9,
      change: 'a higher hard open-file limit for the server (ulimit -Hn, LimitNOFILE in a service unit)',
    });
  list.push({
    what: `open files of a load generator: ${window.generatorFiles.open} of ${window.generatorFiles.max}`,
    ratio: window.generatorFiles.open / window.generatorFiles.max / 0.9,
    change: 'more load generators (CAPACITY_GENERATORS) or a higher hard open-file limit',
  });
  list.push({
    what: `the load generators' event-loop delay p99 ${ms(window.generatorLoopP99)} (it adds to every figure; limit 100 ms)`,
    ratio: window.generatorLoopP99 / 100,
    change: 'the load generators are late themselves: run them on another machine (CAPACITY_URL)',
  });
  const saturated = list.filter((one) => one.ratio >= 1);
  return {
    first: saturated[0] ?? [...list].sort((a, b) => b.ratio - a.ratio)[0]!,
    saturated,
  };
}

function printStep(customers: number, ramp: { ms: number; failed: number }, window: Window): StepResult {
  const reads = byKind(window, 'read');
  const writes = byKind(window, 'write');
  const history = byKind(window, 'history');
  const answered = reads.answered + writes.answered + history.answered;
  const failures = [reads, writes, history].reduce((sum, kind) => sum + kind.errors + kind.timeouts, 0);
  const rate = answered / window.seconds;
  console.log(
    `\n${count(customers)} customers: ${count(window.streams)} streams open (ramp-up ${(ramp.ms / 1000).toFixed(1)} s` +
      `${ramp.failed ? `, ${ramp.failed} failed to open` : ''}), measured ${window.seconds.toFixed(0)} s after ${SETTLE_SECONDS} s settling`,
  );
  console.log(`  calls ${rate.toFixed(1)}/s answered (${count(answered)})`);
  for (const [name, kind] of [
    ['reads', reads],
    ['writes', writes],
    ['history', history],
  ] as const)
    console.log(
      `    ${name.padEnd(8)} ${(kind.answered / window.seconds).toFixed(1).padStart(7)}/s  p50 ${ms(kind.p50).padStart(7)}  p99 ${ms(kind.p99).padStart(7)}  max ${ms(kind.latency.n ? kind.latency.max : null).padStart(7)}` +
        `  refused ${kind.refused}, errors ${kind.errors}, time-outs ${kind.timeouts} (${TIMEOUT_MS / 1000} s)`,
    );
  const slowest = [...window.calls]
    .filter(([, figures]) => figures.latency.n)
    .map(([name, figures]) => `${name} ${ms(figures.latency.quantile(0.99))}`)
    .join(', ');
  if (slowest) console.log(`    p99 by call: ${slowest}`);
  if (window.reasons.size)
    console.log(
      `    refusals and failures: ${[...window.reasons]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([reason, n]) => `${reason} ×${n}`)
        .join('; ')}`,
    );
  const expected = window.steps * window.streams;
  console.log(
    `  tick → stream client (from the tick's time, its event id, to its arrival): p50 ${ms(window.lag.quantile(0.5))}, p99 ${ms(window.lag.quantile(0.99))}, max ${ms(window.lag.n ? window.lag.max : null)}` +
      ` (${count(window.deliveries)} deliveries of ${window.steps} steps, about ${count(expected)} expected; ${window.drops} streams dropped, ${window.reconnectFailures} reconnects failed)`,
  );
  const groups = window.groups
    .map(
      (group) =>
        `${group.label} ${pct(group.share)}${
          group.processes.length > 1 && group.label !== 'PostgreSQL'
            ? ` (${group.processes
                .filter((one) => one.share >= 0.005)
                .map((one) => `${one.name} ${pct(one.share)}`)
                .join(', ')})`
            : ''
        }`,
    )
    .join(', ');
  const known = window.groups.reduce((sum, group) => sum + group.share, 0) + window.generatorCpu / window.seconds;
  console.log(
    `  CPU, 100 % = one core of ${CORES}: ${groups || 'server –'}, load generators and this bench ${pct(window.generatorCpu / window.seconds)}; ` +
      `machine ${pct(window.machine)} (of which other work ${pct(Math.max(0, window.machine - known))})`,
  );
  if (window.metrics) {
    const metrics = window.metrics;
    // A server too busy to answer its /metrics leaves holes: counters read as unchanged, maxima lower than they were.
    if (metrics.readings.answered < metrics.readings.asked)
      console.log(
        `  the servers' /metrics answered ${metrics.readings.answered} of ${metrics.readings.asked} readings within 10 s: ` +
          'the database, pool, event-loop, open-file and memory figures below count only those (a 0 or a – there is not a measurement)',
      );
    if (!window.groups.length && metrics.cpu.size)
      console.log(`    server processes (their /metrics): ${[...metrics.cpu.values()].map(pct).join(' + ')}`);
    console.log(
      `  database: ${(metrics.statements / window.seconds).toFixed(0)} statements/s, mean ${ms(metrics.statements ? (metrics.statementSeconds / metrics.statements) * 1000 : null)}, ` +
        `${metrics.statementSeconds.toFixed(1)} statement-seconds (${(metrics.statementSeconds / window.seconds).toFixed(2)} a second); ` +
        `pool busy up to ${metrics.poolBusy} of ${metrics.poolMax}, up to ${metrics.poolWaiting} waiting; ` +
        `in PostgreSQL up to ${window.activeStatements} active, ${window.idleInTransaction} idle in a transaction, ` +
        `${window.lockWaits} waiting for a lock` +
        (metrics.served
          ? `; ${(metrics.statements / metrics.served).toFixed(1)} statements a call (the jobs' counted in)`
          : ''),
    );
    if (metrics.servedByPid.size > 1 && metrics.served)
      console.log(
        `  calls by process: ${[...metrics.servedByPid.values()].map((n) => pct(n / metrics.served)).join(' / ')}`,
      );
    console.log(
      `  event-loop delay p99 (worst ${SAMPLE_MS / 1000} s): server ${[...metrics.loopP99.values()].map(ms).join(' / ') || '–'}, load generators ${ms(window.generatorLoopP99)}`,
    );
    console.log(
      `  open files: server ${[...metrics.openFiles.values()].map((files) => `${files.open}/${files.max}`).join(', ')}, ` +
        `a load generator ${window.generatorFiles.open}/${window.generatorFiles.max}; ` +
        `memory: server ${[...metrics.memory.values()].map((bytes) => `${Math.round(bytes / 2 ** 20)} MB`).join(', ')}; ` +
        `stream clients the server counts: ${metrics.streamClients ?? '–'}`,
    );
  }
  console.log(
    `  targets: writes p99 ≤ ${TARGET.writesP99} ms ${verdict(writes.p99, TARGET.writesP99)} · reads p99 ≤ ${TARGET.readsP99} ms ${verdict(reads.p99, TARGET.readsP99)} · ` +
      `tick → client p99 ≤ ${TARGET.tickP99 / 1000} s ${verdict(window.lag.quantile(0.99), TARGET.tickP99)}`,
  );
  const { first, saturated } = pressures(window);
  console.log(`  ${first.ratio >= 1 ? 'saturates first' : 'nothing saturated; nearest its limit'}: ${first.what}`);
  if (window.topStatements.length)
    console.log(`  statements by PostgreSQL's time:\n    ${window.topStatements.join('\n    ')}`);
  if (window.idleStatements.length)
    console.log(
      `  last statements of connections idle in a transaction (seen every ${ACTIVITY_MS / 1000} s, for how long):\n    ` +
        window.idleStatements.join('\n    '),
    );
  if (first.ratio >= 1) console.log(`    what would move it: ${first.change}`);
  if (saturated.length > 1)
    console.log(
      `    also over the limit: ${saturated
        .slice(1)
        .map((one) => one.what)
        .join('; ')}`,
    );
  const server = window.groups
    .filter((group) => group.label !== 'PostgreSQL')
    .reduce((sum, group) => sum + group.share, 0);
  return {
    customers,
    rate,
    reads: reads.p99,
    writes: writes.p99,
    history: history.p99,
    tick: window.lag.quantile(0.99),
    server,
    generator: window.generatorCpu / window.seconds,
    machine: window.machine,
    failures,
    first: first.ratio >= 1 ? first.what : '–',
  };
}

function printSummary(results: StepResult[]) {
  console.log(
    '\n  customers  calls/s  reads p99  writes p99  history p99  tick p99  server CPU  generator CPU  machine  failed',
  );
  for (const one of results)
    console.log(
      `  ${count(one.customers).padStart(9)}  ${one.rate.toFixed(0).padStart(7)}  ${ms(one.reads).padStart(9)}  ${ms(one.writes).padStart(10)}` +
        `  ${ms(one.history).padStart(11)}  ${ms(one.tick).padStart(8)}  ${pct(one.server).padStart(10)}  ${pct(one.generator).padStart(13)}` +
        `  ${pct(one.machine).padStart(7)}  ${String(one.failures).padStart(6)}`,
    );
  const atTarget = results.find((one) => one.customers === TARGET.customers);
  if (atTarget)
    console.log(
      `  at ${count(TARGET.customers)} customers: ${
        (atTarget.writes ?? Infinity) <= TARGET.writesP99 &&
        (atTarget.reads ?? Infinity) <= TARGET.readsP99 &&
        (atTarget.tick ?? Infinity) <= TARGET.tickP99
          ? 'the target is met'
          : `the target is NOT met${atTarget.first !== '–' ? ` (saturated: ${atTarget.first})` : ''}`
      }`,
    );
}

// ---- The run ---------------------------------------------------------------------------------------

/** Runs the steps against `target` (stopped at the end). */
export async function runCapacity(target: CapacityTarget, steps: number[]): Promise<StepResult[]> {
  const most = Math.max(...steps);
  const database = await openDatabase({ kind: 'postgres', url: target.databaseUrl });
  const generators: ChildProcess[] = [];
  try {
    if (TOP_STATEMENTS > 0) await database.db.execute(sql`create extension if not exists pg_stat_statements`);
    const url = new URL(target.base);
    const loopback = url.hostname.startsWith('127.') && process.env.CAPACITY_SOURCE_ADDRESSES !== 'off';
    const databasePort = new URL(target.databaseUrl);
    const postgresPid = ['127.0.0.1', 'localhost', ''].includes(databasePort.hostname)
      ? postmasterOn(Number(databasePort.port || databasePort.searchParams.get('port') || 5432))
      : null;
    const made = performance.now();
    const customers = await makeCustomers(database, most, loopback);
    console.log(
      `  ${count(most)} customers made in the database in ${((performance.now() - made) / 1000).toFixed(1)} s` +
        ` (${GRANT_USDT} USDT each, through the ledger)` +
        (loopback
          ? '; each stream from an address of its own on 127.10.0.0/16'
          : '; the streams carry no token, so the server counts them per address: all from this machine, they need ' +
            'RATE_LIMIT_ADDRESS above the customers a minute there (or a balancer passing distinct client addresses)'),
    );
    const generatorCount = Number(process.env.CAPACITY_GENERATORS ?? Math.max(2, Math.ceil(most / 5_000)));
    // Node raises its soft limit to the hard one as it starts: every process here (generators, server) may open that
    // many.
    const limit = fileLimits().hard;
    const perGenerator = Math.ceil(most / generatorCount) + CALL_SOCKETS + 100;
    const perServer = Math.ceil(most / 2) + CALL_SOCKETS * generatorCount + 200;
    console.log(
      `  open files: up to ${limit} a process (the hard limit, which Node takes as it starts); a load generator needs ` +
        `about ${count(perGenerator)}, a server process about ${count(perServer)} (the two split the streams)` +
        (perGenerator > limit || perServer > limit
          ? ' — OVER THE LIMIT: raise the hard limit (ulimit -Hn, as root), or CAPACITY_GENERATORS for the generators'
          : ''),
    );
    const setup: Setup = {
      type: 'setup',
      base: target.base,
      streamPath: `/api${PRICE_STREAM_PATH}`,
      ...(await tradables(target.base)),
      callSockets: CALL_SOCKETS,
      timeoutMs: TIMEOUT_MS,
    };
    for (let i = 0; i < generatorCount; i++) generators.push(startGenerator(setup));
    console.log(
      `  ${generatorCount} load-generator processes (up to ${CALL_SOCKETS} keep-alive connections each for the calls; every stream on a socket of its own)`,
    );
    const results: StepResult[] = [];
    let open = 0;
    for (const step of [...steps].sort((a, b) => a - b)) {
      // The new customers, dealt round the generators; each opens their streams and starts their days.
      const fresh = customers.slice(open, step);
      const started = performance.now();
      const added = await Promise.all(
        generators.map((generator, g) => {
          const answer = nextMessage<{ ms: number; failed: number; firstError: string }>(generator, 'added');
          generator.send({ type: 'add', customers: fresh.filter((_, i) => i % generatorCount === g) });
          return answer;
        }),
      );
      open = step;
      const ramp = { ms: performance.now() - started, failed: added.reduce((sum, one) => sum + one.failed, 0) };
      if (ramp.failed)
        console.log(`  ${ramp.failed} streams failed to open: ${added.find((one) => one.firstError)?.firstError}`);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
      const window = await measure(target, database, generators, postgresPid);
      const result = printStep(step, ramp, window);
      results.push(result);
      if (ramp.failed > step * 0.05 || result.failures > result.rate * window.seconds) {
        console.log('  stopping here: the server no longer serves this load (see above).');
        break;
      }
    }
    printSummary(results);
    return results;
  } finally {
    await Promise.all(
      generators.map(
        (generator) =>
          new Promise<void>((resolve) => {
            if (generator.exitCode !== null) return resolve();
            generator.once('exit', () => resolve());
            if (generator.connected) generator.send({ type: 'stop' });
            else generator.kill();
          }),
      ),
    );
    await database.close();
    await target.stop();
  }
}

export async function capacityBench(argument = process.argv[3]) {
  const steps = argument ? argument.split(',').map((step) => Number(step.replace(/k$/i, '000'))) : DEFAULT_STEPS;
  // 0: the server idle, its own background work (the feed, the jobs) alone.
  if (steps.some((step) => !Number.isInteger(step) || step < 0))
    throw new Error(`capacity: steps are customer counts separated by commas (1000,2000; 0: idle), not ${argument}`);
  const niced = getPriority();
  console.log(
    `\nCapacity: simulated customers, each with the price stream open, a list or balance refresh every 10–30 s, an option or ` +
      `contract order about once a minute, a page of history every 1–5 min`,
  );
  console.log(
    `  Target: ${count(TARGET.customers)} concurrent customers on this ${CORES}-core machine with writes p99 ≤ ${TARGET.writesP99} ms, ` +
      `reads p99 ≤ ${TARGET.readsP99} ms, tick → client p99 ≤ ${TARGET.tickP99 / 1000} s (PASS/FAIL per step).`,
  );
  console.log(
    `  The load generators run on the SAME ${CORES} cores as the server and PostgreSQL: their CPU is shown per step, and` +
      ` what they take the server does not get, so these figures understate what the server alone would hold.` +
      (niced > 0 ? ` Running niced (${niced}): other work on this machine goes first.` : ''),
  );
  console.log(`  Calibration, ${calibrationText()}`);
  const target = process.env.CAPACITY_URL ? givenTarget() : await ownTarget();
  console.log(
    `  Server: ${target.label}; steps ${steps.map(count).join(', ')}; ${SECONDS} s measured per step after ` +
      `${SETTLE_SECONDS} s settling (CAPACITY_SECONDS, CAPACITY_SETTLE_SECONDS)`,
  );
  await runCapacity(target, steps);
}
