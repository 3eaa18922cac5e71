// One market across processes, for real: two server processes on one throwaway PostgreSQL, each on
// its own port, started together on an empty database, with one shared test clock (CLOCK_SPEED=20,
// one CLOCK_ORIGIN). Stream clients of both see the same ticks; SIGKILL the process holding the
// price feed and the other takes over within 5 s; options bought on either settle exactly once, and
// contract limits placed on either fill exactly once, each at the first recorded tick crossing it.
// No browser needed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type PostgresCluster } from '../server/postgres.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { login } from '../../src/api-contract/account.ts';
import { balances, coinRate, PRICE_STREAM_PATH, type TickEvent } from '../../src/api-contract/markets.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import type { Endpoint, InputOf, ResultOf } from '../../src/api-contract/endpoint.ts';
import type { Envelope } from '../../src/api-contract/envelope.ts';
import { drizzle } from 'drizzle-orm/node-postgres';
import { ledgerMismatches } from '../../src/server/domain/ledger.ts';
import type { Executor } from '../../src/server/db/connection.ts';

type Server = ServerProcess & { name: string };

let postgres: PostgresCluster;
let sql: pg.Client;
const servers: Server[] = [];
const work = mkdtempSync(join(tmpdir(), 'coinvest-cluster-'));

async function startNamed(name: string, databaseUrl: string, origin: number): Promise<Server> {
  const server = await startServer({
    work,
    name,
    env: {
      DATABASE_URL: databaseUrl,
      WEB_ROOT: '',
      CLOCK_SPEED: '20',
      CLOCK_ORIGIN: String(origin),
      LOG_LEVEL: 'warn',
      WORKERS: '',
    },
  });
  return Object.assign(server, { name });
}

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('cluster');
  // Both at once on the empty database: migrations and seeding must not race.
  const origin = Date.now();
  servers.push(...(await Promise.all([startNamed('A', url, origin), startNamed('B', url, origin)])));
  sql = new pg.Client({ connectionString: url });
  await sql.connect();
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await sql?.end();
  await postgres?.stop();
});

async function call<E extends Endpoint>(
  server: Server,
  endpoint: E,
  input: Partial<Record<keyof InputOf<E> & string, string>> = {},
  token?: string,
): Promise<Envelope<ResultOf<E>>> {
  const form = new URLSearchParams(input as Record<string, string>).toString();
  const headers: Record<string, string> = { lang: 'en' };
  if (token) headers.token = token;
  if (endpoint.method === 'POST') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['idempotency-key'] = crypto.randomUUID();
  }
  const response = await fetch(
    `${server.base}/api${endpoint.path}${endpoint.method === 'GET' && form ? `?${form}` : ''}`,
    {
      method: endpoint.method,
      headers,
      body: endpoint.method === 'POST' ? form : undefined,
    },
  );
  return (await response.json()) as Envelope<ResultOf<E>>;
}

interface Seen {
  /** Real time (ms) the event arrived. */
  arrived: number;
  ticks: TickEvent[];
}

/**
 * An SSE client of the live price stream, keeping every `ticks` event after the first snapshot; `until` resolves on
 * the first event after which `condition` holds (at once if it holds already).
 */
function watchStream(server: Server) {
  const seen: Seen[] = [];
  const waiting = new Set<() => void>();
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => condition() && (waiting.delete(check), resolve());
      waiting.add(check);
      check();
    });
  const abort = new AbortController();
  let snapshot = true;
  const done = (async () => {
    const response = await fetch(`${server.base}/api${PRICE_STREAM_PATH}`, {
      signal: abort.signal,
      headers: { accept: 'text/event-stream' },
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer += chunk.value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        if (!lines.includes('event: ticks')) continue;
        const data = lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (snapshot) snapshot = false;
        else {
          seen.push({ arrived: Date.now(), ticks: JSON.parse(data) as TickEvent[] });
          for (const check of [...waiting]) check();
        }
      }
    }
  })().catch(() => undefined);
  return { seen, until, close: () => (abort.abort(), done) };
}

const key = (tick: TickEvent) => `${tick.code} ${tick.at} ${tick.price}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Rejects after `ms` with `message`: a deadline on an awaited event. */
const deadline = (ms: number, message: string) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

/** The server process that holds the price feed lease, by the pid in the lease row. */
async function feedHolder(): Promise<{ server: Server; pid: number }> {
  const { rows } = await sql.query<{ holder: string }>(
    `select holder from leases where name = 'price-feed' and expires_at > clock_timestamp()`,
  );
  const pid = Number(rows[0]?.holder.split(':')[1]);
  const server = servers.find((candidate) => candidate.child.pid === pid);
  if (!server) throw new Error(`the feed is held by ${rows[0]?.holder ?? 'no one'}, not by a server of this test`);
  return { server, pid };
}

let tokens: Map<Server, string>;
const orders: { server: Server; id: number }[] = [];

it('both processes stream the same ticks (same coin, second and price), recorded once', async () => {
  const [a, b] = [watchStream(servers[0]!), watchStream(servers[1]!)];
  const seconds = (seen: Seen[]) => seen.map((event) => event.ticks[0]!.at);
  // The window both watched, from the later first step to the earlier last one.
  const window = () => {
    const [atA, atB] = [seconds(a.seen), seconds(b.seen)];
    const from = [atA[0]!, atB[0]!].sort().at(-1)!;
    const to = [atA.at(-1)!, atB.at(-1)!].sort()[0]!;
    const inWindow = (seen: Seen[]) => seen.filter((event) => event.ticks[0]!.at >= from && event.ticks[0]!.at <= to);
    return { atA, from, to, windowA: inWindow(a.seen), windowB: inWindow(b.seen) };
  };
  // Watched until both streams have brought more than 40 steps of the same window.
  const enough = () =>
    a.seen.length > 0 && b.seen.length > 0 && Math.min(window().windowA.length, window().windowB.length) > 40;
  await Promise.race([a.until(enough), b.until(enough)]);
  await Promise.all([a.close(), b.close()]);
  const { server: leader } = await feedHolder();
  const follower = servers.find((server) => server !== leader)!;

  const { atA, from, to, windowA, windowB } = window();
  expect(atA.length).toBeGreaterThan(40);
  expect(windowA.length).toBeGreaterThan(40);
  // The same events, in the same order, with the same prices.
  expect(windowB.map((event) => event.ticks)).toEqual(windowA.map((event) => event.ticks));
  // Every step has all ten coins, and the seconds never repeat.
  expect(windowA.every((event) => event.ticks.length === 10)).toBe(true);
  expect(new Set(seconds(windowA)).size).toBe(windowA.length);
  // What they streamed is what was recorded.
  const { rows } = await sql.query<{ coin: string; at: Date; price: string }>(
    'select coin, at, price::text as price from price_ticks where at between $1 and $2',
    [from, to],
  );
  expect(new Set(rows.map((row) => `${row.coin} ${row.at.toISOString()} ${Number(row.price)}`))).toEqual(
    new Set(windowA.flatMap((event) => event.ticks.map((tick) => `${tick.code} ${tick.at} ${Number(tick.price)}`))),
  );
  expect(new Set(windowA.flatMap((event) => event.ticks.map(key))).size).toBe(rows.length);

  // How long after the leader's clients a follower's clients get a step.
  const leaderArrived = new Map(
    (leader === servers[0] ? windowA : windowB).map((event) => [event.ticks[0]!.at, event.arrived]),
  );
  const lags = (follower === servers[0] ? windowA : windowB)
    .map((event) => event.arrived - leaderArrived.get(event.ticks[0]!.at)!)
    .sort((x, y) => x - y);
  console.log(
    `follower lag behind the feed's process: median ${lags[lags.length >> 1]} ms, max ${lags.at(-1)} ms over ${lags.length} steps (it reads on each step's change notice)`,
  );
  expect(lags.at(-1)!).toBeLessThan(1_000);
});

it('takes options on either process', async () => {
  tokens = new Map();
  for (const server of servers) {
    const session = await call(server, login, { username: 'demo', password: 'demo1234' });
    expect(session.ret).toBe(1);
    tokens.set(server, session.data.token);
  }
  const product = (await call(servers[0]!, optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!;
  for (const server of servers) {
    for (const direction of ['up', 'down']) {
      const placed = await call(
        server,
        placeOption,
        { code: 'BTC', direction, amount: '10', product_id: String(product.id) },
        tokens.get(server),
      );
      // Accepted; it opens at the first tick recorded after it, whichever process records it.
      expect(placed).toMatchObject({ ret: 1, data: { status: 'opening', code: 'BTC', start_price: null } });
      orders.push({ server, id: placed.data.id });
    }
  }
});

it('takes contract limit orders on either process, a little either side of the price', async () => {
  const bought = await call(
    servers[0]!,
    placeContract,
    { code: 'BTC', side: 'buy', type: 'market', quantity: '0.02' },
    tokens.get(servers[0]!),
  );
  expect(bought).toMatchObject({ ret: 1, data: { status: 'filling' } });
  // The sells below need the BTC it brings: it fills at the first tick recorded after it.
  await expect
    .poll(
      async () =>
        (
          await call(servers[0]!, contractOrders, { status: 'history', code: 'BTC' }, tokens.get(servers[0]!))
        ).data.lists.find((o) => o.id === bought.data.id)?.status,
      {
        timeout: 15_000,
      },
    )
    .toBe('filled');
  for (const server of servers) {
    const price = Number((await call(server, coinRate, { code: 'BTC' })).data.price);
    for (let k = 1; k <= 5; k++) {
      for (const side of ['buy', 'sell'] as const) {
        const limit = (price * (side === 'buy' ? 1 - 0.0002 * k : 1 + 0.0002 * k)).toFixed(2);
        const placed = await call(
          server,
          placeContract,
          { code: 'BTC', side, type: 'limit', price: limit, quantity: '0.001' },
          tokens.get(server),
        );
        expect(placed.ret, placed.msg).toBe(1);
      }
    }
  }
});

it('moves the feed to the other process within 5 s when its process is killed', async () => {
  const { server: leader, pid } = await feedHolder();
  const survivor = servers.find((server) => server !== leader)!;
  const stream = watchStream(survivor);
  await stream.until(() => stream.seen.length > 0); // connected: it has brought a step
  const before = await call(survivor, coinRate, { code: 'BTC' });
  expect(before.ret).toBe(1);

  process.kill(pid, 'SIGKILL');
  const killed = Date.now();
  await new Promise((resolve) => leader.child.once('exit', resolve));
  const { rows } = await sql.query<{ last: Date }>('select max(at) as last from price_ticks');
  const lastOfDead = rows[0]!.last.toISOString();
  const newTick = () => stream.seen.find((event) => event.ticks[0]!.at > lastOfDead);
  await Promise.race([
    stream.until(() => newTick() !== undefined),
    deadline(10_000, 'no new tick on the surviving process within 10 s'),
  ]);
  const firstNew = newTick()!;
  const takeover = firstNew.arrived - killed;
  console.log(
    `feed takeover: ${takeover} ms from SIGKILL of the feed's process to the first new tick on the other's stream`,
  );
  expect(takeover).toBeLessThan(5_000);
  expect((await feedHolder()).server).toBe(survivor);

  // The stream keeps moving, and so does the quote: asked once a step after the first new one has come.
  await stream.until(() => stream.seen.some((event) => event.ticks[0]!.at > firstNew.ticks[0]!.at));
  const after = await call(survivor, coinRate, { code: 'BTC' });
  expect(after.ret).toBe(1);
  expect(after.data.at > before.data.at).toBe(true);
  expect(after.data.at > lastOfDead).toBe(true);
  const seen = stream.seen.length;
  await stream.until(() => stream.seen.length > seen);
  expect(stream.seen.length).toBeGreaterThan(seen);
  await stream.close();
});

it('settles every option exactly once, whichever process took it; balances equal the ledger', async () => {
  const survivor = servers.find((server) => server.child.exitCode === null && server.child.signalCode === null)!;
  const token = tokens.get(survivor)!;
  // 1 minute of market time is 3 s here.
  const deadline = Date.now() + 20_000;
  let settled: Awaited<ReturnType<typeof call<typeof optionOrder>>>[];
  for (;;) {
    settled = await Promise.all(orders.map((order) => call(survivor, optionOrder, { id: String(order.id) }, token)));
    if (settled.every((state) => state.data.status === 'settled')) break;
    if (Date.now() > deadline)
      throw new Error(`not all settled: ${JSON.stringify(settled.map((state) => state.data.status))}`);
    await sleep(500);
  }
  for (const { data: order } of settled) {
    // The start price is the first tick recorded after the order was accepted, within 10 s; with
    // none (the takeover, 20× faster here) the order never opened: void and refunded.
    if (order.start_price === null) {
      expect(order).toMatchObject({ outcome: 'void', end_at: null, payout: order.amount, profit: '0.00000000' });
      continue;
    }
    const { rows: starts } = await sql.query<{ price: string; at: Date }>(
      `select price::text as price, at from price_ticks where coin = $1 and at > $2 order by at limit 1`,
      ['BTC', order.start_at],
    );
    expect(order.start_price_at).toBe(starts[0]!.at.toISOString());
    expect(Number(order.start_price)).toBe(Number(starts[0]!.price));
    // The end price is the last recorded price at or before the end, within the 10 s before it; an
    // order that ended while no process ran the feed (the takeover, 20× faster here) is void: refunded.
    const { rows } = await sql.query<{ price: string; at: Date }>(
      `select price::text as price, at from price_ticks where coin = $1 and at <= $2 and at >= $2::timestamptz - interval '10 seconds' order by at desc limit 1`,
      ['BTC', order.end_at],
    );
    if (rows[0]) {
      expect(Number(order.end_price)).toBe(Number(rows[0].price));
      expect(order.end_price_at).toBe(rows[0].at.toISOString());
    } else {
      expect(order).toMatchObject({
        outcome: 'void',
        end_price: null,
        end_price_at: null,
        payout: order.amount,
        profit: '0.00000000',
      });
    }
  }
  // One payout entry per winning (or tied) order, of exactly its payout; a loss pays nothing.
  const { rows: payouts } = await sql.query<{ reference: string; entries: number; total: string }>(
    `select reference, count(*)::int as entries, sum(amount)::text as total from ledger_entries where kind = 'option_payout' and reference = any($1) group by reference`,
    [orders.map((order) => `option:${order.id}`)],
  );
  const paid = new Map(payouts.map((row) => [row.reference, { entries: row.entries, total: Number(row.total) }]));
  for (const { data: order } of settled) {
    expect(paid.get(`option:${order.id}`) ?? null).toEqual(
      Number(order.payout) > 0 ? { entries: 1, total: Number(order.payout) } : null,
    );
  }
  expect(
    settled
      .map(({ data }) => data.outcome)
      .every((outcome) => outcome === 'win' || outcome === 'loss' || outcome === 'tie' || outcome === 'void'),
  ).toBe(true);
  // Balances are the sum of their ledger entries.
  expect(await ledgerMismatches(drizzle(sql) as unknown as Executor)).toEqual([]);
  const wallet = await call(survivor, balances, {}, token);
  expect(wallet.ret).toBe(1);
});

it('fills every crossed contract limit exactly once, at its price, at the first recorded tick crossing it', async () => {
  // Matching has applied every tick recorded so far (the survivor's included): nothing it has yet to do changes a row.
  const { rows: recorded } = await sql.query<{ last: Date }>(
    `select max(at) as last from price_ticks where coin = 'BTC'`,
  );
  await expect
    .poll(
      async () =>
        (
          await sql.query<{ caught: boolean }>(
            `select matched_through >= $1 as caught from contract_pairs where coin = 'BTC'`,
            [recorded[0]!.last],
          )
        ).rows[0]?.caught,
      { timeout: 15_000 },
    )
    .toBe(true);
  // One statement, one snapshot: each limit order beside the first tick after it was placed that
  // crosses it, among the ticks matching has applied.
  const { rows } = await sql.query<{
    id: number;
    status: string;
    price: string;
    unit_price: string | null;
    tick_at: Date | null;
    placed_filled: boolean;
    first_at: Date | null;
    trades: number;
  }>(`
    select o.id, o.status, o.price::text as price, o.unit_price::text as unit_price, o.tick_at, o.filled_at = o.created_at as placed_filled, t.at as first_at,
      (select count(*)::int from ledger_entries e where e.kind = 'contract_trade' and e.reference = 'contract:' || o.id) as trades
    from contract_orders o join contract_pairs p on p.coin = o.coin
    left join lateral (
      select at from price_ticks t where t.coin = o.coin and t.at > o.eligible_after and t.at <= p.matched_through
        and (case when o.side = 'buy' then t.price <= o.price else t.price >= o.price end)
      order by at limit 1
    ) t on true
    where o.type = 'limit'`);
  expect(rows).toHaveLength(20);
  let resting = 0;
  for (const order of rows) {
    expect(order.placed_filled).not.toBe(true); // no limit fills at a price recorded before it was placed
    if (order.first_at) {
      expect(order).toMatchObject({ status: 'filled', unit_price: order.price, tick_at: order.first_at });
      expect(order.trades).toBeGreaterThanOrEqual(2); // the frozen funds out, the coin or USDT in
    } else {
      expect(order.status).toBe('open');
      expect(order.trades).toBe(0);
      resting++;
    }
  }
  console.log(
    `contract limits: ${rows.length - resting} of ${rows.length} filled across the two processes, ${resting} still resting`,
  );
  expect(rows.length - resting).toBeGreaterThan(0);
  expect(await ledgerMismatches(drizzle(sql) as unknown as Executor)).toEqual([]);
});
