// The console's money commands tried as a hostile or careless operator would, on PostgreSQL: two reviewers deciding
// one recharge or withdrawal at once from two server processes (one decision applies, with one audit entry), one
// approval sent again under its Idempotency-Key, ids that name nothing, other roles, a reason that tells the customer
// nothing, and reward terms written any way but as a plain number. After each, every balance equals its ledger.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { callApp, otherProcessApp, startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, expectLedgerBalanced, refused, rowLocked, waitersOnLocks } from './helpers.ts';
import { addCard, balanceOf, cryptoRecharge, fundsState, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import * as c from '../../src/api-contract/console.ts';
import * as r from '../../src/api-contract/console-rewards.ts';
import * as hc from '../../src/api-contract/console-house.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { rechargeOrder, withdrawOrder } from '../../src/api-contract/funds.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import type { FastifyInstance } from 'fastify';

let h: Harness;
let other: FastifyInstance;
let rita = '';
let remy = '';
let admin = '';
let writer = '';
beforeAll(async () => {
  h = await startHarness();
  other = await otherProcessApp(h);
  rita = await operatorToken(h, 'rita', 'reviewer');
  remy = await operatorToken(h, 'remy', 'reviewer');
  admin = await operatorToken(h, 'adam', 'admin');
  writer = await operatorToken(h, 'cora', 'content');
});
afterAll(async () => {
  await other.close();
  await h.close();
});
afterEach(() => expectLedgerBalanced(h));

const audits = (target: string) => h.database.db.select().from(auditLog).where(eq(auditLog.target, target));

it('approve and reject of one recharge at once from two processes: one applies, one audit entry', async () => {
  for (let round = 0; round < 5; round++) {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '30');
    const answers = await Promise.all([
      h.call(c.consoleApproveRecharge, { id: String(order.id) }, { token: rita }),
      callApp(other, c.consoleRejectRecharge, { id: String(order.id), reason: 'No transfer' }, { token: remy }),
    ]);
    expect(
      answers.filter((a) => a.ret === 1),
      JSON.stringify(answers),
    ).toHaveLength(1);
    expect(await audits(`recharge:${order.id}`)).toHaveLength(1);
    const seen = (await h.call(rechargeOrder, { id: String(order.id) }, { token: user.token })).data;
    const balance = await balanceOf(h, user.id);
    if (seen.status === 'success') expect(balance.available).toBe('30.00000000');
    else expect([seen.status, seen.reason, balance.available]).toEqual(['rejected', 'No transfer', '0.00000000']);
  }
});

it('approve and reject of one withdrawal at once from two processes: one applies, one audit entry', async () => {
  for (let round = 0; round < 5; round++) {
    const user = await customer(h, '500');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
    const answers = await Promise.all([
      h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { token: rita }),
      callApp(other, c.consoleRejectWithdrawal, { id: String(order.id), reason: 'Payee differs' }, { token: remy }),
      callApp(other, c.consoleApproveWithdrawal, { id: String(order.id) }, { token: remy }),
      h.call(c.consoleRejectWithdrawal, { id: String(order.id), reason: 'Payee differs' }, { token: rita }),
    ]);
    expect(
      answers.filter((a) => a.ret === 1),
      JSON.stringify(answers),
    ).toHaveLength(1);
    expect(await audits(`withdrawal:${order.id}`)).toHaveLength(1);
    const seen = (await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data;
    const balance = await balanceOf(h, user.id);
    if (seen.status === 'success') expect(balance).toEqual({ available: '399.00000000', frozen: '0.00000000' });
    else expect([seen.reason, balance.available]).toEqual(['Payee differs', '500.00000000']);
  }
});

it('a recharge approved while its customer closes the account: the approval credits, the closure is refused', async () => {
  const db = h.database.db;
  const user = await customer(h, '50');
  const order = await cryptoRecharge(h, user.token, '30');
  // The customer's USDT balance row held a moment (another order's entry, say): the approval waits for it first, then
  // the closure comes in behind it.
  const held = await rowLocked(h, sql`select 1 from balances where user_id = ${user.id} and asset = 'USDT' for update`);
  const approving = h.call(c.consoleApproveRecharge, { id: String(order.id) }, { token: rita });
  await waitersOnLocks(db, 1);
  const closing = h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD, amounts: '' }, { token: user.token });
  await waitersOnLocks(db, 2);
  await held.release();
  const [approved, closed] = await Promise.all([approving, closing]);
  expect(approved, JSON.stringify(approved)).toMatchObject({ ret: 1, data: { status: 'success' } });
  expect(closed).toMatchObject({ ret: 0, msg: expect.stringContaining('Your account still holds USDT') });
  expect(await balanceOf(h, user.id)).toEqual({ available: '80.00000000', frozen: '0.00000000' });
  expect(await audits(`recharge:${order.id}`)).toHaveLength(1);
});

it('a large withdrawal approved by two reviewers, each twice, at once: paid once, one audit entry each', async () => {
  for (let round = 0; round < 5; round++) {
    const user = await customer(h, '30000');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20000' });
    const answers = await Promise.all([
      h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { token: rita }),
      callApp(other, c.consoleApproveWithdrawal, { id: String(order.id) }, { token: remy }),
      callApp(other, c.consoleApproveWithdrawal, { id: String(order.id) }, { token: rita }),
      h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { token: remy }),
    ]);
    const seen = (await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data;
    expect(seen.status, JSON.stringify(answers)).toBe('success');
    expect(
      answers.filter((a) => a.ret === 1),
      JSON.stringify(answers),
    ).toHaveLength(2);
    expect(await audits(`withdrawal:${order.id}`)).toHaveLength(2);
  }
});

it('a large recharge approved by two reviewers, each twice, at once from two processes: credited once', async () => {
  for (let round = 0; round < 5; round++) {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '20000');
    const id = String(order.id);
    const answers = await Promise.all([
      h.call(c.consoleApproveRecharge, { id }, { token: rita }),
      callApp(other, c.consoleApproveRecharge, { id }, { token: remy }),
      callApp(other, c.consoleApproveRecharge, { id }, { token: rita }),
      h.call(c.consoleApproveRecharge, { id }, { token: remy }),
    ]);
    const seen = (await h.call(rechargeOrder, { id }, { token: user.token })).data;
    expect(seen.status, JSON.stringify(answers)).toBe('success');
    expect(
      answers.filter((a) => a.ret === 1),
      JSON.stringify(answers),
    ).toHaveLength(2);
    expect(await audits(`recharge:${order.id}`)).toHaveLength(2);
    expect(await balanceOf(h, user.id)).toEqual({ available: '20000.00000000', frozen: '0.00000000' });
  }
});

it('the same Idempotency-Key sent at once and again: one approval, one audit entry, one credit', async () => {
  const user = await customer(h);
  const order = await cryptoRecharge(h, user.token, '30');
  const send = (app: FastifyInstance | null) =>
    app
      ? callApp(app, c.consoleApproveRecharge, { id: String(order.id) }, { token: rita, idempotencyKey: 'k-1' })
      : h.call(c.consoleApproveRecharge, { id: String(order.id) }, { token: rita, idempotencyKey: 'k-1' });
  const answers = await Promise.all([send(null), send(other), send(null), send(other)]);
  answers.push(await send(null), await send(other));
  for (const a of answers) expect(a.ret === 1 || a.msg.includes('processed'), JSON.stringify(a)).toBe(true);
  expect(await audits(`recharge:${order.id}`)).toHaveLength(1);
  expect((await balanceOf(h, user.id)).available).toBe('30.00000000');
  // Without a key, a second submit is refused as reviewed.
  const again = await h.call(c.consoleApproveRecharge, { id: String(order.id) }, { token: rita });
  expect(again.ret).toBe(0);
});

it('ids that do not exist, or are not ids', async () => {
  for (const id of ['999999999', '0', '-1', '1e3', '٣', '', ' 1', '1.0', '0x10', '1234567890'])
    for (const endpoint of [c.consoleApproveRecharge, c.consoleApproveWithdrawal])
      expect(await h.call(endpoint, { id }, { token: rita }), `${id}`).toMatchObject({ ret: 0 });
  for (const id of ['999999999', '0'])
    for (const endpoint of [c.consoleRejectRecharge, c.consoleRejectWithdrawal])
      expect(await h.call(endpoint, { id, reason: 'x' }, { token: rita }), `${id}`).toMatchObject({ ret: 0 });
});

it('a reason with no letter or digit says nothing: refused, the withdrawal and the recharge still wait', async () => {
  const user = await customer(h, '500');
  const card = await addCard(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
  const recharge = await cryptoRecharge(h, user.token, '10');
  const before = await fundsState(h, user.id);
  // Marks with no letter to sit on (an accent, a Thai tone mark, an enclosing circle), punctuation alone, an object
  // replacement character; a private-use character, which each device draws as it likes, is told its own rule.
  const private_ = 'Please remove the characters not every phone shows the same (private-use characters)!';
  for (const [reason, said] of [
    ...['\u0301', '\u0E48\u0E31', '\u20DD', '.', ' - ', '\uFFFC'].map((text) => [text, 'no reason'] as const),
    ...['\uE000', '\u{F0000}', 'Blurred \uF8FF'].map((text) => [text, 'private'] as const),
  ])
    for (const [endpoint, id] of [
      [c.consoleRejectWithdrawal, order.id],
      [c.consoleRejectRecharge, recharge.id],
    ] as const)
      expect(await h.call(endpoint, { id: String(id), reason }, { token: rita }), JSON.stringify(reason)).toEqual(
        refused(said === 'private' ? private_ : 'A rejection needs a reason the customer will see!'),
      );
  expect(await fundsState(h, user.id)).toEqual(before);
  expect([...(await audits(`withdrawal:${order.id}`)), ...(await audits(`recharge:${recharge.id}`))]).toEqual([]);
  // A reason in any of the six languages' scripts is taken, marks and all.
  for (const [endpoint, id, reason] of [
    [c.consoleRejectWithdrawal, order.id, 'ชื่อผู้รับไม่ตรงกัน'],
    [c.consoleRejectRecharge, recharge.id, 'भुगतान नहीं मिला'],
  ] as const)
    expect(await h.call(endpoint, { id: String(id), reason }, { token: rita })).toMatchObject({ ret: 1 });
  expect((await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).data.reason).toBe(
    'ชื่อผู้รับไม่ตรงกัน',
  );
  expect((await h.call(rechargeOrder, { id: String(recharge.id) }, { token: user.token })).data.reason).toBe(
    'भुगतान नहीं मिला',
  );
});

it('other roles are refused the reviews', async () => {
  const user = await customer(h, '500');
  const card = await addCard(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
  for (const token of [admin, writer]) {
    expect((await h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { token })).ret).toBe(0);
    expect((await h.call(c.consoleRejectWithdrawal, { id: String(order.id), reason: 'x y' }, { token })).ret).toBe(0);
  }
});

it('reward terms: amounts with too many decimals, negative, huge, exponent, non-ASCII digits', async () => {
  const weird = [
    '-1',
    '1e3',
    '1E2',
    '0.000000001',
    '١٠',
    '१०',
    '１０',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    '+5',
    '0x10',
    '5.',
    '.5',
    '1,000',
    '1_000',
    '٥.٥',
  ];
  const report: Record<string, string[]> = {};
  for (const value of weird) {
    const tries: [string, () => Promise<{ ret: number; msg: string }>][] = [
      ['referral', () => h.call(r.consoleSetReferralReward, { amount: value }, { token: writer })],
      ['welfare', () => h.call(r.consoleChangeWelfareTask, { code: 'first_option', reward: value }, { token: writer })],
      ['drawcost', () => h.call(r.consoleSetDrawCost, { points: value }, { token: writer })],
      ['ladder', () => h.call(r.consoleSetCheckInLadder, { ladder: `${value},5,10,10,15,20,40` }, { token: writer })],
      ['house', () => h.call(hc.consoleChangeHouseCaps, { per_order: value }, { token: admin })],
      [
        'prize usdt',
        () =>
          h.call(
            r.consolePublishPrizeTable,
            { table: `Win:USDT:${value}:400000;Thanks for playing:POINT:0:600000` },
            { token: writer },
          ),
      ],
      [
        'prize weight',
        () =>
          h.call(
            r.consolePublishPrizeTable,
            { table: `Win:USDT:1:${value};Thanks for playing:POINT:0:600000` },
            { token: writer },
          ),
      ],
    ];
    for (const [name, run] of tries) {
      const a = await run();
      if (a.ret === 1) (report[name] ??= []).push(value);
    }
  }
  expect(report).toEqual({});
});
