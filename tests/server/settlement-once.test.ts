// Settlement pays every due order exactly once, from the price recorded at its end (due rows are claimed):
// two runners over the same 1,000 orders, a run that dies between claim and commit, and a
// restart after hours of downtime. After each, the ledger explains every balance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Big from 'big.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { balances, ledgerEntries, optionOrders, optionProducts } from '../../src/server/db/schema.ts';
import { USDT, post } from '../../src/server/domain/ledger.ts';
import { settleDueOptions, settleOption } from '../../src/server/domain/options.ts';
import { settleAllDue } from '../../src/server/jobs/settlement.ts';
import { startSettlementJob } from '../../src/server/jobs/schedule.ts';
import type { OptionOutcome } from '../../src/api-contract/options.ts';

const ORDERS = 1000;
const SPREAD_SECONDS = 5;
const YIELDS = ['0.8', '0.82', '0.85', '0.9'];

let h: Harness;
const customers: number[] = [];
/** What each customer's USDT balance must be, kept by the test from its own arithmetic. */
const expectedBalance = new Map<number, Big>();

beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < 4; i++) {
    const { id } = await customer(h, '1000000');
    customers.push(id);
    expectedBalance.set(id, new Big('1000000'));
  }
}, 120_000);
afterAll(() => h.close());

interface Planned {
  id: number;
  userId: number;
  endAt: Date;
  endPrice: string;
  /** The tick the order must settle at: the last one at or before its end. */
  endPriceAt: Date;
  outcome: OptionOutcome;
  payout: string;
}

/** The price recorded at second `s` of a scenario's end window. */
const priceAtSecond = (s: number) => `${1000 + s}.5`;

/**
 * Records ticks of `coin` around `endBase` and writes `ORDERS` due orders straight into the
 * database (stakes through the ledger), ends spread over `SPREAD_SECONDS` seconds, for every
 * customer, with wins, losses and ties in both directions. Returns what each must pay.
 */
async function dueOrders(coin: string, endBase: Date): Promise<Planned[]> {
  const db = h.database.db;
  const base = endBase.getTime();
  const ticks = [];
  for (let s = -60; s <= SPREAD_SECONDS; s++) {
    ticks.push({ coin, at: new Date(base + s * 1000), price: priceAtSecond(s), volume: '1' });
    // Half a second after each end: never an end price (it is after that end, before the next).
    ticks.push({ coin, at: new Date(base + s * 1000 + 500), price: '1', volume: '1' });
  }
  await h.market.record(ticks);
  const [product] = await db
    .select()
    .from(optionProducts)
    .where(and(eq(optionProducts.coin, coin), eq(optionProducts.minutes, 1)));

  const plans = Array.from({ length: ORDERS }, (_, i) => {
    const second = i % SPREAD_SECONDS;
    const direction = i % 2 ? 'down' : 'up';
    const move = [-1, 0, 1][Math.floor(i / 2) % 3]!; // the end price against the start price
    const endPrice = priceAtSecond(second);
    const startPrice = new Big(endPrice).minus(new Big('0.25').times(move)).toFixed();
    const outcome: OptionOutcome = move === 0 ? 'tie' : move > 0 === (direction === 'up') ? 'win' : 'loss';
    const amount = `${1 + (i % 50)}.${String((i * 7919) % 100_000_000).padStart(8, '0')}`;
    const yieldRate = YIELDS[i % YIELDS.length]!;
    // The one rule (settleOption) says what the settlement in SQL must pay; the outcome is also planned here.
    const settled = settleOption({ direction, amount, yieldRate, startPrice }, endPrice);
    expect(settled.outcome).toBe(outcome);
    // Half the orders end a quarter second after a tick, before the next: still that tick's price.
    const endPriceAt = new Date(base + second * 1000);
    const endAt = new Date(endPriceAt.getTime() + (i % 10 < 5 ? 0 : 250));
    const row = {
      userId: customers[i % customers.length]!,
      coin,
      productId: product!.id,
      direction,
      amount,
      minutes: 1,
      yieldRate,
      startPrice,
      startPriceAt: new Date(endAt.getTime() - 60_000),
      startAt: new Date(endAt.getTime() - 60_000),
      endAt,
    };
    return { row, endPrice, endPriceAt, outcome, payout: settled.payout };
  });

  const ids = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(optionOrders)
      .values(plans.map((p) => p.row))
      .returning({ id: optionOrders.id });
    for (const [i, { id }] of inserted.entries()) {
      const { row } = plans[i]!;
      await post(
        tx,
        { userId: row.userId, asset: USDT, amount: `-${row.amount}`, kind: 'option_stake', reference: `option:${id}` },
        row.startAt,
      );
    }
    return inserted.map((r) => r.id);
  });
  for (const { row } of plans) expectedBalance.set(row.userId, expectedBalance.get(row.userId)!.minus(row.amount));

  const planned = plans.map((p, i) => ({
    id: ids[i]!,
    userId: p.row.userId,
    endAt: p.row.endAt,
    endPrice: p.endPrice,
    endPriceAt: p.endPriceAt,
    outcome: p.outcome,
    payout: p.payout,
  }));
  const outcomes = new Set(planned.map((p) => p.outcome));
  expect(outcomes).toEqual(new Set(['win', 'loss', 'tie']));
  return planned;
}

/** Every planned order settled with its outcome, each win and tie paid by exactly one entry. */
async function expectEachPaidOnce(planned: Planned[], settledAt: Date) {
  const db = h.database.db;
  const ids = planned.map((p) => p.id);
  const rows = await db.select().from(optionOrders).where(inArray(optionOrders.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const plan of planned) {
    const row = byId.get(plan.id)!;
    expect({
      id: plan.id,
      status: row.status,
      outcome: row.outcome,
      payout: row.payout,
      endPrice: new Big(row.endPrice!).toFixed(),
      endPriceAt: row.endPriceAt,
      settledAt: row.settledAt,
    }).toEqual({
      id: plan.id,
      status: 'settled',
      outcome: plan.outcome,
      payout: plan.payout,
      endPrice: plan.endPrice,
      endPriceAt: plan.endPriceAt,
      settledAt,
    });
  }

  const payouts = await db
    .select({
      reference: ledgerEntries.reference,
      count: sql<number>`count(*)::int`,
      amount: sql<string>`sum(${ledgerEntries.amount})::text`,
    })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, 'option_payout'),
        inArray(
          ledgerEntries.reference,
          ids.map((id) => `option:${id}`),
        ),
      ),
    )
    .groupBy(ledgerEntries.reference);
  const paid = planned.filter((p) => p.outcome !== 'loss');
  expect(payouts).toHaveLength(paid.length);
  const byReference = new Map(payouts.map((p) => [p.reference, p]));
  for (const plan of paid) {
    const entry = byReference.get(`option:${plan.id}`);
    expect({ id: plan.id, count: entry?.count, amount: entry && new Big(entry.amount).toFixed(8) }).toEqual({
      id: plan.id,
      count: 1,
      amount: plan.payout,
    });
  }

  for (const plan of paid) expectedBalance.set(plan.userId, expectedBalance.get(plan.userId)!.plus(plan.payout));
  await expectBalancesAsExpected();
  await expectLedgerBalanced(h);
}

async function expectBalancesAsExpected() {
  const rows = await h.database.db
    .select()
    .from(balances)
    .where(and(inArray(balances.userId, customers), eq(balances.asset, USDT)));
  expect(Object.fromEntries(rows.map((row) => [row.userId, row.available]))).toEqual(
    Object.fromEntries(customers.map((id) => [id, expectedBalance.get(id)!.toFixed(8)])),
  );
}

async function holdingCount(ids: number[]) {
  const [row] = await h.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(optionOrders)
    .where(and(inArray(optionOrders.id, ids), eq(optionOrders.status, 'holding')));
  return row!.n;
}

/** Moves the harness clock to a later whole second and returns it. */
function later(ms: number) {
  h.clock.set(new Date(Math.floor((h.clock.now().getTime() + ms) / 1000) * 1000));
  return h.clock.now();
}

it('two runners at once over the same 1,000 due orders pay each exactly once', { timeout: 120_000 }, async () => {
  const endBase = later(120_000);
  const planned = await dueOrders('BTC', endBase);
  const now = later(SPREAD_SECONDS * 1000 + 1000);

  const counts = await Promise.all([settleAllDue(h.database.db, now), settleAllDue(h.database.db, now)]);
  expect(counts[0] + counts[1]).toBe(ORDERS);
  expect(await settleAllDue(h.database.db, now)).toBe(0);
  await expectEachPaidOnce(planned, now);
});

it('three runners taking small batches at once still pay each exactly once', { timeout: 120_000 }, async () => {
  const endBase = later(120_000);
  const planned = await dueOrders('ETH', endBase);
  const now = later(SPREAD_SECONDS * 1000 + 1000);

  const counts = await Promise.all([
    settleAllDue(h.database.db, now, 50),
    settleAllDue(h.database.db, now, 50),
    settleAllDue(h.database.db, now, 33),
  ]);
  expect(counts.reduce((a, b) => a + b)).toBe(ORDERS);
  expect(counts.every((n) => n > 0)).toBe(true); // the runners really shared the work
  expect(await settleAllDue(h.database.db, now, 50)).toBe(0);
  await expectEachPaidOnce(planned, now);
});

it('only orders whose end has a tick at or after it are due; the rest wait', { timeout: 120_000 }, async () => {
  const endBase = later(120_000);
  const planned = await dueOrders('BNB', endBase);
  const db = h.database.db;
  // The feed stopped half a second after the second-to-last end: the orders of the last second
  // have no tick at or after their end yet, so their end price could still change.
  const lastSecond = new Date(endBase.getTime() + (SPREAD_SECONDS - 1) * 1000);
  await db.execute(sql`delete from price_ticks where coin = 'BNB' and at >= ${lastSecond.toISOString()}::timestamptz`);
  const now = later(SPREAD_SECONDS * 1000 + 1000);

  const waiting = planned.filter((p) => p.endPriceAt.getTime() === lastSecond.getTime());
  expect(await settleAllDue(db, now)).toBe(ORDERS - waiting.length);
  expect(await holdingCount(waiting.map((p) => p.id))).toBe(waiting.length);
  expect(await holdingCount(planned.map((p) => p.id))).toBe(waiting.length);

  await h.market.record([
    { coin: 'BNB', at: lastSecond, price: priceAtSecond(SPREAD_SECONDS - 1), volume: '1' },
    { coin: 'BNB', at: new Date(lastSecond.getTime() + 500), price: '1', volume: '1' },
  ]);
  expect(await settleAllDue(db, now)).toBe(waiting.length);
  await expectEachPaidOnce(planned, now);
});

it(
  'a run killed between claim and commit changes nothing, and the next runs pay each once',
  { timeout: 120_000 },
  async () => {
    const endBase = later(120_000);
    const planned = await dueOrders('SOL', endBase);
    const ids = planned.map((p) => p.id);
    const now = later(SPREAD_SECONDS * 1000 + 1000);
    const db = h.database.db;

    const entriesBefore = await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries);
    const crash = () => {
      throw new Error('crash');
    };
    await expect(db.transaction((tx) => settleDueOptions(tx, now, 100, { beforeCommit: crash }))).rejects.toThrow(
      'crash',
    );
    await expect(db.transaction((tx) => settleDueOptions(tx, now, ORDERS, { beforeCommit: crash }))).rejects.toThrow(
      'crash',
    );
    expect(await holdingCount(ids)).toBe(ORDERS);
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries)).toEqual(entriesBefore);
    const [payouts] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.kind, 'option_payout'),
          inArray(
            ledgerEntries.reference,
            ids.map((id) => `option:${id}`),
          ),
        ),
      );
    expect(payouts!.n).toBe(0);
    await expectBalancesAsExpected();
    await expectLedgerBalanced(h);

    // After the restart: one batch commits, then two runners finish the rest.
    expect(await db.transaction((tx) => settleDueOptions(tx, now, 100))).toBe(100);
    const counts = await Promise.all([settleAllDue(db, now, 64), settleAllDue(db, now)]);
    expect(counts[0] + counts[1]).toBe(ORDERS - 100);
    await expectEachPaidOnce(planned, now);
  },
);

it('after hours of downtime, overdue orders settle on start from the stored ticks', { timeout: 120_000 }, async () => {
  const endBase = later(120_000);
  const planned = await dueOrders('XRP', endBase);
  // Six hours later the server starts again; its feed records a very different price.
  const now = later(6 * 3600_000);
  await h.market.record([{ coin: 'XRP', at: now, price: '9999', volume: '1' }]);

  const errors: unknown[] = [];
  const job = startSettlementJob(h.database.db, h.clock, (error) => errors.push(error), 3600_000);
  expect(await job.runNow()).toBe(0); // the run started with the job had already settled everything
  await job.stop();
  expect(errors).toEqual([]);
  await expectEachPaidOnce(planned, now);
});

it('a settlement run that finds nothing due moves nothing', async () => {
  const before = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries);
  expect(await settleAllDue(h.database.db, later(1000))).toBe(0);
  expect(await h.database.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries)).toEqual(before);
  await expectBalancesAsExpected();
  await expectLedgerBalanced(h);
});
