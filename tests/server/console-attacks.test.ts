// The operator's entry points tried by a hostile or careless operator on a real PostgreSQL: what the command line
// writes where a customer reads it meets the same rules as the console's forms (a payout's reference), so no invisible
// or direction-changing character reaches the customer, and a refused command changes nothing.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { addCard, balanceOf, ops, opsOk, withdrawn } from './funds-helpers.ts';
import { withdrawOrder } from '../../src/api-contract/funds.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

/** Texts that look like one thing and read as another: a zero-width space, a right-to-left override, a space. */
const HOSTILE_REFERENCES = ['0xabc\u200Bdef123', 'tx\u202E1-tuoyap', 'payout tx 1', 'ab', 'x'.repeat(129)];

it('`ops withdrawal approve` takes a payout reference only as the console does: none hidden reaches the customer', async () => {
  const user = await customer(h, '500');
  const card = await addCard(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
  const before = await balanceOf(h, user.id);
  for (const hash of HOSTILE_REFERENCES)
    expect(await ops(h, 'withdrawal', 'approve', String(order.id), `hash=${hash}`), hash).toEqual({
      ok: false,
      output: 'The payout’s transaction hash or transfer reference is 4 to 128 letters, digits or dashes.',
    });
  expect(await balanceOf(h, user.id)).toEqual(before);
  expect((await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data).toMatchObject({
    status: 'review',
    hash: '',
  });

  await opsOk(h, 'withdrawal', 'approve', String(order.id), 'hash= payout-tx-1 ');
  expect((await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data).toMatchObject({
    status: 'success',
    hash: 'payout-tx-1',
  });
});
