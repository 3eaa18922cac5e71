// The server watched as in production, each test on a real server process: a SIGTERM turns /readyz
// 503 while the process still serves (the drain), before its port closes; and a real Prometheus
// (Debian's /usr/bin/prometheus) scrapes a server priced by the market index on the exchange
// stand-ins with the shipped alert rules, and fires the feed-halted alert once the exchanges stop
// trading: the time from the halt to the alert firing is measured and logged. PGlite in a temporary
// folder, as `npm start` runs it: the `server` project only (tests/projects.ts);
// tests/server/metrics-cluster-pg.test.ts watches WORKERS=2 on PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './postgres.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { standInEnv, startStandIns, type StandIn } from './exchange-standins.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';

const PROMETHEUS = '/usr/bin/prometheus';
const TOKEN = 'prometheus-test-token-9a1';

const servers: { server: ServerProcess; dir: string }[] = [];
const stands: StandIn[] = [];
let prometheus: ChildProcess | null = null;
let prometheusDir: string | null = null;
afterAll(async () => {
  // Prometheus first and whatever happened: a test that failed or timed out must not leave it running.
  if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGKILL');
    await exited;
  }
  if (prometheusDir) rmSync(prometheusDir, { recursive: true, force: true });
  for (const { server, dir } of servers.splice(0)) {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  await Promise.all(stands.map((stand) => stand.close()));
});

/** A server on a fresh embedded database with /metrics behind TOKEN; resolves once it listens. */
async function startWatchedServer(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'coinvest-watched-'));
  const server = await startServer({
    work: dir,
    env: {
      NODE_ENV: 'development',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      WEB_ROOT: '',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: TOKEN,
      ...env,
    },
  });
  servers.push({ server, dir });
  return server;
}

const scrape = async (base: string) =>
  (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

/** A sample's value (`name{labels}` exactly as written), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('a server process watched', () => {
  it('turns not-ready on SIGTERM and keeps serving through the drain before it closes', async () => {
    const server = await startWatchedServer({ SHUTDOWN_DRAIN_MS: '3000' });
    const ready = () => fetch(`${server.base}/readyz`).then((response) => response.status);
    expect(await ready()).toBe(200);
    expect(await (await fetch(`${server.base}/healthz`)).json()).toEqual({ status: 'ok' });

    // A client of the live price stream is counted while connected.
    const stream = new AbortController();
    const open = await fetch(`${server.base}/api${PRICE_STREAM_PATH}`, { signal: stream.signal });
    await open.body!.getReader().read();
    expect(sample(await scrape(server.base), 'coinvest_stream_clients')).toBe(1);
    stream.abort();
    await expect.poll(async () => sample(await scrape(server.base), 'coinvest_stream_clients')).toBe(0);

    const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    // The port still answers, with 503: a load balancer checking every second sees it before the port closes. Asked
    // until it says so; once the process has gone the answer is 'gone' and can never be 503, which fails the poll.
    let gone = false;
    void exited.then(() => (gone = true));
    await expect.poll(async () => (gone ? 'gone' : await ready()), { timeout: 30_000, interval: 50 }).toBe(503);
    const notReadyMs = performance.now() - signalledAt;
    expect(await (await fetch(`${server.base}/readyz`)).json()).toEqual({ status: 'stopping' });
    // Still serving meanwhile.
    const during = await fetch(`${server.base}/api/coin/lists`, { headers: { lang: 'en' } });
    expect(during.status).toBe(200);
    await exited;
    const closedMs = performance.now() - signalledAt;
    console.log(`SIGTERM → /readyz 503 in ${Math.round(notReadyMs)} ms; process gone after ${Math.round(closedMs)} ms`);
    expect(closedMs).toBeGreaterThanOrEqual(3000);
    await expect(fetch(`${server.base}/healthz`)).rejects.toThrow();
  }, 240_000);

  it.skipIf(!existsSync(PROMETHEUS))(
    'a real Prometheus fires the feed-halted alert when the exchanges stop trading',
    async () => {
      stands.push(...(await startStandIns()));
      const server = await startWatchedServer(standInEnv(stands));
      await expect.poll(() => stands.every((stand) => stand.subscribed().length >= 10), { timeout: 20_000 }).toBe(true);

      // Every exchange trades every coin it lists: no coin is halted.
      let trading = true;
      const trades = (async () => {
        while (trading) {
          for (const stand of stands) for (const symbol of stand.subscribed()) stand.trade(symbol, '100');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      await expect
        .poll(async () => sample(await scrape(server.base), 'coinvest_market_halted_coins'), { timeout: 30_000 })
        .toBe(0);
      const text = await scrape(server.base);
      for (const exchange of ['binance', 'okx', 'kraken']) {
        expect(sample(text, `coinvest_feed_exchange_connected{exchange="${exchange}"}`), exchange).toBe(1);
        expect(sample(text, `coinvest_feed_exchange_last_trade_age_seconds{exchange="${exchange}"}`)).toBeLessThan(5);
        expect(sample(text, `coinvest_feed_exchange_malformed_frames_total{exchange="${exchange}"}`)).toBe(0);
      }
      expect(sample(text, 'coinvest_index_step_duration_seconds_count')).toBeGreaterThan(0);

      // Prometheus with the shipped rules, their `for:` shortened to 3 s so the test does not wait a minute.
      prometheusDir = mkdtempSync(join(tmpdir(), 'coinvest-prometheus-'));
      const rules = readFileSync('src/server/observability/alerts.yml', 'utf8').replace(/for: \d+m/g, 'for: 3s');
      expect(rules).toMatch(/alert: CoinvestFeedHalted\n\s+expr: .*\n\s+for: 3s/);
      writeFileSync(join(prometheusDir, 'alerts.yml'), rules);
      writeFileSync(
        join(prometheusDir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'rule_files:',
          `  - ${join(prometheusDir, 'alerts.yml')}`,
          'scrape_configs:',
          '  - job_name: coinvest',
          '    authorization:',
          '      type: Bearer',
          `      credentials: ${TOKEN}`,
          '    static_configs:',
          `      - targets: ['127.0.0.1:${server.port}']`,
          '',
        ].join('\n'),
      );
      const port = await freePort();
      const api = `http://127.0.0.1:${port}/api/v1`;
      let prometheusOutput = '';
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(prometheusDir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(prometheusDir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prometheus.stdout!.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
      prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
      const json = async (path: string) => {
        try {
          return (await (await fetch(`${api}${path}`)).json()) as { data: Record<string, unknown> };
        } catch {
          return null;
        }
      };
      // Up, scraping the server, and its rules loaded.
      await expect
        .poll(
          async () => ((await json('/targets'))?.data.activeTargets as { health: string }[] | undefined)?.[0]?.health,
          { timeout: 30_000, interval: 250 },
        )
        .toBe('up')
        .catch((error: Error) => {
          throw new Error(`${error.message}\nPrometheus said:\n${prometheusOutput.slice(-2000)}`);
        });
      type Alert = { labels: { alertname: string }; state: string };
      const feedHalted = async () =>
        ((await json('/alerts'))?.data.alerts as Alert[] | undefined)?.find(
          (alert) => alert.labels.alertname === 'CoinvestFeedHalted',
        )?.state ?? 'inactive';
      // Trading: Prometheus sees no halted coin, and the alert stays quiet over several evaluations.
      await expect
        .poll(async () => (await json('/query?query=coinvest_market_halted_coins'))?.data.result, { timeout: 15_000 })
        .toMatchObject([{ value: [expect.any(Number), '0'] }]);
      for (let evaluation = 0; evaluation < 4; evaluation++) {
        expect(await feedHalted()).toBe('inactive');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }

      // The exchanges stop trading: within the index's 5 s freshness every coin halts.
      trading = false;
      await trades;
      const stoppedAt = Date.now();
      await expect.poll(feedHalted, { timeout: 60_000, interval: 100 }).toBe('firing');
      const firedAt = Date.now();
      // When the server halted the coins: the time of its first "halted" log line since the trades stopped.
      const haltedAt = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes('halted: '))
        .map((line) => (JSON.parse(line) as { time: number }).time)
        .find((time) => time >= stoppedAt);
      expect(haltedAt).toBeDefined();
      console.log(
        `feed halted → CoinvestFeedHalted firing: ${((firedAt - haltedAt!) / 1000).toFixed(1)} s ` +
          `(rule's for: 3 s here, 1 m as shipped; scrape and evaluation every 1 s); ` +
          `trades stopped → halt: ${((haltedAt! - stoppedAt) / 1000).toFixed(1)} s`,
      );
      expect(firedAt - haltedAt!).toBeLessThan(20_000);
      const halted = await scrape(server.base);
      console.log(
        `one /metrics answer of this server: ${(Buffer.byteLength(halted) / 1024).toFixed(1)} KB, ` +
          `${halted.split('\n').filter((line) => line && !line.startsWith('#')).length} samples`,
      );
      expect(sample(halted, 'coinvest_market_halted_coins')).toBeGreaterThanOrEqual(10);
      expect(sample(halted, 'coinvest_market_coin_halted{coin="BTC"}')).toBe(1);
    },
    360_000,
  );
});
