// One page of a list, as every paged history answers it (`page` counts from 1; `total` is the whole
// list's size, whichever page was asked, past the last one too).
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Paged } from '../../contract/envelope.ts';
import type { Executor } from '../db/connection.ts';

/**
 * `list` builds the list's query: its select, joins and filter, made `.$dynamic()`. The page is asked for (ordered by
 * `orderBy`, `size` rows from row `(page - 1) * size`); the list is counted whole only when the page cannot tell its
 * size. A page with some rows but fewer than `size` is the list's last, so the rows before it and its own are all, and
 * an empty first page is an empty list: most customers' lists fit one page, and are answered in one statement.
 */
export async function pagedQuery<Q extends PgSelect>(
  db: Executor,
  list: () => Q,
  orderBy: (SQL | PgColumn)[],
  page: number,
  size: number,
): Promise<Paged<Q['_']['result'][number]>> {
  const skipped = (page - 1) * size;
  const lists = (await list()
    .orderBy(...orderBy)
    .limit(size)
    .offset(skipped)) as Q['_']['result'];
  if ((lists.length > 0 && lists.length < size) || (page === 1 && lists.length === 0))
    return { lists, page, total: skipped + lists.length };
  const [counted] = await db.select({ total: count() }).from(sql`(${list()}) listed`);
  return { lists, page, total: Number(counted?.total ?? 0) };
}
