// The market index on the database: filling the charts' holes from the exchanges' REST candles (local
// stand-ins) — a first start loads 24 h, a restart fills only its gap, a minute recorded live is kept,
// an exchange that fails is left out — and each recorded index tick keeping its constituents.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { startStandIns, type StandIn } from './exchange-standins.ts';
import { binance } from '../../src/server/market/exchanges/binance.ts';
import { okx } from '../../src/server/market/exchanges/okx.ts';
import { kraken } from '../../src/server/market/exchanges/kraken.ts';
import type { Exchange, ExchangeCandle } from '../../src/server/market/exchanges/exchange.ts';
import { backfillCandles } from '../../src/server/market/backfill.ts';
import { rowsOf } from '../../src/server/db/connection.ts';

let h: Harness;
let stands: StandIn[] = [];
let exchanges: Exchange[] = [];
beforeAll(async () => {
  h = await startHarness();
  stands = await startStandIns();
  exchanges = [binance(stands[0]!.endpoints), okx(stands[1]!.endpoints), kraken(stands[2]!.endpoints)];
});
afterAll(async () => {
  await Promise.all(stands.map((stand) => stand.close()));
  await h.close();
});
beforeEach(async () => {
  await h.database.db.execute(sql`delete from candles_1m`);
});

const now = () => h.clock.now();
const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;
const btc = () => [
  {
    code: 'BTC',
    priceDecimals: 2,
    symbols: Object.fromEntries(exchanges.map((exchange) => [exchange.name, exchange.symbolOf('BTC')])),
  },
];

/** Two days of candles on each exchange, each exchange `offset` away from the others. */
function listCandles(offsets: number[]) {
  const end = minuteOf(now().getTime());
  stands.forEach((stand, i) => {
    const list: ExchangeCandle[] = [];
    for (let minute = end - 48 * 3600_000; minute <= end; minute += 60_000) {
      const base = 100 + offsets[i]!;
      list.push({
        minute: new Date(minute),
        open: `${base}`,
        high: `${base + 1}`,
        low: `${base - 1}`,
        close: `${base + 0.5}`,
        volume: '2',
      });
    }
    stand.candles.set(exchanges[i]!.symbolOf('BTC'), list);
  });
}

const stored = async () =>
  rowsOf<{ minute: Date | string; open: string; high: string; low: string; close: string; volume: string }>(
    await h.database.db.execute(
      sql`select minute, open::text, high::text, low::text, close::text, volume::text from candles_1m where coin = 'BTC' order by minute`,
    ),
  ).map((row) => ({ ...row, minute: new Date(row.minute).getTime() }));

it('loads the last 24 h on a first start, each minute the median of the exchanges and their summed volume', async () => {
  listCandles([0, 0.4, 3]);
  const lines: string[] = [];
  const written = await backfillCandles(h.database.db, exchanges, btc(), {
    now: now(),
    log: (line) => lines.push(line),
  });
  const rows = await stored();
  expect(written).toBe(24 * 60);
  expect(rows).toHaveLength(24 * 60);
  expect(rows[0]!.minute).toBe(minuteOf(now().getTime()) - 24 * 3600_000);
  // The current minute is still being recorded live.
  expect(rows.at(-1)!.minute).toBe(minuteOf(now().getTime()) - 60_000);
  expect(rows[0]).toMatchObject({
    open: '100.400000000000',
    high: '101.400000000000',
    low: '99.400000000000',
    close: '100.900000000000',
    volume: '6.00000000',
  });
  expect(lines).toEqual([]);
});

it('after a restart fills only the gap, and never overwrites a minute recorded live', async () => {
  listCandles([0, 0, 0]);
  // Recorded until 10 minutes ago, the last of those minutes live.
  const last = minuteOf(now().getTime()) - 10 * 60_000;
  await h.database.db.execute(
    sql`insert into candles_1m (coin, minute, open, high, low, close, volume)
      select 'BTC', m, 7, 7, 7, 7, 1 from generate_series(${new Date(minuteOf(now().getTime()) - 24 * 3600_000).toISOString()}::timestamptz, ${new Date(last).toISOString()}::timestamptz, interval '1 minute') as m`,
  );
  const written = await backfillCandles(h.database.db, exchanges, btc(), { now: now(), log: () => {} });
  expect(written).toBe(9);
  const rows = await stored();
  expect(rows).toHaveLength(24 * 60);
  expect(rows.find((row) => row.minute === last)).toMatchObject({ open: '7.000000000000' });
  expect(rows.at(-1)).toMatchObject({ minute: last + 9 * 60_000, open: '100.000000000000' });
});

it('leaves out an exchange that fails or answers garbage, saying so, and fills from the others', async () => {
  listCandles([0, 1, 2]);
  const lines: string[] = [];
  const getJson = async (url: string) => {
    if (url.startsWith(stands[0]!.endpoints.rest)) throw new Error('HTTP 503');
    if (url.startsWith(stands[2]!.endpoints.rest)) return { error: [], result: { BTCUSDT: [['garbage']] } };
    return (await fetch(url)).json();
  };
  await backfillCandles(h.database.db, exchanges, btc(), { now: now(), log: (line) => lines.push(line), getJson });
  const rows = await stored();
  expect(rows).toHaveLength(24 * 60);
  expect(rows[0]).toMatchObject({ open: '101.000000000000', volume: '2.00000000' });
  expect(lines).toEqual([
    'Binance: no candles for BTC (HTTP 503); filled from the other exchanges',
    'Kraken: no candles for BTC (Kraken candles: a malformed row); filled from the other exchanges',
  ]);
});

it('writes nothing, and says why, when no exchange answers', async () => {
  const lines: string[] = [];
  const written = await backfillCandles(h.database.db, exchanges, btc(), {
    now: now(),
    log: (line) => lines.push(line),
    getJson: () => Promise.reject(new Error('getaddrinfo ENOTFOUND')),
  });
  expect(written).toBe(0);
  expect(lines).toHaveLength(3);
});

it('records an index tick with its constituents, and a simulator tick without', async () => {
  const at = new Date(Math.floor(now().getTime() / 1000) * 1000 + 7_000);
  const constituents = [
    { exchange: 'binance', price: '97190.1', at: new Date(at.getTime() - 300) },
    { exchange: 'okx', price: '97190.83', at: new Date(at.getTime() - 120) },
  ];
  await h.market.record([
    { coin: 'BTC', at, price: '97190.465', volume: '1', constituents },
    { coin: 'ETH', at, price: '3400', volume: '1' },
  ]);
  const rows = rowsOf<{ coin: string; constituents: unknown }>(
    await h.database.db.execute(
      sql`select coin, constituents from price_ticks where at = ${at.toISOString()}::timestamptz order by coin`,
    ),
  );
  expect(rows).toEqual([
    { coin: 'BTC', constituents: constituents.map((c) => ({ ...c, at: c.at.toISOString() })) },
    { coin: 'ETH', constituents: null },
  ]);
});
