// Records in the order they happened: a withdrawal that only succeeded because a revoke committed a moment before is
// listed after the revoke, in the statement and the account details, and no running balance is one the account never
// had. The withdrawal's request began first (its time is earlier) and waited for the revoke's hold on the balance: the
// two run on two connections of two separate pools (as two server processes would), so PostgreSQL only (the
// server-pg project). Table-driven over every way the ledger writes (one posting, a batch computed in code, rows
// selected by SQL).
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { openDatabase, rowsOf, type Database, type Executor } from '../../src/server/db/connection.ts';
import { USDT, freeze, post, postMany, postRows } from '../../src/server/domain/ledger.ts';
import { statement, type Statement } from '../../src/api-contract/statements.ts';
import { accountEntries } from '../../src/api-contract/funds.ts';

let h: Harness;
/** The revoke's side: a second pool on the same database, like another server process. */
let other: Database;

beforeAll(async () => {
  h = await startHarness();
  const [row] = rowsOf<{ name: string }>(await h.database.db.execute(sql`select current_database() as name`));
  other = await openDatabase({ kind: 'postgres', url: inject('pgAdminUrl').replace(/\/[^/]*$/, `/${row!.name}`) });
});
afterAll(async () => {
  await other.close();
  await h.close();
});

const STAKE = '15.59';
const DAY = { from: '2026-11-22', to: '2026-11-22', tz: 'UTC' };

/** How the waiting withdrawal is written: each of the ledger's writers, freezing STAKE (two entries). */
const writers: [string, (tx: Executor, userId: number, reference: string, now: Date) => Promise<unknown>][] = [
  [
    'one posting at a time',
    (tx, userId, reference, now) => freeze(tx, userId, USDT, STAKE, 'withdraw_freeze', reference, now),
  ],
  [
    'a batch computed in code',
    (tx, userId, reference, now) =>
      postMany(
        tx,
        [
          { userId, asset: USDT, amount: `-${STAKE}`, kind: 'withdraw_freeze', reference },
          { userId, asset: USDT, amount: STAKE, kind: 'withdraw_freeze', reference, bucket: 'frozen' },
        ],
        now,
      ),
  ],
  [
    'rows selected by SQL',
    (tx, userId, reference, now) =>
      postRows(
        tx,
        sql`select * from (values
          (${userId}::int, ${USDT}::text, 'available'::text, ${`-${STAKE}`}::numeric, 'withdraw_freeze'::text, ${reference}::text),
          (${userId}::int, ${USDT}::text, 'frozen'::text, ${STAKE}::numeric, 'withdraw_freeze'::text, ${reference}::text)
        ) as r(user_id, asset, bucket, amount, kind, reference)`,
        now,
      ),
  ],
];

/** Transactions of this database waiting for a lock right now (PostgreSQL). */
async function waitingForLocks(): Promise<number> {
  const [row] = rowsOf<{ waiting: number | string }>(
    await h.database.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    ),
  );
  return Number(row?.waiting ?? 0);
}

async function statementOf(token: string): Promise<Statement> {
  const answer = await h.call(statement, DAY, { token });
  expect(answer.ret).toBe(1);
  return answer.data;
}

describe.each(writers)('a withdrawal written as %s', (_, writeWithdrawal) => {
  it('is listed after the revoke it waited for, and every running balance is one the account had', async () => {
    const { id, token } = await customer(h);
    const at = h.clock.now();
    const later = (ms: number) => new Date(at.getTime() + ms);
    // STAKE held by an open contract order: nothing available to withdraw until it is revoked.
    await h.database.db.transaction(async (tx) => {
      await post(tx, { userId: id, asset: USDT, amount: STAKE, kind: 'recharge', reference: `recharge:${id}` }, at);
      await freeze(tx, id, USDT, STAKE, 'contract_freeze', `contract:${id}`, at);
    });

    // The revoke takes the hold on the balance with its first posting and keeps its transaction open until the
    // withdrawal is seen waiting for it; then it returns the stake and commits.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const cancel = { userId: id, asset: USDT, kind: 'contract_cancel' as const, reference: `contract:${id}` };
    const revoke = other.db.transaction(async (tx) => {
      await post(tx, { ...cancel, amount: `-${STAKE}`, bucket: 'frozen' }, later(5));
      holding();
      await released;
      await post(tx, { ...cancel, amount: STAKE }, later(5));
    });
    await held;
    // The withdrawal's request began 5 ms before the revoke's: its time is the earlier one.
    const withdrawal = h.database.db.transaction((tx) => writeWithdrawal(tx, id, `withdraw:${id}`, at));
    await vi.waitFor(async () => expect(await waitingForLocks()).toBe(1), { timeout: 10_000 });
    release();
    await revoke;
    await withdrawal;

    const day = await statementOf(token);
    expect(day.entries.map((entry) => [entry.kind, entry.amount, entry.balance])).toEqual([
      ['recharge', '15.59000000', '15.59000000'],
      ['contract_freeze', '-15.59000000', '0.00000000'],
      ['contract_cancel', '15.59000000', '15.59000000'],
      ['withdraw_freeze', '-15.59000000', '0.00000000'],
    ]);
    expect(day.entries.every((entry) => new Big(entry.balance).gte(0))).toBe(true);
    expect(day).toMatchObject({ opening: '0.00000000', closing: '0.00000000', next: null });
    // The withdrawal's own time is still when its request began.
    expect(day.entries[3]!.created_at).toBe(at.toISOString());

    // Account details, newest first: the withdrawal above the revoke.
    const details = await h.call(accountEntries, {}, { token });
    expect(details.data.lists.map((entry) => entry.kind)).toEqual([
      'withdraw_freeze',
      'contract_cancel',
      'contract_freeze',
      'recharge',
    ]);
    await expectLedgerBalanced(h);
  });
});
