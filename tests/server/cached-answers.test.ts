// Answers cached in memory (src/server/http/cached-answers.ts) are never staler than the change
// notices allow: a change made through the server's own database connections (an operator command
// through the embedded server, a job, a handler) is served at once, one made by another process
// within the notice's delay; a logged-out, revoked or password-changed session is refused at once
// here and within a second from any other connection, also when the notice channel was lost.
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { changePassword, login, logout, userInfo } from '../../src/api-contract/account.ts';
import { config, slides as slideCall } from '../../src/api-contract/content.ts';
import { balances, coinList, currencyRate } from '../../src/api-contract/markets.ts';
import { optionProducts } from '../../src/api-contract/options.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { CHANGES_LISTENER, EVERYTHING } from '../../src/server/db/changes.ts';
import { fiatRates, optionProducts as productsTable, sessions, slides } from '../../src/server/db/schema.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { AnswerCache, cachedJson } from '../../src/server/http/cached-answers.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import type { FastifyInstance } from 'fastify';
import { onPostgres, startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { runOpsCommandOk } from './server-process.ts';
import { PASSWORD, TOKEN_EXPIRED, customer, grant, noticeOf } from './helpers.ts';

let h: Harness;
/** The same server without change notices: every answer comes from the database. */
let direct: FastifyInstance;

beforeAll(async () => {
  h = await startHarness();
  direct = await buildApp(
    testServices({ db: h.database.db, clock: h.clock, sender: { send: async () => {} }, market: h.market }),
    testAppOptions({ addressRateLimitPerMinute: 100_000, accountRateLimitPerMinute: 100_000 }),
  );
  await untilListening();
});

/** Listening starts on first use (and again after a lost connection): wait for its first round trip. */
async function untilListening() {
  const started = performance.now();
  while (!h.database.changes().live()) {
    if (performance.now() - started > 5_000) throw new Error('not listening after 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterAll(async () => {
  await direct.close();
  await h.close();
});

/** Calls `read` until `fresh` holds: how many stale answers came first, and for how long (fails after 2 s). */
async function freshWithin<T>(
  read: () => Promise<T>,
  fresh: (value: T) => boolean,
): Promise<{ stale: number; ms: number }> {
  const started = performance.now();
  for (let stale = 0; ; stale++) {
    if (fresh(await read())) return { stale, ms: performance.now() - started };
    if (performance.now() - started > 2_000) throw new Error('still stale after 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The notice of a change made through the server's own connections arrives with its commit: the very next read is
 * fresh. */
const expectPrompt = ({ stale }: { stale: number }) => expect(stale).toBe(0);

/** On PostgreSQL: a connection of no server process, as `npm run ops` or psql would use. */
async function otherConnection() {
  const [{ name }] = rowsOf<{ name: string }>(await h.database.db.execute(sql`select current_database() as name`)) as [
    { name: string },
  ];
  const url = inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { url, client };
}

const configData = async (lang = 'en') => (await h.call(config, { act: 'system' }, { lang })).data.service_url;
const productYield = async (id: number) =>
  (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((product) => product.id === id)?.yield_rate;

it('answers exactly what the database gives, per language', async () => {
  const { token, id } = await customer(h, '25.5');
  await h.tick();
  const calls = [
    [config, { act: 'system' }],
    [config, { act: 'about' }],
    [slideCall, { position: 'home' }],
    [coinList, {}],
    [optionProducts, {}],
    [optionProducts, { code: 'ETH' }],
    [currencyRate, { code: 'USD' }],
    [userInfo, {}],
    [balances, {}],
  ] as const;
  for (const lang of ['en', 'zh', 'th']) {
    for (const [endpoint, input] of calls) {
      const url = `/api${endpoint.path}?${new URLSearchParams(input)}`;
      const headers = { lang, token };
      // Twice: the second answer comes from memory.
      await h.app.inject({ url, headers });
      const cached = (await h.app.inject({ url, headers })).json();
      const fromDatabase = (await direct.inject({ url, headers })).json();
      expect(cached, `${endpoint.path} ${lang}`).toEqual(fromDatabase);
      expect(cached.ret).toBe(1);
    }
  }
  expect((await h.call(config, { act: 'system' }, { lang: 'zh' })).msg).not.toBe('Success');
  // A write through the server's own connections is read back at once.
  await grant(h, id, '1');
  expect((await h.call(balances, {}, { token })).data.lists).toContainEqual(
    expect.objectContaining({ asset: 'USDT', available: expect.stringMatching(/^26\.5/) }),
  );
});

it('serves a config, a slide and a product fresh right after the operator changes them', async () => {
  expect(await configData()).not.toBe('https://help.example.com/chat');
  const service = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
    'service',
    'url=https://help.example.com/chat',
  ]);
  expect(service.ok).toBe(true);
  expectPrompt(await freshWithin(configData, (url) => url === 'https://help.example.com/chat'));
  expect(await configData('zh')).toBe('https://help.example.com/chat');

  const slidesNow = async () => (await h.call(slideCall, { position: 'user1' })).data.lists.map((slide) => slide.title);
  expect(await slidesNow()).not.toContain('Spring offer');
  await h.database.db
    .insert(slides)
    .values({ position: 'user1', title: 'Spring offer', image: '/slides/spring.svg', sort: 9 });
  expectPrompt(await freshWithin(slidesNow, (titles) => titles.includes('Spring offer')));

  const [product] = await h.database.db
    .select()
    .from(productsTable)
    .where(and(eq(productsTable.coin, 'BTC'), eq(productsTable.active, true)))
    .limit(1);
  expect(await productYield(product!.id)).toBe(String(Number(product!.yieldRate)));
  expect(
    (
      await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
        'product',
        String(product!.id),
        'yield=0.91',
      ])
    ).ok,
  ).toBe(true);
  expectPrompt(
    await freshWithin(
      () => productYield(product!.id),
      (rate) => rate === '0.91',
    ),
  );
  expect(
    (
      await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
        'product',
        String(product!.id),
        'active=false',
      ])
    ).ok,
  ).toBe(true);
  expectPrompt(
    await freshWithin(
      () => productYield(product!.id),
      (rate) => rate === undefined,
    ),
  );
});

it.runIf(onPostgres())('serves a product fresh after `npm run ops` changed it from another process', async () => {
  const { url, client } = await otherConnection();
  await client.end();
  const [product] = await h.database.db
    .select()
    .from(productsTable)
    .where(and(eq(productsTable.coin, 'BTC'), eq(productsTable.active, true)))
    .limit(1);
  expect(await productYield(product!.id)).not.toBe('0.77');
  // The products' notice (a table-wide one: any user matches) reaches this server from the other process.
  const notice = noticeOf(h.database.changes(), 'option_products', 0);
  await runOpsCommandOk(['product', String(product!.id), 'yield=0.77'], { env: { DATABASE_URL: url } });
  // Once it has come, the very next read is fresh, although the list cached before would have been served for longer.
  await notice;
  expectPrompt(
    await freshWithin(
      () => productYield(product!.id),
      (rate) => rate === '0.77',
    ),
  );
});

it('follows each recorded tick in the coin list', async () => {
  await h.tick();
  const first = (await h.call(coinList)).data.lists[0]!;
  h.clock.advance(1_000);
  await h.tick();
  const next = (await h.call(coinList)).data.lists[0]!;
  expect(next.at).toBe(new Date(new Date(first.at).getTime() + 1_000).toISOString());
});

it('refuses a logged-out token right away', async () => {
  const { token } = await customer(h);
  expect((await h.call(userInfo, {}, { token })).ret).toBe(1);
  expect((await h.call(logout, {}, { token, idempotencyKey: 'logout-1' })).ret).toBe(1);
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(balances, {}, { token })).toEqual(TOKEN_EXPIRED);
});

it('refuses a token revoked in the database at once', async () => {
  const { token, id } = await customer(h);
  expect((await h.call(userInfo, {}, { token })).ret).toBe(1);
  await h.database.db.update(sessions).set({ revokedAt: h.clock.now() }).where(eq(sessions.userId, id));
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
});

it.runIf(onPostgres())(
  'refuses a token revoked from another connection within a second, and shows a balance another process changed',
  async () => {
    const { token, id } = await customer(h, '10');
    expect((await h.call(balances, {}, { token })).data.lists).toContainEqual(
      expect.objectContaining({ asset: 'USDT', available: expect.stringMatching(/^10(\.0+)?$/) }),
    );
    const { client } = await otherConnection();
    try {
      const notice = noticeOf(h.database.changes(), 'balances', id);
      await client.query(`update balances set available = available + 5 where user_id = $1 and asset = 'USDT'`, [id]);
      // The change reaches this server by its notice: once the notice has come, the very next read is fresh, although
      // the balances it cached before would have been served for 30 s more (the cached answers' lifetime).
      await notice;
      const fresh = await freshWithin(
        () => h.call(balances, {}, { token }),
        (answer) => answer.data.lists.some((row) => row.asset === 'USDT' && Number(row.available) === 15),
      );
      expectPrompt(fresh);
      const revoked = noticeOf(h.database.changes(), 'sessions', id);
      await client.query('update sessions set revoked_at = now() where user_id = $1', [id]);
      // The same for the session: after its notice, the very next call is refused.
      await revoked;
      expectPrompt(
        await freshWithin(
          () => h.call(userInfo, {}, { token }),
          (answer) => answer.ret === -1,
        ),
      );
    } finally {
      await client.end();
    }
  },
);

it('ends every other session when the password changes', async () => {
  const { token, phone } = await customer(h);
  const other = (await h.call(login, { username: phone, password: PASSWORD })).data.token;
  expect((await h.call(userInfo, {}, { token: other })).ret).toBe(1);
  expect((await h.call(userInfo, {}, { token })).ret).toBe(1);
  const changed = await h.call(
    changePassword,
    { oldpass: PASSWORD, password: 'xyz98765', repassword: 'xyz98765' },
    { token },
  );
  expect(changed.ret).toBe(1);
  expect(await h.call(userInfo, {}, { token: other })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect((await h.call(userInfo, {}, { token: changed.data.token })).ret).toBe(1);
});

it.runIf(onPostgres())(
  'trusts nothing cached while the notice channel is lost, and flushes it on reconnecting',
  async () => {
    const { token, id } = await customer(h);
    expect((await h.call(userInfo, {}, { token })).ret).toBe(1);
    // Cut every connection of the server, the listening one first; a revocation made meanwhile reaches none of them.
    const { client } = await otherConnection();
    // Losing the channel announces that anything may have changed ('*'): from then on nothing cached is trusted.
    const lost = noticeOf(h.database.changes(), EVERYTHING, id);
    const cut = await client.query(
      `select application_name, pg_terminate_backend(pid) as cut from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() order by application_name = $1 desc`,
      [CHANGES_LISTENER],
    );
    expect(cut.rows[0]).toEqual({ application_name: CHANGES_LISTENER, cut: true });
    await client.query('update sessions set revoked_at = now() where user_id = $1', [id]);
    await client.end();
    await lost;
    // No call after the loss is served the cached session (ret 1). A call may still meet a pooled connection that was
    // cut (an error, not a cached answer), so the calls go on until the refusal.
    const served: number[] = [];
    await freshWithin(
      () => h.call(userInfo, {}, { token }),
      (answer) => (served.push(answer.ret), answer.ret === -1),
    );
    expect(served.filter((ret) => ret === 1)).toEqual([]);
    await untilListening();
    expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  },
);

it('keeps no answer read while a change was announced, nor a held user’s until their notice', async () => {
  const cache = new AnswerCache<string>(() => true, 10_000);
  let answer!: (value: string) => void;
  const racing = cache.read('k', () => new Promise((resolve) => (answer = resolve)));
  cache.dropAll();
  answer('before the change');
  expect(await racing).toBe('before the change');
  expect(await cache.read('k', async () => 'after the change')).toBe('after the change');

  cache.hold(7);
  expect(
    await cache.read(
      'user 7',
      async () => 'read before the commit',
      () => 7,
    ),
  ).toBe('read before the commit');
  expect(
    await cache.read(
      'user 7',
      async () => 'committed',
      () => 7,
    ),
  ).toBe('committed');
  cache.dropUsers([7]);
  expect(
    await cache.read(
      'user 7',
      async () => 'cached',
      () => 7,
    ),
  ).toBe('cached');
  expect(
    await cache.read(
      'user 7',
      async () => 'not read again',
      () => 7,
    ),
  ).toBe('cached');
});

it('shares one database read among callers that miss together, but not with a caller that came after a change', async () => {
  const cache = new AnswerCache<string>(() => true, 10_000);
  let loads = 0;
  let answer!: (value: string) => void;
  const slow = () => {
    loads++;
    return new Promise<string>((resolve) => (answer = resolve));
  };
  const [first, second] = [cache.read('k', slow), cache.read('k', slow)];
  expect(loads).toBe(1);
  cache.dropAll();
  const after = cache.read('k', async () => {
    loads++;
    return 'after the change';
  });
  expect(loads).toBe(2);
  answer('before the change');
  expect([await first, await second, await after]).toEqual([
    'before the change',
    'before the change',
    'after the change',
  ]);
  expect(await cache.read('k', async () => 'not read again')).toBe('after the change');
  // A failed read is not shared with the next caller either.
  const failing = cache.read('f', async () => Promise.reject(new Error('database down')));
  await expect(failing).rejects.toThrow('database down');
  expect(await cache.read('f', async () => 'back')).toBe('back');
});

it('serialises a cached public answer once per language, and a change brings new text', async () => {
  const cache = new AnswerCache<{ v: number }>(() => true, 10_000, true);
  let serialised = 0;
  const jsonOf = (value: object, locale: string) =>
    cachedJson(value, locale, () => {
      serialised++;
      return JSON.stringify({ locale, ...value });
    });
  const first = await cache.read('k', async () => ({ v: 1 }));
  expect(jsonOf(first, 'en')).toBe('{"locale":"en","v":1}');
  expect(jsonOf(first, 'en')).toBe('{"locale":"en","v":1}');
  expect(jsonOf(first, 'zh')).toBe('{"locale":"zh","v":1}');
  expect(serialised).toBe(2);
  cache.dropAll();
  const second = await cache.read('k', async () => ({ v: 2 }));
  expect(jsonOf(second, 'en')).toBe('{"locale":"en","v":2}');
  // A cache not kept serialised, and answers read while the notice channel cannot vouch, are not serialised ahead.
  expect(
    jsonOf(await new AnswerCache<{ v: number }>(() => true, 10_000).read('k', async () => ({ v: 3 })), 'en'),
  ).toBeUndefined();
  expect(
    jsonOf(await new AnswerCache<{ v: number }>(() => false, 10_000, true).read('k', async () => ({ v: 4 })), 'en'),
  ).toBeUndefined();
});

it('sends each customer the bytes of their own info and balances, and new ones after a change', async () => {
  const [first, second] = [await customer(h, '3'), await customer(h, '7')];
  const read = async (endpoint: typeof userInfo | typeof balances, token: string) =>
    (await h.app.inject({ url: `/api${endpoint.path}`, headers: { lang: 'en', token } })).body;
  for (const endpoint of [userInfo, balances]) {
    // Twice each: the second answer is the kept bytes.
    const firsts = [await read(endpoint, first.token), await read(endpoint, first.token)];
    const seconds = [await read(endpoint, second.token), await read(endpoint, second.token)];
    expect(firsts[1]).toBe(firsts[0]);
    expect(seconds[1]).toBe(seconds[0]);
    expect(seconds[0]).not.toBe(firsts[0]);
  }
  await grant(h, first.id, '1');
  expect(JSON.parse(await read(balances, first.token)).data.lists).toContainEqual(
    expect.objectContaining({ asset: 'USDT', available: expect.stringMatching(/^4/) }),
  );
  expect(JSON.parse(await read(balances, second.token)).data.lists).toContainEqual(
    expect.objectContaining({ asset: 'USDT', available: expect.stringMatching(/^7/) }),
  );
});

it('serves a currency rate fresh right after it changes, in every language, as the database gives it', async () => {
  const url = '/api/third/currency/rate?code=THB';
  const rateIn = async (lang: string) => (await h.app.inject({ url, headers: { lang } })).json();
  for (const lang of ['en', 'th']) {
    await rateIn(lang);
    const cached = await h.app.inject({ url, headers: { lang } });
    expect(cached.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(cached.json()).toEqual((await direct.inject({ url, headers: { lang } })).json());
  }
  await h.database.db.update(fiatRates).set({ rate: '41.25' }).where(eq(fiatRates.code, 'THB'));
  expectPrompt(
    await freshWithin(
      () => rateIn('en'),
      (answer) => Number(answer.data.rate) === 41.25,
    ),
  );
  expect(await rateIn('th')).toEqual((await direct.inject({ url, headers: { lang: 'th' } })).json());
  expect(Number((await rateIn('th')).data.rate)).toBe(41.25);
});
