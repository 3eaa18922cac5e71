// PRICE_FEED=index for real: the server runs as its own process, reading three local exchange
// stand-ins over their documented protocols. Its price is the median of theirs; with every
// exchange gone quiet the coin is halted and a buy is refused with the message; with no exchange
// reachable at all (no internet) it still starts, says so once per exchange, and serves everything
// else. PGlite in a temporary folder; the PostgreSQL run of this suite skips it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from './postgres.ts';
import { onPostgres } from './harness.ts';
import { startStandIn, type StandIn } from './exchange-standins.ts';

const running: { child: ChildProcess; dir: string }[] = [];
const stands: StandIn[] = [];
afterEach(async () => {
  for (const { child, dir } of running.splice(0)) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await Promise.all(stands.map((stand) => stand.close()));
});

/** Starts the server with these variables; resolves with its base URL and its output so far, once it listens. */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'coinvest-index-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: '', WEB_ROOT: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push({ child, dir });
  const output = { text: '' };
  child.stdout!.on('data', (chunk) => (output.text += chunk));
  child.stderr!.on('data', (chunk) => (output.text += chunk));
  await expect.poll(() => output.text, { timeout: 60_000, interval: 100 }).toMatch(/is running at/);
  return { base: `http://127.0.0.1:${port}/api`, output };
}

/** A call in English (the server's fallback language is Thai). */
const api = async (base: string, path: string, init: RequestInit = {}) => (await fetch(`${base}${path}`, { ...init, headers: { lang: 'en', ...init.headers } })).json() as Promise<{ ret: number; msg: string; data: Record<string, unknown> }>;

describe.skipIf(onPostgres())('a server on the market index', () => {
  it('prices from three exchanges, halts when they go quiet, refuses a buy, and resumes', async () => {
    for (const kind of ['binance', 'okx', 'kraken'] as const) stands.push(await startStandIn(kind));
    const [binance, okx, kraken] = stands as [StandIn, StandIn, StandIn];
    const { base, output } = await startServer({
      PRICE_FEED: 'index',
      EXCHANGE_BINANCE_WS: binance.endpoints.socket,
      EXCHANGE_BINANCE_REST: binance.endpoints.rest,
      EXCHANGE_OKX_WS: okx.endpoints.socket,
      EXCHANGE_OKX_REST: okx.endpoints.rest,
      EXCHANGE_KRAKEN_WS: kraken.endpoints.socket,
      EXCHANGE_KRAKEN_REST: kraken.endpoints.rest,
    });
    expect(output.text).toMatch(/Prices: market index of Binance, OKX, Kraken/);
    await expect.poll(() => [binance, okx, kraken].every((stand) => stand.subscribed().length >= 10), { timeout: 15_000 }).toBe(true);

    // The exchanges trade BTC; the server's price is their median.
    let trading = true;
    const trade = async () => {
      while (trading) {
        binance.trade('BTCUSDT', '97190.10');
        okx.trade('BTC-USDT', '97190.83');
        kraken.trade('BTC/USDT', '97192');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const trades = trade();
    await expect.poll(async () => (await api(base, '/coin/data/rate?code=BTC')).data?.price, { timeout: 15_000 }).toBe('97190.83');
    const quote = await api(base, '/coin/data/rate?code=BTC');
    expect(quote.data).toMatchObject({ simulated: false, seeded: false });

    // A customer with money ready to buy.
    const login = await api(base, '/users/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=demo&password=demo1234' });
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
    trading = false;
    await trades;
    await expect.poll(async () => (await buy()).msg, { timeout: 15_000, interval: 500 }).toBe('Prices for BTC are paused while the market data is unavailable. Please try again later!');
    expect(output.text).toMatch(/BTC halted/);

    // Two exchanges come back: prices resume, buying works again.
    trading = true;
    const again = (async () => {
      while (trading) {
        okx.trade('BTC-USDT', '97300');
        kraken.trade('BTC/USDT', '97302');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await expect.poll(async () => (await api(base, '/coin/data/rate?code=BTC')).data?.price, { timeout: 15_000 }).toBe('97301');
    await expect.poll(async () => (await buy()).ret, { timeout: 10_000 }).toBe(1);
    trading = false;
    await again;
  });

  it('starts with no exchange reachable: one line per exchange, every coin halted, the rest of the app working', async () => {
    const nowhere = `ws://127.0.0.1:${await freePort()}`;
    const rest = `http://127.0.0.1:${await freePort()}`;
    const { base, output } = await startServer({
      PRICE_FEED: 'index',
      EXCHANGE_BINANCE_WS: nowhere,
      EXCHANGE_BINANCE_REST: rest,
      EXCHANGE_OKX_WS: nowhere,
      EXCHANGE_OKX_REST: rest,
      EXCHANGE_KRAKEN_WS: nowhere,
      EXCHANGE_KRAKEN_REST: rest,
    });
    await expect.poll(() => output.text, { timeout: 15_000 }).toMatch(/Kraken: .*reconnecting/);
    for (const label of ['Binance', 'OKX', 'Kraken']) expect(output.text.match(new RegExp(`${label}: connection error`, 'g'))?.length, label).toBe(1);
    expect((await api(base, '/coin/data/rate?code=BTC')).ret).toBe(0);
    // Everything else answers.
    expect((await api(base, '/other/config?act=about')).ret).toBe(1);
    const login = await api(base, '/users/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=demo&password=demo1234' });
    expect(login.ret).toBe(1);
  });
});
