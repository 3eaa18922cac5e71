// Two batches over the same accounts never deadlock: every writer that moves several balance rows at once locks them
// in one order, (user, asset). Here an option settlement's payouts (rows selected by SQL) meet a batch of contract
// fills (postings computed in code) on the same two customers' USDT, as two server processes run the two jobs at once.
// Each round, a third transaction holds the first customer's row until both batches are seen waiting for it, so each
// has taken what it takes before that row; then it lets go. A batch that locked in any other order (the table's
// physical order, as a hash join over the balances reads them) would hold the second customer's row while waiting for
// the first, and PostgreSQL would end one of the two with "deadlock detected". PostgreSQL only (the server-pg
// project): the embedded database runs one transaction at a time.
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant } from './helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { balances } from '../../src/server/db/schema.ts';
import { USDT, post, postMany, postRows } from '../../src/server/domain/ledger.ts';

const ROUNDS = 3;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h.close());

/** Transactions of this database waiting for a lock right now. */
async function waitingForLocks(): Promise<number> {
  const [row] = rowsOf<{ waiting: number | string }>(
    await h.database.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    ),
  );
  return Number(row?.waiting ?? 0);
}

async function usdtOf(userId: number) {
  const [row] = await h.database.db
    .select({ available: balances.available })
    .from(balances)
    .where(and(eq(balances.userId, userId), eq(balances.asset, USDT)));
  return new Big(row!.available).toFixed(8);
}

it('a settlement and a batch of fills over the same accounts both commit, round after round', async () => {
  const first = await customer(h, '100');
  const second = await customer(h, '100');
  await grant(h, second.id, '1', 'BTC');
  const db = h.database.db;
  for (let round = 1; round <= ROUNDS; round++) {
    const now = h.clock.now();
    // The first customer's row moved last: in the table's physical order it now comes after the second's.
    await db.transaction((tx) =>
      post(tx, { userId: first.id, asset: USDT, amount: '1', kind: 'test_credit', reference: `top-up:${round}` }, now),
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from balances where user_id = ${first.id} and asset = ${USDT} for update`);
      await released;
    });
    await vi.waitFor(async () => expect(await waitingForLocks()).toBe(0));
    const payouts = sql`select * from (values
        (${first.id}::int, ${USDT}::text, 'available'::text, 2::numeric, 'option_payout'::text, ${`option:a${round}`}::text),
        (${second.id}::int, ${USDT}::text, 'available'::text, 2::numeric, 'option_payout'::text, ${`option:b${round}`}::text)
      ) as r(user_id, asset, bucket, amount, kind, reference)`;
    const settlement = db.transaction((tx) => postRows(tx, payouts, now));
    await vi.waitFor(async () => expect(await waitingForLocks()).toBe(1));
    // The first customer buys 0.01 BTC of the second for 3 USDT: four balance rows, a batch large enough that
    // PostgreSQL plans its update as a hash join over the table rather than one index lookup per row.
    const trade = (userId: number, asset: string, amount: string) =>
      ({ userId, asset, amount, kind: 'contract_trade', reference: `contract:${round}:${userId}` }) as const;
    const fills = db.transaction((tx) =>
      postMany(
        tx,
        [
          trade(first.id, USDT, '-3'),
          trade(first.id, 'BTC', '0.01'),
          trade(second.id, USDT, '3'),
          trade(second.id, 'BTC', '-0.01'),
        ],
        now,
      ),
    );
    await vi.waitFor(async () => expect(await waitingForLocks()).toBe(2));
    release();
    await holder;
    const outcomes = await Promise.allSettled([settlement, fills]);
    // A failed query's own message is its cause's (pg's): "deadlock detected".
    const failure = (reason: Error & { cause?: Error }) => reason.cause?.message ?? reason.message;
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? failure(outcome.reason) : 'committed'))).toEqual([
      'committed',
      'committed',
    ]);
  }
  // Each round: +1 top-up, +2 payout, -3 fill for the first; +2 payout, +3 fill for the second.
  expect(await usdtOf(first.id)).toBe('100.00000000');
  expect(await usdtOf(second.id)).toBe(new Big(100).plus(5 * ROUNDS).toFixed(8));
  await expectLedgerBalanced(h);
});
