// A withdrawal's payment password is hashed before the call's transaction opens: while argon2id works (held here at
// a gate, so the test waits for the hashing to start, not for time), no connection of the server holds the call's
// idempotency key or the password's counter (no transaction of the call is open yet); the answers are what they were
// (right: the order; wrong: refused and counted; at the limit: refused without hashing), keyed or not.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PAYPASS, customer, expectLedgerBalanced, refused } from './helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { argon2id } from '../../src/server/secret-hash.ts';
import { addTronWallet, balanceOf, withdraw } from './funds-helpers.ts';

/** The verifications asked of argon2id, each waiting at the gate while it is closed. */
const gate = {
  closed: false,
  waiting: [] as (() => void)[],
  started: 0,
  arrived: null as (() => void) | null,
};
const realVerify = argon2id.verify;

let h: Harness;
beforeAll(() => {
  // The app's own argon2id object, wrapped for this file and put back after it (the worker's next files share it).
  argon2id.verify = async (...args: Parameters<typeof realVerify>) => {
    gate.started += 1;
    if (gate.closed) {
      await new Promise<void>((release) => {
        gate.waiting.push(release);
        gate.arrived?.();
      });
    }
    return realVerify(...args);
  };
});
afterAll(() => {
  argon2id.verify = realVerify;
});
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

/**
 * The locks other connections hold on the call's idempotency key and the password's counter while a verification
 * waits: a transaction that had taken either (the keyed call's hold, the counter's) holds its lock to its end. The
 * harness's jobs, which may be in a transaction of their own at that moment, touch neither table. pg_locks is the
 * whole cluster's and the files' databases share their tables' oids (made from one template), so only this file's
 * database is read: another file's withdrawals running meanwhile are not counted.
 */
async function heldMeanwhile() {
  const [row] = rowsOf<{ locks: number }>(
    await h.database.db.execute(sql`
      select count(*)::int as locks from pg_locks l join pg_class c on c.oid = l.relation
      where l.database = (select oid from pg_database where datname = current_database())
        and c.relname in ('idempotency_keys', 'attempt_counters') and l.pid <> pg_backend_pid()`),
  );
  return row!.locks;
}

/** Sends a withdrawal with the gate closed, looks at what is held once its hashing waits there, then lets it on. */
async function withdrawnPastTheGate(token: string, fields: Record<string, string>, key?: string) {
  gate.closed = true;
  const arrival = new Promise<void>((resolve) => (gate.arrived = resolve));
  const answer = withdraw(h, token, fields, key);
  // A call answered without verifying at the gate fails here at once rather than waiting for the gate.
  await Promise.race([
    arrival,
    answer.then((answered) => {
      throw new Error(`answered without a verification at the gate: ${JSON.stringify(answered)}`);
    }),
  ]);
  const held = await heldMeanwhile();
  gate.closed = false;
  gate.waiting.splice(0).forEach((release) => release());
  return { held, answer: await answer };
}

it('a keyed withdrawal hashes its payment password with no transaction open, then freezes the amount', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const fields = { target: 'wallet', target_id: String(wallet.id), amount: '10' };
  const { held, answer } = await withdrawnPastTheGate(user.token, fields, 'withdraw-hashing:keyed');
  expect(held).toBe(0);
  expect(answer).toMatchObject({ ret: 1, data: { amount: '10.00000000' } });
  expect(await balanceOf(h, user.id)).toEqual({ available: '89.90000000', frozen: '10.10000000' });
  // The same key again: the stored answer, hashed no more.
  const started = gate.started;
  expect(await withdraw(h, user.token, fields, 'withdraw-hashing:keyed')).toEqual(answer);
  expect(gate.started).toBe(started);
});

it('an unkeyed withdrawal with a wrong payment password: hashed with nothing held, refused and counted', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const fields = { target: 'wallet', target_id: String(wallet.id), amount: '10', paypass: '654321' };
  const { held, answer } = await withdrawnPastTheGate(user.token, fields);
  expect(held).toBe(0);
  expect(answer).toEqual(refused('The payment password is wrong!'));
  expect(await balanceOf(h, user.id)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
  // Four more wrong ones reach the limit of five; the sixth try, even the right password, is refused unhashed.
  for (let tries = 2; tries <= 5; tries++) {
    expect(await withdraw(h, user.token, { ...fields, paypass: '654321' })).toEqual(
      refused('The payment password is wrong!'),
    );
  }
  const started = gate.started;
  expect(await withdraw(h, user.token, { ...fields, paypass: PAYPASS })).toEqual(
    refused('Too many attempts, please try again later!'),
  );
  expect(gate.started).toBe(started);
  expect(await balanceOf(h, user.id)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
});
