// What the console reads of closed accounts (closure.ts writes them): the username, mobile number and e-mail address
// an account held when it closed, kept in closed_accounts, by which an operator still finds a former customer; and
// what the closure ended with the account, its own ledger entries. Read only.
import Big from 'big.js';
import { and, asc, eq, inArray, notLike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { closedAccounts, ledgerEntries, users } from '../db/schema.ts';
import type { ConsoleClosure } from '../../api-contract/console.ts';
import { usernameStartsWith } from './accounts.ts';
import { phoneStartsWith } from './phone-numbers.ts';
import { PRACTICE_ASSETS } from './ledger.ts';

/**
 * A customer as the console and the operator command name them: the account's username, a closed account's the one it
 * held when it closed (its row's own is `closed:<id>`), and whether it is closed (the console tags it "Closed").
 */
export interface CustomerName {
  username: string;
  closed: boolean;
}

/**
 * The two columns of a CustomerName, for a query that joins `users` and left-joins `closed_accounts` on the user's id.
 */
export const customerNameColumns = {
  username: sql<string>`coalesce(${closedAccounts.username}, ${users.username})`,
  closed: sql<boolean>`${closedAccounts.userId} is not null`,
};

/** The CustomerName of each of `userIds` that names an account, by user id. */
export async function customerNames(db: Executor, userIds: readonly number[]): Promise<Map<number, CustomerName>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ id: users.id, ...customerNameColumns })
    .from(users)
    .leftJoin(closedAccounts, eq(closedAccounts.userId, users.id))
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map(({ id, username, closed }) => [id, { username, closed: Boolean(closed) }]));
}

/** The ledger kinds by which closeAccount ends what an account held (closure.ts). */
const CLOSURE_KINDS = ['closure_balance', 'points_closure'];

/**
 * A condition on closed_accounts (joined to the users row): the username or e-mail address the account held when it
 * closed starts with `typed`, folded as login folds a name (accounts.ts usernameStartsWith), or its mobile number
 * starts with it written any way (phone-numbers.ts phoneStartsWith): the customer search's own rules.
 */
export const formerContactStartsWith = (typed: string): SQL =>
  or(
    usernameStartsWith(closedAccounts.username, typed),
    phoneStartsWith(closedAccounts.phone, typed),
    usernameStartsWith(closedAccounts.email, typed),
  )!;

/**
 * The closures of those of `userIds` whose account is closed, by user id (an open account has none): when each
 * closed, what it held until then, and the real assets its closure ended (its `closure_balance` and `points_closure`
 * entries, reference `closure:<id>`), each as the positive amount taken to zero, in asset order.
 */
export async function closuresOf(db: Executor, userIds: number[]): Promise<Map<number, ConsoleClosure>> {
  const closures = new Map<number, ConsoleClosure>();
  if (!userIds.length) return closures;
  const rows = await db.select().from(closedAccounts).where(inArray(closedAccounts.userId, userIds));
  if (!rows.length) return closures;
  const entries = await db
    .select({
      userId: ledgerEntries.userId,
      asset: ledgerEntries.asset,
      amount: ledgerEntries.amount,
      kind: ledgerEntries.kind,
    })
    .from(ledgerEntries)
    .where(
      and(
        inArray(
          ledgerEntries.userId,
          rows.map((row) => row.userId),
        ),
        inArray(ledgerEntries.kind, CLOSURE_KINDS),
        eq(ledgerEntries.reference, sql`'closure:' || ${ledgerEntries.userId}`),
        notLike(ledgerEntries.asset, PRACTICE_ASSETS),
      ),
    )
    .orderBy(asc(ledgerEntries.asset), asc(ledgerEntries.seq));
  for (const row of rows)
    closures.set(row.userId, {
      closed_at: row.closedAt.toISOString(),
      username: row.username,
      phone: row.phone,
      email: row.email,
      ended: entries
        .filter((entry) => entry.userId === row.userId)
        .map((entry) => ({ asset: entry.asset, amount: new Big(entry.amount).abs().toFixed(), kind: entry.kind })),
    });
  return closures;
}
