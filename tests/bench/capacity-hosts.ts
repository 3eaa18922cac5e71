// Capacity through a balancer: the capacity bench (capacity.ts) run against HAProxy with the repository's
// configuration (src/server/deploy/haproxy.cfg) in front of one host, then of two, on one throwaway PostgreSQL each
// time. A host is the real server (`npm start`'s src/server/main.ts) with TRUST_PROXY_HOPS=1 and
// CAPACITY_HOST_WORKERS workers (1: then two hosts are two processes, as one host with WORKERS=2 is). Everything runs
// on this machine's cores: the hosts, the balancer, PostgreSQL and the load generators share them, so two hosts can
// hold more than one only as far as one host left cores idle. The comparison at the end says how far that was.
// `npm run bench -- capacity-hosts [1000,2000,5000]`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, postgresBinaries, startPostgres } from '../server/postgres.ts';
import { count, pct, runCapacity, startServer, type CapacityTarget, type StepResult } from './capacity.ts';
import { fileLimits, ms } from './capacity-probes.ts';

const DEFAULT_STEPS = [1_000, 2_000, 5_000];
const HOST_WORKERS = Number(process.env.CAPACITY_HOST_WORKERS ?? 1);
/** HAProxy holds two descriptors an open stream (the customer's and the host's), within this process's hard limit
 * (which it cannot raise here: a container without CAP_SYS_RESOURCE): about half of it in customers. */
const BALANCER_FILES = fileLimits().hard;

/** HAProxy with the repository's configuration in front of `hosts` (host b is host a again when there is one). */
async function startBalancer(hosts: string[]) {
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', resolve('src/server/deploy/haproxy.cfg')], {
    env: { PATH: process.env.PATH, LISTEN: `127.0.0.1:${port}`, HOST_A: hosts[0]!, HOST_B: hosts[1] ?? hosts[0]! },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4_000)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  // Up once every host has answered /readyz through it.
  for (const seen = new Set<string>(); seen.size < hosts.length;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`HAProxy did not reach the hosts: ${log}`);
    }
    const answer = await fetch(`${base}/readyz`).catch(() => null);
    if (answer?.ok) seen.add(answer.headers.get('x-served-by') === 'a' || hosts.length === 1 ? 'a' : 'b');
    else await new Promise((done) => setTimeout(done, 200));
  }
  return {
    base,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A throwaway PostgreSQL, `hostCount` hosts on it and HAProxy in front of them. */
async function balancedTarget(hostCount: number): Promise<CapacityTarget> {
  if (!postgresBinaries()) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql).');
  const cluster = await startPostgres();
  const work = mkdtempSync(join(tmpdir(), 'coinvest-capacity-hosts-'));
  const stops: (() => Promise<void>)[] = [
    () => cluster.stop(),
    async () => rmSync(work, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const one of stops.splice(0).reverse()) await one().catch(() => {});
  };
  try {
    const databaseUrl = await cluster.createDatabase('coinvest');
    const token = randomBytes(16).toString('hex');
    const hosts: Awaited<ReturnType<typeof startServer>>[] = [];
    // One after the other: the first migrates and seeds the empty database.
    for (const name of ['a', 'b'].slice(0, hostCount)) {
      const host = await startServer(databaseUrl, work, {
        workers: HOST_WORKERS,
        name: `host-${name}`,
        env: { TRUST_PROXY_HOPS: '1', METRICS_TOKEN: token },
      });
      stops.push(() => host.stop());
      hosts.push(host);
    }
    const balancer = await startBalancer(hosts.map((host) => new URL(host.base).host));
    stops.push(() => balancer.stop());
    return {
      label:
        `HAProxy (src/server/deploy/haproxy.cfg) in front of ${hostCount === 1 ? 'one host' : `${hostCount} hosts`} ` +
        `with WORKERS=${HOST_WORKERS} each, simulated feed, on a throwaway PostgreSQL (fsync off); logs in ${work}`,
      base: balancer.base,
      databaseUrl,
      metrics: { bases: hosts.map((host) => host.base), token },
      processes: () => [
        ...hosts.map((host, i) => ({ label: `host ${'ab'[i]}`, pid: host.child.pid! })),
        { label: 'HAProxy', pid: balancer.child.pid! },
      ],
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The steps each way, then one table: what the second host changed at each step. */
export async function capacityHostsBench(argument = process.argv[3]) {
  const steps = argument ? argument.split(',').map((step) => Number(step.replace(/k$/i, '000'))) : DEFAULT_STEPS;
  if (steps.some((step) => !Number.isInteger(step) || step <= 0))
    throw new Error(`capacity-hosts: steps are customer counts separated by commas (1000,2000), not ${argument}`);
  const most = Math.max(...steps);
  if (most * 2 > BALANCER_FILES)
    console.log(
      `  Note: HAProxy may open ${count(BALANCER_FILES)} files here (the hard limit) and holds two an open stream: ` +
        `${count(most)} customers need ${count(most * 2)}; steps above ${count(BALANCER_FILES / 2)} are cut short by it.`,
    );
  console.log(
    `\nCapacity through a balancer: the capacity bench against HAProxy in front of one host, then two, on this ` +
      `${availableParallelism()}-core machine (hosts, balancer, PostgreSQL and load generators share its cores)`,
  );
  const runs: { hosts: number; results: StepResult[] }[] = [];
  for (const hosts of [1, 2]) {
    const target = await balancedTarget(hosts);
    console.log(`\n── ${target.label}; steps ${steps.map(count).join(', ')}`);
    runs.push({ hosts, results: await runCapacity(target, steps) });
  }
  console.log('\n  one host against two, through the balancer:');
  console.log('  customers  hosts  calls/s  reads p99  writes p99  tick p99  hosts + HAProxy CPU  machine  failed');
  for (const customers of steps)
    for (const { hosts, results } of runs) {
      const one = results.find((result) => result.customers === customers);
      if (!one) continue;
      console.log(
        `  ${count(customers).padStart(9)}  ${String(hosts).padStart(5)}  ${one.rate.toFixed(0).padStart(7)}  ` +
          `${ms(one.reads).padStart(9)}  ${ms(one.writes).padStart(10)}  ${ms(one.tick).padStart(8)}  ` +
          `${pct(one.server).padStart(18)}  ${pct(one.machine).padStart(7)}  ${String(one.failures).padStart(6)}`,
      );
    }
}
