// One market across processes, in one process: two markets on one database, as two servers would
// run them. Only the holder of the feed lease records; the other follows the recorded ticks and tells
// its listeners the same; a leader that stops hands over at once; a hung leader is fenced.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { createMarket, type Market } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { lease } from '../../src/server/market/lease.ts';
import type { PriceFeed } from '../../src/server/market/feed.ts';
import { LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { priceTicks } from '../../src/server/db/schema.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import type { TickEvent } from '../../src/api-contract/markets.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const running: Market[] = [];
afterEach(async () => {
  for (const market of running.splice(0)) await market.stop();
});

const specs = LISTED_COINS.map((coin) => ({
  code: coin.code,
  startPrice: coin.startPrice,
  volatility: Number(coin.volatility),
  priceDecimals: coin.priceDecimals,
}));

/** A simulated feed that counts the steps it delivered (to prove a follower's feed never ran). */
function countedFeed(seed: number) {
  const inner = simulatedFeed({ coins: specs, seed, clock: h.clock, intervalMs: 20 });
  const counted = { steps: 0, feed: inner as PriceFeed };
  counted.feed = { ...inner, start: (onTicks) => inner.start((ticks) => (counted.steps++, onTicks(ticks))) };
  return counted;
}

/** A market of one "process": its own feed, its own lease holder, short times so the test is quick. */
function processMarket(
  name: string,
  holder: string,
  feed: PriceFeed,
  times: { ttlMs?: number; renewMs?: number; followMs?: number; notices?: boolean } = {},
) {
  const errors: unknown[] = [];
  // Each answer to its asking for the lease (true: it holds it), in order.
  const asked: boolean[] = [];
  const held = lease(h.database.db, name, { holder, ttlMs: times.ttlMs ?? 1_000 });
  const market = createMarket(h.database.db, feed, h.clock, (error) => errors.push(error), {
    lease: { ...held, acquire: async () => (asked.push(await held.acquire()), asked.at(-1)!) },
    leaseRenewMs: times.renewMs ?? 100,
    followIntervalMs: times.followMs ?? 25,
    ...(times.notices ? { changes: h.database.changes() } : {}),
  });
  const events: TickEvent[][] = [];
  market.subscribe((ticks) => events.push(ticks));
  running.push(market);
  return { market, events, errors, asked };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const second = () => new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000);

async function ticksAt(at: Date) {
  return h.database.db.select().from(priceTicks).where(eq(priceTicks.at, at));
}

it('records from one market only; the other follows with the same prices and events', async () => {
  const feedA = countedFeed(1);
  const feedB = countedFeed(2);
  const a = processMarket('feed-1', 'A', feedA.feed);
  const b = processMarket('feed-1', 'B', feedB.feed);
  a.market.start();
  await until(() => a.market.leads() && a.events.length === 1);
  b.market.start();
  // B has read the recorded prices (a busy machine may take a while): every later step is new to it.
  await until(() => b.market.latestEvents().length === a.market.latestEvents().length);
  for (let i = 0; i < 5; i++) {
    h.clock.advance(1000);
    await until(() => a.events.length === i + 2);
  }
  await until(() => b.events.length >= 5);
  expect(b.market.leads()).toBe(false);
  expect(feedB.steps).toBe(0);
  expect(feedA.steps).toBe(6);

  // B joined after A's first step: it starts from the recorded prices, then gets every later step.
  expect(b.events).toEqual(a.events.slice(1));
  expect(b.market.latestEvents().sort(byCode)).toEqual(a.market.latestEvents().sort(byCode));
  expect(await b.market.quote('BTC')).toEqual(await a.market.quote('BTC'));
  // What both say is what the database recorded.
  const recorded = (await ticksAt(second())).map((tick) => ({
    code: tick.coin,
    price: tick.price,
    at: tick.at.toISOString(),
  }));
  expect(recorded.map((tick) => ({ ...tick, price: String(Number(tick.price)) })).sort(byCode)).toEqual(
    a.events
      .at(-1)!
      .map((tick) => ({ ...tick, price: String(Number(tick.price)) }))
      .sort(byCode),
  );
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

it('hands the feed over at once when the leader stops, continuing from the recorded prices', async () => {
  const a = processMarket('feed-2', 'A', countedFeed(3).feed);
  const b = processMarket('feed-2', 'B', countedFeed(4).feed);
  a.market.start();
  await until(() => a.market.leads());
  b.market.start();
  // A distinctive last price of A, far from the simulator's start price.
  h.clock.advance(1000);
  await until(() => a.events.length >= 1);
  const lastOfA = second();
  await a.market.record([{ coin: 'BTC', at: new Date(lastOfA.getTime() + 500), price: '12345.67', volume: '1' }]);
  await until(() => b.events.some((step) => step[0]!.price === '12345.67'));

  await a.market.stop();
  // Released, not waited out: once A has stopped, the lease is no longer A's, though its last renewal had up to 1 s
  // left (B, asking every 100 ms, may have taken it already).
  const holders = await h.database.db.execute(sql`select holder from leases where name = 'feed-2'`);
  expect(rowsOf<{ holder: string }>(holders).map((row) => row.holder)).not.toContain('A');
  await until(() => b.market.leads());

  h.clock.advance(1000);
  await until(() => b.events.at(-1)![0]!.at > new Date(lastOfA.getTime() + 500).toISOString());
  const first = b.events.at(-1)!;
  const btc = first.find((tick) => tick.code === 'BTC')!;
  expect(new Date(btc.at).getTime()).toBeGreaterThan(lastOfA.getTime() + 500); // never a recorded second again
  expect(Math.abs(Number(btc.price) / 12345.67 - 1)).toBeLessThan(0.01); // continued from the last recorded price
  expect(await ticksAt(new Date(btc.at))).toHaveLength(LISTED_COINS.length);
});

it('fences a hung leader: after its lease expired and another took over, its late record writes nothing', async () => {
  // C takes the lease and then hangs: its feed delivers nothing and it does not renew.
  const hung: PriceFeed = {
    name: 'hung',
    simulated: true,
    seeded: true,
    exchanges: 0,
    start: () => {},
    stop: async () => {},
  };
  const c = processMarket('feed-3', 'C', hung, { ttlMs: 400, renewMs: 3_600_000 });
  const d = processMarket('feed-3', 'D', countedFeed(5).feed, { ttlMs: 1_000, renewMs: 100 });
  // C's lease is granted after this moment (a busy machine may take a while to tell it leads), and lasts 400 ms from
  // its grant.
  const cAsks = performance.now();
  c.market.start();
  await until(() => c.market.leads());
  d.market.start();
  await until(() => d.asked.length > 0); // D has asked for the lease
  // Answered well within C's 400 ms, the lease is still C's. A machine that took longer between the two steps let C's
  // lease run out, and then D rightly holds it: what is asserted is the lease, not the machine's speed.
  if (performance.now() - cAsks < 300) expect(d.asked[0]).toBe(false);
  await until(() => d.market.leads(), 2_000); // expired: D took over

  const late = new Date(second().getTime() + 600_000);
  await c.market.record([{ coin: 'BTC', at: late, price: '1.23', volume: '1' }]);
  expect(await ticksAt(late)).toEqual([]);
  expect(c.events.flat().some((tick) => tick.price === '1.23')).toBe(false);
  await until(() => !c.market.leads()); // it stepped down and follows
  const [row] = await h.database.db
    .execute(sql`select holder from leases where name = 'feed-3'`)
    .then((result) => (result as unknown as { rows: { holder: string }[] }).rows);
  expect(row).toEqual({ holder: 'D' });

  h.clock.advance(1000);
  await until(() => c.events.some((step) => step[0]!.at === second().toISOString()));
  expect(c.events.at(-1)).toEqual(d.events.at(-1));
  expect(
    await h.database.db
      .select()
      .from(priceTicks)
      .where(and(eq(priceTicks.coin, 'BTC'), eq(priceTicks.price, '1.23'))),
  ).toEqual([]);
});

it('a follower reads a step as soon as its change notice arrives, not at its next poll', async () => {
  // Nothing else would wake the follower for a minute: it polls every 60 s and the leader's lease lasts 60 s.
  const times = { ttlMs: 60_000, renewMs: 60_000, followMs: 60_000, notices: true };
  const a = processMarket('feed-4', 'A', countedFeed(6).feed, times);
  const b = processMarket('feed-4', 'B', countedFeed(7).feed, times);
  h.clock.advance(1000); // a second no earlier test recorded
  a.market.start();
  await until(() => a.market.leads() && a.events.length === 1);
  b.market.start();
  // B has read what was recorded and waits.
  await until(() => b.market.latestEvents().length === a.market.latestEvents().length);
  for (let step = 0; step < 3; step++) {
    h.clock.advance(1000);
    await until(() => a.events.length === step + 2);
    await until(() => b.events.at(-1)?.[0]?.at === a.events.at(-1)![0]!.at);
    // B read the step having asked for the lease only once, when it started: its first poll comes when its next try for
    // the lease is due (about a minute on) and asks again, so it was the notice that woke it.
    expect(b.asked).toEqual([false]);
  }
  expect(b.market.leads()).toBe(false);
  expect(b.errors).toEqual([]);
});

const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
