// The operator's entry points tried by a hostile or careless operator on a real PostgreSQL: what the command line
// writes where a customer reads it meets the same rules as the console's forms (a payout's reference, a reason), so no
// invisible or direction-changing character reaches the customer, and a refused command changes nothing; an operator
// disabled (a session stolen, say) is no longer one of the two people a large withdrawal needs, and their action in
// flight at the disable is refused.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { sql } from 'drizzle-orm';
import { customer, expectLedgerBalanced, rowLocked, waitersOnLocks } from './helpers.ts';
import { addCard, balanceOf, ops, opsOk, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import * as c from '../../src/api-contract/console.ts';
import * as q from '../../src/api-contract/console-queues.ts';
import { withdrawOrder } from '../../src/api-contract/funds.ts';
import { inviteState } from '../../src/api-contract/share.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { searchAudit } from '../../src/server/domain/audit-log.ts';

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

it('a first approval of a large withdrawal by an operator disabled since counts no more: two others must approve', async () => {
  const intruder = await operatorToken(h, 'intruder', 'reviewer');
  const reviewer2 = await operatorToken(h, 'reviewer2', 'reviewer');
  const reviewer3 = await operatorToken(h, 'reviewer3', 'reviewer');
  const user = await customer(h, '30000');
  const card = await addCard(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20000' });
  const id = String(order.id);
  expect(await h.call(c.consoleApproveWithdrawal, { id }, { token: intruder })).toMatchObject({
    ret: 1,
    data: { status: 'review', approvals: ['intruder'], approvals_needed: 2 },
  });
  // Her session was a thief's: the admin disables her.
  await opsOk(h, 'operator', 'disable', 'intruder');
  const frozen = await balanceOf(h, user.id);

  // The next reviewer reads no approval yet, and theirs is the first of two.
  expect((await h.call(c.consoleWithdrawal, { id }, { token: reviewer2 })).data.withdrawal).toMatchObject({
    approvals: [],
    approvals_needed: 2,
  });
  expect(
    (
      await h.call(
        q.consoleQueue,
        { kind: 'withdrawal', status: 'waiting', query: '', cursor: '' },
        { token: reviewer2 },
      )
    ).data.lists,
  ).toMatchObject([{ id: order.id, approvals: [], approvals_needed: 2 }]);
  expect(await h.call(c.consoleApproveWithdrawal, { id }, { token: reviewer2 })).toMatchObject({
    ret: 1,
    data: { status: 'review', approvals: ['reviewer2'], approvals_needed: 2 },
  });
  expect(await balanceOf(h, user.id)).toEqual(frozen);
  expect(await h.call(c.consoleApproveWithdrawal, { id }, { token: reviewer3 })).toMatchObject({
    ret: 1,
    data: { status: 'success', approvals: ['reviewer2', 'reviewer3'] },
  });
  expect(await balanceOf(h, user.id)).toEqual({ available: frozen.available, frozen: '0.00000000' });
});

it('an approval in flight when its operator is disabled pays nothing: the disable came first', async () => {
  const trudy = await operatorToken(h, 'trudy', 'reviewer');
  const user = await customer(h, '500');
  const card = await addCard(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
  const frozen = await balanceOf(h, user.id);
  // Her approval passed the session check and waits for the withdrawal's row; meanwhile the admin disables her.
  const held = await rowLocked(h, sql`select 1 from withdraw_orders where id = ${order.id} for update`);
  const approving = h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { token: trudy });
  await waitersOnLocks(h.database.db, 1);
  await opsOk(h, 'operator', 'disable', 'trudy');
  await held.release();

  expect(await approving).toMatchObject({ ret: 0, msg: 'This operator account is disabled!' });
  expect((await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data).toMatchObject({
    status: 'review',
  });
  expect(await balanceOf(h, user.id)).toEqual(frozen);
  const audit = await searchAudit(h.database.db, { operator: 'trudy', action: 'withdrawal' }, '');
  expect(audit.lists).toEqual([]);
});

it('two admins disabling each other at once: one is disabled, the other stays to run the console', async () => {
  const ann = await operatorToken(h, 'ann', 'admin');
  const ben = await operatorToken(h, 'ben', 'admin');
  // Both rows held, so the two disables are in flight together and go on at the same moment.
  const held = await rowLocked(h, sql`select 1 from operators where name in ('ann', 'ben') for update`);
  const annDisables = h.call(c.consoleDisableOperator, { name: 'ben' }, { token: ann });
  const benDisables = h.call(c.consoleDisableOperator, { name: 'ann' }, { token: ben });
  await waitersOnLocks(h.database.db, 2);
  await held.release();

  const answers = [await annDisables, await benDisables];
  expect(answers.map((answer) => answer.ret).sort()).toEqual([0, 1]);
  expect(answers.find((answer) => answer.ret === 0)).toMatchObject({ msg: 'This operator account is disabled!' });
  const admins = (await h.call(c.consoleOperators, {}, { token: answers[0]!.ret === 1 ? ann : ben })).data.filter(
    (operator) => ['ann', 'ben'].includes(operator.name),
  );
  expect(admins.filter((operator) => operator.disabled_at === null)).toHaveLength(1);
  const audit = await searchAudit(h.database.db, { action: 'operator.disable' }, '');
  expect(audit.lists.filter((entry) => ['operator:ann', 'operator:ben'].includes(entry.target))).toHaveLength(1);
});
