// Earn: what liquidity mining (liquidity.ts) and lock-up mining (lockup.ts) share: the
// ledger assets of their balances, interest days, the page size of their records and the balance
// call that answers for either. Imports those two and is imported by neither.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { LiquidityBalance } from './liquidity.ts';
import { RegularBalance } from './lockup.ts';

/** Ledger assets of the two earn balances (liquidity, and regular for lock-up): both count 1:1 in USDT. */
export const LIQUIDITY_ASSET = 'YUEBAO';
export const REGULAR_ASSET = 'REGULAR';
export const EARN_ASSETS = [LIQUIDITY_ASSET, REGULAR_ASSET] as const;

/** An interest day, in the server's earn timezone: "2026-11-23". */
export type InterestDay = string;

export const EARN_PAGE_SIZE = 20;

/** The liquidity balance, or with `type=regular` the lock-up side. */
export const earnBalance = get(
  '/yuebao/balance',
  v.object({ type: v.optional(v.picklist(['', 'liquidity', 'regular'], texts.invalidRequest.id), '') }),
  returns(v.variant('type', [LiquidityBalance, RegularBalance])),
  { cache: 'user' },
);

/** The interest day `days` after `day` (calendar arithmetic on the date alone). */
export function addDays(day: InterestDay, days: number): InterestDay {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
