// Every metric the server exposes at /metrics (Prometheus text format, prom-client), in one
// registry. Counters and histograms count what this process did; with WORKERS=N each process keeps
// its own and the supervisor sums them (cluster-metrics.ts). Each gauge says how its values from
// several processes combine (`aggregator`): a reading of the database is the same in every process
// ('max' or 'min'), a count of this process's own things is summed, and the process's own figures
// (memory, event-loop delay) carry a `pid` label in a worker so they keep their per-process meaning.
// Nothing here imports the database: what is read from it at scrape time is handed in (readings.ts).
import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

collectDefaultMetrics({
  register: registry,
  prefix: 'coinvest_',
  eventLoopMonitoringPrecision: 10,
  ...(cluster.isWorker ? { labels: { pid: String(process.pid) } } : {}),
});
// Node's active handles, requests and resources: gauges named `_total`, which Prometheus' conventions keep for
// counters (promtool's lint refuses them); the event loop, memory and CPU figures stay.
for (const name of ['handles', 'requests', 'resources'])
  registry.removeSingleMetric(`coinvest_nodejs_active_${name}_total`);

// A worker answers the supervisor's requests for its metrics (prom-client's own IPC messages): constructing the
// aggregator registers that listener.
if (cluster.isWorker) {
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** Seconds: 1 ms to 10 s, for HTTP answers and job runs. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: 0.1 ms to 2.5 s, for single database statements. */
const QUERY_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5];

export const httpRequests = new Counter({
  name: 'coinvest_http_requests_total',
  help: 'HTTP requests answered, by route pattern (unmatched: no route), method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'coinvest_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer sent, by route pattern and method.',
  labelNames: ['route', 'method'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [registry],
});

export const queryDuration = new Histogram({
  name: 'coinvest_db_query_duration_seconds',
  help: 'Time of each database statement, from sending it to its answer (waiting for a pooled connection excluded).',
  buckets: QUERY_BUCKETS,
  registers: [registry],
});

export const queryErrors = new Counter({
  name: 'coinvest_db_query_errors_total',
  help: 'Database statements that failed.',
  registers: [registry],
});

export const stepDuration = new Histogram({
  name: 'coinvest_index_step_duration_seconds',
  help: 'Time to record one market step (its ticks and halts) in the process running the price feed.',
  buckets: SECONDS_BUCKETS,
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'coinvest_job_runs_total',
  help: 'Runs of each periodic job in this process.',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'coinvest_job_failures_total',
  help: 'Runs of each periodic job that failed (logged).',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'coinvest_job_duration_seconds',
  help: 'Time of each run of each periodic job.',
  labelNames: ['job'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [registry],
});

export const outboxFailed = new Counter({
  name: 'coinvest_outbox_failed_total',
  help: 'Outgoing messages given up after their last try, by channel.',
  labelNames: ['channel'] as const,
  registers: [registry],
});

export const outboxRetries = new Counter({
  name: 'coinvest_outbox_retries_total',
  help: 'Tries of outgoing messages that failed and will be tried again, by channel.',
  labelNames: ['channel'] as const,
  registers: [registry],
});

export const outboxSent = new Counter({
  name: 'coinvest_outbox_sent_total',
  help: 'Outgoing messages sent, by channel.',
  labelNames: ['channel'] as const,
  registers: [registry],
});

/** What the gauges below show at a scrape: read from the database and the feed (readings.ts), or null when unknown. */
export interface Readings {
  /** Active coins, each halted (true) or not. */
  coins: { coin: string; halted: boolean }[];
  /** Option orders past their end and not yet settled, and how long the oldest has been due. */
  settlement: { due: number; oldestSeconds: number };
  /** Queued messages by channel, and how long the most overdue has waited past its time. */
  outbox: { channel: string; queued: number; overdueSeconds: number }[];
  /** The latest reconciliation run, if any. */
  reconciliation: { ok: boolean; mismatches: number; at: Date } | null;
  /** The market index's exchanges (none under the simulator). */
  exchanges: {
    exchange: string;
    connected: boolean;
    lastTradeAgeSeconds: number | null;
    reconnects: number;
    malformedFrames: number;
  }[];
}

type Reader = () => Promise<Readings | null>;
let reader: Reader | null = null;
/**
 * The reading under way: every metric of one scrape asks at once (prom-client collects them together) and shares it.
 */
let reading: Promise<Readings | null> | null = null;

/** Where the scrape-time metrics read from (the app's database); returns the function that unsets it. */
export function readFrom(read: Reader): () => void {
  reader = read;
  return () => {
    if (reader === read) reader = null;
  };
}

/** The readings of this scrape: read once, shared by every metric that asks while it is read. */
function current(): Promise<Readings | null> {
  if (!reading) {
    const read = reader;
    reading = (read ? read().catch(() => null) : Promise.resolve(null)).finally(() => (reading = null));
  }
  return reading;
}

type Labels = Record<string, string>;
interface Sample {
  labels: Labels;
  value: number;
}

/**
 * A metric whose samples are computed at each scrape (prom-client calls `get`): a series with
 * nothing to show is absent, not 0 (a gauge of prom-client's own would show 0 without a value).
 */
function scrapeMetric(
  name: string,
  help: string,
  type: 'gauge' | 'counter',
  aggregator: 'max' | 'min' | 'sum',
  samples: () => Sample[] | Promise<Sample[]>,
) {
  const metric = {
    name,
    help,
    type,
    aggregator,
    async get() {
      return { name, help, type, aggregator, values: await samples() };
    },
  };
  registry.registerMetric(metric as unknown as Parameters<typeof registry.registerMetric>[0]);
}

/** A metric read from the scrape's readings: absent while they are unknown (no database, or it failed). */
const readMetric = (
  name: string,
  help: string,
  aggregator: 'max' | 'min',
  read: (readings: Readings) => Sample[],
  type: 'gauge' | 'counter' = 'gauge',
) =>
  scrapeMetric(name, help, type, aggregator, async () => {
    const readings = await current();
    return readings ? read(readings) : [];
  });

const one = (value: number, labels: Labels = {}): Sample => ({ labels, value });

readMetric('coinvest_market_halted_coins', 'Coins the market index has halted now.', 'max', (r) => [
  one(r.coins.filter((coin) => coin.halted).length),
]);
readMetric('coinvest_market_coin_halted', 'Per active coin: 1 while halted, else 0.', 'max', (r) =>
  r.coins.map(({ coin, halted }) => one(halted ? 1 : 0, { coin })),
);
readMetric('coinvest_settlement_due_orders', 'Option orders past their end time and not yet settled.', 'max', (r) => [
  one(r.settlement.due),
]);
readMetric(
  'coinvest_settlement_oldest_due_age_seconds',
  'How long the oldest option order due and not yet settled has been due (0: none).',
  'max',
  (r) => [one(r.settlement.oldestSeconds)],
);
readMetric(
  'coinvest_outbox_queued_messages',
  'Outgoing messages waiting to be sent (a first try or a retry), by channel.',
  'max',
  (r) => r.outbox.map(({ channel, queued }) => one(queued, { channel })),
);
readMetric(
  'coinvest_outbox_oldest_overdue_seconds',
  'How long past its time the most overdue queued message has waited, by channel.',
  'max',
  (r) => r.outbox.map(({ channel, overdueSeconds }) => one(overdueSeconds, { channel })),
);
readMetric(
  'coinvest_reconciliation_ok',
  'The latest reconciliation of the books: 1 when everything added up, 0 on a mismatch (absent before the first run).',
  'min',
  (r) => (r.reconciliation ? [one(r.reconciliation.ok ? 1 : 0)] : []),
);
readMetric(
  'coinvest_reconciliation_mismatches',
  'Mismatches the latest reconciliation found (absent before the first run).',
  'max',
  (r) => (r.reconciliation ? [one(r.reconciliation.mismatches)] : []),
);
readMetric(
  'coinvest_reconciliation_last_run_timestamp_seconds',
  'When the latest reconciliation began (Unix time; absent before the first run).',
  'max',
  (r) => (r.reconciliation ? [one(r.reconciliation.at.getTime() / 1000)] : []),
);
readMetric(
  'coinvest_feed_exchange_connected',
  'Per exchange of the market index: 1 while its trade stream is connected, else 0.',
  'max',
  (r) => r.exchanges.map(({ exchange, connected }) => one(connected ? 1 : 0, { exchange })),
);
readMetric(
  'coinvest_feed_exchange_last_trade_age_seconds',
  'Per exchange of the market index: seconds of the market clock since its last trade of any coin.',
  'min',
  (r) =>
    r.exchanges.flatMap(({ exchange, lastTradeAgeSeconds }) =>
      lastTradeAgeSeconds === null ? [] : [one(lastTradeAgeSeconds, { exchange })],
    ),
);
// Counted by the feed's holder (memory, or the feed_exchanges table): shown as read, the same in every process.
readMetric(
  'coinvest_feed_exchange_reconnects_total',
  'Per exchange of the market index: reconnections of its trade stream since the feed started.',
  'max',
  (r) => r.exchanges.map(({ exchange, reconnects }) => one(reconnects, { exchange })),
  'counter',
);
readMetric(
  'coinvest_feed_exchange_malformed_frames_total',
  'Per exchange of the market index: malformed frames dropped since the feed started.',
  'max',
  (r) => r.exchanges.map(({ exchange, malformedFrames }) => one(malformedFrames, { exchange })),
  'counter',
);

/** Sizes counted in this process at scrape time (stream clients, pooled connections): summed over the processes. */
const streamSizes = new Set<() => number>();
scrapeMetric('coinvest_stream_clients', 'Clients connected to the live price stream.', 'gauge', 'sum', () => {
  let clients = 0;
  for (const size of streamSizes) clients += size();
  return [one(clients)];
});

/** Counts a price stream's clients at every scrape until the returned function is called. */
export function countStreamClients(size: () => number): () => void {
  streamSizes.add(size);
  return () => streamSizes.delete(size);
}

/** The API calls this process works on and those waiting for a turn (http/load-shedding.ts), summed over processes. */
const callQueues = new Set<{ inFlight: () => number; waiting: () => number }>();
scrapeMetric('coinvest_http_calls_in_flight', 'API calls being worked on.', 'gauge', 'sum', () =>
  callQueues.size ? [one([...callQueues].reduce((sum, queue) => sum + queue.inFlight(), 0))] : [],
);
scrapeMetric(
  'coinvest_http_calls_waiting',
  'API calls waiting for a turn (the process works on a limited number at once).',
  'gauge',
  'sum',
  () => (callQueues.size ? [one([...callQueues].reduce((sum, queue) => sum + queue.waiting(), 0))] : []),
);

/** Shows a call queue at every scrape until the returned function is called. */
export function countCallQueue(queue: { inFlight: () => number; waiting: () => number }): () => void {
  callQueues.add(queue);
  return () => callQueues.delete(queue);
}

export const httpShed = new Counter({
  name: 'coinvest_http_calls_shed_total',
  help: 'API calls answered busy (503) without being worked on: they found too many waiting, or waited too long.',
  registers: [registry],
});

/** What a connection pool tells of itself (pg.Pool). */
export interface PoolSizes {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  readonly options: { max?: number };
}

/** The PostgreSQL pools (none on the embedded database, whose pool figures are then absent). */
const pools = new Set<PoolSizes>();
const overPools = (sum: (pool: PoolSizes) => number) => [...pools].reduce((total, pool) => total + sum(pool), 0);
scrapeMetric(
  'coinvest_db_pool_connections',
  'PostgreSQL connections of the pool, busy (lent to a query) or idle.',
  'gauge',
  'sum',
  () =>
    pools.size
      ? [
          one(
            overPools((pool) => pool.totalCount - pool.idleCount),
            { state: 'busy' },
          ),
          one(
            overPools((pool) => pool.idleCount),
            { state: 'idle' },
          ),
        ]
      : [],
);
scrapeMetric('coinvest_db_pool_max_connections', 'PostgreSQL connections the pool may open.', 'gauge', 'sum', () =>
  pools.size ? [one(overPools((pool) => pool.options.max ?? 10))] : [],
);
scrapeMetric(
  'coinvest_db_pool_waiting_queries',
  'Queries waiting for a pooled PostgreSQL connection.',
  'gauge',
  'sum',
  () => (pools.size ? [one(overPools((pool) => pool.waitingCount))] : []),
);

/** Shows a pool's use at every scrape until the returned function is called. */
export function countPool(pool: PoolSizes): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

/**
 * Whether database statements are timed: on, except in the bench that measures what the metrics
 * cost (it turns them off for its measure without them).
 */
export const timing = { queries: true };

/** Records one statement that began at `startedAt` (performance.now()). */
export function observeQuery(startedAt: number, failed: boolean) {
  queryDuration.observe((performance.now() - startedAt) / 1000);
  if (failed) queryErrors.inc();
}

/** One job's run counters, made once per job name. */
export function jobCounters(job: string) {
  const runs = jobRuns.labels(job);
  const failures = jobFailures.labels(job);
  const duration = jobDuration.labels(job);
  return {
    /** A run begins: the function returned records its end. */
    begin() {
      const startedAt = performance.now();
      runs.inc();
      return (failed: boolean) => {
        duration.observe((performance.now() - startedAt) / 1000);
        if (failed) failures.inc();
      };
    },
  };
}

/** An outgoing message's try: sent, queued again for a retry, or failed after its last try. */
export function countDelivery(channel: string, outcome: 'sent' | 'queued' | 'failed' | null) {
  if (outcome === 'sent') outboxSent.inc({ channel });
  else if (outcome === 'queued') outboxRetries.inc({ channel });
  else if (outcome === 'failed') outboxFailed.inc({ channel });
}
