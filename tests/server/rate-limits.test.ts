// A mobile carrier puts thousands of customers behind one address: logged-in calls are counted
// per account, anonymous and authentication calls per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { onPostgres, startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { MINUTE_LEFT, registerByPhone } from './helpers.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { MergedCounter, RequestCounter } from '../../src/server/http/rate-limits.ts';
import type { Db } from '../../src/server/db/connection.ts';
import { sql } from 'drizzle-orm';
import { hashToken } from '../../src/server/domain/sessions.ts';
import { coinList, balances } from '../../src/api-contract/markets.ts';
import { login } from '../../src/api-contract/account.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';
import { countOf } from '../../src/server/domain/attempts.ts';
import { requestCounters } from '../../src/server/db/schema.ts';
import { rowsOf } from '../../src/server/db/connection.ts';

const CARRIER = '100.64.0.1';
let h: Harness;
let limited: FastifyInstance;

beforeAll(async () => {
  h = await startHarness();
  limited = await buildApp(
    testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
    testAppOptions({ addressRateLimitPerMinute: 5, accountRateLimitPerMinute: 8, authRateLimitPerMinute: 3 }),
  );
  await limited.ready();
});
afterAll(async () => {
  await limited.close();
  await h.close();
});

async function call(
  endpoint: Endpoint,
  { ip = CARRIER, token, form = '' }: { ip?: string; token?: string; form?: string } = {},
) {
  const headers: Record<string, string> = { lang: 'en', ...(token ? { token } : {}) };
  const response = await limited.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}${endpoint.method === 'GET' && form ? `?${form}` : ''}`,
    headers: endpoint.method === 'POST' ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    payload: endpoint.method === 'POST' ? form : undefined,
    remoteAddress: ip,
  });
  return { status: response.statusCode, body: response.json() as { ret: number; msg: string } };
}

// The limiter counts on the real clock: what is left of the minute, in seconds, depends on how fast the calls ran.
const LIMITED = { status: 429, body: { ret: 0, msg: expect.stringMatching(MINUTE_LEFT), data: null } };

it('customers behind one carrier address each get their own budget once logged in', async () => {
  const [customer1, customer2] = [await registerByPhone(h), await registerByPhone(h)];
  // Anonymous calls of the address use up its budget …
  for (let i = 0; i < 5; i++) expect((await call(coinList)).status).toBe(200);
  expect(await call(coinList)).toEqual(LIMITED);
  // … while each logged-in customer behind it keeps a budget of their own.
  for (let i = 0; i < 8; i++)
    expect(await call(balances, { token: customer1.token })).toMatchObject({ status: 200, body: { ret: 1 } });
  expect(await call(balances, { token: customer1.token })).toEqual(LIMITED);
  expect(await call(balances, { token: customer2.token })).toMatchObject({ status: 200, body: { ret: 1 } });
  // Another address is not affected by the carrier's anonymous traffic.
  expect((await call(coinList, { ip: '198.51.100.7' })).status).toBe(200);
});

it('an account is one budget wherever it calls from', async () => {
  const customer3 = await registerByPhone(h);
  for (let i = 0; i < 8; i++)
    expect((await call(balances, { token: customer3.token, ip: `203.0.113.${i + 1}` })).status).toBe(200);
  expect(await call(balances, { token: customer3.token, ip: '203.0.113.99' })).toEqual(LIMITED);
});

it('an invalid token counts against the address, like an anonymous call', async () => {
  const ip = '192.0.2.44';
  for (let i = 0; i < 5; i++) expect((await call(balances, { token: `made-up-${i}`, ip })).body.ret).toBe(-1);
  expect(await call(balances, { token: 'made-up-again', ip })).toEqual(LIMITED);
});

it('login is limited per address, however many usernames are tried', async () => {
  const ip = '192.0.2.77';
  for (let i = 0; i < 3; i++) {
    expect(await call(login, { ip, form: `username=user${i}&password=abc12345` })).toMatchObject({
      status: 200,
      body: { ret: 0 },
    });
  }
  expect(await call(login, { ip, form: 'username=user9&password=abc12345' })).toEqual(LIMITED);
  expect((await call(login, { ip: '192.0.2.78', form: 'username=user9&password=abc12345' })).status).toBe(200);
});

it('says the budget left on every call, and when to retry with the 429', async () => {
  const ip = '192.0.2.90';
  for (let left = 4; left >= 0; left--) {
    const response = await limited.inject({ url: '/api/coin/lists', headers: { lang: 'en' }, remoteAddress: ip });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': String(left),
      'x-ratelimit-reset': '60',
    });
    expect(response.headers['retry-after']).toBeUndefined();
  }
  const refused = await limited.inject({ url: '/api/coin/lists', headers: { lang: 'zh' }, remoteAddress: ip });
  expect(refused.statusCode).toBe(429);
  expect(refused.headers).toMatchObject({
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': '0',
    'retry-after': refused.headers['x-ratelimit-reset'],
  });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.headers['content-type']).toMatch(/^application\/json/);
  // What is left of the minute, in the reader's language: the seconds retry-after says (a whole minute only when none
  // of it has passed).
  const left = refused.headers['retry-after'];
  const said = [`尝试次数过多，请在${left}秒钟后再试！`, ...(left === '60' ? ['尝试次数过多，请在1分钟后再试！'] : [])];
  expect(said).toContain(refused.json().msg);
});

it.each([1, 2])(
  'behind %i trusted proxies, counts the client address they name, whatever the client wrote before it',
  async (hops) => {
    const proxied = await buildApp(
      testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
      testAppOptions({
        addressRateLimitPerMinute: 3,
        accountRateLimitPerMinute: 8,
        authRateLimitPerMinute: 3,
        trustProxyHops: hops,
      }),
    );
    try {
      // The last proxy's address is the socket's; each trusted proxy before it appended one address.
      const proxies = ['10.0.0.2', '10.0.0.3'].slice(0, hops - 1);
      const from = (client: string, spoofed: string) =>
        proxied.inject({
          url: '/api/coin/lists',
          headers: { lang: 'en', 'x-forwarded-for': [spoofed, client, ...proxies].join(', ') },
          remoteAddress: '10.0.0.1',
        });
      // Addresses of this case only: on PostgreSQL every app on the database counts in the same budget.
      const [client, other] = [`203.0.113.${10 + hops}`, `203.0.113.${20 + hops}`];
      for (let i = 0; i < 3; i++) expect((await from(client, `198.18.0.${i}`)).statusCode).toBe(200);
      expect((await from(client, '198.18.0.99')).statusCode).toBe(429);
      // Another customer behind the same proxies keeps a budget of their own.
      expect((await from(other, '198.18.0.1')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  },
);

it('does not believe X-Forwarded-For without trusted proxies: the address that connected is counted', async () => {
  const ip = '192.0.2.91';
  for (let i = 0; i < 5; i++) {
    const response = await limited.inject({
      url: '/api/coin/lists',
      headers: { lang: 'en', 'x-forwarded-for': `198.18.1.${i}` },
      remoteAddress: ip,
    });
    expect(response.statusCode).toBe(200);
  }
  expect(
    (
      await limited.inject({
        url: '/api/coin/lists',
        headers: { lang: 'en', 'x-forwarded-for': '198.18.1.77' },
        remoteAddress: ip,
      })
    ).statusCode,
  ).toBe(429);
});

it('counts every API route, the picture routes too, and not an unknown path', async () => {
  const ip = '192.0.2.92';
  const picture = await limited.inject({
    url: '/api/uploads/no-such-picture',
    headers: { lang: 'en' },
    remoteAddress: ip,
  });
  expect(picture.statusCode).toBe(404);
  expect(picture.headers['x-ratelimit-remaining']).toBe('4');
  const upload = await limited.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { lang: 'en', 'content-type': 'multipart/form-data; boundary=x' },
    payload: '',
    remoteAddress: ip,
  });
  expect(upload.json()).toMatchObject({ ret: -1 });
  expect(upload.headers['x-ratelimit-remaining']).toBe('3');
  const unknown = await limited.inject({ url: '/api/no/such/call', headers: { lang: 'en' }, remoteAddress: ip });
  expect(unknown.statusCode).toBe(404);
  expect(unknown.headers['x-ratelimit-remaining']).toBeUndefined();
  expect(
    (await limited.inject({ url: '/api/coin/lists', headers: { lang: 'en' }, remoteAddress: ip })).headers[
      'x-ratelimit-remaining'
    ],
  ).toBe('2');
});

it('a multipart body sent to any other call is read as empty: the call’s own refusal', async () => {
  const response = await limited.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { lang: 'en', 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nsomeone\r\n--x--\r\n',
    remoteAddress: '192.0.2.93',
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({ ret: 0 });
});

describe('RequestCounter', () => {
  const reply = () => {
    const headers: Record<string, unknown> = {};
    return {
      headers,
      header: (name: string, value: unknown) => void (headers[name] = value),
    } as unknown as FastifyReply & { headers: Record<string, unknown> };
  };

  it('counts a key in one-minute windows from its first request', () => {
    const counter = new RequestCounter<string>();
    const start = 1_000_000;
    expect(counter.take('a', 2, reply(), start)).toBeUndefined();
    const second = reply();
    expect(counter.take('a', 2, second, start + 59_000)).toBeUndefined();
    expect(second.headers).toEqual({ 'x-ratelimit-limit': 2, 'x-ratelimit-remaining': 0, 'x-ratelimit-reset': 1 });
    const third = reply();
    expect(counter.take('a', 2, third, start + 59_999)).toEqual({
      statusCode: 429,
      rateLimited: true,
      retryAfterMs: 1,
    });
    expect(third.headers).toEqual({
      'x-ratelimit-limit': 2,
      'x-ratelimit-remaining': 0,
      'x-ratelimit-reset': 1,
      'retry-after': 1,
    });
    // Another key has its own window; the first key's window ends a minute after it started.
    expect(counter.take('b', 2, reply(), start + 59_999)).toBeUndefined();
    const next = reply();
    expect(counter.take('a', 2, next, start + 60_000)).toBeUndefined();
    expect(next.headers).toMatchObject({ 'x-ratelimit-remaining': 1, 'x-ratelimit-reset': 60 });
  });

  it('keeps at most its number of keys, dropping the oldest windows first', () => {
    const counter = new RequestCounter<string>(3);
    for (const key of ['a', 'b', 'c']) counter.take(key, 1, reply(), 0);
    expect(counter.take('a', 1, reply(), 10)).toEqual({ statusCode: 429, rateLimited: true, retryAfterMs: 59_990 });
    counter.take('d', 1, reply(), 20);
    expect(counter.size).toBe(3);
    // 'a' was the oldest window and went; 'b' is still counted.
    expect(counter.take('a', 1, reply(), 30)).toBeUndefined();
    expect(counter.take('c', 1, reply(), 30)).toEqual({ statusCode: 429, rateLimited: true, retryAfterMs: 59_970 });
  });

  it('as a merged counter, keeps an ended window whose calls are not merged while there is room, and its keys when full', () => {
    // No merge is asked for here: the database is never reached.
    const counter = new MergedCounter({} as Db, 3);
    for (const key of ['a', 'b']) counter.take(key, 1, reply(), 0);
    // Both windows have ended, but their calls would be lost to the shared table if they went.
    counter.take('c', 1, reply(), 60_001);
    expect(counter.size).toBe(3);
    counter.take('d', 1, reply(), 60_002);
    expect(counter.size).toBe(3);
    // Full, the oldest went whatever it owed: 'a' starts afresh (and 'b' goes for it); 'c' is still counted.
    expect(counter.take('a', 1, reply(), 60_003)).toBeUndefined();
    expect(counter.size).toBe(3);
    expect(counter.take('c', 1, reply(), 60_004)).toEqual({ statusCode: 429, rateLimited: true, retryAfterMs: 59_997 });
  });
});

describe.runIf(onPostgres())('the general budgets of two processes on one PostgreSQL, merged every second', () => {
  const PER_ACCOUNT = 4;
  let apps: FastifyInstance[] = [];

  beforeAll(async () => {
    // Two processes' apps: each its own memory and counters, one table between them.
    apps = await Promise.all(
      [0, 1].map(() =>
        buildApp(
          testServices({ db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } }),
          // Merged only when the test asks: what each process has heard is the test's to say.
          testAppOptions({
            addressRateLimitPerMinute: 1_000,
            accountRateLimitPerMinute: PER_ACCOUNT,
            requestCountsMergeMs: null,
          }),
        ),
      ),
    );
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  const info = (app: number, token: string) =>
    apps[app]!.inject({ url: '/api/users/balances', headers: { lang: 'en', token }, remoteAddress: '192.0.2.120' });
  const merged = async (token: string) => {
    // The caller's account, as the counter names it.
    const [{ userId }] = rowsOf<{ userId: number }>(
      await h.database.db.execute(sql`select user_id as "userId" from sessions where token_hash = ${hashToken(token)}`),
    ) as [{ userId: number }];
    return (
      await countOf(h.database.db, `account:${userId}`, { max: 0, windowMs: 60_000 }, new Date(), requestCounters)
    )?.count;
  };

  it('a process that has not heard of the others’ calls admits them until its next merge, then refuses', async () => {
    const { token } = await registerByPhone(h);
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await info(0, token)).statusCode).toBe(200);
    expect((await info(0, token)).statusCode).toBe(429);
    await apps[0]!.mergeRequestCounts();
    expect(await merged(token)).toBe(PER_ACCOUNT + 1);
    // The other process has not merged since: one call over the budget, the bound's excess.
    expect((await info(1, token)).statusCode).toBe(200);
    await apps[1]!.mergeRequestCounts();
    expect(await merged(token)).toBe(PER_ACCOUNT + 2);
    expect((await info(1, token)).statusCode).toBe(429);
    expect((await info(0, token)).statusCode).toBe(429);
  });

  it('with no merge at all, each process admits the budget once: never more than two budgets in a window', async () => {
    const { token } = await registerByPhone(h);
    const answered = [];
    for (let i = 0; i < 3 * PER_ACCOUNT; i++) answered.push((await info(i % 2, token)).statusCode);
    expect(answered.filter((status) => status === 200)).toHaveLength(2 * PER_ACCOUNT);
    await Promise.all(apps.map((app) => app.mergeRequestCounts()));
    expect(await merged(token)).toBe(3 * PER_ACCOUNT);
    // Both have heard the total now: refused everywhere until the window ends.
    expect((await info(0, token)).statusCode).toBe(429);
    expect((await info(1, token)).statusCode).toBe(429);
  });

  it('a call made while its process merges still counts the calls that merge is sending', async () => {
    const { token } = await registerByPhone(h);
    for (let i = 0; i < PER_ACCOUNT - 1; i++) expect((await info(0, token)).statusCode).toBe(200);
    // The three calls are on their way to the table; the budget's last call comes before the total is back. (Counted
    // as none for that moment, it saw 3 left: a process could admit a budget more each second it merged.)
    const merging = apps[0]!.mergeRequestCounts();
    const during = await info(0, token);
    await merging;
    expect(during.statusCode).toBe(200);
    expect(during.headers['x-ratelimit-remaining']).toBe('0');
    expect((await info(0, token)).statusCode).toBe(429);
  });

  it('a call writes nothing: its count reaches the table with the next merge', async () => {
    const { token } = await registerByPhone(h);
    for (let i = 0; i < 3; i++) expect((await info(0, token)).statusCode).toBe(200);
    expect(await merged(token)).toBeUndefined();
    await apps[0]!.mergeRequestCounts();
    expect(await merged(token)).toBe(3);
    // Nothing counted since: the next merge writes nothing.
    await apps[0]!.mergeRequestCounts();
    expect(await merged(token)).toBe(3);
  });
});
