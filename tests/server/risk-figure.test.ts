// The options' risk figure (domain/risk-figure.ts) against a ledger built here through the real calls:
// customers who won, lost, came out even, mixed both ways, one whose only option went void, one whose
// loss settled before the 30 days, one who traded only contracts and one whose loss settled after the
// day began. The stored row and the public answer are checked exactly, day after day; one process
// stores a day's figure however many compute it at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/connection.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { riskFigure } from '../../src/api-contract/risk.ts';
import { ensureRiskFigure } from '../../src/server/domain/risk-figure.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { startRiskFigureJob } from '../../src/server/jobs/schedule.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const oneMinute: Record<string, number> = {};
async function productOf(code: string): Promise<string> {
  oneMinute[code] ??= (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === 1)!.id;
  return String(oneMinute[code]);
}

/** One recorded tick of `coin` at the harness clock's time. */
const tick = (coin: string, price: string) => h.market.record([{ coin, at: h.clock.now(), price, volume: '1' }]);

type Stake = { token: string; direction: 'up' | 'down'; amount: string };

/**
 * Places every stake on a 1-minute option of `coin` at the clock's time, opens them at `start` a second later and
 * settles them at `end` a minute after that (no end tick: the stakes are void and refunded at once).
 */
async function trade(coin: string, stakes: Stake[], start: string, end: string | null) {
  await tick(coin, start);
  const product = await productOf(coin);
  for (const { token, direction, amount } of stakes) {
    const placed = await h.call(placeOption, { code: coin, direction, amount, product_id: product }, { token });
    expect(placed, JSON.stringify(placed)).toMatchObject({ ret: 1 });
  }
  h.clock.advance(1000);
  if (end === null) {
    // No tick in the ten seconds after the orders: they never open, and go void.
    h.clock.advance(11_000);
    expect(await openAllPending(h.database.db, h.clock.now())).toBe(stakes.length);
    return;
  }
  await tick(coin, start);
  expect(await openAllPending(h.database.db, h.clock.now())).toBe(stakes.length);
  h.clock.advance(60_000);
  await tick(coin, end);
  expect(await settleAllDue(h.database.db, h.clock.now())).toBe(stakes.length);
}

const stored = async () =>
  rowsOf<{ day: string; traders: number; losers: number; computed_at: Date | string }>(
    await h.database.db.execute(sql`select day, traders, losers, computed_at from risk_figures order by day`),
  ).map((row) => ({
    day: row.day,
    traders: Number(row.traders),
    losers: Number(row.losers),
    computed_at: new Date(row.computed_at).toISOString(),
  }));

const answer = async () => {
  const got = await h.call(riskFigure);
  expect(got.ret).toBe(1);
  return got.data;
};

it('says there is no trader rather than 0 %, and computes the day on the first read when no job has', async () => {
  h.clock.set(new Date('2026-11-22T08:00:00Z'));
  expect(await answer()).toEqual({ day: '2026-11-22', traders: 0, losers: 0, percent: null });
  expect(await stored()).toEqual([
    { day: '2026-11-22', traders: 0, losers: 0, computed_at: '2026-11-22T08:00:00.000Z' },
  ]);
  // The job finds the day stored.
  expect(await ensureRiskFigure(h.database.db, h.clock.now())).toBe(false);
});

it('counts, of the customers whose options settled in the 30 days before the day, those who lost overall', async () => {
  // Outside the window of 23 December: a loss settled on 22 November.
  const early = await customer(h, '100');
  await trade('BTC', [{ token: early.token, direction: 'down', amount: '10' }], '100000', '100500');
  h.clock.set(new Date('2026-11-23T00:01:00Z'));
  expect(await ensureRiskFigure(h.database.db, h.clock.now())).toBe(true);
  expect(await answer()).toEqual({ day: '2026-11-23', traders: 1, losers: 1, percent: '100.0' });

  h.clock.set(new Date('2026-12-20T10:00:00Z'));
  const [winner, loser, mixedLoser, mixedWinner, smallWinner, even, voided, contractsOnly, late] = await Promise.all(
    Array.from({ length: 9 }, () => customer(h, '1000')),
  );
  // BTC goes up: up wins 0.8 of the stake, down loses it.
  await trade(
    'BTC',
    [
      { token: winner!.token, direction: 'up', amount: '10' }, // +8
      { token: loser!.token, direction: 'down', amount: '10' }, // -10
      { token: mixedLoser!.token, direction: 'up', amount: '10' }, // +8
      { token: mixedLoser!.token, direction: 'down', amount: '20' }, // -20: -12 overall
      { token: mixedWinner!.token, direction: 'up', amount: '20' }, // +16
      { token: mixedWinner!.token, direction: 'down', amount: '10' }, // -10: +6 overall
      { token: smallWinner!.token, direction: 'up', amount: '5' }, // +4
    ],
    '100000',
    '100500',
  );
  // ETH ends where it started: the stake comes back, nothing lost.
  await trade('ETH', [{ token: even!.token, direction: 'down', amount: '10' }], '3400', '3400');
  // SOL records nothing after the order: void, refunded, never traded.
  await trade('SOL', [{ token: voided!.token, direction: 'up', amount: '10' }], '230', null);
  // Contracts are not options.
  await tick('BNB', '640');
  const bought = await h.call(
    placeContract,
    { code: 'BNB', side: 'buy', type: 'market', quantity: '1' },
    { token: contractsOnly!.token },
  );
  expect(bought, JSON.stringify(bought)).toMatchObject({ ret: 1 });
  h.clock.advance(1000);
  await tick('BNB', '600');
  await matchAllPairs(h.database.db, h.clock.now());
  const filled = rowsOf<{ status: string }>(
    await h.database.db.execute(sql`select status from contract_orders where user_id = ${contractsOnly!.id}`),
  );
  expect(filled).toEqual([{ status: 'filled' }]);

  // A loss that settles just after 23 December begins belongs to the next day's window.
  h.clock.set(new Date('2026-12-22T23:59:30Z'));
  await trade('BTC', [{ token: late!.token, direction: 'up', amount: '10' }], '101000', '100000');

  // Ten seconds into the day the figure of the day before is still the current one (a settlement stamped before
  // midnight may still be committing); after that, the job computes the day once.
  h.clock.set(new Date('2026-12-23T00:00:05Z'));
  expect(await ensureRiskFigure(h.database.db, h.clock.now())).toBe(true);
  // 22 December's window holds the early loss and the trades of 20 December.
  expect(await answer()).toEqual({ day: '2026-12-22', traders: 7, losers: 3, percent: '42.9' });
  h.clock.set(new Date('2026-12-23T00:05:00Z'));
  expect(await ensureRiskFigure(h.database.db, h.clock.now())).toBe(true);
  expect(await ensureRiskFigure(h.database.db, h.clock.now())).toBe(false);
  // Six traders (the early loss, the void, the contract and the late loss are not theirs), two lost overall.
  expect(await answer()).toEqual({ day: '2026-12-23', traders: 6, losers: 2, percent: '33.3' });
  expect((await stored()).find((row) => row.day === '2026-12-23')).toEqual({
    day: '2026-12-23',
    traders: 6,
    losers: 2,
    computed_at: '2026-12-23T00:05:00.000Z',
  });

  // The next day, with the late loss: 3 of 7, half up to one decimal. Three processes at once store it once.
  h.clock.set(new Date('2026-12-24T06:00:00Z'));
  const runs = await Promise.all([1, 2, 3].map(() => ensureRiskFigure(h.database.db, h.clock.now())));
  expect(runs.filter(Boolean)).toHaveLength(1);
  expect(await answer()).toEqual({ day: '2026-12-24', traders: 7, losers: 3, percent: '42.9' });
  expect(await stored()).toEqual([
    { day: '2026-11-22', traders: 0, losers: 0, computed_at: '2026-11-22T08:00:00.000Z' },
    { day: '2026-11-23', traders: 1, losers: 1, computed_at: '2026-11-23T00:01:00.000Z' },
    { day: '2026-12-22', traders: 7, losers: 3, computed_at: '2026-12-23T00:00:05.000Z' },
    { day: '2026-12-23', traders: 6, losers: 2, computed_at: '2026-12-23T00:05:00.000Z' },
    { day: '2026-12-24', traders: 7, losers: 3, computed_at: '2026-12-24T06:00:00.000Z' },
  ]);
});

it('is stored by the job as it starts, before anyone reads it', async () => {
  h.clock.set(new Date('2026-12-25T00:00:20Z'));
  const failures: unknown[] = [];
  const job = startRiskFigureJob(h.database.db, h.clock, (error) => failures.push(error), 3600_000);
  try {
    await expect.poll(async () => (await stored()).at(-1)?.day).toBe('2026-12-25');
  } finally {
    await job.stop();
  }
  expect(failures).toEqual([]);
  expect((await stored()).at(-1)).toEqual({
    day: '2026-12-25',
    traders: 7,
    losers: 3,
    computed_at: '2026-12-25T00:00:20.000Z',
  });
});
