// Two hosts behind a load balancer, as two machines would run: two network namespaces with addresses of their own on
// a bridge of this run (10.x.y.2 and .3), PostgreSQL on the bridge's own address (.1), one server process in each
// namespace on port 8080 with the same settings and keys, and Debian's HAProxy on loopback in front of both, with the
// configuration the repository ships (src/server/deploy/haproxy.cfg). Everything goes through the balancer:
// - a session made on one host is used on the other; the host sees the client's address and the balancer's request id;
// - a code's delivery reference given by one host is read by the other (one TWO_FACTOR_KEY);
// - the request limits are counted once across both hosts;
// - the host holding the price feed and serving a price stream is killed in the middle of a burst of option orders
//   (each with its Idempotency-Key, retried as the app does): no order is lost or doubled and the ledger reconciles;
//   the stream's client reconnects through the balancer with Last-Event-ID and misses no step (compared with
//   price_ticks); the feed lease moves to the survivor, and settlement, matching, delivery and reconciliation go on;
// - a host stopped cleanly (SIGTERM) leaves the balancer on its /readyz 503 before it closes: no call fails.
// The run's names and addresses have a random part, so parallel runs never meet; all it starts it stops, and the
// namespaces, links and bridge are deleted whatever happened. Network namespaces need root (CI runs as root): as
// another user the file is skipped. Its project (`hosts`) runs before any browser: Chromium aborts its requests in
// flight when the machine's network changes, as it does here.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type PostgresCluster } from './postgres.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { codeDelivery, login, sendEmailCode, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { PRICE_STREAM_PATH, type TickEvent } from '../../src/api-contract/markets.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { MAX_ATTEMPTS } from '../../src/api-contract/constants.ts';
import type { Endpoint, InputOf, ResultOf } from '../../src/api-contract/endpoint.ts';
import type { Envelope } from '../../src/api-contract/envelope.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import type { Executor } from '../../src/server/db/connection.ts';

const AS_ROOT = process.getuid?.() === 0;
/** The code calls' per-address budget (AUTH_RATE_LIMIT): small, so the limit is reached in a few calls. */
const CODES_PER_ADDRESS = 6;
/** The statuses the app's client retries (src/lib/api.ts), with the same Idempotency-Key, up to MAX_ATTEMPTS tries. */
const RETRIED = [408, 429, 500, 502, 503, 504];

interface Host {
  name: 'a' | 'b';
  namespace: string;
  address: string;
  server: ServerProcess | null;
}

describe.runIf(AS_ROOT)('two hosts in namespaces of their own behind HAProxy', () => {
  const run = randomBytes(3).toString('hex');
  let work = '';
  /** What to undo, last made first undone: namespaces, links, processes. */
  const undo: (() => unknown)[] = [];
  const hosts: Host[] = [];
  let postgres: PostgresCluster;
  let sql: pg.Client;
  let balancer: string;
  let haproxy: ChildProcess;
  let haproxyLog = '';
  let hostEnv: Record<string, string>;
  let token = '';

  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' }).toString();
  const quietly = (step: () => unknown) => {
    try {
      step();
    } catch {
      // Already gone (a namespace takes its end of a link with it).
    }
  };

  /** A free 10.x.y.0/24 of this machine (a random one, checked against the addresses and routes in use). */
  function freeSubnet(): string {
    const used = ip('-4', '-o', 'addr', 'show') + ip('-4', 'route', 'show', 'table', 'all');
    for (;;) {
      const prefix = `10.${64 + (randomBytes(1)[0]! % 160)}.${randomBytes(1)[0]! % 250}`;
      if (!used.includes(`${prefix}.`)) return prefix;
    }
  }

  /** Starts (or starts again) a host's server in its namespace, with the settings every host shares. */
  async function startHost(host: Host) {
    const started = Date.now();
    host.server = await startServer({
      work,
      name: `host-${host.name}-${started}`,
      host: host.address,
      port: 8080,
      launcher: ['ip', 'netns', 'exec', host.namespace],
      env: { ...hostEnv, DATA_DIR: join(work, `data-${host.name}`) },
    });
    console.log(`host ${host.name} (${host.address}) up ${Date.now() - started} ms after its start`);
  }

  const hostByPid = (pid: number) => hosts.find((host) => host.server?.child.pid === pid);
  const other = (name: string) => hosts.find((host) => host.name !== name)!;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'coinvest-two-hosts-'));
    undo.push(() => rmSync(work, { recursive: true, force: true }));
    // The network: a bridge with the database's and the balancer's address, a namespace per host linked to it.
    const prefix = freeSubnet();
    const bridge = `cv${run}br`;
    ip('link', 'add', bridge, 'type', 'bridge');
    undo.push(() => quietly(() => ip('link', 'del', bridge)));
    ip('addr', 'add', `${prefix}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    for (const [n, name] of (['a', 'b'] as const).entries()) {
      const namespace = `coinvest-${run}-${name}`;
      const [outside, inside] = [`cv${run}${name}o`, `cv${run}${name}i`];
      ip('netns', 'add', namespace);
      undo.push(() => quietly(() => ip('netns', 'del', namespace)));
      ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
      undo.push(() => quietly(() => ip('link', 'del', outside)));
      ip('link', 'set', inside, 'netns', namespace);
      ip('link', 'set', outside, 'master', bridge);
      ip('link', 'set', outside, 'up');
      const address = `${prefix}.${n + 2}`;
      ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', inside);
      ip('-n', namespace, 'link', 'set', inside, 'up');
      ip('-n', namespace, 'link', 'set', 'lo', 'up');
      hosts.push({ name, namespace, address, server: null });
    }

    // One database for both, reached by each host over its link; only the two hosts (and loopback) may connect.
    postgres = await startPostgres({ listen: [`${prefix}.1`], trust: hosts.map((host) => `${host.address}/32`) });
    undo.push(() => postgres.stop());
    await postgres.createDatabase('coinvest');
    sql = new pg.Client({ connectionString: postgres.url('coinvest') });
    await sql.connect();
    undo.push(() => sql.end());

    // What every host must share: the database, the two-factor key (sealed secrets, delivery references, remembered
    // devices), the metrics token, the limits and the market's clock (test servers: CLOCK_SPEED and CLOCK_ORIGIN).
    hostEnv = {
      DATABASE_URL: `postgres://postgres@${prefix}.1:${postgres.port}/coinvest`,
      TWO_FACTOR_KEY: randomBytes(32).toString('hex'),
      METRICS_TOKEN: randomBytes(16).toString('hex'),
      TRUST_PROXY_HOPS: '1',
      AUTH_RATE_LIMIT: String(CODES_PER_ADDRESS),
      // The burst and the clean stop's steady calls are one account's: its budget is not what they test.
      RATE_LIMIT_ACCOUNT: '100000',
      RECONCILE_EVERY_SECONDS: '2',
      CLOCK_SPEED: '10',
      CLOCK_ORIGIN: String(Date.now()),
      WEB_ROOT: '',
      WORKERS: '',
      LOG_LEVEL: 'warn',
      // As in production: a stopping host answers /readyz 503 for 2 s while it still serves.
      SHUTDOWN_DRAIN_MS: '2000',
    };
    // Both at once on the empty database: migrations and seeding take turns.
    undo.push(() => Promise.all(hosts.map((host) => host.server?.stop())));
    await Promise.all(hosts.map((host) => startHost(host)));

    const port = await freePort();
    balancer = `http://127.0.0.1:${port}`;
    haproxy = spawn('haproxy', ['-db', '-f', resolve('src/server/deploy/haproxy.cfg')], {
      env: {
        PATH: process.env.PATH,
        LISTEN: `127.0.0.1:${port}`,
        HOST_A: `${hosts[0]!.address}:8080`,
        HOST_B: `${hosts[1]!.address}:8080`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((done) => haproxy.once('exit', done).once('error', done));
    undo.push(async () => {
      if (haproxy.exitCode === null && haproxy.signalCode === null) haproxy.kill('SIGTERM');
      await exited;
    });
    haproxy.stdout!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    // Up once both hosts have answered through it.
    await bothInRotation();
  }, 180_000);

  /** Waits until the balancer sends requests to both hosts (each passed its health checks). */
  async function bothInRotation() {
    await until(
      async () => {
        const seen = new Set<string>();
        for (let n = 0; n < 4; n++) {
          const answer = await fetch(`${balancer}/readyz`).catch(() => null);
          if (answer?.ok) seen.add(answer.headers.get('x-served-by') ?? '');
        }
        return seen.size === 2;
      },
      () => `the balancer did not reach both hosts: ${haproxyLog}`,
    );
  }

  /** The balancer's lines about its servers' health (taken out, put back), to say why a request went where it went. */
  const healthLines = () =>
    haproxyLog
      .split('\n')
      .filter((line) => / is (UP|DOWN)|health check/i.test(line))
      .join('\n');

  afterAll(async () => {
    const failed: unknown[] = [];
    for (const step of undo.reverse())
      await Promise.resolve()
        .then(step)
        .catch((error: unknown) => failed.push(error));
    if (failed.length) throw new AggregateError(failed, 'the two hosts were not all taken down');
  }, 60_000);

  interface Answer<T> {
    status: number;
    servedBy: string;
    requestId: string;
    remaining: string | null;
    replay: boolean;
    body: Envelope<T>;
  }

  /** One call through the balancer (a write with its Idempotency-Key, a new one unless given). */
  async function call<E extends Endpoint>(
    endpoint: E,
    input: Partial<Record<keyof InputOf<E> & string, string>> = {},
    { key, headers = {} }: { key?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer<ResultOf<E>>> {
    const form = new URLSearchParams(input as Record<string, string>).toString();
    const sent: Record<string, string> = { lang: 'en', ...headers };
    if (token) sent.token = token;
    if (endpoint.method === 'POST') sent['content-type'] = 'application/x-www-form-urlencoded';
    if (!endpoint.readOnly) sent['idempotency-key'] = key ?? randomUUID();
    const response = await fetch(
      `${balancer}/api${endpoint.path}${endpoint.method === 'GET' && form ? `?${form}` : ''}`,
      {
        method: endpoint.method,
        headers: sent,
        body: endpoint.method === 'POST' ? form : undefined,
      },
    );
    const text = await response.text();
    return {
      status: response.status,
      servedBy: response.headers.get('x-served-by') ?? '',
      requestId: response.headers.get('x-request-id') ?? '',
      remaining: response.headers.get('x-ratelimit-remaining'),
      replay: response.headers.get('idempotent-replay') === 'true',
      body: (response.headers.get('content-type')?.includes('json')
        ? JSON.parse(text)
        : { ret: 0, msg: text }) as never,
    };
  }

  async function until(
    condition: () => boolean | Promise<boolean>,
    message: string | (() => string),
    timeoutMs = 20_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(typeof message === 'string' ? message : message());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The host killed before comes back: a new process in its namespace, in the balancer's rotation again. */
  async function bringBack() {
    const returning = hosts.find((host) => host.server!.child.exitCode !== null || host.server!.child.signalCode)!;
    await startHost(returning);
    await until(
      async () => (await fetch(`${balancer}/readyz`)).headers.get('x-served-by') === returning.name,
      'the balancer did not take the host back',
    );
    return returning;
  }

  /** The host holding the price feed's lease (its holder is host:pid:random). */
  async function feedHolder(): Promise<Host | undefined> {
    const { rows } = await sql.query<{ holder: string }>(
      `select holder from leases where name = 'price-feed' and expires_at > clock_timestamp()`,
    );
    return rows[0] ? hostByPid(Number(rows[0].holder.split(':')[1])) : undefined;
  }

  it('serves a session made on one host from the other, with the client address and the balancer request id', async () => {
    const signIn = await call(
      login,
      { username: 'demo', password: 'demo1234' },
      { headers: { 'x-request-id': 'mine' } },
    );
    expect(signIn.body).toMatchObject({ ret: 1 });
    token = signIn.body.data.token;
    // The next calls go to the other host, which knows the session from the database.
    const info = await call(userInfo);
    expect(info.servedBy).not.toBe(signIn.servedBy);
    expect(info.body).toMatchObject({ ret: 1, data: { username: 'demo' } });
    console.log(`signed in on host ${signIn.servedBy}, the next call answered by host ${info.servedBy}`);
    // The host recorded the client's address from X-Forwarded-For (TRUST_PROXY_HOPS=1), not the balancer's.
    const { rows } = await sql.query<{ ip: string }>(
      `select ip from sessions where user_id = (select id from users where username = 'demo') order by id desc limit 1`,
    );
    expect(rows).toEqual([{ ip: '127.0.0.1' }]);
    // The id a client made up is replaced by the balancer's, which the host believes and answers: both logs name it.
    expect(signIn.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await until(() => haproxyLog.includes(` ${signIn.requestId}`), 'the balancer did not log the request id');
    expect(haproxyLog).toMatch(new RegExp(`POST /api/users/login HTTP/1.1" ${signIn.requestId}`));

    // One key on both hosts: a code's delivery reference given by one is read by the other.
    const sent = await call(sendSmsCode, { userphone: '0899990048', must: '0' });
    expect(sent.body).toMatchObject({ ret: 1, data: { resend_in: 60 } });
    const readBy = new Set<string>();
    let state = '';
    await until(async () => {
      const asked = await call(codeDelivery, { delivery: sent.body.data.delivery! });
      expect(asked.body.ret, asked.body.msg).toBe(1);
      readBy.add(asked.servedBy);
      state = asked.body.data.state;
      return state === 'sent' && readBy.size === 2;
    }, 'the code was not reported sent by both hosts');
    expect(readBy).toEqual(new Set(['a', 'b']));

    // Each host's metrics are scraped from the host itself, with the one token; the balancer does not pass them on.
    for (const host of hosts) {
      const scrape = await fetch(`${host.server!.base}/metrics`, {
        headers: { authorization: `Bearer ${hostEnv.METRICS_TOKEN}` },
      });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('coinvest_job_runs_total');
    }
    expect((await fetch(`${balancer}/metrics`)).status).toBe(404);
  });

  it('counts the request limits once across both hosts', async () => {
    const ask = (n: number, headers: Record<string, string> = {}) =>
      call(sendEmailCode, { email: `limit-${run}-${n}@example.com`, must: '0' }, { headers });
    const answers = [];
    for (let n = 1; n <= CODES_PER_ADDRESS; n++) answers.push(await ask(n));
    // One budget: each call, whichever host answered it, took the next one.
    expect(answers.map((answer) => [answer.body.ret, answer.remaining])).toEqual(
      answers.map((_, n) => [1, String(CODES_PER_ADDRESS - n - 1)]),
    );
    expect(new Set(answers.map((answer) => answer.servedBy))).toEqual(new Set(['a', 'b']));
    const refused = [await ask(100), await ask(101)];
    expect(refused.map((answer) => answer.status)).toEqual([429, 429]);
    expect(new Set(refused.map((answer) => answer.servedBy))).toEqual(new Set(['a', 'b']));
    // An address the client claims for itself is not believed: the balancer's last hop names the client.
    const claimed = await ask(102, { 'x-forwarded-for': '198.51.100.7' });
    expect(claimed.status).toBe(429);
  });

  /** What the death of a host in the middle of the traffic left, for the tests after it. */
  const death = {
    victim: null as Host | null,
    survivor: null as Host | null,
    killedAt: 0,
    /** The last step the dead host recorded (ms). */
    lastOfDead: 0,
    streams: [] as ReturnType<typeof priceStream>[],
    options: [] as { id: number }[],
  };

  it('loses and doubles no order when the feed host dies in the middle of a burst; the ledger reconciles', async () => {
    await until(async () => (await feedHolder()) !== undefined, 'no host holds the price feed');
    const victim = (death.victim = (await feedHolder())!);
    death.survivor = other(victim.name);
    // Two options running (opened at a recorded tick) when the host dies: the survivor settles them.
    const product = (await call(optionProducts, { code: 'BTC' })).body.data.lists.find((p) => p.minutes === 1)!;
    for (const direction of ['up', 'down'])
      death.options.push(
        (await call(placeOption, { code: 'BTC', direction, amount: '10', product_id: String(product.id) })).body.data,
      );
    await until(
      async () =>
        (await Promise.all(death.options.map((order) => call(optionOrder, { id: String(order.id) })))).every(
          (answer) => answer.body.data.status === 'holding',
        ),
      'the options did not open',
    );
    // Two price streams: the balancer gives each to the host with fewer, so one is on the host about to die. Both
    // hosts in rotation first, and the second opened once the first is placed: each then goes to a host of its own.
    await bothInRotation();
    const first = priceStream();
    death.streams.push(first);
    undo.push(() => Promise.all(death.streams.map((stream) => stream.close())));
    await until(() => first.connections.length > 0, 'the first stream did not open');
    death.streams.push(priceStream());
    await until(() => death.streams.every((stream) => stream.steps.length >= 3), 'the streams brought no steps');
    expect(
      new Set(death.streams.map((stream) => stream.connections[0]!.servedBy)),
      `both streams on one host; the balancer's health lines:\n${healthLines()}`,
    ).toEqual(new Set(['a', 'b']));

    // The burst: each order its own key and amount, six customers' worth at a time; the feed's host is killed after
    // the eighth answer, and the burst goes on until ten orders asked after the feed moved to the survivor were taken.
    const { rows: before } = await sql.query<{ id: number }>('select coalesce(max(id), 0) as id from option_orders');
    const burstProduct = (await call(optionProducts, { code: 'ETH' })).body.data.lists.find((p) => p.minutes === 5)!;
    const KILL_AFTER = 8;
    const AFTER_MOVE = 10;
    const results: {
      amount: string;
      afterMove: boolean;
      attempts: number;
      tries: string[];
      answer: Answer<{ id: number }> | null;
    }[] = [];
    let killed: Promise<void> | null = null;
    let moved = false;
    let movedAt = 0;
    let orders = 0;
    const enough = () =>
      results.filter((result) => result.afterMove && result.answer?.body.ret === 1).length >= AFTER_MOVE ||
      orders >= 400;
    // Like the app: one key for every try of an order; a network failure or a retried status tries again after 300,
    // 600, 1200… ms, at most MAX_ATTEMPTS tries.
    const place = async (amount: string) => {
      const key = randomUUID();
      const afterMove = moved;
      const tries: string[] = [];
      for (let attempt = 1; ; attempt++) {
        const input = { code: 'ETH', direction: 'up', amount, product_id: String(burstProduct.id) };
        const answer = await call(placeOption, input, { key }).catch((error: unknown) => {
          tries.push(`(${(error as Error).cause instanceof Error ? (error as Error).cause : error})`);
          return null;
        });
        if (answer) tries.push(answer.servedBy ? `${answer.servedBy} ${answer.status}` : `(${answer.status})`);
        if ((answer && !RETRIED.includes(answer.status)) || attempt === MAX_ATTEMPTS) {
          results.push({ amount, afterMove, attempts: attempt, tries, answer });
          if (results.length === KILL_AFTER) {
            death.killedAt = Date.now();
            killed = victim
              .server!.kill()
              // What the dead host recorded last (the survivor records nothing before its lease has expired).
              .then(async () => {
                const { rows } = await sql.query<{ at: Date }>('select max(at) as at from price_ticks');
                death.lastOfDead = rows[0]!.at.getTime();
              })
              .then(() => until(async () => (await feedHolder()) === death.survivor, 'the feed lease did not move'))
              .then(() => {
                moved = true;
                movedAt = Date.now();
              });
            // Awaited after the burst; a failure is reported there.
            killed.catch(() => undefined);
          }
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 300 * 2 ** (attempt - 1)));
      }
    };
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (!enough()) {
          // 1.01, 1.02, … USDT: each order's own amount.
          await place((1 + ++orders / 100).toFixed(2));
          // A customer's pace: an order at most every 100 ms, not a wait for an outcome.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
    await killed;
    const placed = results.filter((result) => result.answer?.body.ret === 1);
    const refused = results.filter((result) => result.answer?.body.ret !== 1);
    const retried = results.filter((result) => result.attempts > 1);
    console.log(
      `burst: ${results.length} orders, host ${victim.name} killed after ${KILL_AFTER} answers, the feed lease moved ` +
        `${movedAt - death.killedAt} ms later; ${retried.length} retried ` +
        `(${retried.map((result) => result.tries.join(' → ')).join(', ')}), ` +
        `${results.filter((result) => result.answer?.replay).length} answered from a stored answer, ` +
        `${refused.length} refused for want of a fresh price while the feed moved`,
    );
    // Every order was answered: accepted, or refused because no fresh price was recorded while the feed moved to the
    // survivor (nothing taken; the customer reads why and may place it again).
    expect(refused.map((result) => result.answer?.body.msg)).toEqual(refused.map(() => texts.priceUnavailable.message));
    expect(placed.filter((result) => result.afterMove).length).toBeGreaterThanOrEqual(AFTER_MOVE);

    // Each placed order's key (its own amount) made exactly one order, the one its answer named; a refused one none.
    const { rows } = await sql.query<{ id: number; amount: string }>(
      'select id, amount::text as amount from option_orders where id > $1 order by id',
      [before[0]!.id],
    );
    const answered = new Map(placed.map((result) => [Number(result.amount), result.answer!.body.data.id]));
    expect(rows.map((row) => Number(row.amount)).sort((x, y) => x - y)).toEqual(
      [...answered.keys()].sort((x, y) => x - y),
    );
    expect(rows.map((row) => answered.get(Number(row.amount)))).toEqual(rows.map((row) => row.id));
    // One stake taken per order, and every balance equals its ledger.
    const { rows: stakes } = await sql.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind = 'option_stake' and reference = any($1)`,
      [rows.map((row) => `option:${row.id}`)],
    );
    expect(stakes).toEqual([{ n: placed.length }]);
    expect(await ledgerMismatches(drizzle(sql) as unknown as Executor)).toEqual([]);
  }, 60_000);

  it('keeps the price stream whole: the cut client resumes through the balancer with Last-Event-ID', async () => {
    const { streams, survivor, killedAt, lastOfDead } = death;
    // Both streams carry steps the survivor recorded, ten of them past its first.
    await until(
      () => streams.every((stream) => stream.steps.filter((step) => step.id > lastOfDead).length >= 10),
      'the streams did not go on after the kill',
    );
    await Promise.all(streams.map((stream) => stream.close()));
    const cut = streams.find((stream) => stream.connections.length > 1)!;
    expect(cut.connections).toHaveLength(2);
    expect(cut.connections[1]).toMatchObject({ servedBy: survivor!.name, lastEventId: expect.stringMatching(/^\d+$/) });
    const firstNew = Math.min(...streams.map((stream) => stream.steps.find((step) => step.id > lastOfDead)!.arrived));
    console.log(
      `price stream: reconnected ${cut.connections[1]!.opened - killedAt} ms after the kill (the server's retry: 3 s), ` +
        `${cut.steps.filter((step) => step.connection === 1 && step.id <= lastOfDead).length} missed steps resent; ` +
        `first new step ${firstNew - killedAt} ms after the kill`,
    );
    for (const stream of streams) {
      const ids = stream.steps.map((step) => step.id);
      // Every step once, in order…
      expect(ids).toEqual([...new Set(ids)].sort((x, y) => x - y));
      // …and exactly what was recorded from the first to the last.
      const { rows } = await sql.query<{ coin: string; at: Date; price: string }>(
        'select coin, at, price::text as price from price_ticks where at between $1 and $2',
        [new Date(ids[0]!), new Date(ids.at(-1)!)],
      );
      const recorded = rows.map((row) => `${row.coin} ${row.at.toISOString()} ${Number(row.price)}`).sort();
      const received = stream.steps
        .flatMap((step) => step.ticks.map((tick) => `${tick.code} ${tick.at} ${Number(tick.price)}`))
        .sort();
      expect(received).toEqual(recorded);
    }
  });

  it('moves the feed lease and every job to the surviving host', async () => {
    const { survivor, killedAt, options } = death;
    await until(async () => (await feedHolder()) === survivor, 'the feed lease did not move', 15_000);
    // Settlement: the options running when the host died settle, each paid at most once.
    await until(
      async () =>
        (await Promise.all(options.map((order) => call(optionOrder, { id: String(order.id) })))).every(
          (answer) => answer.body.data.status === 'settled',
        ),
      'the options were not settled',
    );
    const { rows: payouts } = await sql.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind = 'option_payout' and reference = any($1)
       group by reference`,
      [options.map((order) => `option:${order.id}`)],
    );
    expect(payouts.every((row) => row.n === 1)).toBe(true);
    // Matching: a market buy fills at the next recorded tick.
    const bought = await call(placeContract, { code: 'BTC', side: 'buy', type: 'market', total: '20' });
    expect(bought.body).toMatchObject({ ret: 1, data: { status: 'filling' } });
    await until(
      async () =>
        (await call(contractOrders, { status: 'history', code: 'BTC' })).body.data.lists.some(
          (order) => order.id === bought.body.data.id && order.status === 'filled',
        ),
      'the market order did not fill',
    );
    // Delivery: a code asked for now is sent.
    const sent = await call(sendSmsCode, { userphone: '0899990049', must: '0' });
    expect(sent.body.ret, sent.body.msg).toBe(1);
    await until(
      async () => (await call(codeDelivery, { delivery: sent.body.data.delivery! })).body.data.state === 'sent',
      'the code was not sent',
    );
    // Reconciliation: the survivor runs the books' check, and the books agree.
    await until(async () => {
      const { rows } = await sql.query<{ ok: boolean }>(
        'select ok from reconciliation_runs where process = $1 and started_at > $2',
        [`${hostname()}:${survivor!.server!.child.pid}`, new Date(killedAt)],
      );
      return rows.length > 0 && rows.every((row) => row.ok);
    }, 'the survivor ran no reconciliation');
  }, 60_000);

  it('drains a host stopped cleanly: the balancer leaves it on its /readyz 503, and no request fails', async () => {
    await bringBack();
    const leaving = hosts[0]!;
    const answers: { status: number; ret: number; servedBy: string }[] = [];
    let loading = true;
    // Two clients calling steadily while the host stops.
    const load = Array.from({ length: 2 }, async () => {
      while (loading) {
        answers.push(
          await call(userInfo).then(
            (answer) => ({ status: answer.status, ret: answer.body.ret, servedBy: answer.servedBy }),
            () => ({ status: 0, ret: 0, servedBy: '' }),
          ),
        );
        // A client's pace (about 50 calls a second each), not a wait for an outcome.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    try {
      await until(() => new Set(answers.map((answer) => answer.servedBy)).size === 2, 'both hosts did not answer');
      const logFrom = haproxyLog.length;
      const stopping = Date.now();
      const stopped = leaving.server!.stop(10_000);
      const down = new RegExp(`Server hosts/${leaving.name} is DOWN, reason: Layer7 wrong status, code: 503`);
      await until(
        () => down.test(haproxyLog.slice(logFrom)),
        () => `not taken out: ${haproxyLog.slice(logFrom)}`,
      );
      const downMs = Date.now() - stopping;
      await stopped;
      const stopMs = Date.now() - stopping;
      const count = answers.length;
      await until(() => answers.length >= count + 10, 'the other host did not go on');
      console.log(
        `clean stop: out of the balancer ${downMs} ms after SIGTERM, exited after ${stopMs} ms; ${answers.length} calls`,
      );
      expect(downMs).toBeLessThan(stopMs);
    } finally {
      loading = false;
      await Promise.all(load);
    }
    expect(answers.filter((answer) => answer.status !== 200 || answer.ret !== 1)).toEqual([]);
  }, 60_000);

  interface Step {
    id: number;
    ticks: TickEvent[];
    /** Which connection of the stream brought it (0: the first). */
    connection: number;
    arrived: number;
  }

  /**
   * A client of the live price stream through the balancer, like the app's: the first connection's snapshot is not a
   * step; when a connection ends it reconnects after the server's `retry:` with Last-Event-ID, the last id it got.
   */
  function priceStream() {
    const steps: Step[] = [];
    const connections: { servedBy: string; lastEventId: string | null; opened: number }[] = [];
    const abort = new AbortController();
    let lastEventId: string | null = null;
    let retryMs = 3_000;
    const done = (async () => {
      while (!abort.signal.aborted) {
        try {
          const response = await fetch(`${balancer}/api${PRICE_STREAM_PATH}`, {
            signal: abort.signal,
            headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
          });
          if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
          const connection = connections.push({
            servedBy: response.headers.get('x-served-by') ?? '',
            lastEventId,
            opened: Date.now(),
          });
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
            buffer += chunk.value;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const fields = buffer.slice(0, end).split('\n');
              buffer = buffer.slice(end + 2);
              const field = (name: string) =>
                fields.filter((line) => line.startsWith(`${name}: `)).map((line) => line.slice(name.length + 2));
              if (field('retry').length) retryMs = Number(field('retry')[0]);
              const id = field('id')[0];
              if (id === undefined) continue;
              const first = lastEventId === null;
              lastEventId = id;
              if (field('event')[0] !== 'ticks' || first) continue;
              const ticks = JSON.parse(field('data').join('\n')) as TickEvent[];
              steps.push({ id: Number(id), ticks, connection: connection - 1, arrived: Date.now() });
            }
          }
        } catch {
          // Cut off, refused or closed: reconnect below, unless closed.
        }
        if (!abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    })();
    return { steps, connections, close: () => (abort.abort(), done) };
  }
});
