// The account details: a customer's ledger entries as the app lists them, newest first in the order they took
// effect, paged by a cursor (the ledger's seq) so that entries added meanwhile never shift a page.
import Big from 'big.js';
import { and, count, desc, eq, inArray, lt, ne, notInArray, notLike } from 'drizzle-orm';
import { pagedQuery } from './paged-query.ts';
import { PRACTICE_ASSETS } from './ledger.ts';
import type { Executor } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import { ENTRY_KINDS, FUNDS_PAGE_SIZE, type AccountEntriesPage, type AccountFilter } from '../../contract/funds.ts';
import { POINTS } from '../../contract/rewards.ts';

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
  let rows: (typeof ledgerEntries.$inferSelect)[];
  let total: number;
  let more: boolean;
  if (before === undefined) {
    const listed = await pagedQuery(
      db,
      () => db.select().from(ledgerEntries).where(where).$dynamic(),
      [desc(ledgerEntries.seq)],
      page,
      FUNDS_PAGE_SIZE,
    );
    rows = listed.lists;
    total = listed.total;
    more = (page - 1) * FUNDS_PAGE_SIZE + rows.length < total;
  } else {
    const [after, [counted]] = await Promise.all([
      db
        .select()
        .from(ledgerEntries)
        .where(and(where, lt(ledgerEntries.seq, before)))
        .orderBy(desc(ledgerEntries.seq))
        .limit(FUNDS_PAGE_SIZE + 1),
      db.select({ total: count() }).from(ledgerEntries).where(where),
    ]);
    more = after.length > FUNDS_PAGE_SIZE;
    rows = after.slice(0, FUNDS_PAGE_SIZE);
    total = Number(counted?.total ?? 0);
  }
  const last = rows.at(-1);
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
    next: more && last ? String(last.seq) : null,
  };
}
