// Earn as the earn test files drive it: the interest days' time zone, the clock moved to an hour of a day there with
// the day-end jobs run as the server's timer would, and a customer's USDT and liquidity balance read through the calls.
import { expect } from 'vitest';
import type { Harness } from './harness.ts';
import { earnBalance } from '../../src/api-contract/earn.ts';
import type { LiquidityBalance } from '../../src/api-contract/liquidity.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { runDueDays } from '../../src/server/jobs/daily.ts';
import { dayStart } from '../../src/server/domain/earn-days.ts';

/** The interest days' time zone the harness runs (EARN_TIMEZONE's default). */
export const EARN_ZONE = 'Asia/Bangkok';

/** `hour` o'clock of the interest day `day` ("2026-11-22"), Bangkok time. */
export const earnTime = (day: string, hour: number) => new Date(dayStart(day, EARN_ZONE).getTime() + hour * 3600_000);

/** Moves `h`'s clock to `hour` o'clock Bangkok time of `day` and runs the day-end jobs, as the server's timer would. */
export async function toEarnDay(h: Harness, day: string, hour: number) {
  h.clock.set(earnTime(day, hour));
  return runDueDays(h.database.db, h.clock.now(), EARN_ZONE);
}

/** The caller's available USDT as the balances call answers it ('0' when it has none). */
export async function usdtOf(h: Harness, token: string): Promise<string> {
  const res = await h.call(balances, {}, { token });
  return res.data.lists.find((b) => b.asset === 'USDT')?.available ?? '0';
}

/** The caller's liquidity balance as the earn balance call answers it (answered, ret 1). */
export async function liquidityOf(h: Harness, token: string): Promise<LiquidityBalance> {
  const res = await h.call(earnBalance, {}, { token });
  expect(res.ret).toBe(1);
  return res.data as LiquidityBalance;
}
