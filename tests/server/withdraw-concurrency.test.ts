// Withdrawals under load: many requests at once against one balance never overdraw it, and one
// request retried with the same Idempotency-Key (in a row or all at once) freezes once.
import Big from 'big.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused, waitersOnLocks } from './helpers.ts';
import { addTronWallet, balanceOf, payoutReported, withdraw } from './funds-helpers.ts';
import { approveRecharge } from '../../src/server/domain/recharge.ts';
import { approveWithdrawal } from '../../src/server/domain/withdraw.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import { consoleTexts } from '../../src/api-contract/console-texts.ts';
import { ledgerEntries, withdrawOrders } from '../../src/server/db/schema.ts';
import type { Envelope } from '../../src/api-contract/envelope.ts';
import type { WithdrawOrder } from '../../src/api-contract/funds.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const ordersOf = (userId: number) =>
  h.database.db.select().from(withdrawOrders).where(eq(withdrawOrders.userId, userId));
const entriesOf = (userId: number) =>
  h.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));

/**
 * 200 payment passwords checked at once (argon2id, deliberately slow) and 200 transactions on one database: seconds
 * alone, several times that beside the end-to-end files (tests/run.ts). The limit catches a hang; it times nothing.
 */
const MANY_AT_ONCE = { timeout: 90_000 };

it(
  '200 withdrawals at once against 1,000 USDT never overdraw: at most 99 of 10 + 0.1 fee succeed',
  MANY_AT_ONCE,
  async () => {
    const user = await customer(h, '1000');
    const wallet = await addTronWallet(h, user.token);
    const input = { target: 'wallet', target_id: String(wallet.id), amount: '10' };

    const answers = await Promise.all(Array.from({ length: 200 }, () => withdraw(h, user.token, input)));

    const succeeded = answers.filter((answer) => answer.ret === 1);
    for (const answer of answers) if (answer.ret !== 1) expect(answer).toEqual(refused('Insufficient balance!'));
    // Every request sees the balance its predecessors left: exactly as many as fit go through.
    expect(succeeded).toHaveLength(99);
    expect(new Set(succeeded.map((answer) => answer.data.id)).size).toBe(99);
    expect(await balanceOf(h, user.id)).toEqual({
      available: new Big(1000).minus(new Big('10.1').times(succeeded.length)).toFixed(8),
      frozen: new Big('10.1').times(succeeded.length).toFixed(8),
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.10000000', frozen: '999.90000000' });
    expect(await ordersOf(user.id)).toHaveLength(succeeded.length);
    // One grant, then two entries (available out, frozen in) per withdrawal, nothing for a refusal.
    expect(await entriesOf(user.id)).toHaveLength(1 + 2 * succeeded.length);
  },
);

// The 5-try limit on the 6-digit transaction password holds against guesses sent at once.
it('40 wrong transaction passwords sent at once are not all tried: at most 5 are', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const guesses = await Promise.all(
    Array.from({ length: 40 }, (_, n) =>
      withdraw(h, user.token, {
        target: 'wallet',
        target_id: String(wallet.id),
        amount: '10',
        paypass: String(100_000 + n),
      }),
    ),
  );
  const tried = guesses.filter((answer) => answer.msg === 'The payment password is wrong!');
  expect(tried.length).toBeLessThanOrEqual(5);
  expect(guesses.filter((answer) => answer.msg === 'Too many attempts, please try again in 15 minutes!')).toHaveLength(
    40 - tried.length,
  );
  expect(await balanceOf(h, user.id)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
});

describe('one request retried with the same Idempotency-Key', () => {
  async function expectOneWithdrawal(userId: number, answers: Envelope<WithdrawOrder>[]) {
    const applied = answers.filter((answer) => answer.ret === 1);
    expect(applied.length).toBeGreaterThan(0);
    for (const answer of applied) expect(answer).toEqual(applied[0]);
    // A retry that arrives while the first is still running may be told to wait, never served twice.
    for (const answer of answers)
      if (answer.ret !== 1) expect(answer).toEqual(refused('This request is still being processed, please wait!'));
    const orders = await ordersOf(userId);
    expect(orders.map((order) => order.id)).toEqual([applied[0]!.data.id]);
    expect(await balanceOf(h, userId)).toEqual({ available: '79.80000000', frozen: '20.20000000' });
    expect(await entriesOf(userId)).toHaveLength(3);
  }

  it('50 times in a row: one withdrawal, frozen once, every answer the same order', async () => {
    const user = await customer(h, '100');
    const wallet = await addTronWallet(h, user.token);
    const answers = [];
    for (let n = 0; n < 50; n++)
      answers.push(
        await withdraw(
          h,
          user.token,
          { target: 'wallet', target_id: String(wallet.id), amount: '20' },
          'withdraw-in-a-row',
        ),
      );
    expect(answers.every((answer) => answer.ret === 1)).toBe(true);
    await expectOneWithdrawal(user.id, answers);
  });

  it('50 times at once: one withdrawal, frozen once, every successful answer the same order', async () => {
    const user = await customer(h, '100');
    const wallet = await addTronWallet(h, user.token);
    const input = { target: 'wallet', target_id: String(wallet.id), amount: '20' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => withdraw(h, user.token, input, 'withdraw-at-once')),
    );
    await expectOneWithdrawal(user.id, answers);
  });

  it('the same key with another amount is refused and freezes nothing more', async () => {
    const user = await customer(h, '100');
    const wallet = await addTronWallet(h, user.token);
    const input = { target: 'wallet', target_id: String(wallet.id), amount: '20' };
    expect((await withdraw(h, user.token, input, 'withdraw-reused')).ret).toBe(1);
    expect(await withdraw(h, user.token, { ...input, amount: '30' }, 'withdraw-reused')).toEqual(
      refused('This Idempotency-Key was already used for a different request: nothing was done. Send a new key.'),
    );
    expect(await ordersOf(user.id)).toHaveLength(1);
    expect(await balanceOf(h, user.id)).toEqual({ available: '79.80000000', frozen: '20.20000000' });
  });
});

// Two operators, in two processes, at the same moment: one credits a reported recharge, the other records the same
// transaction as a payout. Each checks the other's table before its own write commits.
it('a recharge credited and a payout recorded with one hash at once: the later is refused', async () => {
  const { order, payout, reported } = await payoutReported(h);
  const db = h.database.db;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let credited!: () => void;
  const approved = new Promise<void>((resolve) => (credited = resolve));
  const recharge = db.transaction(async (tx) => {
    await approveRecharge(tx, reported.data.id, {}, h.clock.now());
    credited();
    await held;
  });
  await approved;
  const paying = db.transaction((tx) => approveWithdrawal(tx, order.id, { hash: `0x${payout}` }, h.clock.now()));
  // The payout waits for the recharge's transaction, which holds the hash, then sees it credited.
  const waited = await waitersOnLocks(db, 1, paying);
  release();
  await recharge;
  await expect(paying).rejects.toEqual(new Refusal(consoleTexts.consolePayoutIsRecharge.id));
  expect(waited).toBe(true);
  await expectLedgerBalanced(h);
});
