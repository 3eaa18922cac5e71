// Contract matching fills every crossed limit exactly once, at its price, with the first recorded
// tick crossing it after it became eligible, in time order: two runners over the same 10,000
// resting orders, a run that dies between claim and commit, a restart after hours of downtime,
// revokes racing the matcher, and ticks that must not fill. After each, every balance is what the
// test's own arithmetic says (the API contract's fillAmounts and limitReserve, big.js) and the ledger
// explains it.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Big from 'big.js';
import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import { besideTransactions, startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant } from './helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { balances, contractOrders, contractPairs, ledgerEntries } from '../../src/server/db/schema.ts';
import {
  MATCH_WINDOW_TICKS,
  cancelContractOrder,
  matchCrossedOrders,
  placeContractOrder,
} from '../../src/server/domain/contracts.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { startMatchingJob } from '../../src/server/jobs/schedule.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import {
  crosses,
  fillAmounts,
  limitReserve,
  type FillAmounts,
  type OrderSide,
} from '../../src/api-contract/contracts.ts';

const ASSETS = ['USDT', 'BTC', 'DOGE', 'ETH', 'SOL', 'LTC', 'ADA', 'DOT'];
const GRANT = '1000000000';
const FEE_RATES = ['0.001', '0.002', '0.00075'];

let h: Harness;
const customers: number[] = [];
/** What each customer's balance of each asset must be, kept by the test from its own arithmetic. */
const expected = new Map<string, { available: Big; frozen: Big }>();
const held = (userId: number, asset: string) => expected.get(`${userId} ${asset}`)!;

beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < 5; i++) {
    const { id } = await customer(h);
    customers.push(id);
    for (const asset of ASSETS) {
      await grant(h, id, GRANT, asset);
      expected.set(`${id} ${asset}`, { available: new Big(GRANT), frozen: new Big(0) });
    }
  }
}, 120_000);
afterAll(() => h.close());

interface Tick {
  at: Date;
  price: string;
}

interface Resting {
  id: number;
  userId: number;
  coin: string;
  side: OrderSide;
  price: string;
  quantity: string;
  feeRate: string;
  eligibleAfter: Date;
  reserve: { asset: string; amount: string };
}

/** Moves the harness clock to a later whole second and returns it. */
function later(ms: number) {
  h.clock.set(new Date(Math.floor((h.clock.now().getTime() + ms) / 1000) * 1000));
  return h.clock.now();
}

const units = (n: number, decimals: number) => new Big(n).div(new Big(10).pow(decimals)).toFixed(decimals);

/** One recorded tick a second from `start`: straight lines between `waypoints` (second → price) and a few ticks of
 * noise. */
function walk(start: Date, decimals: number, waypoints: [number, string][], noise: number): Tick[] {
  const scale = 10 ** decimals;
  const last = waypoints.at(-1)![0];
  return Array.from({ length: last + 1 }, (_, s) => {
    const to = waypoints.findIndex(([second]) => second >= s);
    const [s1, p1] = waypoints[to]!;
    const [s0, p0] = waypoints[Math.max(0, to - 1)]!;
    const [u0, u1] = [Math.round(Number(p0) * scale), Math.round(Number(p1) * scale)];
    const line = s1 === s0 ? u1 : u0 + Math.round(((u1 - u0) * (s - s0)) / (s1 - s0));
    const jitter = s === 0 ? 0 : ((s * 37) % (2 * noise + 1)) - noise;
    return { at: new Date(start.getTime() + s * 1000), price: units(line + jitter, decimals) };
  });
}

/** The tick that must fill an order: the first recorded after it became eligible that crosses it. */
const firstCrossing = (order: Pick<Resting, 'side' | 'price' | 'eligibleAfter'>, ticks: Tick[]) =>
  ticks.find((tick) => tick.at > order.eligibleAfter && crosses(order.side, order.price, tick.price)) ?? null;

/**
 * `count` limits of `coin` by every customer, buys below and sells above the price of `ticks[0]`
 * (when they were placed), with varied prices, quantities and fee rates; one in five became
 * eligible only after a later tick (placed then: even a tick that already crossed it does not fill it).
 */
function planBook(
  coin: string,
  count: number,
  ticks: Tick[],
  price: (i: number, side: OrderSide) => string,
  quantity: (i: number) => string,
): Omit<Resting, 'id'>[] {
  return Array.from({ length: count }, (_, i) => {
    const side: OrderSide = i % 2 ? 'sell' : 'buy';
    const order = {
      userId: customers[i % customers.length]!,
      coin,
      side,
      price: price(i, side),
      quantity: quantity(i),
      feeRate: FEE_RATES[i % FEE_RATES.length]!,
    };
    const placedAfter = ticks[1 + ((i * 31) % (ticks.length - 1))]!;
    const eligibleAfter = i % 5 === 0 ? placedAfter.at : ticks[0]!.at;
    return { ...order, eligibleAfter, reserve: limitReserve(side, coin, order.price, order.quantity, order.feeRate) };
  });
}

/** Writes planned resting limits straight into the database, their freezes as the ledger entries and balances placement
 * writes. */
async function rest(plans: Omit<Resting, 'id'>[]): Promise<Resting[]> {
  const db = h.database.db;
  const rows = plans.map((p) => ({
    user_id: p.userId,
    coin: p.coin,
    side: p.side,
    price: p.price,
    quantity: p.quantity,
    fee_rate: p.feeRate,
    frozen_asset: p.reserve.asset,
    frozen: p.reserve.amount,
    at: p.eligibleAfter.toISOString(),
  }));
  const inserted = rowsOf<{ id: number; side: string; price: string }>(
    await db.execute(sql`
      insert into contract_orders (user_id, coin, side, type, status, price, quantity, fee_rate, frozen_asset, frozen, eligible_after, created_at)
      select (r->>'user_id')::int, r->>'coin', r->>'side', 'limit', 'open', (r->>'price')::numeric, (r->>'quantity')::numeric, (r->>'fee_rate')::numeric,
        r->>'frozen_asset', (r->>'frozen')::numeric, (r->>'at')::timestamptz, (r->>'at')::timestamptz
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(r, n)
      order by e.n
      returning id, side, price::text as price`),
  );
  const resting = plans.map((plan, i) => ({ ...plan, id: Number(inserted[i]!.id) }));
  expect(inserted.map((row) => `${row.side} ${new Big(row.price).toFixed()}`)).toEqual(
    plans.map((p) => `${p.side} ${new Big(p.price).toFixed()}`),
  );
  const [first, last] = [resting[0]!.id, resting.at(-1)!.id];
  expect(last - first + 1).toBe(plans.length);
  await db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
    select o.user_id, o.frozen_asset, b.bucket, case when b.bucket = 'available' then -o.frozen else o.frozen end, 'contract_freeze', 'contract:' || o.id, o.created_at
    from contract_orders o cross join (values ('available'), ('frozen')) as b(bucket)
    where o.id between ${first} and ${last}`);
  await db.execute(sql`
    update balances b set available = b.available - s.amount, frozen = b.frozen + s.amount
    from (select user_id, frozen_asset, sum(frozen) as amount from contract_orders where id between ${first} and ${last} group by user_id, frozen_asset) s
    where b.user_id = s.user_id and b.asset = s.frozen_asset`);
  for (const order of resting) froze(order);
  await expectBalancesAsExpected();
  await expectLedgerBalanced(h);
  return resting;
}

function froze(order: Pick<Resting, 'userId' | 'reserve'>) {
  const balance = held(order.userId, order.reserve.asset);
  balance.available = balance.available.minus(order.reserve.amount);
  balance.frozen = balance.frozen.plus(order.reserve.amount);
}

async function recordTicks(coin: string, ticks: Tick[]) {
  await h.market.record(ticks.map(({ at, price }) => ({ coin, at, price, volume: '1' })));
}

type Outcome = { filled: Tick } | { cancelled: true } | null;

/**
 * Every order as its outcome says (filled at its limit price with that tick, revoked, or still open
 * holding its reserve), each with exactly its own ledger entries, and the balances the test expects.
 * Applies the outcomes to the expected balances first.
 */
async function expectOutcomes(orders: Resting[], outcomes: Map<number, Outcome>, at: Date) {
  const db = h.database.db;
  const amounts = new Map<number, FillAmounts>();
  for (const order of orders) {
    const outcome = outcomes.get(order.id)!;
    const balance = held(order.userId, order.reserve.asset);
    if (outcome && 'filled' in outcome) {
      const fill = fillAmounts(order.side, 'limit', order.coin, order.price, order.quantity, order.feeRate);
      amounts.set(order.id, fill);
      balance.frozen = balance.frozen.minus(order.reserve.amount);
      balance.available = balance.available.plus(order.reserve.amount).minus(fill.spent);
      held(order.userId, fill.received_asset).available = held(order.userId, fill.received_asset).available.plus(
        fill.received,
      );
    } else if (outcome) {
      balance.frozen = balance.frozen.minus(order.reserve.amount);
      balance.available = balance.available.plus(order.reserve.amount);
    }
  }

  const ids = orders.map((order) => order.id);
  const [low, high] = [Math.min(...ids), Math.max(...ids)];
  const rows = new Map(
    (
      await db
        .select()
        .from(contractOrders)
        .where(between(contractOrders.id, low, high))
    ).map((row) => [row.id, row]),
  );
  const price = (value: string | null) => value && new Big(value).toFixed();
  const amount = (value: string | null) => value && new Big(value).toFixed(8);
  const differences = [];
  for (const order of orders) {
    const row = rows.get(order.id)!;
    const outcome = outcomes.get(order.id)!;
    const fill = amounts.get(order.id);
    const filled = outcome && 'filled' in outcome ? outcome.filled : null;
    const actual = {
      status: row.status,
      frozen: amount(row.frozen),
      unitPrice: price(row.unitPrice),
      dealt: amount(row.dealtQuantity),
      amounts:
        row.total === null
          ? null
          : {
              total: amount(row.total),
              fee: amount(row.fee),
              fee_asset: row.feeAsset,
              spent: amount(row.spent),
              spent_asset: row.spentAsset,
              received: amount(row.received),
              received_asset: row.receivedAsset,
            },
      tick: row.tickAt && { price: price(row.tickPrice), at: row.tickAt.toISOString() },
      filledAt: row.filledAt?.toISOString() ?? null,
      cancelled: row.cancelledAt !== null,
    };
    const wanted = {
      status: filled ? 'filled' : outcome ? 'cancelled' : 'open',
      frozen: order.reserve.amount,
      unitPrice: filled ? new Big(order.price).toFixed() : null,
      dealt: filled ? new Big(order.quantity).toFixed(8) : '0.00000000',
      amounts: fill
        ? {
            total: fill.total,
            fee: fill.fee,
            fee_asset: fill.fee_asset,
            spent: fill.spent,
            spent_asset: fill.spent_asset,
            received: fill.received,
            received_asset: fill.received_asset,
          }
        : null,
      tick: filled && { price: new Big(filled.price).toFixed(), at: filled.at.toISOString() },
      filledAt: filled ? at.toISOString() : null,
      cancelled: Boolean(outcome && !filled),
    };
    if (!isDeepStrictEqual(actual, wanted))
      differences.push({
        id: order.id,
        order: `${order.side} ${order.quantity} ${order.coin} at ${order.price}`,
        actual,
        wanted,
      });
  }
  expect(differences.slice(0, 3)).toEqual([]);

  // Each fill and each revoke posted once: exactly these entries, one of each, and nothing for an open order.
  const entries = await entriesOf(low, high);
  const entryDifferences = [];
  for (const order of orders) {
    const outcome = outcomes.get(order.id)!;
    const fill = amounts.get(order.id);
    const { asset, amount: reserve } = order.reserve;
    const wanted = fill
      ? [
          `contract_trade ${asset} frozen ${new Big(reserve).neg().toFixed(8)} ×1`,
          ...(new Big(reserve).eq(fill.spent)
            ? []
            : [`contract_trade ${asset} available ${new Big(reserve).minus(fill.spent).toFixed(8)} ×1`]),
          `contract_trade ${fill.received_asset} available ${fill.received} ×1`,
        ]
      : outcome
        ? [
            `contract_cancel ${asset} available ${new Big(reserve).toFixed(8)} ×1`,
            `contract_cancel ${asset} frozen ${new Big(reserve).neg().toFixed(8)} ×1`,
          ]
        : [];
    const actual = (entries.get(order.id) ?? []).map((e) => e.line);
    if (!isDeepStrictEqual(actual.toSorted(), wanted.toSorted()))
      entryDifferences.push({ id: order.id, actual, wanted });
  }
  expect(entryDifferences.slice(0, 3)).toEqual([]);

  await expectBalancesAsExpected();
  await expectLedgerBalanced(h);
  return entries;
}

/** The fill and revoke entries of the orders `low`…`high`, by order: one line per asset and bucket, and the first
 * entry's id. */
async function entriesOf(low: number, high: number) {
  const rows = rowsOf<{
    order_id: number;
    kind: string;
    asset: string;
    bucket: string;
    amount: string;
    n: number;
    first: number;
  }>(
    await h.database.db.execute(sql`
      select substr(reference, 10)::int as order_id, kind, asset, bucket, sum(amount)::text as amount, count(*)::int as n, min(id) as first
      from ledger_entries
      where kind in ('contract_trade', 'contract_cancel') and reference like 'contract:%' and substr(reference, 10)::int between ${low} and ${high}
      group by 1, 2, 3, 4`),
  );
  const byOrder = new Map<number, { line: string; first: number }[]>();
  for (const row of rows) {
    const list = byOrder.get(Number(row.order_id)) ?? [];
    list.push({
      line: `${row.kind} ${row.asset} ${row.bucket} ${new Big(row.amount).toFixed(8)} ×${row.n}`,
      first: Number(row.first),
    });
    byOrder.set(Number(row.order_id), list);
  }
  return byOrder;
}

/** Fills were posted in time order: ordered by their ledger entries, their ticks never go back. */
function expectFilledInTimeOrder(
  orders: Resting[],
  outcomes: Map<number, Outcome>,
  entries: Map<number, { first: number }[]>,
) {
  const fills = orders
    .flatMap((order) => {
      const outcome = outcomes.get(order.id);
      return outcome && 'filled' in outcome
        ? [
            {
              id: order.id,
              at: outcome.filled.at.getTime(),
              first: Math.min(...entries.get(order.id)!.map((e) => e.first)),
            },
          ]
        : [];
    })
    .sort((a, b) => a.first - b.first);
  const backwards = fills.filter((fill, i) => i > 0 && fill.at < fills[i - 1]!.at);
  expect(backwards.slice(0, 3)).toEqual([]);
}

async function expectBalancesAsExpected() {
  const rows = await h.database.db
    .select()
    .from(balances)
    .where(inArray(balances.userId, customers))
    .orderBy(asc(balances.userId), asc(balances.asset));
  expect(
    Object.fromEntries(
      rows.map((row) => [`${row.userId} ${row.asset}`, { available: row.available, frozen: row.frozen }]),
    ),
  ).toEqual(
    Object.fromEntries(
      [...expected].map(([key, balance]) => [
        key,
        { available: balance.available.toFixed(8), frozen: balance.frozen.toFixed(8) },
      ]),
    ),
  );
}

async function matchedThrough(coin: string) {
  const [pair] = await h.database.db
    .select({ at: contractPairs.matchedThrough })
    .from(contractPairs)
    .where(eq(contractPairs.coin, coin));
  return pair!.at;
}

/** What each order must come to after `ticks`, by the test's own crossing rule. */
function outcomesBy(orders: Resting[], ticks: Tick[]) {
  return new Map<number, Outcome>(
    orders.map((order) => {
      const tick = firstCrossing(order, ticks);
      return [order.id, tick && { filled: tick }];
    }),
  );
}
const filledCount = (outcomes: Map<number, Outcome>) => [...outcomes.values()].filter((o) => o && 'filled' in o).length;

// Books: BTC (2 price decimals / 5 quantity decimals) and DOGE (5 / whole coins) together, ETH (2 / 4), SOL (2 / 2).
const btcBook = (start: Date) => {
  const ticks = walk(
    start,
    2,
    [
      [0, '50000.00'],
      [5, '49500.00'],
      [10, '50400.00'],
      [20, '49000.00'],
      [30, '51000.00'],
      [40, '50000.00'],
    ],
    50,
  );
  const plans = planBook(
    'BTC',
    6000,
    ticks,
    (i, side) =>
      side === 'buy' ? units(4_870_000 + ((i * 7919) % 130_000), 2) : units(5_000_001 + ((i * 104_729) % 130_000), 2),
    (i) => units(11 + ((i * 7919) % 49_990), 5),
  );
  return { ticks, plans };
};
const dogeBook = (start: Date) => {
  const ticks = walk(
    start,
    5,
    [
      [0, '0.38500'],
      [8, '0.37000'],
      [16, '0.39500'],
      [24, '0.36000'],
      [32, '0.41000'],
      [40, '0.38500'],
    ],
    50,
  );
  const plans = planBook(
    'DOGE',
    4000,
    ticks,
    (i, side) => units(side === 'buy' ? 35_500 + ((i * 7919) % 3000) : 38_501 + ((i * 104_729) % 3000), 5),
    (i) => String(15 + ((i * 7919) % 20_000)),
  );
  return { ticks, plans };
};

it(
  'two matching runners at once over 10,000 resting limits fill each crossed one exactly once',
  { timeout: 120_000 },
  async () => {
    const start = later(60_000);
    const btc = btcBook(start);
    const doge = dogeBook(start);
    const orders = [...(await rest(btc.plans)), ...(await rest(doge.plans))];
    await recordTicks('BTC', btc.ticks);
    await recordTicks('DOGE', doge.ticks);
    const outcomes = new Map([
      ...outcomesBy(orders.slice(0, 6000), btc.ticks),
      ...outcomesBy(orders.slice(6000), doge.ticks),
    ]);
    const crossed = filledCount(outcomes);
    expect(crossed).toBeGreaterThan(5000);
    expect(crossed).toBeLessThan(9000); // some of the book stays open

    const now = later(60_000);
    const counts = await Promise.all([matchAllPairs(h.database.db, now), matchAllPairs(h.database.db, now)]);
    expect(counts[0] + counts[1]).toBe(crossed);
    expect(await matchAllPairs(h.database.db, now)).toBe(0);

    const entries = await expectOutcomes(orders, outcomes, now);
    expectFilledInTimeOrder(orders.slice(0, 6000), outcomes, entries);
    expectFilledInTimeOrder(orders.slice(6000), outcomes, entries);
    expect(await matchedThrough('BTC')).toEqual(btc.ticks.at(-1)!.at);
    expect(await matchedThrough('DOGE')).toEqual(doge.ticks.at(-1)!.at);
  },
);

it(
  'two runners of one coin taking batches at once fill each crossed one exactly once, prices equal to a tick included',
  { timeout: 120_000 },
  async () => {
    const start = later(60_000);
    const ticks = walk(
      start,
      2,
      [
        [0, '3420.00'],
        [6, '3350.00'],
        [12, '3460.00'],
        [24, '3300.00'],
        [36, '3520.00'],
        [48, '3420.00'],
      ],
      30,
    );
    const plans = planBook(
      'ETH',
      10_000,
      ticks,
      (i, side) =>
        side === 'buy' ? units(325_000 + ((i * 7919) % 17_000), 2) : units(342_001 + ((i * 104_729) % 17_000), 2),
      (i) => units(20 + ((i * 7919) % 30_000), 4),
    );
    // One in eleven priced exactly at a recorded tick: crossed at equality.
    for (const [i, plan] of plans.entries()) {
      const tick = ticks[1 + (i % (ticks.length - 1))]!;
      if (i % 11 || new Big(tick.price).eq('3420')) continue;
      plan.side = new Big(tick.price).lt('3420') ? 'buy' : 'sell';
      plan.price = tick.price;
      plan.eligibleAfter = start;
      plan.reserve = limitReserve(plan.side, 'ETH', plan.price, plan.quantity, plan.feeRate);
    }
    const orders = await rest(plans);
    await recordTicks('ETH', ticks);
    const outcomes = outcomesBy(orders, ticks);
    const atEquality = orders.filter((order) => {
      const outcome = outcomes.get(order.id);
      return outcome && 'filled' in outcome && new Big(outcome.filled.price).eq(order.price);
    });
    expect(atEquality.length).toBeGreaterThan(100);

    const now = later(60_000);
    const runner = async (batch: number) => {
      let total = 0;
      for (;;) {
        const { filled, more } = await h.database.db.transaction((tx) => matchCrossedOrders(tx, 'ETH', now, batch));
        total += filled;
        if (!more) return total;
      }
    };
    const counts = await Promise.all([runner(700), runner(1000)]);
    expect(counts[0] + counts[1]).toBe(filledCount(outcomes));
    expect(counts.every((n) => n > 0)).toBe(true); // the runners really shared the work
    expect(await runner(1000)).toBe(0);

    const entries = await expectOutcomes(orders, outcomes, now);
    expectFilledInTimeOrder(orders, outcomes, entries);
    expect(await matchedThrough('ETH')).toEqual(ticks.at(-1)!.at);
  },
);

it(
  'a run killed between claim and commit changes nothing, and the next run fills each once',
  { timeout: 120_000 },
  async () => {
    const start = later(60_000);
    const ticks = walk(
      start,
      2,
      [
        [0, '235.00'],
        [10, '228.00'],
        [20, '240.00'],
        [30, '235.00'],
      ],
      20,
    );
    const orders = await rest(
      planBook(
        'SOL',
        2000,
        ticks,
        (i, side) => units(side === 'buy' ? 22_500 + ((i * 7919) % 1000) : 23_501 + ((i * 104_729) % 1000), 2),
        (i) => units(3 + ((i * 7919) % 5000), 2),
      ),
    );
    await recordTicks('SOL', ticks);
    const outcomes = outcomesBy(orders, ticks);
    const db = h.database.db;
    const now = later(60_000);

    const state = async () => ({
      orders: await db
        .select()
        .from(contractOrders)
        .where(between(contractOrders.id, orders[0]!.id, orders.at(-1)!.id))
        .orderBy(asc(contractOrders.id)),
      balances: await db.select().from(balances).orderBy(asc(balances.userId), asc(balances.asset)),
      ledger: await db
        .select({ n: sql<number>`count(*)::int`, sum: sql<string>`sum(${ledgerEntries.amount})::text` })
        .from(ledgerEntries),
      matchedThrough: await matchedThrough('SOL'),
    });
    const before = await state();
    const crash = () => {
      throw new Error('crash');
    };
    await expect(db.transaction((tx) => matchCrossedOrders(tx, 'SOL', now, 100, crash))).rejects.toThrow('crash');
    await expect(db.transaction((tx) => matchCrossedOrders(tx, 'SOL', now, orders.length, crash))).rejects.toThrow(
      'crash',
    );
    expect(await state()).toEqual(before);
    await expectLedgerBalanced(h);

    expect(await matchAllPairs(db, now)).toBe(filledCount(outcomes));
    expect(await matchAllPairs(db, now)).toBe(0);
    await expectOutcomes(orders, outcomes, now);
    expect(await matchedThrough('SOL')).toEqual(ticks.at(-1)!.at);
  },
);

it(
  'after hours of downtime, a restarted server fills each order with its own first crossing tick, in time order',
  { timeout: 120_000 },
  async () => {
    const db = h.database.db;
    const start = later(60_000);
    await recordTicks('LTC', [{ at: start, price: '100.00' }]);
    await matchAllPairs(db, start); // the server was running: matched up to the placement
    const levels: [OrderSide, string][] = [
      ['buy', '99.00'],
      ['buy', '98.50'],
      ['buy', '97.00'],
      ['buy', '95.00'],
      ['buy', '92.00'],
      ['sell', '101.00'],
      ['sell', '102.50'],
      ['sell', '104.00'],
      ['sell', '108.00'],
      ['sell', '109.99'],
    ];
    const orders: Resting[] = [];
    for (const [c, userId] of customers.entries()) {
      for (const [l, [side, price]] of levels.entries()) {
        const quantity = units(1000 + c * 1000 + l * 137, 3);
        const row = await db.transaction((tx) =>
          placeContractOrder(tx, userId, { code: 'LTC', side, type: 'limit', price, quantity, total: '' }, start),
        );
        const order = {
          id: row.id,
          userId,
          coin: 'LTC',
          side,
          price,
          quantity,
          feeRate: '0.001',
          eligibleAfter: start,
          reserve: limitReserve(side, 'LTC', price, quantity, '0.001'),
        };
        expect({ status: row.status, eligibleAfter: row.eligibleAfter, frozen: row.frozen }).toEqual({
          status: 'open',
          eligibleAfter: start,
          frozen: order.reserve.amount,
        });
        froze(order);
        orders.push(order);
      }
    }

    // The server is down; the recorded ticks of that time (another process's, or restored) are in
    // the table: more than two windows, crossing orders at different times, across a window's edge.
    const events: Record<number, string> = {
      1500: '98.90',
      2000: '101.00',
      3600: '98.50',
      3601: '97.00',
      5000: '104.20',
      6000: '98.00',
      7000: '94.99',
      7999: '110.00',
    };
    const seconds = 2 * MATCH_WINDOW_TICKS + 800;
    const ticks = Array.from({ length: seconds }, (_, i) => {
      const s = i + 1;
      return { at: new Date(start.getTime() + s * 1000), price: events[s] ?? units(10_000 + ((s * 37) % 101) - 50, 2) };
    });
    for (const part of [ticks.slice(0, 3000), ticks.slice(3000, 6000), ticks.slice(6000)]) {
      const rows = part.map(({ at, price }) => ({ at: at.toISOString(), price }));
      await db.execute(
        sql`insert into price_ticks (coin, at, price) select 'LTC', (t->>'at')::timestamptz, (t->>'price')::numeric from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) t`,
      );
    }
    const outcomes = outcomesBy(orders, ticks);
    const fillTimes = new Set(
      [...outcomes.values()].flatMap((o) => (o && 'filled' in o ? [o.filled.at.getTime()] : [])),
    );
    expect(fillTimes.size).toBe(7); // every event but 98.00, which crosses only orders already filled
    expect(filledCount(outcomes)).toBe(45); // the buys at 92.00 stay open

    const now = later(seconds * 1000 + 1800_000);
    const errors: unknown[] = [];
    const job = startMatchingJob(db, h.clock, (error) => errors.push(error), 3600_000);
    expect(await job.runNow()).toBe(45); // the run the job started with: all of it, window by window
    expect(await job.runNow()).toBe(0);
    await job.stop();
    expect(errors).toEqual([]);

    const entries = await expectOutcomes(orders, outcomes, now);
    expectFilledInTimeOrder(orders, outcomes, entries);
    expect(await matchedThrough('LTC')).toEqual(ticks.at(-1)!.at);
  },
);

it(
  '200 revokes racing the matcher: each order is either revoked or filled, never both, never neither',
  { timeout: 120_000 },
  async () => {
    const db = h.database.db;
    const start = later(60_000);
    await recordTicks('ADA', [{ at: start, price: '1.0000' }]);
    const orders: Resting[] = [];
    for (let i = 0; i < 200; i++) {
      const userId = customers[i % customers.length]!;
      const side: OrderSide = i % 2 ? 'sell' : 'buy';
      const price = units(side === 'buy' ? 9500 + (i % 50) : 10_500 - (i % 50), 4);
      const quantity = units(100 + i * 7, 1);
      const row = await db.transaction((tx) =>
        placeContractOrder(tx, userId, { code: 'ADA', side, type: 'limit', price, quantity, total: '' }, start),
      );
      const order = {
        id: row.id,
        userId,
        coin: 'ADA',
        side,
        price,
        quantity,
        feeRate: '0.001',
        eligibleAfter: start,
        reserve: limitReserve(side, 'ADA', price, quantity, '0.001'),
      };
      froze(order);
      orders.push(order);
    }
    const ticks = [
      { at: new Date(start.getTime() + 1000), price: '0.9400' }, // crosses every buy
      { at: new Date(start.getTime() + 2000), price: '1.0600' }, // and every sell
    ];
    await recordTicks('ADA', ticks);
    const now = later(5000);

    // Every transaction of the race commits a little after its work (a slow disk): requests of the
    // other side arrive while its rows are still locked.
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const revoke = (order: Resting, i: number) =>
      db
        .transaction(async (tx) => {
          await cancelContractOrder(tx, order.userId, order.id, now);
          await pause((i % 4) * 5);
        })
        .then(
          () => 'revoked' as const,
          (error: unknown) => {
            if (error instanceof Refusal && error.textId === serverTexts.orderNotOpen.id) return 'refused' as const;
            throw error;
          },
        );
    // Revokes in a shuffled order: 50 sent before the matcher starts, 30 more while each of its
    // batches holds its claims (on PostgreSQL they wait for those rows, or revoke others first and
    // the matcher skips them), the rest once it is done.
    const queue = orders
      .map((order, i) => ({ order, key: (i * 7919) % 200 }))
      .sort((a, b) => a.key - b.key)
      .map((o) => o.order);
    const answers = new Map<number, Promise<'revoked' | 'refused'>>();
    const send = (n: number) =>
      queue.splice(0, n).forEach((order) => answers.set(order.id, revoke(order, answers.size)));
    send(50);
    let filled = 0;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        // Other requests' revokes, not the batch's own work.
        const result = await matchCrossedOrders(tx, 'ADA', now, 20, () => besideTransactions(() => send(30)));
        await pause(20);
        return result;
      });
      filled += batch.filled;
      if (!batch.more) break;
    }
    send(queue.length);
    const answerOf = new Map(await Promise.all([...answers].map(async ([id, answer]) => [id, await answer] as const)));
    expect(answerOf.size).toBe(200);

    const outcomes = new Map<number, Outcome>(
      orders.map((order) => [
        order.id,
        answerOf.get(order.id) === 'revoked' ? { cancelled: true } : { filled: firstCrossing(order, ticks)! },
      ]),
    );
    expect(filled).toBe(filledCount(outcomes));
    expect(filled > 0 && filled < 200).toBe(true); // both sides won some
    await expectOutcomes(orders, outcomes, now);

    // Whatever the race left for later (a window kept while a revoke held an order) fills nothing more.
    expect(await matchAllPairs(db, now)).toBe(0);
    expect(await matchedThrough('ADA')).toEqual(ticks.at(-1)!.at);
  },
);

it('a tick that crosses nothing fills nothing and changes no order', async () => {
  const db = h.database.db;
  const open = () =>
    db
      .select()
      .from(contractOrders)
      .where(and(inArray(contractOrders.coin, ['BTC', 'DOGE']), eq(contractOrders.status, 'open')))
      .orderBy(asc(contractOrders.id));
  const before = {
    orders: await open(),
    ledger: await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries),
  };
  expect(before.orders.length).toBeGreaterThan(1000); // the book the first test left open
  const at = later(60_000);
  await recordTicks('BTC', [{ at, price: '50000.00' }]);
  await recordTicks('DOGE', [{ at, price: '0.38500' }]);

  expect(await matchAllPairs(db, later(1000))).toBe(0);
  expect({
    orders: await open(),
    ledger: await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries),
  }).toEqual(before);
  await expectBalancesAsExpected();
  expect(await matchedThrough('BTC')).toEqual(at);
});

it('a limit placed after ticks that would have crossed it is not filled by them, only by a later one', async () => {
  const db = h.database.db;
  const start = later(60_000);
  await recordTicks('DOT', [{ at: start, price: '8.000' }]);
  await matchAllPairs(db, start);
  // Recorded, but not matched yet when the orders are placed.
  await recordTicks('DOT', [
    { at: new Date(start.getTime() + 1000), price: '7.900' },
    { at: new Date(start.getTime() + 2000), price: '8.100' },
    { at: new Date(start.getTime() + 3000), price: '8.000' },
  ]);
  const placedAt = later(3000);
  const [userId] = customers;
  const place = async (side: OrderSide, price: string) => {
    const row = await db.transaction((tx) =>
      placeContractOrder(tx, userId!, { code: 'DOT', side, type: 'limit', price, quantity: '10', total: '' }, placedAt),
    );
    const order = {
      id: row.id,
      userId: userId!,
      coin: 'DOT',
      side,
      price,
      quantity: '10.00',
      feeRate: '0.001',
      eligibleAfter: placedAt,
      reserve: limitReserve(side, 'DOT', price, '10', '0.001'),
    };
    expect({ status: row.status, eligibleAfter: row.eligibleAfter }).toEqual({
      status: 'open',
      eligibleAfter: placedAt,
    });
    froze(order);
    return order;
  };
  const orders = [await place('buy', '7.950'), await place('sell', '8.050')];

  expect(await matchAllPairs(db, later(1000))).toBe(0);
  await expectOutcomes(orders, new Map(orders.map((order) => [order.id, null])), h.clock.now());
  expect(await matchedThrough('DOT')).toEqual(placedAt);

  const ticks = [
    { at: later(1000), price: '7.950' },
    { at: later(1000), price: '8.050' },
  ];
  await recordTicks('DOT', ticks);
  const now = later(1000);
  expect(await matchAllPairs(db, now)).toBe(2);
  await expectOutcomes(orders, new Map(orders.map((order, i) => [order.id, { filled: ticks[i]! }])), now);
});

it('a crossed limit held by a revoke in progress keeps the window: the mark waits, and the order fills at its tick', async () => {
  const db = h.database.db;
  const placedAt = later(60_000);
  // A fresh price to place against, matched already.
  await recordTicks('DOT', [{ at: placedAt, price: '8.000' }]);
  await matchAllPairs(db, placedAt);
  const [userId] = customers;
  const row = await db.transaction((tx) =>
    placeContractOrder(
      tx,
      userId!,
      { code: 'DOT', side: 'buy', type: 'limit', price: '7.700', quantity: '10', total: '' },
      placedAt,
    ),
  );
  const order = {
    id: row.id,
    userId: userId!,
    coin: 'DOT',
    side: 'buy' as const,
    price: '7.700',
    quantity: '10.00',
    feeRate: '0.001',
    eligibleAfter: placedAt,
    reserve: limitReserve('buy', 'DOT', '7.700', '10', '0.001'),
  };
  froze(order);
  const markBefore = await matchedThrough('DOT');
  const crossing = { at: later(1000), price: '7.650' };
  await recordTicks('DOT', [crossing]);

  // A revoke's transaction has the order's row locked and has not decided yet.
  let decide: () => void = () => undefined;
  const decided = new Promise<void>((resolve) => (decide = resolve));
  let locked: () => void = () => undefined;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const revoke = db.transaction(async (tx) => {
    await tx.execute(sql`select id from contract_orders where id = ${order.id} for update`);
    locked();
    await decided;
    throw new Error('the revoke gave up');
  });
  await lockTaken;
  const now = later(1000);
  expect(await matchAllPairs(db, now)).toBe(0);
  // The window was kept for the next run: the mark did not pass the crossing tick.
  expect(await matchedThrough('DOT')).toEqual(markBefore);
  decide();
  await expect(revoke).rejects.toThrow('the revoke gave up');

  expect(await matchAllPairs(db, now)).toBe(1);
  await expectOutcomes([order], new Map([[order.id, { filled: crossing }]]), now);
  expect(await matchedThrough('DOT')).toEqual(crossing.at);
});

it(
  'a pair without open orders is only moved on; a limit placed while ticks and runs race is filled once, by a crossing tick not before it',
  { timeout: 60_000 },
  async () => {
    const db = h.database.db;
    const { id: userId } = await customer(h, '100000'); // a trader of its own: the books above hold nothing of BNB
    const start = later(60_000);
    await recordTicks('BNB', [{ at: start, price: '100.00' }]);
    expect(await matchAllPairs(db, start)).toBe(0);
    expect(await matchedThrough('BNB')).toEqual(start); // no open BNB order: moved to its latest tick

    // Each round: the price at 90, then a 85 buy placed while a crossing tick (80) is recorded and two
    // matching runs go. Whatever the order of events, the order fills once, at its own price, by a tick
    // recorded after the point it was placed from (never at placement, even when the crossing tick came first).
    const ids: number[] = [];
    for (let round = 0; round < 20; round++) {
      await recordTicks('BNB', [{ at: later(1000), price: '90.00' }]);
      const placedAt = h.clock.now();
      const [row] = await Promise.all([
        db.transaction((tx) =>
          placeContractOrder(
            tx,
            userId,
            { code: 'BNB', side: 'buy', type: 'limit', price: '85.00', quantity: '1', total: '' },
            placedAt,
          ),
        ),
        recordTicks('BNB', [{ at: new Date(placedAt.getTime() + 500), price: '80.00' }]),
        matchAllPairs(db, placedAt),
        matchAllPairs(db, placedAt),
      ]);
      ids.push(row.id);
    }
    const last = later(1000);
    await recordTicks('BNB', [{ at: last, price: '80.00' }]);
    await matchAllPairs(db, later(1000));

    const orders = await db.select().from(contractOrders).where(inArray(contractOrders.id, ids));
    expect(orders.map((order) => order.status)).toEqual(ids.map(() => 'filled'));
    for (const order of orders) {
      expect(new Big(order.tickPrice!).lte(85)).toBe(true);
      expect(new Big(order.unitPrice!).eq(85)).toBe(true);
      expect(order.eligibleAfter.getTime()).toBeGreaterThanOrEqual(order.createdAt.getTime());
      expect(order.tickAt!.getTime()).toBeGreaterThan(order.eligibleAfter.getTime());
    }
    const sum = (values: (string | null)[]) => values.reduce((total, value) => total.plus(value!), new Big(0));
    const rows = await db.select().from(balances).where(eq(balances.userId, userId)).orderBy(asc(balances.asset));
    expect(rows.map(({ asset, available, frozen }) => ({ asset, available, frozen }))).toEqual([
      { asset: 'BNB', available: sum(orders.map((order) => order.received)).toFixed(8), frozen: '0.00000000' },
      {
        asset: 'USDT',
        available: new Big('100000').minus(sum(orders.map((order) => order.spent))).toFixed(8),
        frozen: '0.00000000',
      },
    ]);
    await expectLedgerBalanced(h);
    expect(await matchedThrough('BNB')).toEqual(last);
  },
);
