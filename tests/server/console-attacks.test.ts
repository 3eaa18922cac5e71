// The operator's entry points tried by a hostile or careless operator on a real PostgreSQL: what the command line
// writes where a customer reads it meets the same rules as the console's forms (a payout's reference, a reason), so no
// invisible or direction-changing character reaches the customer, and a refused command changes nothing.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { addCard, balanceOf, ops, opsOk, withdrawn } from './funds-helpers.ts';
import { withdrawOrder } from '../../src/api-contract/funds.ts';
import { inviteState } from '../../src/api-contract/share.ts';
import { messages } from '../../src/api-contract/messages.ts';

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

it('`ops invite revoke` tells the customer only a reason a console rejection could give', async () => {
  const user = await customer(h);
  await opsOk(h, 'invite', 'grant', user.phone, 'Partner programme');
  const inbox = async () => (await h.call(messages, { page: '1' }, { token: user.token })).data.lists.length;
  const read = await inbox();
  const HIDDEN = 'Please remove invisible or direction-changing characters!';
  for (const [reason, output] of [
    ['Programme\u202E dedne', HIDDEN],
    ['Programme\u200B ended', HIDDEN],
    ['x'.repeat(501), 'Keep the reason under 500 characters.'],
  ])
    expect(await ops(h, 'invite', 'revoke', user.phone, reason!), reason).toEqual({ ok: false, output });
  expect((await h.call(inviteState, {}, { token: user.token })).data.permission).toBe(true);
  expect(await inbox()).toBe(read);
});
