// Lists page by a keyset cursor: each page continues after the last row the caller has, in an order that is unique
// and never changes (an id, or a time and then the id), so rows added or removed meanwhile neither repeat nor hide
// others, the last page says it is the last (`next` null), and what arrived meanwhile is at the list's head.
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import type { Executor } from '../db/connection.ts';
import { refusalOf } from './refusal.ts';

/** One key of a list's order: the SQL it sorts by, the row's value of it (a whole number) and that value in SQL. */
export interface OrderKey<R> {
  readonly by: SQL | PgColumn;
  readonly valueOf: (row: R) => number;
  readonly param: (value: number) => SQL;
}

/** A key by a whole-number column (an id): the last key of every order, which makes the order unique. */
export const idKey = <R>(column: PgColumn | SQL, valueOf: (row: R) => number): OrderKey<R> => ({
  by: column,
  valueOf,
  param: (value) => sql`${value}::bigint`,
});

/**
 * A key by a time column, compared to the millisecond (the cursor carries ms since the epoch, UTC; the database keeps
 * µs, which a cursor could not repeat exactly). `valueOf` may answer null for a time not set yet: it sorts as the
 * epoch.
 */
export const timeKey = <R>(column: PgColumn, valueOf: (row: R) => Date | null): OrderKey<R> => ({
  by: sql`date_trunc('milliseconds', coalesce(${column}, timestamptz 'epoch'))`,
  valueOf: (row) => valueOf(row)?.getTime() ?? 0,
  param: (value) => sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 millisecond')`,
});

/** A list's order: its keys, most significant first, the last one unique; all ascending or all descending. */
export interface KeysetOrder<R> {
  readonly keys: readonly OrderKey<R>[];
  readonly direction: 'asc' | 'desc';
}

/** What a caller sends: `cursor` (a previous answer's `next`; absent or '' for the head) or, only where the spec names
 * page numbers, `page` (counted from 1). */
export interface PageRequest {
  cursor?: string;
  page?: number;
}

// Ms since the epoch and ids are whole numbers a double holds exactly; nothing else is a cursor.
const CURSOR_PART = /^(0|[1-9]\d{0,15})$/;

/**
 * The key values a cursor carries, one per key of `order`, joined by '.'.
 * @throws Refusal (the request is not valid) for anything that is not such a cursor: a hostile one is refused, never a
 * 500.
 */
export function parseCursor(cursor: string, keys: number): number[] {
  const parts = cursor.split('.');
  if (parts.length !== keys || !parts.every((part) => CURSOR_PART.test(part))) throw refusalOf(texts.invalidRequest);
  const values = parts.map(Number);
  if (!values.every(Number.isSafeInteger)) throw refusalOf(texts.invalidRequest);
  return values;
}

/** The cursor that continues after `row`. */
export const cursorAfter = <R>(order: KeysetOrder<R>, row: R): string =>
  order.keys.map((key) => key.valueOf(row)).join('.');

/** The SQL that keeps the rows after `cursor` in `order`: a row comparison, which an index on the keys can serve. */
export function afterCursor<R>(order: KeysetOrder<R>, cursor: string): SQL {
  const values = parseCursor(cursor, order.keys.length);
  const keys = sql.join(
    order.keys.map((key) => sql`${key.by}`),
    sql`, `,
  );
  const params = sql.join(
    order.keys.map((key, at) => key.param(values[at]!)),
    sql`, `,
  );
  return order.direction === 'asc' ? sql`(${keys}) > (${params})` : sql`(${keys}) < (${params})`;
}

/**
 * One page of a list by cursor. `list(after)` builds the list's query (select, joins, filter `and`-ed with `after`,
 * made `.$dynamic()`); the page holds up to `size` rows in `order` after `request.cursor`, and `next` continues after
 * its last row, or is null when no row follows (asked with one row more than the page, so the last page never needs an
 * empty one after it). `request.page` (only where the spec names page numbers) skips whole pages instead, and still
 * answers the cursor that continues after it.
 * @throws Refusal (the request is not valid) for a cursor that is not one of this list's.
 */
export async function keysetQuery<Q extends PgSelect, R extends Q['_']['result'][number]>(
  list: (after: SQL | undefined) => Q,
  order: KeysetOrder<R>,
  request: PageRequest,
  size: number,
): Promise<CursorPage<R>> {
  const after = request.cursor ? afterCursor(order, request.cursor) : undefined;
  const skipped = !request.cursor && request.page ? (request.page - 1) * size : 0;
  const direction = order.direction === 'asc' ? sql`asc` : sql`desc`;
  let query = list(after)
    .orderBy(...order.keys.map((key) => sql`${key.by} ${direction}`))
    .limit(size + 1);
  if (skipped > 0) query = query.offset(skipped);
  const rows = (await query) as R[];
  const lists = rows.slice(0, size);
  const last = lists.at(-1);
  return { lists, next: rows.length > size && last !== undefined ? cursorAfter(order, last) : null };
}

/**
 * The number of rows of a list as `list` builds it, for the few screens that show a count (countedKeysetQuery), asked
 * apart from the page only when the page is not the whole list: a cursor page costs one statement where no count is
 * shown.
 */
async function countOf(db: Executor, list: () => PgSelect): Promise<number> {
  const [counted] = await db.select({ total: count() }).from(sql`(${list()}) listed`);
  return Number(counted?.total ?? 0);
}

/**
 * One page of a list by cursor (keysetQuery) and the number of rows of the whole list (countOf): for the screens that
 * show a count beside a cursor page (the holdings' badge, the console's queues and audit log, account details). A head
 * page that nothing follows is the whole list, so its rows are the count and no second statement is sent (a customer's
 * holdings are mostly such a page); a longer list is counted in a statement of its own, after its head page, beside
 * any other page.
 * @throws Refusal (the request is not valid) for a cursor that is not one of this list's.
 */
export async function countedKeysetQuery<Q extends PgSelect, R extends Q['_']['result'][number]>(
  db: Executor,
  list: (after: SQL | undefined) => Q,
  order: KeysetOrder<R>,
  request: PageRequest,
  size: number,
): Promise<CursorPage<R> & { total: number }> {
  const count = () => countOf(db, () => list(undefined));
  if (request.cursor || (request.page ?? 1) > 1) {
    const [page, total] = await Promise.all([keysetQuery(list, order, request, size), count()]);
    return { ...page, total };
  }
  const head = await keysetQuery(list, order, request, size);
  return { ...head, total: head.next === null ? head.lists.length : await count() };
}
