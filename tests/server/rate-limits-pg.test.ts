// Request limits hold across server processes: two real servers on one PostgreSQL database count
// every request against the same budget (request_counters), so a second process (or WORKERS=4) does
// not multiply the limit. The general budgets (an address's anonymous calls, an account's calls) are counted in each
// process and merged into the table every second: a process refuses once it has heard of the others' calls, and
// admits at most what it counted before that; the login's per-address limit is exact on every call. PostgreSQL only
// (the server-pg project): the embedded database serves one process, which counts in memory. And the counter's
// statement, prepared once, counted from every pooled connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './harness.ts';
import { MINUTE_LEFT } from './helpers.ts';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import type { ServerProcess } from './server-process.ts';
import type { Database } from '../../src/server/db/connection.ts';
import { createAccount } from '../../src/server/domain/accounts.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { count, countOf, countPrepared } from '../../src/server/domain/attempts.ts';
import { requestCounters } from '../../src/server/db/schema.ts';

const PER_ADDRESS = 6;
const PER_ACCOUNT = 8;
const LOGIN_PER_ADDRESS = 4;

describe('request limits across two server processes on one PostgreSQL', () => {
  let database: Database;
  let servers: ServerProcess[] = [];
  let processes: ProcessesOnPostgres;

  beforeAll(async () => {
    processes = await processesOnPostgres(['first', 'second'], {
      TRUST_PROXY_HOPS: '0',
      RATE_LIMIT_ADDRESS: String(PER_ADDRESS),
      RATE_LIMIT_ACCOUNT: String(PER_ACCOUNT),
      AUTH_RATE_LIMIT: String(LOGIN_PER_ADDRESS),
    });
    ({ database, servers } = processes);
  }, 180_000);

  afterAll(() => processes?.stop());

  /** One call to the first or second process, from this machine's one address. */
  async function call(process: number, path: string, init: RequestInit = {}) {
    const response = await fetch(`${servers[process]!.base}/api${path}`, {
      ...init,
      headers: { lang: 'en', ...init.headers },
    });
    return {
      status: response.status,
      remaining: response.headers.get('x-ratelimit-remaining'),
      body: (await response.json()) as { ret: number; msg: string },
    };
  }
  const LIMITED = {
    status: 429,
    remaining: '0',
    // The limiter counts on the real clock: what is left of the minute depends on how fast the calls ran.
    body: { ret: 0, msg: expect.stringMatching(MINUTE_LEFT), data: null },
  };

  /** The table's count of `name` (`address:127.0.0.1`, `account:12`): what the processes have merged so far. */
  const merged = async (name: string) =>
    (await countOf(database.db, name, { max: 0, windowMs: 60_000 }, new Date(), requestCounters))?.count ?? 0;

  it('an address gets one budget of anonymous calls across both processes, once their counts have met', async () => {
    for (let n = 1; n <= PER_ADDRESS; n++) {
      expect(await call(0, '/coin/lists')).toMatchObject({
        status: 200,
        remaining: String(PER_ADDRESS - n),
        body: { ret: 1 },
      });
    }
    expect(await call(0, '/coin/lists')).toEqual(LIMITED);
    // The first process's counts reach the table within its next merge (a second).
    await expect.poll(() => merged('address:127.0.0.1'), { timeout: 10_000, interval: 100 }).toBe(PER_ADDRESS + 1);
    // The second has counted nothing of this address yet: it admits what it counts before its own merge (the
    // bound's excess), then has heard the total and refuses.
    expect(await call(1, '/coin/lists')).toMatchObject({ status: 200, body: { ret: 1 } });
    await expect.poll(() => merged('address:127.0.0.1'), { timeout: 10_000, interval: 100 }).toBe(PER_ADDRESS + 2);
    expect(await call(1, '/coin/lists')).toEqual(LIMITED);
    expect(await call(0, '/coin/lists')).toEqual(LIMITED);
  });

  it('login keeps its own per-address limit across both processes', async () => {
    const login = (process: number) =>
      call(process, '/users/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=nobody_here&password=abc12345',
      });
    for (let n = 1; n <= LOGIN_PER_ADDRESS; n++)
      expect(await login(n % 2)).toMatchObject({ status: 200, body: { ret: 0, msg: 'Wrong username or password!' } });
    expect(await login(0)).toEqual(LIMITED);
    expect(await login(1)).toEqual(LIMITED);
  });

  it('an account gets one budget across both processes', async () => {
    const user = await createAccount(
      database.db,
      {
        channel: 'sms',
        address: '0899990001',
        password: 'abc12345',
        paypass: '123456',
        currency: 'THB',
        invitedBy: null,
      },
      new Date(),
    );
    const token = await createSession(database.db, user.id);
    const info = (process: number) => call(process, '/users/info', { headers: { token } });
    // Each process counts in memory: it refuses at the latest once it alone has admitted the budget.
    const answered = [];
    for (let n = 0; n < 3 * PER_ACCOUNT; n++) answered.push((await info(n % 2)).status);
    const admitted = answered.filter((status) => status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(PER_ACCOUNT);
    expect(admitted).toBeLessThanOrEqual(2 * PER_ACCOUNT);
    // Once both have merged every call, both refuse.
    await expect.poll(() => merged(`account:${user.id}`), { timeout: 10_000, interval: 100 }).toBe(3 * PER_ACCOUNT);
    expect(await info(0)).toEqual(LIMITED);
    expect(await info(1)).toEqual(LIMITED);
  });
});

describe('the request counter prepared once, on PostgreSQL', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
  }, 60_000);

  afterAll(() => database?.close());

  it('counts each key in its own window and starts again at 1 once the window has passed', async () => {
    const counter = (name: string, now: Date) => countPrepared(database.db, name, 60_000, now, requestCounters);
    const start = new Date('2026-11-29T10:00:00.000Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    expect(await counter('account:1', start)).toEqual({ count: 1, windowStart: start, lastAt: start });
    expect(await counter('account:1', at(30))).toEqual({ count: 2, windowStart: start, lastAt: at(30) });
    expect(await counter('account:2', at(30))).toEqual({ count: 1, windowStart: at(30), lastAt: at(30) });
    // The same statement from every pooled connection at once: each count is taken once.
    const counts = await Promise.all(Array.from({ length: 12 }, () => counter('account:1', at(59))));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 3));
    expect(await counter('account:1', at(60))).toEqual({ count: 1, windowStart: at(60), lastAt: at(60) });
    // As the statement built each time counts it (attempt counters, logins): the same row, the same window.
    expect(await count(database.db, 'account:1', { max: 5, windowMs: 60_000 }, at(61), requestCounters)).toEqual({
      count: 2,
      windowStart: at(60),
      lastAt: at(61),
    });
  });
});
