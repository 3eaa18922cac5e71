// Retention of price ticks: the job keeps the last 48 h, every tick an open option may still settle
// from and each coin's latest price, deletes the rest in batches, and never touches the candles.
import { and, asc, count, eq, gte, lt } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { candles, priceTicks } from '../../src/server/db/schema.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { thinPriceTicks } from '../../src/server/jobs/retention.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** One tick a minute for `coin` from `from` to `to` (inclusive), leaving out the times in `hole`. */
async function minuteTicks(coin: string, from: Date, to: Date, hole?: [Date, Date]) {
  const skip = hole
    ? sql`and not (s > ${hole[0].toISOString()}::timestamptz and s < ${hole[1].toISOString()}::timestamptz)`
    : sql``;
  await h.database.db.execute(sql`
    insert into price_ticks (coin, at, price)
    select ${coin}, s, (1000 + extract(epoch from s) / 60 % 997)::numeric
    from generate_series(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, interval '1 minute') s
    where true ${skip}
    on conflict do nothing`);
}

const ticksOf = (coin: string) =>
  h.database.db.select().from(priceTicks).where(eq(priceTicks.coin, coin)).orderBy(asc(priceTicks.at));

it('thins ticks older than 48 h but keeps what a 3-day-old open option settles from, the latest ticks and the candles', async () => {
  const now = new Date('2026-11-22T08:00:00Z');
  const user = await customer(h, '100');

  // Three days ago a customer bought a 15-minute BTC option; the server was down when it ended, so it
  // is still holding. The feed had a gap around its end: ten silent minutes, then one tick 4 s
  // before the end (within the 10 s an end price may be old) and nothing again for 5 minutes.
  const placedAt = new Date(now.getTime() - 72 * HOUR - 15 * MINUTE);
  const startAt = new Date(placedAt.getTime() + 1000);
  const endAt = new Date(startAt.getTime() + 15 * MINUTE);
  h.clock.set(placedAt);
  await h.market.record([{ coin: 'BTC', at: placedAt, price: '96990', volume: '1' }]);
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 15)!;
  const placed = await h.call(
    placeOption,
    { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) },
    { token: user.token },
  );
  expect(placed).toMatchObject({ ret: 1, data: { status: 'opening', end_at: null, start_price: null } });
  // It opened at the next tick, a second later.
  h.clock.set(startAt);
  await h.market.record([{ coin: 'BTC', at: startAt, price: '97000', volume: '1' }]);
  await openAllPending(h.database.db, h.clock.now());
  expect((await h.call(optionOrder, { id: String(placed.data.id) }, { token: user.token })).data).toMatchObject({
    status: 'holding',
    start_price: '97000',
    start_price_at: startAt.toISOString(),
    end_at: endAt.toISOString(),
  });

  await minuteTicks('BTC', new Date(now.getTime() - 5 * 24 * HOUR), now, [
    new Date(endAt.getTime() - 10 * MINUTE),
    new Date(endAt.getTime() + 5 * MINUTE),
  ]);
  await h.database.db.execute(
    sql`insert into price_ticks (coin, at, price) values ('BTC', ${new Date(endAt.getTime() - 4_000).toISOString()}::timestamptz, 97100)`,
  );
  await minuteTicks('ETH', new Date(now.getTime() - 5 * 24 * HOUR), now);
  // A coin whose feed stopped four days ago: its last price stays.
  await minuteTicks('DOT', new Date(now.getTime() - 4 * 24 * HOUR - HOUR), new Date(now.getTime() - 4 * 24 * HOUR));
  h.clock.set(now);

  const settlesFrom = (await ticksOf('BTC')).filter((tick) => tick.at <= endAt).at(-1)!;
  expect(settlesFrom.at).toEqual(new Date(endAt.getTime() - 4_000));
  const recentFrom = new Date(now.getTime() - 48 * HOUR);
  const before = { btc: await ticksOf('BTC'), eth: await ticksOf('ETH'), dot: await ticksOf('DOT') };
  const candlesBefore = await h.database.db.select().from(candles).orderBy(asc(candles.coin), asc(candles.minute));
  expect(candlesBefore.length).toBeGreaterThan(0);

  const thinned = await thinPriceTicks(h.database.db, now, { batch: 1_000 });

  const after = { btc: await ticksOf('BTC'), eth: await ticksOf('ETH'), dot: await ticksOf('DOT') };
  // ETH: nothing open, so exactly the last 48 h stay.
  expect(after.eth).toEqual(before.eth.filter((tick) => tick.at >= recentFrom));
  expect(after.eth.length).toBe(48 * 60 + 1);
  // BTC: everything from the tick the open option settles from on stays, nothing before it.
  expect(after.btc).toEqual(before.btc.filter((tick) => tick.at >= settlesFrom.at));
  // DOT: only its latest price.
  expect(after.dot).toEqual([before.dot.at(-1)]);
  expect(thinned.deleted).toBe(
    before.btc.length + before.eth.length + before.dot.length - after.btc.length - after.eth.length - after.dot.length,
  );
  expect(thinned.batches).toBeGreaterThan(3); // 1,000 rows a statement
  // The candles (the charts) are untouched.
  expect(await h.database.db.select().from(candles).orderBy(asc(candles.coin), asc(candles.minute))).toEqual(
    candlesBefore,
  );

  // The old order still settles from the right recorded price, once.
  expect(await settleAllDue(h.database.db, now)).toBeGreaterThanOrEqual(1);
  const order = await h.call(optionOrder, { id: String(placed.data.id) }, { token: user.token });
  expect(order.data).toMatchObject({
    status: 'settled',
    end_at: endAt.toISOString(),
    end_price_at: settlesFrom.at.toISOString(),
  });
  expect(order.data.end_price).toBe(String(Number(settlesFrom.price)));

  // Run again: nothing the 48 h rule keeps goes; the settled order no longer holds old BTC ticks.
  const again = await thinPriceTicks(h.database.db, now, { batch: 1_000 });
  expect(again.deleted).toBe(after.btc.filter((tick) => tick.at < recentFrom).length);
  const [{ old }] = await h.database.db
    .select({ old: count() })
    .from(priceTicks)
    .where(and(lt(priceTicks.at, recentFrom), eq(priceTicks.coin, 'BTC')));
  expect(old).toBe(0);
  const [{ recent }] = await h.database.db
    .select({ recent: count() })
    .from(priceTicks)
    .where(and(gte(priceTicks.at, recentFrom), eq(priceTicks.coin, 'BTC')));
  expect(recent).toBe(after.btc.filter((tick) => tick.at >= recentFrom).length);
});
