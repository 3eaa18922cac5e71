// The account details: a customer's ledger entries as the app lists them, newest first in the order they took
// effect, paged by a cursor (the ledger's seq) so that entries added meanwhile never shift a page.
import Big from 'big.js';
import { and, eq, inArray, ne, notInArray, notLike, type SQL } from 'drizzle-orm';
import { countedKeysetQuery, idKey, type KeysetOrder } from './paged-query.ts';
import { PRACTICE_ASSETS } from './ledger.ts';
import type { Executor } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import { ENTRY_KINDS, FUNDS_PAGE_SIZE, type AccountEntriesPage, type AccountFilter } from '../../api-contract/funds.ts';
import { POINTS } from '../../api-contract/rewards.ts';

/** Newest first in the order entries took effect: by seq, the ledger's commit order. */
const NEWEST_FIRST: KeysetOrder<typeof ledgerEntries.$inferSelect> = {
  keys: [idKey(ledgerEntries.seq, (row) => row.seq)],
  direction: 'desc',
};

/**
 * The account details (/users/account/lists): the moves of the caller's available balances,
 * newest first in the order they took effect (seq), by group. Points have their own history;
 * frozen-bucket moves are the other half of a freeze the user already sees. With `before` (a seq:
 * the `next` of the page before) the page is the entries that took effect before it, so entries
 * added meanwhile neither repeat nor hide an entry and the list ends where it ends (`next` null);
 * without it, `page` counts pages of FUNDS_PAGE_SIZE from the newest, as every paged list does.
 * `total` is the whole list's size now.
 */
export async function accountEntriesOf(
  db: Executor,
  userId: number,
  filter: AccountFilter,
  page: number,
  before?: number,
): Promise<AccountEntriesPage> {
  const named = Object.values(ENTRY_KINDS).flat();
  const kinds =
    filter === 'all'
      ? undefined
      : filter === 'other'
        ? notInArray(ledgerEntries.kind, named)
        : inArray(ledgerEntries.kind, [...ENTRY_KINDS[filter]]);
  const where = and(
    eq(ledgerEntries.userId, userId),
    eq(ledgerEntries.bucket, 'available'),
    ne(ledgerEntries.asset, POINTS),
    // The practice account's virtual money is no move of the customer's money.
    notLike(ledgerEntries.asset, PRACTICE_ASSETS),
    kinds,
  );
  const entries = (after?: SQL) => db.select().from(ledgerEntries).where(and(where, after)).$dynamic();
  const request = before === undefined ? { page } : { cursor: String(before) };
  const { lists: rows, next, total } = await countedKeysetQuery(db, entries, NEWEST_FIRST, request, FUNDS_PAGE_SIZE);
  return {
    lists: rows.map((row) => ({
      id: row.id,
      asset: row.asset,
      amount: new Big(row.amount).toFixed(8),
      kind: row.kind,
      reference: row.reference,
      created_at: row.createdAt.toISOString(),
    })),
    page,
    total,
    next,
  };
}
