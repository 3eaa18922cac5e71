// Earn as a customer who tries to get more than the rules give, through the calls: the same liquidity
// money out and back in within a day, redemptions and subscriptions racing each other and a withdrawal, one request
// sent twice. After each, the balances are the test's own arithmetic and the ledger explains them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { earnBalance } from '../../src/api-contract/earn.ts';
import { dailyInterest, liquidityRecords, transferIn, transferOut } from '../../src/api-contract/liquidity.ts';
import type { LiquidityBalance } from '../../src/api-contract/liquidity.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { runDueDays } from '../../src/server/jobs/daily.ts';
import { dayStart } from '../../src/server/domain/earn-days.ts';

const ZONE = 'Asia/Bangkok';
/** The ladder the harness seeds: 6 % up to 1,000, 4 % up to 10,000, 2.5 % above. */
const SEEDED = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** `hour` o'clock Bangkok time of `day`. */
const at = (day: string, hour: number) => new Date(dayStart(day, ZONE).getTime() + hour * 3600_000);

/** Moves the clock to `hour` Bangkok time of `day` and runs the day-end jobs, as the server's timer would. */
async function toDay(day: string, hour = 1) {
  h.clock.set(at(day, hour));
  return runDueDays(h.database.db, h.clock.now(), ZONE);
}

async function usdt(token: string) {
  const res = await h.call(balances, {}, { token });
  return res.data.lists.find((b) => b.asset === 'USDT')?.available ?? '0';
}

async function liquidity(token: string) {
  const res = await h.call(earnBalance, {}, { token });
  expect(res.ret).toBe(1);
  return res.data as LiquidityBalance;
}

async function interestOf(token: string, day: string) {
  const lists = (await h.call(liquidityRecords, { kind: 'interest' }, { token })).data.lists;
  return lists.find((record) => record.day === day)?.amount ?? null;
}

describe('liquidity money taken out by quick redemption and put back the same day', () => {
  it('earns nothing that day on the part that was out, whatever came back later', async () => {
    // Each holder has 1,000 earning from the 23rd; on the 23rd they move in different orders.
    h.clock.set(at('2026-11-22', 10));
    const backLater = await customer(h, '2000');
    const inThenOut = await customer(h, '2000');
    const twice = await customer(h, '2000');
    for (const user of [backLater, inThenOut, twice])
      expect((await h.call(transferIn, { amount: '1000' }, { token: user.token })).ret).toBe(1);
    await toDay('2026-11-23', 8);

    const move = async (user: { token: string }, hour: number, call: 'in' | 'quick', amount: string) => {
      h.clock.set(at('2026-11-23', hour));
      const res =
        call === 'in'
          ? await h.call(transferIn, { amount }, { token: user.token })
          : await h.call(transferOut, { amount, mode: 'quick' }, { token: user.token });
      expect(res.ret).toBe(1);
    };
    // All of it out at 08:00, used elsewhere all day, back at 20:00: nothing was earning that day.
    await move(backLater, 8, 'quick', '1000');
    await move(backLater, 20, 'in', '1000');
    // New money first, then a redemption of as much: the redemption takes the new money, the 1,000 earns.
    await move(inThenOut, 8, 'in', '1000');
    await move(inThenOut, 20, 'quick', '1000');
    // 600 out, 1,000 in, 400 out: the 600 was out, the 400 came out of the new money.
    await move(twice, 8, 'quick', '600');
    await move(twice, 12, 'in', '1000');
    await move(twice, 20, 'quick', '400');

    expect((await liquidity(backLater.token)).earning_today).toBe('0.00000000');
    expect((await liquidity(inThenOut.token)).earning_today).toBe('1000.00000000');
    expect((await liquidity(twice.token)).earning_today).toBe('400.00000000');

    await toDay('2026-11-24');
    expect(await interestOf(backLater.token, '2026-11-23')).toBeNull();
    expect(await interestOf(inThenOut.token, '2026-11-23')).toBe(dailyInterest('1000', SEEDED));
    expect(await interestOf(twice.token, '2026-11-23')).toBe(dailyInterest('400', SEEDED));
    expect((await liquidity(backLater.token)).principal).toBe('1000.00000000');
    expect(await usdt(backLater.token)).toBe('1000.00000000');
    await expectLedgerBalanced(h);
  });
});
