// One page of a list: the rows of that page in the list's order, and the whole list's size on every page, past the
// last one too. A list that fits its first page, and the last page of a longer one, are answered in one statement
// (the page tells the size); a full page or one past the end counts the list in a second.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from './harness.ts';
import { statementsSent as statements } from './helpers.ts';
import type { Database } from '../../src/server/db/connection.ts';
import { coins } from '../../src/server/db/schema.ts';
import { pagedQuery } from '../../src/server/domain/paged-query.ts';

let database: Database;
const CODES = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7'];

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db
    .insert(coins)
    .values(CODES.map((code, sort) => ({ code, name: code, sort, startPrice: '1', volatility: '0.5' })));
});
afterAll(() => database.close());

/** The page, and how many statements asking for it took. */
async function pageOf(page: number, size: number, filter: 'all' | 'none' = 'all') {
  const db = database.db;
  const before = await statements();
  const listed = await pagedQuery(
    db,
    () =>
      db
        .select({ code: coins.code })
        .from(coins)
        .where(filter === 'none' ? eq(coins.code, 'none') : undefined)
        .$dynamic(),
    [asc(coins.sort)],
    page,
    size,
  );
  return {
    codes: listed.lists.map((row) => row.code),
    total: listed.total,
    page: listed.page,
    sent: (await statements()) - before,
  };
}

it('answers every page of every size with its rows in order and the whole list size', async () => {
  for (const size of [1, 2, 3, 6, 7, 8, 20])
    for (let page = 1; page <= Math.ceil(CODES.length / size) + 2; page++) {
      const answer = await pageOf(page, size);
      expect(answer).toMatchObject({
        codes: CODES.slice((page - 1) * size, page * size),
        total: CODES.length,
        page,
      });
    }
});

it('answers a list that fits its first page, or the last page of a longer one, in one statement', async () => {
  expect(await pageOf(1, 20)).toMatchObject({ codes: CODES, total: 7, sent: 1 });
  expect(await pageOf(3, 3)).toMatchObject({ codes: ['C7'], total: 7, sent: 1 });
  expect(await pageOf(2, 4)).toMatchObject({ codes: ['C5', 'C6', 'C7'], total: 7, sent: 1 });
});

it('counts the list when the page cannot tell: a full page, or one past the end', async () => {
  expect(await pageOf(1, 3)).toMatchObject({ codes: ['C1', 'C2', 'C3'], total: 7, sent: 2 });
  expect(await pageOf(1, 7)).toMatchObject({ codes: CODES, total: 7, sent: 2 });
  expect(await pageOf(4, 3)).toMatchObject({ codes: [], total: 7, sent: 2 });
});

it('answers an empty list as empty, on its first page in one statement', async () => {
  expect(await pageOf(1, 3, 'none')).toMatchObject({ codes: [], total: 0, sent: 1 });
  expect(await pageOf(2, 3, 'none')).toMatchObject({ codes: [], total: 0, sent: 2 });
});
