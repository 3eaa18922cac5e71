// A real server on a real database, driven through app.inject(): no port. The database is an
// in-memory PGlite (project `server`) or a fresh copy of a migrated template on a throwaway
// PostgreSQL cluster (project `server-pg`, tests/server/global-setup-pg.ts).
import type { SheddingLimits } from '../../src/server/http/load-shedding.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import * as v from 'valibot';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Database, type Db } from '../../src/server/db/connection.ts';
import { buildApp, type AppOptions } from '../../src/server/http/app.ts';
import type { Services } from '../../src/server/http/context.ts';
import { testAppOptions, testServices, unconfigured } from './test-app.ts';
import type { Clock } from '../../src/server/domain/clock.ts';
import type { CodeSender } from '../../src/server/domain/code-sender.ts';
import { createMarket, type Market } from '../../src/server/market/market.ts';
import { simulatedFeed, type SimulatedFeed } from '../../src/server/market/simulator.ts';
import { LISTED_COINS, seedMarkets } from '../../src/server/db/seed-markets.ts';
import { seedFunds } from '../../src/server/db/seed-funds.ts';
import { seedEarn } from '../../src/server/db/seed-earn.ts';
import type { Endpoint, InputOf, ResultOf } from '../../src/api-contract/endpoint.ts';
import { RET_OK, type Envelope } from '../../src/api-contract/envelope.ts';
import { canonicalMobile } from '../../src/server/domain/phone-numbers.ts';
import type { ReceiptKeyRing } from '../../src/server/domain/receipt-keys.ts';

export interface SentCode {
  channel: string;
  target: string;
  code: string;
}

export interface Harness {
  app: FastifyInstance;
  database: Database;
  clock: Clock & { advance(ms: number): void; set(date: Date): void };
  sent: SentCode[];
  /** The market on a simulated feed that never runs by itself: `tick()` steps it. */
  market: Market;
  feed: SimulatedFeed;
  /** One feed step at the harness clock's current second, recorded like the live server does. */
  tick(): Promise<void>;
  /** The latest code sent to a phone number or e-mail address. */
  codeFor(target: string): string;
  call<E extends Endpoint>(
    endpoint: E,
    input?: Partial<Record<keyof InputOf<E> & string, string>> | Record<string, string>,
    options?: CallOptions,
  ): Promise<Envelope<ResultOf<E>>>;
  close(): Promise<void>;
}

/**
 * The API contract describes answers too: the data of every ret 1 answer must match the endpoint's
 * answer schema exactly (a field missing, extra or of another shape fails the test that called).
 */
export function checkedAnswer<E extends Endpoint>(endpoint: E, envelope: Envelope<ResultOf<E>>): Envelope<ResultOf<E>> {
  if (envelope.ret !== RET_OK) return envelope;
  if (!endpoint.answer) throw new Error(`${endpoint.method} ${endpoint.path} declares no answer schema`);
  const checked = v.safeParse(endpoint.answer, envelope.data);
  if (!checked.success) {
    const issues = checked.issues.map((issue) => `${v.getDotPath(issue) ?? '(data)'}: ${issue.message}`);
    throw new Error(
      `${endpoint.method} ${endpoint.path} answered data the API contract does not describe:\n  ${issues.join('\n  ')}\n${JSON.stringify(envelope.data).slice(0, 2000)}`,
    );
  }
  return envelope;
}

export interface CallOptions {
  token?: string;
  lang?: string;
  idempotencyKey?: string;
  ip?: string;
  /** More request headers (Origin, Host, User-Agent…). */
  headers?: Record<string, string>;
}

/** True in the `server-pg` project: the suite runs on PostgreSQL. */
export const onPostgres = () => Boolean(inject('pgAdminUrl'));

/** A fresh, migrated, empty database of this project's kind; close() removes it. */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) return openDatabase({ kind: 'memory', snapshot: new Blob([readFileSync(inject('dbSnapshot'))]) });
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name} template ${inject('pgTemplate')}`);
  const database = await openDatabase({ kind: 'postgres', url: adminUrl.replace(/\/[^/]*$/, `/${name}`) });
  refuseOuterQueriesInTransactions([database.db, database.reads]);
  return {
    ...database,
    async close() {
      await database.close();
      // Never forced: a connection still open (a late request of the test) keeps its database,
      // and the whole cluster goes at the end of the run anyway.
      await admin(`drop database if exists ${name}`).catch(() => undefined);
    },
  };
}

const OUTER_QUERY_IN_TRANSACTION =
  'A query on the outer database inside a transaction of it: pass the transaction (tx). PostgreSQL would run it on ' +
  'another connection, outside the transaction; the embedded database, whose one connection the transaction holds, ' +
  'would wait for it forever.';

/** The transaction whose work is running, in this async context: open until its work ends. */
const transactionWork = new AsyncLocalStorage<{ database: object; open: boolean }>();

/**
 * Makes PostgreSQL refuse what hangs the embedded database: a query (or another transaction) on the outer `db` from
 * inside one of its transactions' work, instead of on the work's `tx`. PGlite runs one transaction at a time on one
 * connection, so there such a query waits for the transaction that waits for it; a pool gives it another connection,
 * where it runs outside the transaction. Most server files run on PostgreSQL only (tests/projects.ts): this keeps
 * them finding what their run on PGlite found. The work's async context marks the transaction open until the work
 * ends; the pool's `query` and `connect` throw OUTER_QUERY_IN_TRANSACTION within it. `pools`: the database's `db` and
 * its read calls' `reads`, one database to this check.
 */
function refuseOuterQueriesInTransactions(pools: Db[]) {
  // The read calls' pool is the same database (on the embedded one, the same connection): a query on either counts.
  const database = {};
  for (const db of pools) {
    const transaction = db.transaction.bind(db);
    db.transaction = ((work, config) =>
      transaction((tx) => {
        const mark = { database, open: true };
        return transactionWork.run(mark, () => work(tx)).finally(() => (mark.open = false));
      }, config)) as Db['transaction'];
    const pool = (db as unknown as { $client: Record<'query' | 'connect', (...args: unknown[]) => unknown> }).$client;
    for (const method of ['query', 'connect'] as const) {
      const original = pool[method].bind(pool);
      pool[method] = (...args: unknown[]) => {
        const running = transactionWork.getStore();
        if (running?.open && running.database === database) throw new Error(OUTER_QUERY_IN_TRANSACTION);
        return original(...args);
      };
    }
  }
}

/**
 * Runs `start` as from outside any transaction's work: for a test that, from inside a transaction it holds, starts
 * what other requests or processes would send meanwhile (not waited for by that transaction, so no hang on PGlite
 * either). Returns what `start` returns.
 */
export function besideTransactions<T>(start: () => T): T {
  return transactionWork.exit(start);
}

/**
 * A second server process's app on the harness's database: its own memory (caches, counters) and its own change
 * notices, the same clock and market, request limits raised as the harness's are, and `options` (a setting of its
 * own, e.g. LOGIN_COUNTRY_FILE's table) over them; `services` sets its own services (a configuration it was started
 * with, e.g. another PAYEE_COOLING_HOURS, as after a restart). The caller closes it.
 */
export function otherProcessApp(
  h: Harness,
  options: Partial<AppOptions> = {},
  services: Partial<Services> = {},
): Promise<FastifyInstance> {
  return buildApp(
    testServices({
      ...services,
      db: h.database.db,
      reads: h.database.reads,
      clock: h.clock,
      sender: { send: async () => {} },
      market: h.market,
      changes: h.database.changes(),
    }),
    testAppOptions({ addressRateLimitPerMinute: 100_000, accountRateLimitPerMinute: 100_000, ...options }),
  );
}

/**
 * payeeCoolingMs: the cooling-off of new bank cards and wallets; 0 unless a test asks (most tests
 * add a payee and withdraw at once; the cooling-off has its own tests).
 */
export async function startHarness(
  options: {
    authRateLimitPerMinute?: number;
    /** The app's limit on calls worked on at once; none by default, as the request limits are raised: the suites'
     * bursts on one database test what the calls do at once, not how many a process takes. */
    shedding?: SheddingLimits;
    payeeCoolingMs?: number;
    /** The app's real sender (the delivery queue); else codes are kept in `sent`. */
    sender?: (db: Database['db']) => CodeSender;
    /** The receipt signing keys; else the process's own random key. */
    receiptKeys?: ReceiptKeyRing;
    /** More push services subscriptions may point to (`host:port`, e.g. a stand-in's), besides the real ones. */
    pushServiceHosts?: string[];
  } = {},
): Promise<Harness> {
  const database = await openTestDatabase();
  let now = new Date('2026-11-22T08:00:00Z');
  const clock = {
    now: () => new Date(now),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    set(date: Date) {
      now = date;
    },
  };
  const sent: SentCode[] = [];
  const sender: CodeSender = options.sender?.(database.db) ?? { send: async (message) => void sent.push(message) };
  await seedMarkets(database.db, clock.now());
  await seedFunds(database.db);
  await seedEarn(database.db, clock.now(), unconfigured.earnTimeZone);
  const feed = simulatedFeed({
    coins: LISTED_COINS.map((coin) => ({
      code: coin.code,
      startPrice: coin.startPrice,
      volatility: Number(coin.volatility),
      priceDecimals: coin.priceDecimals,
    })),
    seed: 7,
    clock,
  });
  const market = createMarket(database.db, feed, clock);
  const app = await buildApp(
    testServices({
      db: database.db,
      reads: database.reads,
      clock,
      sender,
      market,
      changes: database.changes(),
      payeeCoolingMs: options.payeeCoolingMs ?? 0,
      ...(options.receiptKeys ? { receiptKeys: options.receiptKeys } : {}),
    }),
    testAppOptions({
      authRateLimitPerMinute: options.authRateLimitPerMinute ?? 10_000,
      addressRateLimitPerMinute: 100_000,
      accountRateLimitPerMinute: 100_000,
      shedding: options.shedding ?? false,
      // The tests' push service stand-ins, besides the real ones.
      pushServiceHosts: [...unconfigured.pushServiceHosts, 'push.example.com', ...(options.pushServiceHosts ?? [])],
    }),
  );
  await app.ready();

  return {
    app,
    database,
    clock,
    sent,
    market,
    feed,
    tick: () => market.record(feed.step(new Date(Math.floor(clock.now().getTime() / 1000) * 1000))),
    codeFor(typed) {
      // A number is found however it is written: codes go to its E.164 form.
      const target = typed.includes('@') ? typed : (canonicalMobile(typed) ?? typed);
      const found = sent.findLast((message) => message.target === target);
      if (!found) throw new Error(`no code was sent to ${target}`);
      return found.code;
    },
    call: (endpoint, input = {}, options = {}) => callApp(app, endpoint, input, options),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Calls `endpoint` on `app` as a client does (a form for POST, a query for GET; lang 'en' unless told) and checks a
 * ret 1 answer against the endpoint's answer schema: Harness.call on the harness's app, or on another process's.
 */
export async function callApp<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  input: Partial<Record<keyof InputOf<E> & string, string>> | Record<string, string> = {},
  options: CallOptions = {},
): Promise<Envelope<ResultOf<E>>> {
  const headers: Record<string, string> = { lang: options.lang ?? 'en', ...options.headers };
  if (options.token) headers.token = options.token;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const form = new URLSearchParams(input as Record<string, string>).toString();
  const response = await app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}${endpoint.method === 'GET' && form ? `?${form}` : ''}`,
    headers: endpoint.method === 'POST' ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    payload: endpoint.method === 'POST' ? form : undefined,
    remoteAddress: options.ip,
  });
  return checkedAnswer(endpoint, response.json());
}
