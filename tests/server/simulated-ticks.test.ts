// The simulated feed records prices the way an exchange publishes them: each a whole multiple of its pair's tick size
// (0.01 USDT for BTC/USDT), never with digits the pair does not show. So a contract order fills, and an option opens,
// at exactly the price the customer sees, digit for digit. The feed is made here as a server makes it (createFeed on
// the database), and its ticks are recorded and used as the live server records and uses them.
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { customer } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { consoleChangeContractPair } from '../../src/api-contract/console-products.ts';
import { contractPairs, placeContract } from '../../src/api-contract/contracts.ts';
import { coinList } from '../../src/api-contract/markets.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { createFeed, tickDecimals } from '../../src/server/market/feeds.ts';
import { onTickSize } from '../../src/server/market/feed.ts';
import type { SimulatedFeed } from '../../src/server/market/simulator.ts';
import type { Tick } from '../../src/server/market/feed.ts';
import { openAllPending } from '../../src/server/jobs/settlement.ts';
import { formatAmount, formatPrice } from '../../src/lib/format.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const { match, listed } = contractKit(() => h);

/** The simulated feed a server on this database runs (unseeded, as `npm start` runs it). */
async function serverFeed(): Promise<SimulatedFeed> {
  const feed = await createFeed(h.database.db, { name: 'simulator', seed: null, clock: h.clock, intervalMs: 1000 });
  if (!('step' in feed)) throw new Error('not the simulator');
  return feed as SimulatedFeed;
}

/** One step of `feed` a second after the harness clock, the clock moved there, recorded by the harness's market. */
async function recordStep(feed: SimulatedFeed): Promise<Tick[]> {
  h.clock.advance(1000);
  const ticks = feed.step(new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000));
  await h.market.record(ticks);
  return ticks;
}

/** Each pair's price decimals, as the contracts page reads them. */
async function pairDecimals(): Promise<Map<string, number>> {
  const pairs = (await h.call(contractPairs)).data.lists;
  return new Map(pairs.map((pair) => [pair.code, pair.price_decimals]));
}

/** Digits after the point that carry a value. */
const decimalsOf = (price: string) => new Big(price).toFixed().split('.')[1]?.length ?? 0;

const tickSize = (decimals: number) => new Big(1).div(new Big(10).pow(decimals));

describe('each simulated tick', () => {
  it("is a whole multiple of its pair's tick size, written with the pair's decimals", async () => {
    const decimals = await pairDecimals();
    const feed = await serverFeed();
    for (let step = 0; step < 200; step++) {
      for (const tick of await recordStep(feed)) {
        const places = decimals.get(tick.coin)!;
        expect(new Big(tick.price).mod(tickSize(places)).eq(0), `${tick.coin} ${tick.price}`).toBe(true);
        expect(tick.price).toMatch(new RegExp(`^\\d+\\.\\d{${places}}$`));
      }
    }
    // The latest price every screen quotes is that recorded price, nothing rounded away.
    const recorded = new Map((await recordStep(feed)).map((tick) => [tick.coin, tick.price]));
    for (const quote of (await h.call(coinList)).data.lists)
      expect(new Big(quote.price).eq(recorded.get(quote.code)!), quote.code).toBe(true);
  });

  it('rounds to the nearest tick, a tie to the even one, and never below one tick', () => {
    expect(onTickSize(97074.8401, 2)).toBe('97074.84');
    expect(onTickSize(97074.847, 2)).toBe('97074.85');
    expect(onTickSize(0.125, 2)).toBe('0.12');
    expect(onTickSize(0.375, 2)).toBe('0.38');
    expect(onTickSize(0.000001, 5)).toBe('0.00001');
  });

  it("takes the coarser of the coin's and the pair's decimals, so every screen shows it exactly", () => {
    expect(tickDecimals(2, 2)).toBe(2);
    expect(tickDecimals(2, 1)).toBe(1);
    expect(tickDecimals(4, 5)).toBe(4);
    expect(tickDecimals(3, undefined)).toBe(3);
  });
});

describe("an operator's change of a pair's tick", () => {
  it('applies to the prices recorded from the next notice on, without a restart of the feed', async () => {
    const changes = h.database.changes();
    const feed = await createFeed(h.database.db, {
      name: 'simulator',
      seed: null,
      clock: h.clock,
      intervalMs: 1000,
      changes,
    });
    const btcPrice = async () => (await recordStep(feed as SimulatedFeed)).find((tick) => tick.coin === 'BTC')!.price;
    try {
      expect(decimalsOf(await btcPrice())).toBeLessThanOrEqual(2);
      const admin = { token: await operatorToken(h, 'tia', 'admin'), ip: '203.0.113.9' };
      expect((await h.call(consoleChangeContractPair, { coin: 'BTC', tick: '1' }, admin)).data).toMatchObject({
        tick: 1,
      });
      // The contracts page shows BTC/USDT at one decimal now; the feed records on that tick once it hears the notice.
      await expect.poll(btcPrice).toMatch(/^\d+\.\d$/);
      expect((await pairDecimals()).get('BTC')).toBe(1);
      await h.call(consoleChangeContractPair, { coin: 'BTC', tick: '2' }, admin);
      await expect.poll(btcPrice).toMatch(/^\d+\.\d{2}$/);
    } finally {
      await changes.close();
    }
  });
});

describe('orders use the recorded tick exactly', () => {
  it('a market order fills at the first recorded tick after it, shown with no digit the pair lacks', async () => {
    const decimals = (await pairDecimals()).get('BTC')!;
    const feed = await serverFeed();
    const user = await customer(h, '100000');
    await recordStep(feed);
    const placed = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.001' },
      { token: user.token },
    );
    expect(placed.ret).toBe(1);
    const tick = (await recordStep(feed)).find((item) => item.coin === 'BTC')!;
    expect(await match()).toBe(1);
    const order = await listed(user.token, placed.data.id);
    expect(order.status).toBe('filled');
    expect(new Big(order.unit_price!).eq(tick.price)).toBe(true);
    expect(new Big(order.tick_price!).eq(tick.price)).toBe(true);
    // As the order's details and its toast write it: the pair's decimals, and not one more.
    expect(formatPrice(order.unit_price!, decimals)).toBe(formatAmount(tick.price, decimals));
    expect(formatPrice(order.unit_price!, decimals).split('.')[1]).toHaveLength(decimals);
  });

  it('an option opens at the first recorded tick after it', async () => {
    const feed = await serverFeed();
    const user = await customer(h, '100');
    await recordStep(feed);
    const product = (await h.call(optionProducts, { code: 'ETH' })).data.lists[0]!;
    const placed = await h.call(
      placeOption,
      { code: 'ETH', product_id: String(product.id), direction: 'up', amount: '10' },
      { token: user.token },
    );
    expect(placed.ret).toBe(1);
    const tick = (await recordStep(feed)).find((item) => item.coin === 'ETH')!;
    await openAllPending(h.database.db, h.clock.now());
    const order = (await h.call(optionOrder, { id: String(placed.data.id) }, { token: user.token })).data;
    expect(order.status).toBe('holding');
    expect(new Big(order.start_price!).eq(tick.price)).toBe(true);
    expect(decimalsOf(order.start_price!)).toBeLessThanOrEqual((await pairDecimals()).get('ETH')!);
  });
});
