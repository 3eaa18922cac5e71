// Lists page by a keyset cursor: paging on while rows arrive never repeats a row nor skips one, the last page says it
// is the last (no empty page after it), the rows that arrived meanwhile are at the head, and a cursor that is not one
// of the list's is refused as an invalid request (never a 500). Newest-first by id, and oldest-first by time then id
// (rows of one millisecond included).
import { and, eq, like, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from './harness.ts';
import { statementsSent as statements } from './helpers.ts';
import type { Database } from '../../src/server/db/connection.ts';
import { messages } from '../../src/server/db/schema.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import {
  countedKeysetQuery,
  idKey,
  keysetQuery,
  timeKey,
  type KeysetOrder,
  type PageRequest,
} from '../../src/server/domain/paged-query.ts';

let database: Database;
type Row = typeof messages.$inferSelect;
const NEWEST_FIRST: KeysetOrder<Row> = { keys: [idKey(messages.id, (row) => row.id)], direction: 'desc' };
const OLDEST_FIRST: KeysetOrder<Row> = {
  keys: [timeKey(messages.createdAt, (row) => row.createdAt), idKey(messages.id, (row) => row.id)],
  direction: 'asc',
};

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Adds rows titled `${list}:${n}`; `at` gives each its time (else now). */
async function add(list: string, numbers: number[], at?: (n: number) => Date) {
  await database.db
    .insert(messages)
    .values(numbers.map((n) => ({ title: `${list}:${n}`, content: '', ...(at ? { createdAt: at(n) } : {}) })));
}

/** The list `list`: the rows titled `${list}:…`, as a list's query is built for keysetQuery. */
const listOf = (list: string) => (after: SQL | undefined) =>
  database.db
    .select()
    .from(messages)
    .where(and(like(messages.title, `${list}:%`), after))
    .$dynamic();

/** One page of the list `list` (rows titled `${list}:…`), in `order`. */
async function pageOf(list: string, order: KeysetOrder<Row>, request: PageRequest, size: number) {
  const before = await statements();
  const page = await keysetQuery(listOf(list), order, request, size);
  return { titles: page.lists.map((row) => row.title), next: page.next, sent: (await statements()) - before };
}

/** Every page from the head to the end, with `between(n)` run after the n-th page. */
async function pageThrough(list: string, order: KeysetOrder<Row>, size: number, between = async (_n: number) => {}) {
  const pages: string[][] = [];
  let cursor = '';
  for (;;) {
    const page = await pageOf(list, order, { cursor }, size);
    pages.push(page.titles);
    expect(page.sent).toBe(1);
    await between(pages.length);
    if (page.next === null) return pages;
    // A full page ends with the row the cursor names; the last page is never empty.
    expect(page.titles).toHaveLength(size);
    cursor = page.next;
  }
}

const titles = (list: string, numbers: number[]) => numbers.map((n) => `${list}:${n}`);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it('pages every size to the end, each row once, the last page with next null and never an empty one', async () => {
  await add('all', range(1, 7));
  for (const size of [1, 2, 3, 6, 7, 8, 20]) {
    const pages = await pageThrough('all', NEWEST_FIRST, size);
    expect(pages.flat()).toEqual(titles('all', range(1, 7).reverse()));
    expect(pages).toHaveLength(Math.ceil(7 / size));
  }
  expect(await pageOf('none', NEWEST_FIRST, {}, 3)).toEqual({ titles: [], next: null, sent: 1 });
});

it('rows added while paging (four, then more than a page) neither repeat nor hide others; they are at the head', async () => {
  await add('live', range(1, 10));
  const pages = await pageThrough('live', NEWEST_FIRST, 3, async (n) => {
    if (n === 1) await add('live', range(11, 14));
    if (n === 2) await add('live', range(15, 22));
  });
  // Exactly the ten rows there were when the list was opened, in order, each once; the last page ended it.
  expect(pages.flat()).toEqual(titles('live', range(1, 10).reverse()));
  expect(pages.at(-1)).toEqual(['live:1']);
  // The head shows what arrived meanwhile, newest first.
  expect((await pageOf('live', NEWEST_FIRST, {}, 5)).titles).toEqual(titles('live', [22, 21, 20, 19, 18]));
});

it('rows removed while paging leave the rest in place', async () => {
  await add('gone', range(1, 9));
  const pages = await pageThrough('gone', NEWEST_FIRST, 3, async (n) => {
    if (n === 1) await database.db.delete(messages).where(eq(messages.title, 'gone:9'));
    if (n === 1) await database.db.delete(messages).where(eq(messages.title, 'gone:5'));
  });
  expect(pages.flat()).toEqual(titles('gone', [9, 8, 7, 6, 4, 3, 2, 1]));
});

it('pages by time then id, oldest first: rows of one millisecond each once, later rows at the end', async () => {
  const base = Date.UTC(2026, 10, 29, 12, 0, 0, 123);
  // Three rows share each millisecond (microseconds apart): the id orders them.
  await add('time', range(1, 9), (n) => new Date(base + Math.floor((n - 1) / 3)));
  await database.db.execute(
    sql`update messages set created_at = created_at + (id % 3) * interval '1 microsecond' where title like 'time:%'`,
  );
  const pages = await pageThrough('time', OLDEST_FIRST, 2, async (n) => {
    if (n === 2) await add('time', [10, 11], () => new Date(base + 10));
    // Earlier than the rows read: behind the cursor, so it is not shown in this pass, and nothing repeats.
    if (n === 3) await add('time', [12], () => new Date(base - 1000));
  });
  expect(pages.flat()).toEqual(titles('time', range(1, 11)));
  expect((await pageOf('time', OLDEST_FIRST, {}, 1)).titles).toEqual(['time:12']);
});

it('skips whole pages by number only where asked, and still answers the cursor after them', async () => {
  await add('numbered', range(1, 5));
  const second = await pageOf('numbered', NEWEST_FIRST, { page: 2 }, 2);
  expect(second.titles).toEqual(titles('numbered', [3, 2]));
  expect((await pageOf('numbered', NEWEST_FIRST, { cursor: second.next! }, 2)).titles).toEqual(['numbered:1']);
  expect(await pageOf('numbered', NEWEST_FIRST, { page: 4 }, 2)).toMatchObject({ titles: [], next: null });
});

it('refuses a cursor that is not one of the list’s as an invalid request', async () => {
  for (const [order, cursor] of [
    [NEWEST_FIRST, 'abc'],
    [NEWEST_FIRST, '-1'],
    [NEWEST_FIRST, '01'],
    [NEWEST_FIRST, '1.5'],
    [NEWEST_FIRST, '9007199254740993'],
    [NEWEST_FIRST, '99999999999999999999'],
    [NEWEST_FIRST, '1;drop table messages'],
    [OLDEST_FIRST, '5'],
    [OLDEST_FIRST, '1.2.3'],
    [OLDEST_FIRST, '.5'],
  ] as const) {
    const answer = pageOf('all', order, { cursor }, 3);
    await expect(answer, cursor).rejects.toBeInstanceOf(Refusal);
    await expect(answer, cursor).rejects.toMatchObject({ textId: 'v.invalidRequest' });
  }
});

it('counts a list beside its page: a head page nothing follows is the count itself, one statement; else two', async () => {
  await add('counted', range(1, 7));
  const counted = async (request: PageRequest, size: number, list = 'counted') => {
    const before = await statements();
    const page = await countedKeysetQuery(database.db, listOf(list), NEWEST_FIRST, request, size);
    return { titles: page.lists.map((row) => row.title), total: page.total, sent: (await statements()) - before };
  };
  // The whole list on its head page: its rows are the count.
  expect(await counted({ cursor: '' }, 7)).toEqual({
    titles: titles('counted', range(1, 7).reverse()),
    total: 7,
    sent: 1,
  });
  expect(await counted({}, 10)).toMatchObject({ total: 7, sent: 1 });
  // A head page something follows, a page after a cursor, a page by number: the whole list counted apart.
  const head = await counted({ cursor: '' }, 3);
  expect(head).toEqual({ titles: titles('counted', [7, 6, 5]), total: 7, sent: 2 });
  const after = await pageOf('counted', NEWEST_FIRST, { cursor: '' }, 5);
  expect(await counted({ cursor: after.next! }, 5)).toEqual({ titles: titles('counted', [2, 1]), total: 7, sent: 2 });
  expect(await counted({ page: 2 }, 5)).toMatchObject({ titles: titles('counted', [2, 1]), total: 7, sent: 2 });
  // An empty list: nothing on its head page, a count of 0.
  expect(await counted({}, 5, 'none')).toEqual({ titles: [], total: 0, sent: 1 });
});
