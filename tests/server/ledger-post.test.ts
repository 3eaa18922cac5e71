// One posting: its entry and its balance move together, never below zero, never twice. A balance row the customer
// already has is moved and the entry inserted from the moved row in one statement (the move holds the account, so the
// entry's seq is in commit order); an asset's first movement makes the row first; too little on hand is refused and,
// with the transaction rolled back, leaves neither entry nor move; a debit posted again is told as already posted even
// when too little is left. Balances are read in one statement. A debit can be made in the statement of the work that
// precedes it (an order's insert), after that work. A freeze (or its return) moves one balance row between its two
// buckets and writes its two entries in one statement, the debited bucket's entry first.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { countStatementsOn, customer } from './helpers.ts';
import { balances, ledgerEntries } from '../../src/server/db/schema.ts';
import type { Tx } from '../../src/server/db/connection.ts';
import {
  AlreadyPosted,
  balancesIn,
  freeze,
  post,
  postWithin,
  unfreeze,
  type Posting,
} from '../../src/server/domain/ledger.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';

let h: Harness;
let userId: number;
let references = 0;

beforeAll(async () => {
  h = await startHarness();
  ({ id: userId } = await customer(h));
});
afterAll(() => h.close());

/** Posts in a transaction of its own; what it threw (or null), and the statements the posting itself sent. */
async function posted(asset: string, amount: string, reference = `ledger-post:${++references}`) {
  let sent = 0;
  const posting: Posting = { userId, asset, amount, kind: 'test_credit', reference };
  const thrown = await h.database.db
    .transaction(async (tx) => {
      // The transaction's BEGIN goes with its first statement (db/transaction-control.ts): sent first, it is not
      // counted as the posting's.
      await tx.execute(sql`select 1`);
      const counted = countStatementsOn(tx);
      try {
        await post(tx, posting, h.clock.now());
      } finally {
        sent = counted();
      }
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  return { thrown, sent, reference };
}

async function balanceOf(asset: string) {
  const [row] = await h.database.db
    .select({ available: balances.available })
    .from(balances)
    .where(and(eq(balances.userId, userId), eq(balances.asset, asset)));
  return row?.available ?? null;
}

const entriesOf = async (reference: string) =>
  (await h.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, reference))).length;

it("an asset's first movement makes its balance row and moves it", async () => {
  // Three assets' first movements, each counted on its transaction's own connection.
  const sent: number[] = [];
  for (const asset of ['LTC', 'TRX', 'BCH']) {
    expect(await balanceOf(asset)).toBeNull();
    const posting = await posted(asset, '2.5');
    expect(posting.thrown).toBeNull();
    expect(await balanceOf(asset)).toBe('2.50000000');
    sent.push(posting.sent);
  }
  // The move that found no row (and entered nothing), the row, the move with its entry.
  expect(sent).toEqual([3, 3, 3]);
});

it('a balance the customer has is moved, and its entry made, in one statement, to the last decimal', async () => {
  const { thrown, sent, reference } = await posted('LTC', '-0.00000001');
  expect(thrown).toBeNull();
  expect(await balanceOf('LTC')).toBe('2.49999999');
  expect(await entriesOf(reference)).toBe(1);
  expect(sent).toBe(1);
});

it('too little on hand is refused, and the rolled-back transaction leaves neither the entry nor a move', async () => {
  const { thrown, reference } = await posted('LTC', '-2.5');
  expect(thrown).toBeInstanceOf(Refusal);
  expect(await balanceOf('LTC')).toBe('2.49999999');
  expect(await entriesOf(reference)).toBe(0);
});

it('a debit of an asset never held is refused too', async () => {
  const { thrown, reference } = await posted('XRP', '-1');
  expect(thrown).toBeInstanceOf(Refusal);
  expect(await balanceOf('XRP')).toBeNull();
  expect(await entriesOf(reference)).toBe(0);
});

it('the same posting twice is refused as already posted and moves once', async () => {
  const first = await posted('LTC', '1', 'ledger-post:twice');
  const second = await posted('LTC', '1', 'ledger-post:twice');
  expect(first.thrown).toBeNull();
  expect(second.thrown).toBeInstanceOf(AlreadyPosted);
  expect(await balanceOf('LTC')).toBe('3.49999999');
  expect(await entriesOf('ledger-post:twice')).toBe(1);
});

it('a debit posted again when too little is left is told as already posted, which comes first', async () => {
  const first = await posted('LTC', '-3', 'ledger-post:debit-twice');
  const second = await posted('LTC', '-3', 'ledger-post:debit-twice');
  expect(first.thrown).toBeNull();
  expect(second.thrown).toBeInstanceOf(AlreadyPosted);
  expect(await balanceOf('LTC')).toBe('0.49999999');
  expect(await entriesOf('ledger-post:debit-twice')).toBe(1);
});

/** A debit of SOL made in the statement of a CTE `first` that names its reference and reads the balance. */
function debitWithin(tx: Tx, amount: string) {
  const reference = `ledger-post:${++references}`;
  return postWithin<{ reference: string; available: string }>(
    tx,
    { userId, asset: 'SOL', amount, kind: 'test_credit' },
    {
      with: sql`first as (select ${reference}::text as reference)`,
      gate: sql`exists (select 1 from first)`,
      reference: sql`(select reference from first)`,
      select: sql`f.reference, (select available::text from balances where user_id = ${userId} and asset = 'SOL') as available`,
      from: sql`from first f`,
    },
    h.clock.now(),
  );
}

it('a debit made in the statement of the work before it: one statement, the entry under that work’s reference', async () => {
  await posted('SOL', '10');
  const { row, sent } = await h.database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    const counted = countStatementsOn(tx);
    const row = await debitWithin(tx, '-1.5');
    return { row, sent: counted() };
  });
  expect(sent).toBe(1);
  // The statement's snapshot is taken before its own move: 10 on hand, read with the 1.5 debit in one statement.
  expect(row.available).toBe('10.00000000');
  expect(await entriesOf(row.reference)).toBe(1);
  expect(await balanceOf('SOL')).toBe('8.50000000');
});

it('a debit within a statement beyond the balance is refused and, rolled back, leaves nothing; a credit is no debit', async () => {
  const thrown = await h.database.db
    .transaction((tx) => debitWithin(tx, '-9'))
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(thrown).toBeInstanceOf(Refusal);
  expect(await balanceOf('SOL')).toBe('8.50000000');
  expect(await entriesOf(`ledger-post:${references}`)).toBe(0);
  await expect(h.database.db.transaction((tx) => debitWithin(tx, '1'))).rejects.toThrow('no debit');
});

/** Freezes (or, `back`, unfreezes) AVAX in a transaction of its own: what it threw (or null), the statements sent. */
async function frozen(amount: string, reference: string, back = false) {
  let sent = 0;
  const thrown = await h.database.db
    .transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      const counted = countStatementsOn(tx);
      try {
        await (back ? unfreeze : freeze)(tx, userId, 'AVAX', amount, 'withdraw_freeze', reference, h.clock.now());
      } finally {
        sent = counted();
      }
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  return { thrown, sent };
}

const bucketsOf = async () => (await balancesIn(h.database.db, userId, ['AVAX']))[0];
/** An event's entries in the order they took effect: [bucket, amount]. */
const entriesInOrder = async (reference: string) =>
  (
    await h.database.db
      .select({ bucket: ledgerEntries.bucket, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.reference, reference))
      .orderBy(ledgerEntries.seq)
  ).map((entry) => [entry.bucket, entry.amount]);

it('a freeze and its return each move both buckets in one statement, the debited bucket entered first', async () => {
  await posted('AVAX', '10');
  const hold = await frozen('4.25', 'ledger-post:freeze');
  expect(hold).toEqual({ thrown: null, sent: 1 });
  expect(await bucketsOf()).toEqual({ available: '5.75000000', frozen: '4.25000000' });
  expect(await entriesInOrder('ledger-post:freeze')).toEqual([
    ['available', '-4.25000000'],
    ['frozen', '4.25000000'],
  ]);
  const back = await frozen('4.25', 'ledger-post:unfreeze', true);
  expect(back).toEqual({ thrown: null, sent: 1 });
  expect(await bucketsOf()).toEqual({ available: '10.00000000', frozen: '0.00000000' });
  expect(await entriesInOrder('ledger-post:unfreeze')).toEqual([
    ['frozen', '-4.25000000'],
    ['available', '4.25000000'],
  ]);
});

it('a freeze beyond what is available, or its return beyond what is frozen, is refused and leaves nothing', async () => {
  const hold = await frozen('10.00000001', 'ledger-post:freeze-short');
  expect(hold.thrown).toBeInstanceOf(Refusal);
  const back = await frozen('0.00000001', 'ledger-post:unfreeze-short', true);
  expect(back.thrown).toBeInstanceOf(Refusal);
  expect(await bucketsOf()).toEqual({ available: '10.00000000', frozen: '0.00000000' });
  expect(await entriesInOrder('ledger-post:freeze-short')).toEqual([]);
  expect(await entriesInOrder('ledger-post:unfreeze-short')).toEqual([]);
});

it('the same freeze twice is refused as already posted, even with too little left, and moves once', async () => {
  expect((await frozen('6', 'ledger-post:freeze-twice')).thrown).toBeNull();
  expect((await frozen('6', 'ledger-post:freeze-twice')).thrown).toBeInstanceOf(AlreadyPosted);
  expect(await bucketsOf()).toEqual({ available: '4.00000000', frozen: '6.00000000' });
  expect(await entriesInOrder('ledger-post:freeze-twice')).toHaveLength(2);
  expect((await frozen('2', 'ledger-post:freeze-twice-too')).thrown).toBeNull();
  expect((await frozen('2', 'ledger-post:freeze-twice-too')).thrown).toBeInstanceOf(AlreadyPosted);
  expect(await bucketsOf()).toEqual({ available: '2.00000000', frozen: '8.00000000' });
});

it('two first movements of one asset at once both land: one makes the row, the other finds it made', async () => {
  const results = await Promise.all([posted('DOT', '1'), posted('DOT', '2')]);
  expect(results.map((result) => result.thrown)).toEqual([null, null]);
  expect(await balanceOf('DOT')).toBe('3.00000000');
});

it("reads some assets' balances in one statement, in the order asked, zero for an asset never held", async () => {
  const { held, sent } = await h.database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    const counted = countStatementsOn(tx);
    const held = await balancesIn(tx, userId, ['DOT', 'ADA', 'LTC']);
    return { held, sent: counted() };
  });
  expect(sent).toBe(1);
  expect(held).toEqual([
    { available: '3.00000000', frozen: '0.00000000' },
    { available: '0', frozen: '0' },
    { available: '0.49999999', frozen: '0.00000000' },
  ]);
});
