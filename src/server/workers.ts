// WORKERS=N: N server processes on one machine sharing one port (node:cluster). This process only
// supervises: it forks the workers (each runs the whole server of start.ts on the same PostgreSQL),
// starts another when one dies, and passes SIGTERM/SIGINT on. Several machines behind a load
// balancer run the same server without it; nothing here is needed for correctness across processes.
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { ServerConfig } from './config.ts';

/** A worker asks for every process's metrics (a scrape of its /metrics: observability/cluster-metrics.ts)… */
export const METRICS_ASK = 'coinvest:metrics';
/** …and gets them combined, or the error. */
export const METRICS_ANSWER = 'coinvest:metrics-answer';

/** Never resolves: the process ends when its workers have stopped after a signal. */
export async function superviseWorkers(config: ServerConfig): Promise<never> {
  if (config.database.kind !== 'postgres') {
    console.error(
      `WORKERS=${config.workers} needs PostgreSQL (DATABASE_URL): the embedded database serves one process only. ` +
        'Start without WORKERS, or set DATABASE_URL.',
    );
    process.exit(1);
  }
  // Test servers: all workers tell the same accelerated market time.
  const env = config.clockSpeed > 1 && config.clockOrigin === null ? { CLOCK_ORIGIN: String(Date.now()) } : {};
  const alive = new Set<number>();
  const deaths: number[] = [];
  let stopping = false;

  const fork = () => {
    const worker = cluster.fork(env);
    alive.add(worker.id);
  };
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker.id);
    if (stopping) {
      if (!alive.size) process.exit(0);
      return;
    }
    console.error(`Worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another.`);
    // A worker that cannot start (database down) should not be re-forked in a tight loop.
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - 60_000) deaths.shift();
    setTimeout(fork, deaths.length > config.workers * 3 ? 5_000 : 0);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!alive.size) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // Workers stop cleanly in a second or two; never hang the shutdown.
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  // A scrape of /metrics on any worker shows every process: that worker asks here, and this process asks every
  // worker (prom-client's own messages) and answers the text combined by each metric's aggregator.
  const metrics = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== METRICS_ASK) return;
    const reply = (answer: { text: string } | { error: string }) => {
      if (worker.isConnected()) worker.send({ type: METRICS_ANSWER, id: message.id, ...answer });
    };
    metrics.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
  for (let i = 0; i < config.workers; i++) fork();
  console.log(`Coinvest: ${config.workers} server processes on port ${config.port} (supervisor ${process.pid}).`);
  return new Promise<never>(() => {});
}
