// A statement of any size: a day with more entries than a page comes page after page, each after the one before,
// and together they list every entry once, in the order they took effect, ending at the balance the account holds.
// A period's bounds fall in that order too: an entry stamped before midnight that took effect after the first entry
// of the next day belongs to the next day, so two adjacent days neither share nor miss an entry.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import { STATEMENT_PAGE_SIZE, statement, type Statement } from '../../src/api-contract/statements.ts';
import { USDT, balanceOf, post, postRows } from '../../src/server/domain/ledger.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function page(token: string, input: Record<string, string>): Promise<Statement> {
  const answer = await h.call(statement, input, { token });
  expect(answer).toMatchObject({ ret: 1 });
  return answer.data;
}

/** Every page of a statement, as the app asks them; each must open where the one before closed. */
async function wholeStatement(token: string, input: Record<string, string>) {
  const pages = [await page(token, input)];
  while (pages.at(-1)!.next !== null) {
    const next = await page(token, { ...input, after: pages.at(-1)!.next! });
    expect(next.opening).toBe(pages.at(-1)!.closing);
    pages.push(next);
  }
  return {
    pages,
    entries: pages.flatMap((one) => one.entries),
    opening: pages[0]!.opening,
    closing: pages.at(-1)!.closing,
  };
}

it('gives a day of more than 5,000 entries whole, a page at a time, ending at the balance held', async () => {
  const { id, token } = await customer(h);
  const ENTRIES = 6_001;
  // Before the day: 100 USDT. On the day (UTC): 6,001 entries of 0.01 USDT each, one statement.
  await h.database.db.transaction((tx) =>
    post(
      tx,
      { userId: id, asset: USDT, amount: '100', kind: 'recharge', reference: `recharge:${id}` },
      new Date('2026-11-20T12:00:00Z'),
    ),
  );
  await h.database.db.transaction((tx) =>
    postRows(
      tx,
      sql`select ${id}::int as user_id, ${USDT}::text as asset, 'available'::text as bucket, 0.01::numeric as amount,
        'welfare'::text as kind, 'busy:' || n as reference from generate_series(1, ${ENTRIES}) n`,
      new Date('2026-11-21T10:00:00Z'),
    ),
  );
  const day = { from: '2026-11-21', to: '2026-11-21', tz: 'UTC' };
  const whole = await wholeStatement(token, day);
  expect(whole.pages).toHaveLength(Math.ceil(ENTRIES / STATEMENT_PAGE_SIZE));
  expect(whole.pages.slice(0, -1).every((one) => one.entries.length === STATEMENT_PAGE_SIZE)).toBe(true);
  expect(whole.entries).toHaveLength(ENTRIES);
  expect(new Set(whole.entries.map((entry) => entry.reference)).size).toBe(ENTRIES);
  expect(whole.opening).toBe('100.00000000');
  // The closing balance is the balance the account holds, and every running balance adds up to it.
  expect(whole.closing).toBe(new Big((await balanceOf(h.database.db, id, USDT)).available).toFixed(8));
  expect(whole.closing).toBe('160.01000000');
  let balance = new Big(whole.opening);
  for (const entry of whole.entries) {
    balance = balance.plus(entry.amount);
    expect(entry.balance).toBe(balance.toFixed(8));
  }
  // A cursor past the period's end is an empty last page at the closing balance.
  const past = await page(token, { ...day, after: '999999999999' });
  expect(past).toMatchObject({ entries: [], opening: '160.01000000', closing: '160.01000000', next: null });
  // A cursor that is not a sequence number is refused.
  expect(await h.call(statement, { ...day, after: '-1' }, { token })).toEqual(refused('The request is not valid!'));
  await expectLedgerBalanced(h);
}, 120_000);

it('puts an entry that took effect after midnight in the next day, though stamped before it', async () => {
  const { id, token } = await customer(h);
  const at = (iso: string, amount: string, reference: string) =>
    h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: id, asset: USDT, amount, kind: 'test_credit', reference: `${reference}:${id}` },
        new Date(iso),
      ),
    );
  await at('2026-11-01T12:00:00Z', '10', 'early');
  // The first entry of 2 November takes effect, then one whose request began a moment before midnight.
  await at('2026-11-02T00:00:00.002Z', '5', 'after-midnight');
  await at('2026-11-01T23:59:59.998Z', '-12', 'late-commit');
  const first = await wholeStatement(token, { from: '2026-11-01', to: '2026-11-01', tz: 'UTC' });
  const second = await wholeStatement(token, { from: '2026-11-02', to: '2026-11-02', tz: 'UTC' });
  expect(first.entries.map((entry) => [entry.amount, entry.balance])).toEqual([['10.00000000', '10.00000000']]);
  expect(second.opening).toBe(first.closing);
  expect(second.entries.map((entry) => [entry.amount, entry.balance])).toEqual([
    ['5.00000000', '15.00000000'],
    ['-12.00000000', '3.00000000'],
  ]);
  // Both days together list each entry once.
  const both = await wholeStatement(token, { from: '2026-11-01', to: '2026-11-02', tz: 'UTC' });
  expect(both.entries.map((entry) => entry.amount)).toEqual(['10.00000000', '5.00000000', '-12.00000000']);
  expect(both.closing).toBe('3.00000000');
});
