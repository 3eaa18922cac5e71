// Market data calls on a real database: the coin list with its 24 h figures, K-lines
// by period (GET and POST), a coin's price, the fiat rate, balances and the option products.
// Ticks are recorded by hand so every figure is known in advance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, grant, refused } from './helpers.ts';
import {
  balances,
  coinList,
  coinRate,
  currencyRate,
  klines,
  klinesPost,
  type Candle,
} from '../../src/api-contract/markets.ts';
import { optionProducts } from '../../src/api-contract/options.ts';
import { candles, priceTicks } from '../../src/server/db/schema.ts';
import { LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import type { Tick } from '../../src/server/market/feed.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const at = (iso: string) => new Date(iso);
const tick = (coin: string, time: string, price: string, volume = '1'): Tick => ({ coin, at: at(time), price, volume });
const seconds = (iso: string) => Date.parse(iso) / 1000;

/** A candle as a chart draws it: numbers compared by value, not by padding. */
const drawn = (c: Candle) => ({
  time: c.time,
  open: new Big(c.open).toFixed(),
  high: new Big(c.high).toFixed(),
  low: new Big(c.low).toFixed(),
  close: new Big(c.close).toFixed(),
  volume: new Big(c.volume).toFixed(),
});
const candle = (time: string, open: string, high: string, low: string, close: string, volume: string) => ({
  time: seconds(time),
  open,
  high,
  low,
  close,
  volume,
});

it('lists nothing and quotes no price before the feed recorded a tick', async () => {
  expect(await h.call(coinList)).toEqual({ ret: 1, msg: 'Success', data: { lists: [], page: 1, total: 0 } });
  expect(await h.call(coinRate, { code: 'BTC' })).toEqual(
    refused('The price is not available right now, please try again later!'),
  );
  expect((await h.call(klines, { code: 'BTC' })).data).toEqual({
    lists: [],
    page: 1,
    total: 0,
    code: 'BTC',
    period: '1m',
    simulated: true,
    seeded: true,
    exchanges: 0,
  });
});

it('lists the 10 coins with price, 24 h change, high, low and volume, marked simulated', async () => {
  // A day-old tick is outside the 24 h window.
  await h.market.record([tick('BTC', '2026-11-22T08:00:00Z', '50000', '7')]);
  h.clock.set(at('2026-11-23T09:00:00Z'));
  await h.market.record(
    LISTED_COINS.map((coin) =>
      tick(coin.code, '2026-11-23T09:00:00Z', coin.code === 'BTC' ? '100000' : coin.startPrice),
    ),
  );
  await h.market.record([
    tick('BTC', '2026-11-23T09:00:30Z', '101000', '2'),
    tick('BTC', '2026-11-23T09:01:10Z', '99000', '0.5'),
    tick('SOL', '2026-11-23T09:01:00Z', '230.3', '4'),
  ]);
  await h.market.record([tick('BTC', '2026-11-23T09:03:00Z', '100500', '1.25')]);
  h.clock.set(at('2026-11-23T09:03:05Z'));

  const res = await h.call(coinList);
  expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { page: 1, total: 10 } });
  const byCode = Object.fromEntries(res.data.lists.map((c) => [c.code, c]));
  expect(res.data.lists.map((c) => c.code)).toEqual([
    'BTC',
    'ETH',
    'BNB',
    'SOL',
    'XRP',
    'DOGE',
    'ADA',
    'TRX',
    'LTC',
    'DOT',
  ]);
  expect(byCode.BTC).toEqual({
    code: 'BTC',
    name: 'Bitcoin',
    price: '100500.00',
    at: '2026-11-23T09:03:00.000Z',
    change_24h: '0.50',
    open_24h: '100000.00',
    high_24h: '101000.00',
    low_24h: '99000.00',
    volume_24h: '4.75',
    price_decimals: 2,
    simulated: true,
    seeded: true,
    exchanges: 0,
    halted: false,
  });
  expect(byCode.SOL).toMatchObject({
    price: '230.30',
    change_24h: '-2.00',
    open_24h: '235.00',
    high_24h: '235.00',
    low_24h: '230.30',
    volume_24h: '5.00',
  });
  expect(byCode.ETH).toMatchObject({
    price: '3420.00',
    change_24h: '0.00',
    high_24h: '3420.00',
    low_24h: '3420.00',
    volume_24h: '1.00',
  });
  expect(byCode.DOGE).toMatchObject({ name: 'Dogecoin', price: '0.38500', price_decimals: 5, change_24h: '0.00' });
  for (const coin of res.data.lists) {
    expect(coin.simulated).toBe(true);
    expect(coin.change_24h).toMatch(/^-?\d+\.\d{2}$/);
    expect(new Big(coin.high_24h).gte(coin.price) && new Big(coin.low_24h).lte(coin.price)).toBe(true);
  }
});

it('quotes the latest recorded price of a coin', async () => {
  const now = new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000 + 5000);
  h.clock.set(now);
  await h.market.record([tick('DOT', now.toISOString(), '8.812', '3')]);
  expect(await h.call(coinRate, { code: 'DOT' })).toEqual({
    ret: 1,
    msg: 'Success',
    data: {
      code: 'DOT',
      price: '8.812',
      at: now.toISOString(),
      simulated: true,
      seeded: true,
      exchanges: 0,
      halted: false,
    },
  });
  expect(await h.call(coinRate, { code: 'ZZZ' })).toEqual(refused('This coin is not listed!'));
  expect(await h.call(coinRate, { code: 'dot' })).toEqual(refused('This coin is not listed!'));
  expect(await h.call(coinRate, { code: '' })).toEqual(refused('Please choose a coin!'));
  expect(await h.call(coinRate, {})).toEqual(refused('Please choose a coin!'));
});

const ltc = [
  tick('LTC', '2026-11-23T10:00:05Z', '100', '1'),
  tick('LTC', '2026-11-23T10:00:40Z', '104', '2'),
  tick('LTC', '2026-11-23T10:01:10Z', '98', '0.5'),
  tick('LTC', '2026-11-23T10:03:59Z', '101', '1.5'),
  tick('LTC', '2026-11-23T10:04:30Z', '103', '0.25'),
  tick('LTC', '2026-11-23T10:05:00Z', '110', '3'),
  tick('LTC', '2026-11-23T10:07:20Z', '95', '1'),
  tick('LTC', '2026-11-23T10:16:00Z', '97', '2'),
];

it('aggregates 1-minute candles into 5m, 15m, 1h and 1d: open first, close last, high max, low min, volume sum', async () => {
  // One batch with several ticks per minute, as a feed may deliver them.
  await h.market.record(ltc);
  h.clock.set(at('2026-11-23T10:17:30Z'));
  const get = async (period: string, limit: string) => {
    const res = await h.call(klines, { code: 'LTC', period, limit });
    expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { code: 'LTC', period, simulated: true } });
    expect(res.data.total).toBe(res.data.lists.length);
    return res.data.lists.map(drawn);
  };

  expect(await get('1m', '18')).toEqual([
    candle('2026-11-23T10:00:00Z', '100', '104', '100', '104', '3'),
    candle('2026-11-23T10:01:00Z', '98', '98', '98', '98', '0.5'),
    candle('2026-11-23T10:03:00Z', '101', '101', '101', '101', '1.5'),
    candle('2026-11-23T10:04:00Z', '103', '103', '103', '103', '0.25'),
    candle('2026-11-23T10:05:00Z', '110', '110', '110', '110', '3'),
    candle('2026-11-23T10:07:00Z', '95', '95', '95', '95', '1'),
    candle('2026-11-23T10:16:00Z', '97', '97', '97', '97', '2'),
  ]);
  expect(await get('1m', '2')).toEqual([candle('2026-11-23T10:16:00Z', '97', '97', '97', '97', '2')]);
  expect(await get('5m', '4')).toEqual([
    candle('2026-11-23T10:00:00Z', '100', '104', '98', '103', '5.25'),
    candle('2026-11-23T10:05:00Z', '110', '110', '95', '95', '4'),
    candle('2026-11-23T10:15:00Z', '97', '97', '97', '97', '2'),
  ]);
  expect(await get('15m', '2')).toEqual([
    candle('2026-11-23T10:00:00Z', '100', '110', '95', '95', '9.25'),
    candle('2026-11-23T10:15:00Z', '97', '97', '97', '97', '2'),
  ]);
  expect(await get('1h', '1')).toEqual([candle('2026-11-23T10:00:00Z', '100', '110', '95', '97', '11.25')]);
  // The day began with the 09:00 tick at the start price 102.50.
  expect(await get('1d', '1')).toEqual([candle('2026-11-23T00:00:00Z', '102.5', '110', '95', '97', '12.25')]);
  // Yesterday's candle is the day before.
  expect((await get('1d', '2')).map((c) => c.time)).toEqual([seconds('2026-11-23T00:00:00Z')]);
  expect((await get('1d', '2')).length).toBe(1);
});

it('answers the same K-lines by POST, and 1m with 200 candles by default', async () => {
  const byGet = await h.call(klines, { code: 'LTC', period: '5m' });
  const byPost = await h.call(klinesPost, { code: 'LTC', period: '5m' });
  expect(byPost).toEqual(byGet);
  expect(byGet.data.lists.length).toBeGreaterThanOrEqual(3);
  const defaults = await h.call(klinesPost, { code: 'LTC' });
  expect(defaults.data.period).toBe('1m');
  // 200 minutes back from 10:17 reach 06:58: the 09:00 candle is in, yesterday's is not.
  expect(defaults.data.lists[0]!.time).toBe(seconds('2026-11-23T09:00:00Z'));
  expect(defaults.data.lists).toHaveLength(8);
});

it('a tick recorded twice moves neither the candle nor the price', async () => {
  const before = await h.database.db
    .select()
    .from(candles)
    .where(and(eq(candles.coin, 'LTC'), eq(candles.minute, at('2026-11-23T10:16:00Z'))));
  await h.market.record([tick('LTC', '2026-11-23T10:16:00Z', '500', '100')]);
  expect(
    await h.database.db
      .select()
      .from(candles)
      .where(and(eq(candles.coin, 'LTC'), eq(candles.minute, at('2026-11-23T10:16:00Z')))),
  ).toEqual(before);
  const [stored] = await h.database.db
    .select()
    .from(priceTicks)
    .where(and(eq(priceTicks.coin, 'LTC'), eq(priceTicks.at, at('2026-11-23T10:16:00Z'))));
  expect(new Big(stored!.price).toFixed()).toBe('97');
  expect((await h.call(coinRate, { code: 'LTC' })).data.price).toBe('97');
});

it('refuses a bad coin, period or limit with the right text', async () => {
  for (const call of [klines, klinesPost]) {
    expect(await h.call(call, { code: '' })).toEqual(refused('Please choose a coin!'));
    expect(await h.call(call, {})).toEqual(refused('Please choose a coin!'));
    expect(await h.call(call, { code: 'ltc' })).toEqual(refused('This coin is not listed!'));
    expect(await h.call(call, { code: 'ZZZ' })).toEqual(refused('This coin is not listed!'));
    expect(await h.call(call, { code: 'LTC', period: '2m' })).toEqual(refused('Please choose a period!'));
    expect(await h.call(call, { code: 'LTC', period: '' })).toEqual(refused('Please choose a period!'));
    for (const limit of ['0', '501', 'x', '1000', '-1', '']) {
      expect({ limit, answer: await h.call(call, { code: 'LTC', limit }) }).toEqual({
        limit,
        answer: refused('The request is not valid!'),
      });
    }
  }
});

it('the simulated feed moves every coin each step and the list follows it', async () => {
  h.clock.advance(1000);
  await h.tick();
  const first = (await h.call(coinList)).data.lists;
  h.clock.advance(60_000);
  await h.tick();
  const second = (await h.call(coinList)).data.lists;
  expect(second).toHaveLength(10);
  for (const [i, coin] of second.entries()) {
    expect(coin).toMatchObject({ code: first[i]!.code, at: h.clock.now().toISOString(), simulated: true });
    // A minute of a realistic random walk: it moved, by less than 5 %.
    const ratio = new Big(coin.price).div(first[i]!.price);
    expect({ code: coin.code, moved: !ratio.eq(1), small: ratio.gt(0.95) && ratio.lt(1.05) }).toEqual({
      code: coin.code,
      moved: true,
      small: true,
    });
  }
});

it('gives the fiat rate of a display currency, baht by default', async () => {
  expect(await h.call(currencyRate)).toEqual({
    ret: 1,
    msg: 'Success',
    data: { code: 'THB', symbol: '฿', rate: '33.80000000' },
  });
  expect((await h.call(currencyRate, { code: 'USD' })).data).toEqual({ code: 'USD', symbol: '$', rate: '1.00000000' });
  expect((await h.call(currencyRate, { code: 'INR' })).data).toEqual({ code: 'INR', symbol: '₹', rate: '84.30000000' });
  for (const code of ['XYZ', 'thb', 'BAHT', '']) {
    expect({ code, answer: await h.call(currencyRate, { code }) }).toEqual({
      code,
      answer: refused('Please choose a currency!'),
    });
  }
});

it("shows the caller's balances per asset and needs a token", async () => {
  const user = await customer(h);
  expect(await h.call(balances, {}, { token: user.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { lists: [], page: 1, total: 0 },
  });
  await grant(h, user.id, '100');
  await grant(h, user.id, '0.5', 'BTC');
  await grant(h, user.id, '0.00000001');
  expect((await h.call(balances, {}, { token: user.token })).data).toEqual({
    lists: [
      { asset: 'BTC', available: '0.50000000', frozen: '0.00000000' },
      { asset: 'USDT', available: '100.00000001', frozen: '0.00000000' },
    ],
    page: 1,
    total: 2,
  });
  const other = await customer(h);
  expect((await h.call(balances, {}, { token: other.token })).data.lists).toEqual([]);
  expect(await h.call(balances)).toEqual(TOKEN_EXPIRED);
  expect(await h.call(balances, {}, { token: 'forged' })).toEqual(TOKEN_EXPIRED);
});

it('lists the option products of a coin, or of every coin, with yield and the 1 USDT minimum', async () => {
  const btc = await h.call(optionProducts, { code: 'BTC' });
  expect(btc).toMatchObject({ ret: 1, msg: 'Success', data: { page: 1, total: 5 } });
  expect(btc.data.lists.map(({ id: _id, ...p }) => p)).toEqual([
    { code: 'BTC', minutes: 1, yield_rate: '0.8', min_amount: '1' },
    { code: 'BTC', minutes: 3, yield_rate: '0.82', min_amount: '1' },
    { code: 'BTC', minutes: 5, yield_rate: '0.85', min_amount: '1' },
    { code: 'BTC', minutes: 15, yield_rate: '0.88', min_amount: '1' },
    { code: 'BTC', minutes: 30, yield_rate: '0.9', min_amount: '1' },
  ]);
  const all = await h.call(optionProducts);
  expect(all.data.total).toBe(50);
  expect(new Set(all.data.lists.map((p) => p.code))).toEqual(new Set(LISTED_COINS.map((c) => c.code)));
  expect(new Set(all.data.lists.map((p) => p.id)).size).toBe(50);
  expect(await h.call(optionProducts, { code: 'btc' })).toEqual(refused('This coin is not listed!'));
  expect((await h.call(optionProducts, { code: 'ZZZ' })).data).toEqual({ lists: [], page: 1, total: 0 });
});
