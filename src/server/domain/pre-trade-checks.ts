// The pre-trade checks of the customer's own standing that every order and paid play makes first, in its transaction
// before any money moves: a frozen account places nothing, and a time-out is a break from every paid play (an option,
// a contract, liquidity or lock-up, a blind box draw). For a customer who never set a limit they cost two statements:
// one takes the locks (for an option of real money the customer's limits row FOR UPDATE and then their stake lock, in
// the order the checks always took them, so processes of the previous version waiting alongside form no cycle; and the
// customer's row FOR KEY SHARE, which a freeze waits for), and one reads, after them, what the checks need (the freeze,
// the limits row, for an option of real money the stakes of the last minute, and what the write asks to read with
// them: a contract order its pair's rules, domain/contract-pairs.ts). A customer with limits adds the
// read of their loosenings waiting and, for an option, of the sums their limits count (domain/protection.ts). A
// statement sees what committed before it began (READ COMMITTED), so the read sees a freeze, a limit or an order of
// the customer's that committed while this write waited for its locks.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';
import { accountFreezes, protectionLimits, users } from '../db/schema.ts';
import { holdCustomerRow, refuseIfFrozen } from './account-freeze.ts';
import { customerStakeLock, minuteStakesSql } from './house-limits.ts';
import { limitsRowLock, refuseBeyondProtection, refuseDuringTimeout, type LimitsRow } from './protection.ts';

/** What an option of real money is checked against next (refuseBeyondHouseLimits), read by refusePreTrade. */
export interface PreTradeReads {
  /** The customer's stakes of real money accepted in the last minute (USDT, decimal text); null unless asked. */
  minuteStaked: string | null;
  /** The value of the caller's alsoRead column as the driver gives it; null when none was asked. */
  alsoRead: unknown;
}

/**
 * Refuses a frozen account (accountFrozen) and a time-out (protectionTimeout), in the write's transaction `tx` before
 * anything is written (see the top of this file for its statements). `option`: an option of real money of `stake` USDT,
 * which also meets the customer's own limits (refuseBeyondProtection: their row stays locked until `tx` ends) and takes
 * the customer's stake lock, under which the minute's stakes are read for the house's per-minute cap. `alsoRead`: a
 * column of the caller's (a scalar subquery, which may take a lock of its own) read in the same statement, after the
 * locks, so what the write reads next costs no round trip while its transaction holds them.
 */
export async function refusePreTrade(
  tx: Tx,
  userId: number,
  now: Date,
  option?: { stake: string },
  alsoRead?: SQL<unknown>,
): Promise<PreTradeReads> {
  await holdCustomerRow(tx, userId, option ? [limitsRowLock(userId), customerStakeLock(userId)] : []);
  const [read] = await tx
    .select({
      freeze: accountFreezes,
      limits: protectionLimits,
      minuteStaked: option ? minuteStakesSql(userId, now) : sql<null>`null`,
      alsoRead: alsoRead ?? sql<null>`null`,
    })
    .from(users)
    .leftJoin(accountFreezes, eq(accountFreezes.userId, users.id))
    .leftJoin(protectionLimits, eq(protectionLimits.userId, users.id))
    .where(eq(users.id, userId));
  refuseIfFrozen(read?.freeze, now);
  const limits: LimitsRow | null = read?.limits ?? null;
  if (option) await refuseBeyondProtection(tx, userId, option.stake, now, limits);
  else await refuseDuringTimeout(tx, userId, now, limits);
  return { minuteStaked: (read?.minuteStaked as string | null | undefined) ?? null, alsoRead: read?.alsoRead ?? null };
}
