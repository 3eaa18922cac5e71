// The small amounts that end with a closed account. An available balance the customer can do nothing with does not hold
// the closure: below the least balance a withdrawal of its asset takes (the withdrawal rule's min_amount plus that
// withdrawal's fee, frozen on top of the amount: 10.1 USDT at a 10 USDT minimum and a 1 % fee), so it cannot be
// withdrawn, and not sellable (USDT never is; a coin's amount is one smallBalancesOf finds: no order of its pair can
// sell it at the latest recorded price). The closing page lists them (closureEnding) and asks for the customer's
// consent; the close request carries back what was shown, and closure.ts ends each with one `closure_balance` ledger
// entry. Frozen amounts, amounts a withdrawal can take, assets with no withdrawal rule and amounts an order could still
// sell hold the closure as before. The rule is the product's: a customer left with 0.77 USDT after selling everything
// could otherwise never close. Why this way and not a final withdrawal: decisions/0010 beside this file. A coin no
// withdrawal can take and no market prices now (no withdrawal rule or below it, and no open pair with a fresh price)
// cannot be valued, so it is never ended: it holds the closure, and the close names it and says to sell it once its
// market trades (closure.ts).
import Big from 'big.js';
import { inArray } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { coins, withdrawRules } from '../db/schema.ts';
import type { EndingBalance } from '../../api-contract/closure.ts';
import { withdrawFee } from '../../api-contract/funds.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { USDT, type BalanceRow } from './ledger.ts';
import { pricedBalancesOf } from './dust-conversion.ts';

/**
 * What closing would do at `now` with the available balances of `held` (user `userId`'s real balance rows, as read by
 * the caller) that nothing else holds (above zero, nothing frozen beside them; points are never one, their own rule is
 * closure.ts's):
 * - `ending`, those that end with the account: below the least balance a withdrawal of its asset takes (its minimum
 *   plus that withdrawal's fee), and USDT or a coin that is dust of an active pair at a fresh price
 *   (pricedBalancesOf). In asset order, amounts and minimums as decimal strings of 8 decimals.
 * - `unmovable`, the coins (assets of the coins table, listed or not: never USDT, the points or an earn balance, which
 *   a redemption empties) no withdrawal can take (no withdrawal rule, or below its least balance) and no order can
 *   sell now, as no open pair of theirs has a fresh price (coin or pair closed, halted, no recent tick): their value
 *   cannot be told, so they never end; they hold the closure, named. In asset order.
 * `lock`: lock the coins' balance rows (for update), which the closing transaction does and a read-only call cannot.
 */
export async function closureBalancesIn(
  db: Executor,
  userId: number,
  held: readonly BalanceRow[],
  now: Date,
  lock: boolean,
): Promise<{ ending: EndingBalance[]; unmovable: string[] }> {
  const candidates = held
    .filter((row) => row.asset !== POINTS && new Big(row.frozen).eq(0) && new Big(row.available).gt(0))
    .sort((a, b) => a.asset.localeCompare(b.asset));
  if (!candidates.length) return { ending: [], unmovable: [] };
  const rules = await db
    .select({ asset: withdrawRules.asset, minAmount: withdrawRules.minAmount, feeRate: withdrawRules.feeRate })
    .from(withdrawRules)
    .where(
      inArray(
        withdrawRules.asset,
        candidates.map((row) => row.asset),
      ),
    );
  // The least balance a withdrawal can take: the minimum amount plus its fee, which is frozen on top of the amount.
  const ruleOf = new Map(
    rules.map((rule) => [
      rule.asset,
      { min: rule.minAmount, least: new Big(rule.minAmount).plus(withdrawFee(rule.minAmount, rule.feeRate)) },
    ]),
  );
  // No withdrawal takes it: no rule for its asset, or below the least balance one takes.
  const unwithdrawable = candidates.filter((row) => {
    const rule = ruleOf.get(row.asset);
    return rule === undefined || new Big(row.available).lt(rule.least);
  });
  const others = unwithdrawable.filter((row) => row.asset !== USDT).map((row) => row.asset);
  // Each coin an order could be placed for now, and whether its amount is dust (no order can sell it).
  const priced = others.length
    ? new Map((await pricedBalancesOf(db, userId, now, lock)).map((row) => [row.coin, row.dust]))
    : new Map<string, boolean>();
  const unpriced = others.filter((asset) => !priced.has(asset));
  const unpricedCoins = unpriced.length
    ? new Set(
        (await db.select({ code: coins.code }).from(coins).where(inArray(coins.code, unpriced))).map((row) => row.code),
      )
    : new Set<string>();
  const ending = unwithdrawable
    .filter((row) => ruleOf.has(row.asset) && (row.asset === USDT || priced.get(row.asset) === true))
    .map((row) => ({
      asset: row.asset,
      amount: new Big(row.available).toFixed(8),
      min_amount: new Big(ruleOf.get(row.asset)!.min).toFixed(8),
      least_amount: ruleOf.get(row.asset)!.least.toFixed(8),
    }));
  const unmovable = unpriced.filter((asset) => unpricedCoins.has(asset));
  return { ending, unmovable };
}

/**
 * The balances of `held` (user `userId`'s real balance rows, as read by the caller) that end with the account at `now`:
 * closureBalancesIn's `ending` (locking the coins' balance rows when `lock`).
 */
export async function balancesEndingIn(
  db: Executor,
  userId: number,
  held: readonly BalanceRow[],
  now: Date,
  lock: boolean,
): Promise<EndingBalance[]> {
  return (await closureBalancesIn(db, userId, held, now, lock)).ending;
}

/**
 * Whether `ending` (what the closure finds) is exactly `shown` (asset → the amount the customer was shown and agreed
 * to leave, from the close request's `amounts`): the same assets, each with an equal amount, none more, none fewer.
 */
export function sameAsShown(ending: readonly EndingBalance[], shown: ReadonlyMap<string, string>): boolean {
  return (
    ending.length === shown.size &&
    ending.every((balance) => shown.has(balance.asset) && new Big(shown.get(balance.asset)!).eq(balance.amount))
  );
}
