// The index feed against local stand-ins of Binance, OKX and Kraken speaking their documented
// protocols: normal flow (each constituent with its trade id), an exchange silent, disconnecting,
// lying by +5 %, sending garbage (alone or beside good trades) or stamping trades ahead of our
// clock, repeated and out-of-order trades, all down → halt → resume, and the REST candles of each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn, type StandInKind } from './exchange-standins.ts';
import { binance } from '../../src/server/market/exchanges/binance.ts';
import { okx } from '../../src/server/market/exchanges/okx.ts';
import { kraken } from '../../src/server/market/exchanges/kraken.ts';
import type { Exchange } from '../../src/server/market/exchanges/exchange.ts';
import { indexFeed, type IndexFeed, type IndexTick } from '../../src/server/market/index-feed.ts';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { startHarness } from './harness.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import type { Constituent as RecordedConstituent } from '../../src/server/db/schema.ts';
import { answerConstituents } from '../../src/server/domain/prices.ts';
import { Constituents } from '../../src/api-contract/markets.ts';

const makers: Record<StandInKind, (endpoints: StandIn['endpoints']) => Exchange> = { binance, okx, kraken };
const stands = {} as Record<StandInKind, StandIn>;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  for (const kind of ['binance', 'okx', 'kraken'] as const) {
    stands[kind] = await startStandIn(kind);
    exchanges.push(makers[kind](stands[kind].endpoints));
  }
});
afterAll(async () => {
  await Promise.all(Object.values(stands).map((stand) => stand.close()));
});

/** Each coin under the exchange's own symbol for it. */
const coins = () =>
  ['BTC', 'ETH'].map((code) => ({
    code,
    priceDecimals: 2,
    symbols: Object.fromEntries(exchanges.map((exchange) => [exchange.name, exchange.symbolOf(code)])),
  }));
const symbol = (kind: StandInKind, code: string) =>
  exchanges.find((exchange) => exchange.name === kind)!.symbolOf(code);

let feed: IndexFeed | null = null;
let lines: string[] = [];
afterEach(async () => {
  await feed?.stop();
  feed = null;
  for (const stand of Object.values(stands)) stand.silent = false;
});

/**
 * The market clock of these tests: real time at whole seconds, so trades stamped now are at most a
 * second ahead of it, and the feed's own timer (an hour a second here) never comes round again.
 */
const wholeSeconds = { now: () => new Date(Math.floor(Date.now() / 1000) * 1000) };

/** A feed connected to the three stand-ins; its own timer steps once at start, the test steps it by hand. */
async function connectedFeed(stream: { silenceMs?: number; firstDelayMs?: number } = {}): Promise<IndexFeed> {
  feed = indexFeed({
    exchanges,
    coins: coins(),
    clock: wholeSeconds,
    log: (line) => lines.push(line),
    intervalMs: 3_600_000,
    stream: { firstDelayMs: 50, maxDelayMs: 200, ...stream },
  });
  feed.start(async () => {});
  await until(() =>
    (['binance', 'okx', 'kraken'] as const).every((kind) =>
      ['BTC', 'ETH'].every((code) => stands[kind].subscribed().includes(symbol(kind, code))),
    ),
  );
  // Kraken and OKX answer the subscription; Binance subscribes by URL: once each has been heard from, trades flow.
  for (const kind of ['binance', 'okx', 'kraken'] as const)
    stands[kind].trade(symbol(kind, 'ETH'), '3000', { at: new Date(Date.now() - 60_000) });
  await until(() => feed!.streams.every((stream) => stream.connected()));
  // What the test did is what its lines show (not the start's step, with nothing traded yet).
  lines = [];
  return feed;
}

async function until(condition: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Trades BTC on each named exchange at its price, waits until the feed has every one of them, and returns their trade
 * ids. */
async function tradeBtc(
  prices: Partial<Record<StandInKind, string>>,
  at = new Date(),
): Promise<Partial<Record<StandInKind, string>>> {
  const before = feed!.streams.map((stream) => stream.counts.trades);
  const ids: Partial<Record<StandInKind, string>> = {};
  for (const [kind, price] of Object.entries(prices) as [StandInKind, string][])
    ids[kind] = stands[kind].trade(symbol(kind, 'BTC'), price, { at });
  await until(() =>
    feed!.streams.every(
      (stream, i) => stream.counts.trades >= before[i]! + (prices[stream.exchange as StandInKind] ? 1 : 0),
    ),
  );
  return ids;
}

const streamOf = (kind: StandInKind) => feed!.streams.find((stream) => stream.exchange === kind)!;

const btcTick = (at: Date) => feed!.step(at).find((tick) => tick.coin === 'BTC') as IndexTick | undefined;

describe('normal flow', () => {
  it('sums the volume of a step exactly, as decimals (0.1 + 0.2 + 10^-18, which floats would round)', async () => {
    await connectedFeed();
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const before = feed!.streams.map((stream) => stream.counts.trades);
    stands.binance.trade(symbol('binance', 'BTC'), '97190', { at, quantity: '0.1' });
    stands.okx.trade(symbol('okx', 'BTC'), '97191', { at, quantity: '0.2' });
    stands.binance.trade(symbol('binance', 'BTC'), '97190', { at, quantity: '0.000000000000000001' });
    await until(() => feed!.streams.reduce((sum, stream, i) => sum + stream.counts.trades - before[i]!, 0) >= 3);
    expect(btcTick(new Date(at.getTime() + 1000))).toMatchObject({ volume: '0.300000000000000001' });
  });

  it('prices BTC at the median of the three exchanges and keeps each constituent, with the exchange’s trade id', async () => {
    await connectedFeed();
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const ids = await tradeBtc({ binance: '97190.10', okx: '97190.83', kraken: '97192' }, at);
    const tick = btcTick(new Date(at.getTime() + 1000));
    expect(tick).toMatchObject({ coin: 'BTC', price: '97190.83', volume: '1.5' });
    expect(tick!.constituents).toEqual([
      { exchange: 'binance', price: '97190.1', at, tradeId: ids.binance },
      { exchange: 'kraken', price: '97192', at, tradeId: ids.kraken },
      { exchange: 'okx', price: '97190.83', at, tradeId: ids.okx },
    ]);
    // The ETH trades of a minute ago are stale now: ETH is halted, never priced from old trades.
    expect(feed!.halted()).toEqual(['ETH']);
  });

  it('records the median on the coin’s tick, a tie to the even tick, as the pair shows and fills at it', async () => {
    await connectedFeed();
    const second = Math.floor(Date.now() / 1000) * 1000;
    // The mean of two middle prices lands half a tick between two: 97,190.015 → .02, 97,190.025 → .02 (to even).
    const cases = [
      [{ binance: '97190.01', okx: '97190.02' }, '97190.02'],
      [{ binance: '97190.02', okx: '97190.03' }, '97190.02'],
      // Prices finer than the tick (an exchange with a finer one): 97,190.1045 → .10.
      [{ binance: '97190.104', okx: '97190.105' }, '97190.10'],
      // Three: the middle one, on the tick already.
      [{ binance: '97190.10', okx: '97190.83', kraken: '97192' }, '97190.83'],
    ] as const;
    for (const [i, [prices, recorded]] of cases.entries()) {
      const at = new Date(second - 3_000 + i * 500);
      // Kraken's price of the case before is stale by then: only the exchanges named count.
      for (const kind of ['binance', 'okx', 'kraken'] as const)
        if (!(kind in prices))
          stands[kind].trade(symbol(kind, 'BTC'), '97190', { at: new Date(at.getTime() - 60_000) });
      await tradeBtc(prices, at);
      expect(btcTick(new Date(at.getTime() + 100))?.price).toBe(recorded);
    }
  });
});

describe('the trade id of each constituent', () => {
  it('is recorded with the tick and answered with it, and a tick recorded before ids were kept is still a valid answer', async () => {
    const h = await startHarness();
    try {
      await connectedFeed();
      const at = new Date();
      const ids = await tradeBtc({ binance: '97190.10', okx: '97190.83', kraken: '97192' }, at);
      const tick = btcTick(new Date(at.getTime() + 500))!;
      const second = new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000 + 13_000);
      await h.market.record([{ ...tick, at: second }]);
      const [row] = rowsOf<{ constituents: RecordedConstituent[] }>(
        await h.database.db.execute(
          sql`select constituents from price_ticks where coin = 'BTC' and at = ${second.toISOString()}::timestamptz`,
        ),
      );
      const answer = v.parse(Constituents, answerConstituents(row!.constituents));
      expect(answer).toEqual([
        { exchange: 'binance', price: '97190.1', at: at.toISOString(), trade_id: ids.binance },
        { exchange: 'kraken', price: '97192', at: at.toISOString(), trade_id: ids.kraken },
        { exchange: 'okx', price: '97190.83', at: at.toISOString(), trade_id: ids.okx },
      ]);
      // As ticks were recorded before: no id, and the answer says none.
      expect(
        v.parse(Constituents, answerConstituents([{ exchange: 'okx', price: '97190.83', at: at.toISOString() }])),
      ).toEqual([{ exchange: 'okx', price: '97190.83', at: at.toISOString() }]);
    } finally {
      await h.close();
    }
  });
});

describe('an exchange misbehaving', () => {
  it('leaves out a silent exchange once its last price is over 5 s old', async () => {
    await connectedFeed();
    const at = new Date();
    await tradeBtc({ binance: '100', okx: '101', kraken: '102' }, new Date(at.getTime() - 6_000));
    await tradeBtc({ binance: '100.2', okx: '100.4' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({
      price: '100.30',
      constituents: [{ exchange: 'binance' }, { exchange: 'okx' }],
    });
  });

  it('drops an exchange lying by +5 % from the index, and says so in the log', async () => {
    await connectedFeed();
    const at = new Date();
    await tradeBtc({ binance: '100.00', okx: '100.10', kraken: '105.10' }, at);
    const tick = btcTick(new Date(at.getTime() + 500));
    expect(tick).toMatchObject({ price: '100.05' });
    expect(tick!.constituents.map((c) => c.exchange)).toEqual(['binance', 'okx']);
    expect(lines.some((line) => /BTC: kraken 105\.1 left out/.test(line))).toBe(true);
  });

  it('survives malformed frames: dropped, counted, logged once, the stream goes on', async () => {
    await connectedFeed();
    for (const stand of Object.values(stands)) {
      stand.raw('{"not json');
      stand.raw(
        JSON.stringify({ data: { e: 'trade', s: symbol(stand.kind, 'BTC'), t: 1, p: '-5', q: '1', T: Date.now() } }),
      );
      stand.raw(
        JSON.stringify({
          arg: { channel: 'trades', instId: 'BTC-USDT' },
          data: [{ instId: 'BTC-USDT', tradeId: 'x', px: 'NaN', sz: '1', ts: 'soon' }],
        }),
      );
      stand.raw(
        JSON.stringify({
          channel: 'trade',
          type: 'update',
          data: [{ symbol: 'BTC/USDT', price: 'lots', qty: 1, trade_id: 1, timestamp: 'yesterday' }],
        }),
      );
    }
    await until(() => feed!.streams.every((stream) => stream.counts.garbage >= 3));
    const at = new Date();
    await tradeBtc({ binance: '100', okx: '100', kraken: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100.00' });
    for (const kind of ['Binance', 'OKX', 'Kraken'])
      expect(lines.filter((line) => line.startsWith(`${kind}: dropped a malformed frame`))).toHaveLength(1);
  });

  it('keeps the good trades of a frame beside a malformed one, and counts that one as garbage', async () => {
    await connectedFeed();
    const at = new Date();
    const good = (price: string, id: string) => ({
      instId: 'BTC-USDT',
      tradeId: id,
      px: price,
      sz: '1',
      side: 'buy',
      ts: String(at.getTime()),
    });
    const okxGarbage = streamOf('okx').counts.garbage;
    stands.okx.raw(
      JSON.stringify({
        arg: { channel: 'trades', instId: 'BTC-USDT' },
        data: [good('100.1', 'a1'), { instId: 'BTC-USDT', px: 'NaN' }, good('100.2', 'a2')],
      }),
    );
    const krakenGarbage = streamOf('kraken').counts.garbage;
    stands.kraken.raw(
      JSON.stringify({
        channel: 'trade',
        type: 'update',
        data: [
          'not a trade',
          {
            symbol: 'BTC/USDT',
            side: 'sell',
            price: 100.3,
            qty: 1,
            ord_type: 'limit',
            trade_id: 77,
            timestamp: at.toISOString(),
          },
          { symbol: 'BTC/USDT', price: 'lots', qty: 1, trade_id: 78, timestamp: at.toISOString() },
        ],
      }),
    );
    await until(() => streamOf('okx').counts.garbage > okxGarbage && streamOf('kraken').counts.garbage > krakenGarbage);
    expect(streamOf('okx').counts.garbage - okxGarbage).toBe(1);
    expect(streamOf('kraken').counts.garbage - krakenGarbage).toBe(2);
    await tradeBtc({ binance: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({
      price: '100.20',
      constituents: [
        { exchange: 'binance' },
        { exchange: 'kraken', price: '100.3', tradeId: '77' },
        { exchange: 'okx', price: '100.2', tradeId: 'a2' },
      ],
    });
    expect(
      lines.some((line) =>
        line.startsWith(
          'OKX: dropped a malformed frame (a trade without symbol, id, price, quantity or time; kept the 2 trades beside it)',
        ),
      ),
    ).toBe(true);
  });

  it('drops trades stamped an hour ahead of our clock: they pin no price, and the coin halts when the exchanges go quiet', async () => {
    await connectedFeed();
    const hourAhead = new Date(Date.now() + 3_600_000);
    stands.okx.trade('BTC-USDT', '150', { at: hourAhead });
    stands.kraken.trade('BTC/USDT', '150', { at: hourAhead });
    await until(() => streamOf('okx').counts.skew === 1 && streamOf('kraken').counts.skew === 1);
    // The exchanges' next trades, at the right time, make the price.
    const at = new Date();
    await tradeBtc({ binance: '100', okx: '100.2', kraken: '100.1' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({
      price: '100.10',
      constituents: [{ price: '100' }, { price: '100.1' }, { price: '100.2' }],
    });
    // Then every exchange goes quiet: no stamp from the future keeps BTC priced.
    expect(btcTick(new Date(at.getTime() + 6_000))).toBeUndefined();
    expect(feed!.halted()).toContain('BTC');
    // An hour less the time the trade took to arrive (a busy machine: seconds).
    expect(
      lines.filter((line) => /^OKX: dropped a trade stamped 3[56]\d\d\.\d s ahead of our clock$/.test(line)),
    ).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('Kraken: dropped a trade stamped'))).toHaveLength(1);
  });

  it('takes a trade stamped a little ahead, without letting it outrank the trades after it', async () => {
    await connectedFeed();
    // At most 2 s ahead of the whole-second clock: within what an exchange's clock may be ahead.
    const ahead = new Date(Date.now() + 900);
    await tradeBtc({ binance: '100', okx: '100.5', kraken: '100.1' }, ahead);
    // OKX's next trade is stamped before that one (its clock caught up): it is the last price now.
    const at = new Date();
    await tradeBtc({ okx: '100.2' }, at);
    expect(streamOf('okx').counts.skew).toBe(0);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({
      price: '100.10',
      constituents: [{ price: '100' }, { price: '100.1' }, { exchange: 'okx', price: '100.2' }],
    });
  });

  it('ignores a repeated trade and one older than the last', async () => {
    await connectedFeed();
    const at = new Date();
    const okxStream = feed!.streams.find((stream) => stream.exchange === 'okx')!;
    stands.okx.trade('BTC-USDT', '100', { at, id: 'same' });
    stands.okx.trade('BTC-USDT', '999', { at, id: 'same' });
    stands.okx.trade('BTC-USDT', '50', { at: new Date(at.getTime() - 1000), id: 'late' });
    await until(() => okxStream.counts.repeats >= 2);
    await tradeBtc({ binance: '100', kraken: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({
      price: '100.00',
      constituents: [{ price: '100' }, { price: '100' }, { exchange: 'okx', price: '100' }],
    });
  });

  it('reconnects after every connection was dropped, and prices again', async () => {
    await connectedFeed();
    const connects = feed!.streams.map((stream) => stream.counts.connects);
    for (const stand of Object.values(stands)) stand.dropConnections();
    await until(() => feed!.streams.every((stream, i) => stream.counts.connects > connects[i]!));
    await until(() =>
      (['binance', 'okx', 'kraken'] as const).every((kind) => stands[kind].subscribed().includes(symbol(kind, 'BTC'))),
    );
    const at = new Date();
    await tradeBtc({ binance: '101', okx: '102', kraken: '103' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '102.00' });
  });

  it('takes a connection that went silent (no trade, heartbeat or pong) for dead and opens another', async () => {
    await connectedFeed({ silenceMs: 1_500 });
    const connects = feed!.streams.map((stream) => stream.counts.connects);
    for (const stand of Object.values(stands)) stand.silent = true;
    // Silent until the feed has noticed it on every connection (its log says so for each), then speaking again.
    await until(
      () => lines.filter((line) => /silent for \d+ s; reconnecting/.test(line)).length >= feed!.streams.length,
    );
    for (const stand of Object.values(stands)) stand.silent = false;
    await until(() => feed!.streams.every((stream, i) => stream.counts.connects > connects[i]!));
    expect(lines.some((line) => /silent for \d+ s; reconnecting/.test(line))).toBe(true);
  });
});

describe('halt', () => {
  it('halts with every exchange down, logs it once, and resumes when two come back', async () => {
    await connectedFeed();
    // Trades 10 s ago, then nothing from anyone for over 5 s.
    let at = new Date(Date.now() - 10_000);
    await tradeBtc({ binance: '100', okx: '100', kraken: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toBeDefined();
    expect(btcTick(new Date(at.getTime() + 6_000))).toBeUndefined();
    expect(btcTick(new Date(at.getTime() + 7_000))).toBeUndefined();
    expect(feed!.halted()).toContain('BTC');
    expect(lines.filter((line) => line.startsWith('BTC halted'))).toHaveLength(1);
    at = new Date();
    await tradeBtc({ okx: '100.5', kraken: '100.7' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100.60' });
    expect(lines.some((line) => line.startsWith('BTC resumed: kraken, okx'))).toBe(true);
  });

  it('halts with only one exchange left', async () => {
    await connectedFeed();
    const at = new Date();
    await tradeBtc({ binance: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toBeUndefined();
  });
});

describe('REST candles', () => {
  it('reads each exchange’s 1-minute candles in its documented shape, oldest first', async () => {
    const start = Date.parse('2026-11-25T10:00:00Z');
    const candles = [0, 1, 2].map((i) => ({
      minute: new Date(start + i * 60_000),
      open: `${100 + i}`,
      high: `${101 + i}`,
      low: `${99 + i}`,
      close: `${100.5 + i}`,
      volume: `${i + 1}.25`,
    }));
    for (const exchange of exchanges) {
      const kind = exchange.name as StandInKind;
      stands[kind].candles.set(exchange.symbolOf('BTC'), candles);
      const answer = await fetch(exchange.candlesUrl(exchange.symbolOf('BTC'), new Date(start + 60_000), 2));
      expect(exchange.parseCandles(await answer.json()), exchange.name).toEqual(candles.slice(1, 3));
    }
  });

  it('refuses an answer that is not candles', () => {
    for (const exchange of exchanges) {
      expect(() => exchange.parseCandles({ nonsense: true }), exchange.name).toThrow();
      expect(() => exchange.parseCandles(null), exchange.name).toThrow();
    }
    expect(() => binance().parseCandles([[1, 'x', '1', '1', '1', '1']])).toThrow(/malformed/);
  });
});
