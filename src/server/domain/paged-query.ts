// One page of a list, as every paged history answers it (`page` counts from 1; `total` is the whole
// list's size, whichever page was asked, past the last one too).
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Paged } from '../../contract/envelope.ts';
import type { Executor } from '../db/connection.ts';

/**
 * `list` builds the list's query: its select, joins and filter, made `.$dynamic()`. It is built twice:
 * once for the page (ordered by `orderBy`, `size` rows from row `(page - 1) * size`), once counted whole.
 */
export async function pagedQuery<Q extends PgSelect>(
  db: Executor,
  list: () => Q,
  orderBy: (SQL | PgColumn)[],
  page: number,
  size: number,
): Promise<Paged<Q['_']['result'][number]>> {
  const [lists, [counted]] = await Promise.all([
    list()
      .orderBy(...orderBy)
      .limit(size)
      .offset((page - 1) * size) as Promise<Q['_']['result']>,
    db.select({ total: count() }).from(sql`(${list()}) listed`),
  ]);
  return { lists, page, total: Number(counted?.total ?? 0) };
}
