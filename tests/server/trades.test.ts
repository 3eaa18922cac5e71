// Trade history through the calls a customer makes: the fills of their contract orders by pair, side and period
// (newest first, paged by cursor, nobody else's), the period's refusals, and the profit and loss realised by FIFO
// cost basis — which must reconcile with the ledger over a random (seeded) sequence of market and limit fills of
// several pairs: per pair, realised − cost still held = the USDT the fills moved, and the coin held − the coin sold
// without a lot = the coin the fills moved. The options settled in the period come beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, grant, refused } from './helpers.ts';
import { contractAmounts, placeContract, type OrderSide } from '../../src/api-contract/contracts.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { tradeFills, tradeResults, type TradeFill } from '../../src/api-contract/trades.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const TZ = 'Asia/Bangkok';
/** The calendar day of an instant in TZ. */
const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(at);

/** One recorded tick of a coin `offsetMs` after the harness clock, the clock moved there. */
async function tick(coin: string, price: string, offsetMs = 1000) {
  h.clock.advance(offsetMs);
  await h.market.record([{ coin, at: h.clock.now(), price, volume: '1' }]);
}
const match = () => matchAllPairs(h.database.db, h.clock.now());

async function place(token: string, input: Record<string, string>) {
  const placed = await h.call(placeContract, input, { token });
  expect(placed, JSON.stringify(input)).toMatchObject({ ret: 1 });
  return placed.data;
}

/** Every fill of a period, all pages. */
async function allFills(token: string, input: { from: string; to: string; code?: string; side?: string }) {
  const fills: TradeFill[] = [];
  let cursor = '';
  do {
    const page = await h.call(tradeFills, { tz: TZ, ...input, cursor }, { token });
    expect(page.ret).toBe(1);
    fills.push(...page.data.lists);
    cursor = page.data.next ?? '';
  } while (cursor !== '');
  return fills;
}

describe('the fills', () => {
  it('lists each fill with its price, quantity, fee and tick, newest first, filtered by pair, side and period', async () => {
    const user = await customer(h, '10000');
    const other = await customer(h, '10000');
    await tick('ETH', '3000.00');
    const buy = await place(user.token, { code: 'ETH', side: 'buy', type: 'market', quantity: '1' });
    await tick('ETH', '3000.00');
    await match();
    const buyTickAt = h.clock.now().toISOString();
    await place(other.token, { code: 'ETH', side: 'buy', type: 'market', quantity: '1' });
    await tick('DOGE', '0.40000');
    const doge = await place(user.token, {
      code: 'DOGE',
      side: 'buy',
      type: 'limit',
      price: '0.40000',
      quantity: '100',
    });
    await tick('ETH', '3010.00');
    const sell = await place(user.token, {
      code: 'ETH',
      side: 'sell',
      type: 'limit',
      price: '3020.00',
      quantity: '0.5',
    });
    await tick('DOGE', '0.39000');
    await tick('ETH', '3030.00');
    expect(await match()).toBeGreaterThanOrEqual(3);
    const today = dayIn(h.clock.now());

    const fills = await allFills(user.token, { from: today, to: today });
    expect(fills.map((fill) => fill.id)).toEqual([sell.id, doge.id, buy.id]);
    expect(fills[2]).toEqual({
      id: buy.id,
      filled_at: buyTickAt,
      code: 'ETH',
      side: 'buy',
      type: 'market',
      price: '3000',
      quantity: '1.00000000',
      total: '3000.00000000',
      fee: '0.00100000',
      fee_asset: 'ETH',
      spent: '3000.00000000',
      spent_asset: 'USDT',
      received: '0.99900000',
      received_asset: 'ETH',
      tick_price: '3000',
      tick_at: buyTickAt,
      dust_conversion: false,
    });
    expect(fills[0]).toMatchObject({
      side: 'sell',
      price: '3020',
      tick_price: '3030',
      fee: '1.51000000',
      received: '1508.49000000',
    });
    expect((await allFills(user.token, { from: today, to: today, code: 'ETH' })).map((f) => f.id)).toEqual([
      sell.id,
      buy.id,
    ]);
    expect((await allFills(user.token, { from: today, to: today, side: 'buy' })).map((f) => f.id)).toEqual([
      doge.id,
      buy.id,
    ]);
    expect(await allFills(user.token, { from: today, to: today, code: 'DOGE', side: 'sell' })).toEqual([]);
    // The day before holds none of them; the other customer sees only their own.
    const yesterday = dayIn(new Date(h.clock.now().getTime() - 86_400_000));
    expect(await allFills(user.token, { from: yesterday, to: yesterday })).toEqual([]);
    expect((await allFills(other.token, { from: today, to: today })).map((f) => f.code)).toEqual(['ETH']);
  });

  it('refuses a period that does not exist, runs backwards, is too long or has an unknown time zone', async () => {
    const user = await customer(h);
    const ask = (input: Record<string, string>) =>
      h.call(tradeResults, { from: '2026-11-01', to: '2026-11-30', tz: TZ, ...input }, { token: user.token });
    expect(await ask({ to: '2027-02-30' })).toEqual(
      refused('Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!'),
    );
    expect(await ask({ from: '2026-12-01' })).toEqual(
      refused('The first day of the period must not be after the last day!'),
    );
    expect(await ask({ from: '2025-11-01' })).toEqual(
      refused('Trade history covers at most 366 days: please choose a shorter period!'),
    );
    expect(await ask({ tz: 'Mars/Olympus' })).toEqual(
      refused('The time zone of this device is not known: please check its date and time settings!'),
    );
    expect(
      await h.call(
        tradeFills,
        { from: '2026-11-01', to: '2026-11-30', tz: TZ, cursor: '99999999999999999' },
        { token: user.token },
      ),
    ).toMatchObject({ ret: 0 });
  });
});

/** A small seeded generator (mulberry32): the same sequence on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Per pair, what the user's contract orders moved in the ledger (both buckets), USDT and the coin. */
async function ledgerByPair(userId: number) {
  const rows = rowsOf<{ coin: string; asset: string; amount: string }>(
    await h.database.db.execute(sql`
      select o.coin, e.asset, sum(e.amount)::text as amount
      from ledger_entries e join contract_orders o on e.reference = 'contract:' || o.id
      where e.user_id = ${userId} and o.user_id = ${userId} and e.kind like 'contract_%'
      group by o.coin, e.asset`),
  );
  return rows;
}

describe('realised profit and loss by FIFO', () => {
  it('reconciles with the ledger over a random sequence of fills of three pairs, and periods add up', async () => {
    const random = seeded(20261124);
    const user = await customer(h, '50000');
    // 500 DOGE from outside trading: sells of them meet no lot (cost 0, unmatched).
    await grant(h, user.id, '500', 'DOGE');
    const coins = [
      {
        code: 'BTC',
        price: new Big('60000'),
        priceDecimals: 2,
        step: 5,
        quantity: () => new Big(random() * 0.05 + 0.001),
      },
      {
        code: 'ETH',
        price: new Big('3000'),
        priceDecimals: 2,
        step: 4,
        quantity: () => new Big(random() * 1.5 + 0.01),
      },
      {
        code: 'DOGE',
        price: new Big('0.4'),
        priceDecimals: 5,
        step: 0,
        quantity: () => new Big(Math.floor(random() * 600) + 20),
      },
    ];
    const firstDay = dayIn(h.clock.now());
    let placed = 0;
    for (let step = 0; step < 60; step += 1) {
      // Hours pass between some steps, so the fills spread over several days.
      if (random() < 0.3) h.clock.advance(Math.floor(random() * 9) * 3_600_000);
      const coin = coins[Math.floor(random() * coins.length)]!;
      coin.price = coin.price.times(1 + (random() - 0.5) * 0.04).round(coin.priceDecimals);
      await tick(coin.code, coin.price.toFixed(coin.priceDecimals));
      const held = new Big((await h.call(contractAmounts, { code: coin.code }, { token: user.token })).data.available);
      let side: OrderSide = random() < 0.55 ? 'buy' : 'sell';
      let quantity = coin.quantity().round(coin.step, Big.roundDown);
      if (side === 'sell') quantity = held.times(random() * 0.9 + 0.1).round(coin.step, Big.roundDown);
      if (quantity.times(coin.price).lt(6)) {
        side = 'buy';
        quantity = coin.quantity().round(coin.step, Big.roundDown);
      }
      const type = random() < 0.5 ? 'market' : 'limit';
      const limit = coin.price.times(side === 'buy' ? 1 + (random() - 0.7) * 0.02 : 1 + (random() - 0.3) * 0.02);
      await place(user.token, {
        code: coin.code,
        side,
        type,
        quantity: quantity.toFixed(coin.step),
        ...(type === 'limit' ? { price: limit.round(coin.priceDecimals).toFixed(coin.priceDecimals) } : {}),
      });
      placed += 1;
      await tick(
        coin.code,
        coin.price
          .times(1 + (random() - 0.5) * 0.02)
          .round(coin.priceDecimals)
          .toFixed(coin.priceDecimals),
      );
      await match();
    }
    const lastDay = dayIn(h.clock.now());
    const whole = await h.call(tradeResults, { from: firstDay, to: lastDay, tz: TZ }, { token: user.token });
    expect(whole.ret).toBe(1);
    const fills = await allFills(user.token, { from: firstDay, to: lastDay });
    // The sequence did what it is meant to test: many fills of every pair, both sides, a sell beyond the lots.
    expect(placed).toBe(60);
    expect(fills.length).toBeGreaterThan(30);
    expect(new Set(fills.map((fill) => `${fill.code} ${fill.side}`)).size).toBe(6);
    const pairs = Object.fromEntries(whole.data.pairs.map((pair) => [pair.code, pair]));
    expect(Object.keys(pairs).sort()).toEqual(['BTC', 'DOGE', 'ETH']);
    expect(new Big(pairs.DOGE!.unmatched_quantity).gt(0)).toBe(true);
    expect(pairs.BTC!.unmatched_quantity).toBe('0.00000000');

    const ledger = await ledgerByPair(user.id);
    const moved = (coin: string, asset: string) =>
      new Big(ledger.find((row) => row.coin === coin && row.asset === asset)?.amount ?? '0');
    for (const pair of whole.data.pairs) {
      // What the fills moved in USDT = proceeds − every buy's cost = realised − the cost still held.
      expect(new Big(pair.realised).minus(pair.held_cost).toFixed(8), pair.code).toBe(
        moved(pair.code, 'USDT').toFixed(8),
      );
      // And in the coin: what is held from buys, less what was sold with no buy to match it.
      expect(new Big(pair.held_quantity).minus(pair.unmatched_quantity).toFixed(8), pair.code).toBe(
        moved(pair.code, pair.code).toFixed(8),
      );
      // Counted from the list of fills too.
      const own = fills.filter((fill) => fill.code === pair.code);
      expect(pair.buys + pair.sells).toBe(own.length);
      expect(pair.proceeds).toBe(
        own
          .filter((f) => f.side === 'sell')
          .reduce((sum, f) => sum.plus(f.received), new Big(0))
          .toFixed(8),
      );
    }
    expect(whole.data.realised).toBe(
      whole.data.pairs.reduce((sum, pair) => sum.plus(pair.realised), new Big(0)).toFixed(8),
    );

    // Day by day, the periods' realised results add up to the whole period's.
    let byDays = new Big(0);
    for (let day = firstDay; day <= lastDay; day = dayIn(new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000))) {
      const one = await h.call(tradeResults, { from: day, to: day, tz: TZ }, { token: user.token });
      byDays = byDays.plus(one.data.realised);
    }
    expect(byDays.toFixed(8)).toBe(whole.data.realised);
    // One pair asked alone answers what the whole listed for it.
    const eth = await h.call(tradeResults, { code: 'ETH', from: firstDay, to: lastDay, tz: TZ }, { token: user.token });
    expect(eth.data.pairs).toEqual([pairs.ETH]);
  });

  it('puts the options settled in the period beside it', async () => {
    const user = await customer(h, '100');
    const accepted = h.clock.now().getTime();
    await h.market.record([{ coin: 'BTC', at: new Date(accepted), price: '100000', volume: '1' }]);
    const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!;
    const order = { code: 'BTC', amount: '10', product_id: String(product.id) };
    expect((await h.call(placeOption, { ...order, direction: 'up' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(placeOption, { ...order, direction: 'down' }, { token: user.token })).ret).toBe(1);
    h.clock.set(new Date(accepted + 1000));
    await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
    expect(await openAllPending(h.database.db, h.clock.now())).toBe(2);
    const end = accepted + 61_000;
    await h.market.record([{ coin: 'BTC', at: new Date(end), price: '100500', volume: '1' }]);
    h.clock.set(new Date(end + 5000));
    expect(await settleAllDue(h.database.db, h.clock.now())).toBe(2);
    const today = dayIn(h.clock.now());
    const results = await h.call(tradeResults, { from: today, to: today, tz: TZ }, { token: user.token });
    // Up wins 10 × 0.8, down loses its 10: paid 18 of 20 staked.
    expect(results.data).toMatchObject({
      pairs: [],
      realised: '0.00000000',
      options: { settled: 2, staked: '20.00000000', paid: '18.00000000', result: '-2.00000000' },
    });
  });
});
