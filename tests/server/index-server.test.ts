// PRICE_FEED=index for real: the server runs as its own process, reading three local exchange
// stand-ins over their documented protocols. Its price is the median of theirs; with every
// exchange gone quiet the coin is halted and a buy is refused with the message; with no exchange
// reachable at all (no internet) it still starts, says so once per exchange, and serves everything
// else. PGlite in a temporary folder, as `npm start` runs it: the `server` project only (tests/projects.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from './postgres.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { STAND_IN_KINDS, standInEnv, startStandIns, tradeBtc, type StandIn } from './exchange-standins.ts';

const running: { server: ServerProcess; dir: string }[] = [];
const stands: StandIn[] = [];
afterEach(async () => {
  for (const { server, dir } of running.splice(0)) {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await Promise.all(stands.map((stand) => stand.close()));
});

/** Starts the server on a fresh embedded database with these variables; resolves once it listens. */
async function startIndexServer(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'coinvest-index-'));
  const server = await startServer({
    work: dir,
    env: {
      NODE_ENV: 'development',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      WEB_ROOT: '',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  running.push({ server, dir });
  return { base: `${server.base}/api`, output: server.output };
}

/** A call in English (the server's fallback language is Thai). */
const api = async (base: string, path: string, init: RequestInit = {}) =>
  (await fetch(`${base}${path}`, { ...init, headers: { lang: 'en', ...init.headers } })).json() as Promise<{
    ret: number;
    msg: string;
    data: Record<string, unknown>;
  }>;

// Each test starts a server process (compiling and migrating a fresh database): more than the suite's 30 s on a busy
// machine.
describe('a server on the market index', () => {
  it('prices from three exchanges, halts when they go quiet, refuses a buy, and resumes', async () => {
    stands.push(...(await startStandIns()));
    const [, okx, kraken] = stands as [StandIn, StandIn, StandIn];
    const { base, output } = await startIndexServer(standInEnv(stands));
    expect(output()).toMatch(/Prices: market index of Binance, OKX, Kraken/);
    await expect.poll(() => stands.every((stand) => stand.subscribed().length >= 10), { timeout: 15_000 }).toBe(true);

    // The exchanges trade BTC; the server's price is their median.
    const trades = tradeBtc(stands, { everyMs: 200 });
    await expect
      .poll(async () => (await api(base, '/coin/data/rate?code=BTC')).data?.price, { timeout: 15_000 })
      .toBe('97190.83');
    const quote = await api(base, '/coin/data/rate?code=BTC');
    expect(quote.data).toMatchObject({ simulated: false, seeded: false });

    // A customer with money ready to buy.
    const login = await api(base, '/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=demo&password=demo1234',
    });
    const token = String(login.data.token);
    const products = await api(base, '/coin/option/products?code=BTC');
    const productId = String((products.data.lists as { id: number }[])[0]!.id);
    const buy = () =>
      api(base, '/coin/order/add', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', token, 'idempotency-key': crypto.randomUUID() },
        body: new URLSearchParams({ code: 'BTC', direction: 'up', amount: '10', product_id: productId }).toString(),
      });
    expect((await buy()).ret).toBe(1);

    // Every exchange goes quiet: within the 5 s freshness the coin is halted and a buy refused.
    await trades.stop();
    await expect
      .poll(async () => (await buy()).msg, { timeout: 15_000, interval: 500 })
      .toBe('Prices for BTC are paused while the market data is unavailable. Please try again later!');
    expect(output()).toMatch(/BTC halted/);

    // Two exchanges come back: prices resume, buying works again.
    const again = tradeBtc([okx, kraken], { everyMs: 200, prices: { okx: '97300', kraken: '97302' } });
    await expect
      .poll(async () => (await api(base, '/coin/data/rate?code=BTC')).data?.price, { timeout: 15_000 })
      .toBe('97301');
    await expect.poll(async () => (await buy()).ret, { timeout: 10_000 }).toBe(1);
    await again.stop();
  }, 240_000);

  it('starts with no exchange reachable: one line per exchange, every coin halted, the rest of the app working', async () => {
    const nowhere = `ws://127.0.0.1:${await freePort()}`;
    const rest = `http://127.0.0.1:${await freePort()}`;
    const { base, output } = await startIndexServer(
      standInEnv(STAND_IN_KINDS.map((kind) => ({ kind, endpoints: { socket: nowhere, rest } }))),
    );
    await expect.poll(() => output(), { timeout: 15_000 }).toMatch(/Kraken: .*reconnecting/);
    for (const label of ['Binance', 'OKX', 'Kraken'])
      expect(output().match(new RegExp(`${label}: connection error`, 'g'))?.length, label).toBe(1);
    // Nor does a start warn of an option the framework's next major version removes (Fastify's FSTDEP warnings).
    expect(output()).not.toMatch(/DeprecationWarning|FSTDEP/);
    expect((await api(base, '/coin/data/rate?code=BTC')).ret).toBe(0);
    // Everything else answers.
    expect((await api(base, '/other/config?act=about')).ret).toBe(1);
    const login = await api(base, '/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=demo&password=demo1234',
    });
    expect(login.ret).toBe(1);
  }, 240_000);
});
