// Account details page by a cursor: opened, four new entries made meanwhile, then "Load more" to the end — each page
// follows on from the one before without repeating or skipping an entry, the last page says so (`next` null) and no
// page is empty; the new entries are at the head of the list when it is asked again. The page counted from the
// newest still answers as before, and a cursor that is not one is refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import { FUNDS_PAGE_SIZE, accountEntries, type AccountEntriesPage } from '../../src/api-contract/funds.ts';
import { USDT, post } from '../../src/server/domain/ledger.ts';

let h: Harness;
let user: { id: number; token: string };
let credits = 0;

beforeAll(async () => {
  h = await startHarness();
  user = await customer(h);
});
afterAll(() => h.close());

/** `count` credits of 1 USDT, each its own business event, the way recharges are posted. */
async function credit(count: number) {
  for (let i = 0; i < count; i++) {
    const reference = `recharge:${++credits}`;
    await h.database.db.transaction((tx) =>
      post(tx, { userId: user.id, asset: USDT, amount: '1', kind: 'recharge', reference }, h.clock.now()),
    );
  }
}

async function page(input: Record<string, string>): Promise<AccountEntriesPage> {
  const answer = await h.call(accountEntries, input, { token: user.token });
  expect(answer.ret).toBe(1);
  return answer.data;
}

it('pages by a cursor to the end with entries added meanwhile, no page empty or repeated', async () => {
  await credit(45);
  const first = await page({});
  expect(first.lists).toHaveLength(FUNDS_PAGE_SIZE);
  expect(first).toMatchObject({ total: 45, next: expect.any(String) });
  expect(first.lists[0]!.reference).toBe('recharge:45');

  // Four new entries while the customer reads the first page.
  await credit(4);

  const seen = [...first.lists];
  let next = first.next;
  let pages = 1;
  while (next !== null) {
    const more = await page({ before: next, page: String(++pages) });
    expect(more.lists.length).toBeGreaterThan(0);
    seen.push(...more.lists);
    next = more.next;
  }
  // 45 = 20 + 20 + 5: three pages, the last says it is the last, and every entry of the list as opened once.
  expect(pages).toBe(3);
  expect(seen.map((entry) => entry.reference)).toEqual(Array.from({ length: 45 }, (_, i) => `recharge:${45 - i}`));
  // The head of the list asked again shows the new ones first, and the whole list is counted with them.
  const head = await page({});
  expect(head.lists.slice(0, 5).map((entry) => entry.reference)).toEqual([
    'recharge:49',
    'recharge:48',
    'recharge:47',
    'recharge:46',
    'recharge:45',
  ]);
  expect(head.total).toBe(49);
});

it('still counts pages from the newest without a cursor, and says when the last one is reached', async () => {
  const third = await page({ page: '3' });
  expect(third.lists.map((entry) => entry.reference)).toEqual(Array.from({ length: 9 }, (_, i) => `recharge:${9 - i}`));
  expect(third.next).toBeNull();
  expect((await page({ page: '2' })).next).toBe(String((await page({ before: (await page({})).next! })).next));
});

it('refuses a cursor that is not a place in the ledger', async () => {
  for (const before of ['-1', 'abc', '1.5', '9'.repeat(16)])
    expect(await h.call(accountEntries, { before }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
});
