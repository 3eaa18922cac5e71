// The index feed against local stand-ins of Binance, OKX and Kraken speaking their documented
// protocols: normal flow, an exchange silent, disconnecting, lying by +5 % or sending garbage,
// repeated and out-of-order trades, all down → halt → resume, and the REST candles of each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn, type StandInKind } from './exchange-standins.ts';
import { binance } from '../../src/server/market/exchanges/binance.ts';
import { okx } from '../../src/server/market/exchanges/okx.ts';
import { kraken } from '../../src/server/market/exchanges/kraken.ts';
import type { Exchange } from '../../src/server/market/exchanges/exchange.ts';
import { indexFeed, type IndexFeed, type IndexTick } from '../../src/server/market/index-feed.ts';

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
const coins = () => ['BTC', 'ETH'].map((code) => ({ code, priceDecimals: 2, symbols: Object.fromEntries(exchanges.map((exchange) => [exchange.name, exchange.symbolOf(code)])) }));
const symbol = (kind: StandInKind, code: string) => exchanges.find((exchange) => exchange.name === kind)!.symbolOf(code);

let feed: IndexFeed | null = null;
let lines: string[] = [];
afterEach(async () => {
  await feed?.stop();
  feed = null;
  for (const stand of Object.values(stands)) stand.silent = false;
});

/** A feed connected to the three stand-ins; its own timer steps once at start, the test steps it by hand. */
async function connectedFeed(stream: { silenceMs?: number; firstDelayMs?: number } = {}): Promise<IndexFeed> {
  lines = [];
  feed = indexFeed({
    exchanges,
    coins: coins(),
    clock: { now: () => new Date(0) },
    log: (line) => lines.push(line),
    intervalMs: 3_600_000,
    stream: { firstDelayMs: 50, maxDelayMs: 200, ...stream },
  });
  feed.start(async () => {});
  await until(() => (['binance', 'okx', 'kraken'] as const).every((kind) => ['BTC', 'ETH'].every((code) => stands[kind].subscribed().includes(symbol(kind, code)))));
  // Kraken and OKX answer the subscription; Binance subscribes by URL: once each has been heard from, trades flow.
  for (const kind of ['binance', 'okx', 'kraken'] as const) stands[kind].trade(symbol(kind, 'ETH'), '3000', { at: new Date(Date.now() - 60_000) });
  await until(() => feed!.streams.every((stream) => stream.connected()));
  return feed;
}

async function until(condition: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Trades BTC on each named exchange at its price, then waits until the feed has every one of them. */
async function tradeBtc(prices: Partial<Record<StandInKind, string>>, at = new Date()) {
  const before = feed!.streams.map((stream) => stream.counts.trades);
  for (const [kind, price] of Object.entries(prices) as [StandInKind, string][]) stands[kind].trade(symbol(kind, 'BTC'), price, { at });
  await until(() => feed!.streams.every((stream, i) => stream.counts.trades >= before[i]! + (prices[stream.exchange as StandInKind] ? 1 : 0)));
}

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

  it('prices BTC at the median of the three exchanges and keeps each constituent', async () => {
    await connectedFeed();
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    await tradeBtc({ binance: '97190.10', okx: '97190.83', kraken: '97192' }, at);
    const tick = btcTick(new Date(at.getTime() + 1000));
    expect(tick).toMatchObject({ coin: 'BTC', price: '97190.83', volume: '1.5' });
    expect(tick!.constituents).toEqual([
      { exchange: 'binance', price: '97190.1', at },
      { exchange: 'kraken', price: '97192', at },
      { exchange: 'okx', price: '97190.83', at },
    ]);
    // The ETH trades of a minute ago are stale now: ETH is halted, never priced from old trades.
    expect(feed!.halted()).toEqual(['ETH']);
  });
});

describe('an exchange misbehaving', () => {
  it('leaves out a silent exchange once its last price is over 5 s old', async () => {
    await connectedFeed();
    const at = new Date();
    await tradeBtc({ binance: '100', okx: '101', kraken: '102' }, new Date(at.getTime() - 6_000));
    await tradeBtc({ binance: '100.2', okx: '100.4' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100.3', constituents: [{ exchange: 'binance' }, { exchange: 'okx' }] });
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
      stand.raw(JSON.stringify({ data: { e: 'trade', s: symbol(stand.kind, 'BTC'), t: 1, p: '-5', q: '1', T: Date.now() } }));
      stand.raw(JSON.stringify({ arg: { channel: 'trades', instId: 'BTC-USDT' }, data: [{ instId: 'BTC-USDT', tradeId: 'x', px: 'NaN', sz: '1', ts: 'soon' }] }));
      stand.raw(JSON.stringify({ channel: 'trade', type: 'update', data: [{ symbol: 'BTC/USDT', price: 'lots', qty: 1, trade_id: 1, timestamp: 'yesterday' }] }));
    }
    await until(() => feed!.streams.every((stream) => stream.counts.garbage >= 3));
    const at = new Date();
    await tradeBtc({ binance: '100', okx: '100', kraken: '100' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100' });
    for (const kind of ['Binance', 'OKX', 'Kraken']) expect(lines.filter((line) => line.startsWith(`${kind}: dropped a malformed frame`))).toHaveLength(1);
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
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100', constituents: [{ price: '100' }, { price: '100' }, { exchange: 'okx', price: '100' }] });
  });

  it('reconnects after every connection was dropped, and prices again', async () => {
    await connectedFeed();
    const connects = feed!.streams.map((stream) => stream.counts.connects);
    for (const stand of Object.values(stands)) stand.dropConnections();
    await until(() => feed!.streams.every((stream, i) => stream.counts.connects > connects[i]!));
    await until(() => (['binance', 'okx', 'kraken'] as const).every((kind) => stands[kind].subscribed().includes(symbol(kind, 'BTC'))));
    const at = new Date();
    await tradeBtc({ binance: '101', okx: '102', kraken: '103' }, at);
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '102' });
  });

  it('takes a connection that went silent (no trade, heartbeat or pong) for dead and opens another', async () => {
    await connectedFeed({ silenceMs: 1_500 });
    const connects = feed!.streams.map((stream) => stream.counts.connects);
    for (const stand of Object.values(stands)) stand.silent = true;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
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
    expect(btcTick(new Date(at.getTime() + 500))).toMatchObject({ price: '100.6' });
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
