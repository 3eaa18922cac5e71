// A former customer asks support where their balance went: the console's customer search finds a closed account by
// the mobile number, e-mail address or username it held when it closed (closed_accounts), folded as the search folds
// an open account's, says it is closed, when, and what the closure ended, and opens its records read only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, expectLedgerBalanced, refused, registerByPhone } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import * as c from '../../src/api-contract/console.ts';
import { CONTACT_REUSE_DAYS, closeAccount } from '../../src/api-contract/closure.ts';
import { editProfile, sendEmailCode } from '../../src/api-contract/account.ts';
import { consoleQueue } from '../../src/api-contract/console-queues.ts';
import { cryptoRecharge } from './funds-helpers.ts';

let h: Harness;
let reviewer: string;
let content: string;
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorToken(h, 'rita', 'reviewer');
  content = await operatorToken(h, 'carl', 'content');
});
afterAll(() => h.close());

const find = (query: string, token = reviewer) => h.call(c.consoleFindCustomers, { query }, { token });

/** A customer with a mobile number, the e-mail address `email` and `usdt` USDT, who then closes the account. */
async function closedCustomer(email: string, usdt: string, amounts: string) {
  const user = await customer(h, usdt);
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email }, { token: user.token })).ret).toBe(1);
  expect(
    (await h.call(editProfile, { email, code: h.codeFor(email), password: PASSWORD }, { token: user.token })).ret,
  ).toBe(1);
  const closedAt = h.clock.now().toISOString();
  const closed = await h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD, amounts }, { token: user.token });
  expect(closed).toMatchObject({ ret: 1, data: { closed_at: closedAt } });
  return { ...user, email, closedAt };
}

it('finds a closed account by its former mobile number or e-mail, written any way, marked closed with what ended', async () => {
  const user = await closedCustomer('leaver.one@example.com', '0.77', 'USDT:0.77');
  const closure = {
    closed_at: user.closedAt,
    username: user.phone,
    phone: user.phone,
    email: user.email,
    ended: [{ asset: 'USDT', amount: '0.77', kind: 'closure_balance' }],
  };
  const listed = { id: user.id, username: `closed:${user.id}`, phone: null, email: null, closed: closure };
  // The number as stored (E.164), as a Thai customer says it with its leading 0 and spaces, and a part of it.
  const local = `0${user.phone.slice(3)}`;
  for (const query of [user.phone, `${local.slice(0, 3)} ${local.slice(3, 6)} ${local.slice(6)}`, local.slice(0, 7)])
    expect(await find(query), query).toMatchObject({ ret: 1, data: [listed] });
  // The e-mail address in another letter case and in full width, as login reads a name.
  for (const query of ['LEAVER.ONE@', 'ｌｅａｖｅｒ．ｏｎｅ'])
    expect(await find(query), query).toMatchObject({ ret: 1, data: [listed] });
  // LIKE's wildcards are the characters themselves: none is in the address, so nothing is found.
  for (const query of ['leaver%', 'leaver_one', '％one', '%']) expect((await find(query)).data, query).toEqual([]);
  // The same roles as before: a content operator is refused.
  expect(await find(user.phone, content)).toEqual(refused('Your role does not allow this!'));

  // Its records open as an open account's do, read only, with the closure named.
  const detail = await h.call(c.consoleCustomer, { id: String(user.id) }, { token: reviewer });
  expect(detail).toMatchObject({
    ret: 1,
    data: {
      customer: listed,
      balances: [{ asset: 'USDT', available: '0', frozen: '0' }],
      ledger: [
        { asset: 'USDT', amount: '-0.77', kind: 'closure_balance', reference: `closure:${user.id}` },
        { asset: 'USDT', amount: '0.77', kind: 'test_credit' },
      ],
    },
  });
  expect((await h.call(c.consoleCustomerHistory, { id: String(user.id) }, { token: reviewer })).ret).toBe(1);
  await expectLedgerBalanced(h);
});

it('lists a closure that ended nothing as such, and the number’s new account apart from the closed one', async () => {
  const user = await closedCustomer('leaver.two@example.com', '', '');
  expect((await find(user.phone)).data).toEqual([
    expect.objectContaining({ id: user.id, closed: expect.objectContaining({ phone: user.phone, ended: [] }) }),
  ]);
  // Once the number rests no more, a new account registers with it: both are found, the open one not closed.
  h.clock.advance((CONTACT_REUSE_DAYS + 1) * 86_400_000);
  const { token } = await registerByPhone(h, user.phone);
  expect(token).toBeTruthy();
  // The console session ran out meanwhile: another reviewer signs in.
  const found = (await find(user.phone, await operatorToken(h, 'rosa', 'reviewer'))).data;
  expect(found).toHaveLength(2);
  expect(found[0]).toMatchObject({ id: user.id, closed: { phone: user.phone } });
  expect(found[1]).toMatchObject({ phone: user.phone, closed: null });
});

it('shows a closed customer in the review queues under the username it held, marked closed, found by it', async () => {
  // The console session of the first tests ran out when the clock moved on: another reviewer signs in.
  const token = await operatorToken(h, 'remy', 'reviewer');
  const leaver = await customer(h);
  const stayer = await customer(h);
  const left = await cryptoRecharge(h, leaver.token, '10');
  const stays = await cryptoRecharge(h, stayer.token, '20');
  const reason = 'The transfer did not arrive';
  expect((await h.call(c.consoleRejectRecharge, { id: String(left.id), reason }, { token })).ret).toBe(1);
  const closed = await h.call(
    closeAccount,
    { secret_kind: 'login', secret: PASSWORD, amounts: '' },
    { token: leaver.token },
  );
  expect(closed.ret).toBe(1);

  const queue = async (query: string) => {
    const answer = await h.call(consoleQueue, { kind: 'recharge', status: 'all', query }, { token });
    expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
    return answer.data.lists.map(({ id, username, closed }) => ({ id, username, closed }));
  };
  // Searched by the mobile number (its username too) it held: the row names it so, tagged closed, never `closed:<id>`.
  expect(await queue(leaver.phone)).toEqual([{ id: left.id, username: leaver.phone, closed: true }]);
  // An open customer's row as before.
  expect(await queue(stayer.phone)).toEqual([{ id: stays.id, username: stayer.phone, closed: false }]);

  // The recharge's own page, and the recharge in the lists, name it the same way.
  const detail = await h.call(c.consoleRecharge, { id: String(left.id) }, { token });
  expect(detail.data).toMatchObject({ username: leaver.phone, closed: true });
  const listed = await h.call(c.consoleRecharges, { status: 'all' }, { token });
  expect(listed.data.find((row) => row.id === left.id)).toMatchObject({ username: leaver.phone, closed: true });
  expect(listed.data.find((row) => row.id === stays.id)).toMatchObject({ username: stayer.phone, closed: false });
});
