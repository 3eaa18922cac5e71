// The simulator must not be predictable: unless a seed is given explicitly (tests, a replay), every
// step is drawn from a cryptographic random source, so no published seed or recorded tick tells
// anyone the next price. Servers are started here the way start.ts starts them: loadConfig() from
// the environment, then createFeed() on the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createFeed } from '../../src/server/market/feeds.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import type { PriceFeed, Tick } from '../../src/server/market/feed.ts';
import { LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { coinList } from '../../src/api-contract/markets.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The seed the README once published as the default: every price of a default server followed from it. */
const FORMERLY_PUBLISHED_SEED = 20261122;
const START = Date.parse('2026-11-25T00:00:00Z');

/** A server's feed as start.ts makes it, from these environment variables. */
async function serverFeed(env: Record<string, string>): Promise<PriceFeed> {
  const config = loadConfig(env);
  let calls = 0;
  // A market clock one second further on each time the feed looks: one step per look.
  const clock = { now: () => new Date(START + 1000 * calls++) };
  return createFeed(h.database.db, { name: config.priceFeed, seed: config.feedSeed, clock, intervalMs: 1 });
}

/** The first `steps` steps a feed delivers, as "COIN price" lines. */
async function pathOf(feed: PriceFeed, steps: number): Promise<string[]> {
  const path: string[] = [];
  await new Promise<void>((done) => {
    let taken = 0;
    feed.start(async (ticks: Tick[]) => {
      path.push(...ticks.map((tick) => `${tick.coin} ${tick.price}`));
      if (++taken === steps) done();
    });
  });
  await feed.stop();
  return path;
}

describe('FEED_SEED', () => {
  it('is unset by default and a whole number when given; anything else stops the start', () => {
    expect(loadConfig({}).feedSeed).toBeNull();
    expect(loadConfig({ FEED_SEED: '' }).feedSeed).toBeNull();
    expect(loadConfig({ FEED_SEED: '42' }).feedSeed).toBe(42);
    expect(() => loadConfig({ FEED_SEED: 'abc' })).toThrow(/FEED_SEED=abc is not a whole number/);
    expect(() => loadConfig({ FEED_SEED: '1.5' })).toThrow(/not a whole number/);
  });
});

describe('a server started without a seed', () => {
  it('draws a path that another such server does not share, nor the formerly published seed', async () => {
    const first = await serverFeed({});
    const second = await serverFeed({});
    expect(first.seeded).toBe(false);
    expect(second.seeded).toBe(false);
    const [a, b, published] = await Promise.all([
      pathOf(first, 5),
      pathOf(second, 5),
      pathOf(await serverFeed({ FEED_SEED: String(FORMERLY_PUBLISHED_SEED) }), 5),
    ]);
    expect(a).toHaveLength(5 * LISTED_COINS.length);
    expect(b).toHaveLength(a.length);
    // Every coin starts from the same recorded price, so equal lines mean equal draws, or two draws within the same
    // tick: a tick of LTC (0.01) or DOT (0.001) is about a second's move, so two independent paths share about a tenth
    // of their lines, and more than a tenth once in a few runs. A shared path would share them all.
    const shared = (other: string[]) => a.filter((line, i) => line === other[i]).length;
    expect(shared(b)).toBeLessThan(a.length / 2);
    expect(shared(published)).toBeLessThan(a.length / 2);
  });

  it('still moves like the market model says (log returns of mean ~0 and the coin volatility)', () => {
    const btc = LISTED_COINS.find((coin) => coin.code === 'BTC')!;
    const spec = { code: 'BTC', startPrice: btc.startPrice, volatility: Number(btc.volatility), priceDecimals: 6 };
    const feed = simulatedFeed({ coins: [spec], seed: null, clock: { now: () => new Date(START) } });
    const returns: number[] = [];
    let last = Number(btc.startPrice);
    for (let second = 1; second <= 20_000; second++) {
      const price = Number(feed.step(new Date(START + second * 1000))[0]!.price);
      returns.push(Math.log(price / last));
      last = price;
    }
    const mean = returns.reduce((sum, r) => sum + r, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (returns.length - 1));
    const expected = spec.volatility * Math.sqrt(1 / (365 * 24 * 3600));
    expect(sd / expected).toBeGreaterThan(0.95);
    expect(sd / expected).toBeLessThan(1.05);
    expect(Math.abs(mean)).toBeLessThan((4 * expected) / Math.sqrt(returns.length));
    // Up and down about equally often: no direction to bet on.
    const ups = returns.filter((r) => r > 0).length / returns.length;
    expect(ups).toBeGreaterThan(0.48);
    expect(ups).toBeLessThan(0.52);
  });

  it('tells the app its prices are simulated and not a replay', async () => {
    const market = createMarket(h.database.db, await serverFeed({}), h.clock);
    expect(market.source).toEqual({ simulated: true, seeded: false, exchanges: 0 });
  });
});

describe('a seeded server', () => {
  it('replays the same path only when the seed is asked for, and says so', async () => {
    const a = await serverFeed({ FEED_SEED: '7' });
    const b = await serverFeed({ FEED_SEED: '7' });
    const other = await serverFeed({ FEED_SEED: '8' });
    expect(a.seeded && b.seeded && other.seeded).toBe(true);
    const [pathA, pathB, pathOther] = await Promise.all([pathOf(a, 5), pathOf(b, 5), pathOf(other, 5)]);
    expect(pathB).toEqual(pathA);
    expect(pathOther).not.toEqual(pathA);
  });

  it('is labelled a replay on every answer that shows a price', async () => {
    // The harness runs a seeded simulator (seed 7), as tests do.
    await h.tick();
    const list = await h.call(coinList);
    expect(list.data.lists.length).toBeGreaterThan(0);
    for (const quote of list.data.lists) expect(quote).toMatchObject({ simulated: true, seeded: true });
  });
});
