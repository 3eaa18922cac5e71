// What a reviewer weighs an order against, read through the console API: the payee's age, the
// customer's deposits at the USDT they credited (baht at the rate recorded when reported, not
// today's), USDT totals and the balance history read from the ledger. And the audit log as an
// operator in another zone reads it: filtered by action prefix and by the operator's own day, each
// entry's change as a field-by-field difference.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import { addCard, approvedRecharge, cryptoRecharge, opsOk, uploadedPicture, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import * as c from '../../src/api-contract/console.ts';
import { submitRecharge } from '../../src/api-contract/funds.ts';
import { fiatRates } from '../../src/server/db/schema.ts';
import { post } from '../../src/server/domain/ledger.ts';
import { appendAudit, COMMAND_LINE } from '../../src/server/domain/audit-log.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let h: Harness;
let reviewer: string;
let admin: string;
let operators = 0;
/** Fresh operator sessions after the clock moved past their idle limit. */
async function signInOperators() {
  reviewer = await operatorToken(h, `rita${++operators}`, 'reviewer');
  admin = await operatorToken(h, `root${operators}`, 'admin');
}
beforeAll(async () => {
  h = await startHarness({ payeeCoolingMs: 24 * HOUR });
  await signInOperators();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

/** A bank recharge of `baht` THB, reported now (credited at the THB rate of this moment). */
async function bahtRecharge(token: string, baht: string) {
  const proof = await uploadedPicture(h, token);
  const res = await h.call(submitRecharge, { kind: 'bank', channel_id: '4', amount: baht, proof }, { token });
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1 });
  return res.data;
}
const setBahtRate = (rate: string) => h.database.db.update(fiatRates).set({ rate }).where(eq(fiatRates.code, 'THB'));

describe('the withdrawal page', () => {
  it('shows the payee’s age, deposits in USDT at their recorded rate, the totals and the balance history', async () => {
    const user = await customer(h);
    const start = h.clock.now();
    // An entry older than the history's 30 days: not listed, yet part of the opening balance.
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: user.id, asset: 'USDT', amount: '10', kind: 'test_credit', reference: `old:${user.id}` },
        new Date(start.getTime() - 31 * DAY),
      ),
    );
    // 3380 baht at 33.80 credits 100 USDT; the rate then changes, and 1750 baht waits at 35 (50 USDT).
    await setBahtRate('33.80');
    const baht = await bahtRecharge(user.token, '3380');
    await opsOk(h, 'recharge', 'approve', String(baht.id));
    await setBahtRate('35');
    const waiting = await bahtRecharge(user.token, '1750');
    await approvedRecharge(h, user.token, '250.5');
    await setBahtRate('33.80');

    const card = await addCard(h, user.token);
    h.clock.advance(25 * HOUR);
    const paid = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '30' });
    await opsOk(h, 'withdrawal', 'approve', String(paid.id));
    h.clock.advance(HOUR);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '120' });
    await signInOperators();

    const detail = await h.call(c.consoleWithdrawal, { id: String(order.id) }, { token: reviewer });
    expect(detail.ret, detail.msg).toBe(1);
    const { data } = detail;
    expect(data.withdrawal).toMatchObject({ amount: '120', usdt_value: '120' });
    expect(data.payee).toEqual({
      saved_at: card.created_at,
      usable_at: new Date(Date.parse(card.created_at) + 24 * HOUR).toISOString(),
      cooled: true,
      saved_before_seconds: 26 * 3600,
    });
    expect(data.deposits.map((row) => [row.currency, row.amount, row.rate, row.status, row.usdt_value])).toEqual([
      ['USDT', '250.5', '1', 'success', '250.5'],
      ['THB', '1750', '35', 'pending', '50'],
      ['THB', '3380', '33.8', 'success', '100'],
    ]);
    expect(data.deposits[1]!.id).toBe(waiting.id);
    expect(data.totals).toEqual({
      deposits_credited: '350.5',
      deposits_waiting: '50',
      withdrawals_paid: '30',
      withdrawals_waiting: '120',
      net: '320.5',
      not_in_usdt: 0,
    });
    // Every USDT posting of the last 30 days, the balance after it (the fee is 1 %: 30.3 and 121.2 frozen). A freeze
    // is one point: its two entries never show the balance between them (330.2 with nothing frozen yet).
    expect(data.balance_history.opening).toEqual({ available: '10', frozen: '0' });
    expect(data.balance_history.capped).toBe(false);
    expect(
      data.balance_history.points.map((point) => [
        point.kind,
        point.available_change,
        point.frozen_change,
        point.available,
        point.frozen,
        point.total,
      ]),
    ).toEqual([
      ['recharge', '100', '0', '110', '0', '110'],
      ['recharge', '250.5', '0', '360.5', '0', '360.5'],
      ['withdraw_freeze', '-30.3', '30.3', '330.2', '30.3', '360.5'],
      ['withdraw_paid', '0', '-30.3', '330.2', '0', '330.2'],
      ['withdraw_freeze', '-121.2', '121.2', '209', '121.2', '330.2'],
    ]);

    // The recharge page asks for the same history by the customer.
    const history = await h.call(c.consoleCustomerHistory, { id: String(user.id) }, { token: reviewer });
    expect(history.data).toEqual({
      deposits: data.deposits,
      withdrawals: data.withdrawals,
      totals: data.totals,
      balance_history: data.balance_history,
    });
    expect(await h.call(c.consoleCustomerHistory, { id: '999999' }, { token: reviewer })).toEqual(
      refused('This record does not exist!'),
    );
  });

  it('keeps a posting whole in the balance history where the cap falls between its two entries', async () => {
    const user = await customer(h, '100');
    const card = await addCard(h, user.token);
    h.clock.advance(25 * HOUR);
    await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '10' });
    // The freeze's two entries, then as many credits as leave room for one of them only under the cap.
    for (let n = 1; n < c.BALANCE_HISTORY_MAX; n++)
      await post(
        h.database.db,
        { userId: user.id, asset: 'USDT', amount: '0.5', kind: 'test_credit', reference: `cut:${user.id}:${n}` },
        h.clock.now(),
      );
    await signInOperators();
    const history = await h.call(c.consoleCustomerHistory, { id: String(user.id) }, { token: reviewer });
    const { points, opening, capped } = history.data.balance_history;
    expect(capped).toBe(true);
    expect(points).toHaveLength(c.BALANCE_HISTORY_MAX - 1);
    expect(new Set(points.map((point) => point.kind))).toEqual(new Set(['test_credit']));
    expect(opening).toEqual({ available: '89.9', frozen: '10.1' });
    expect(points[0]).toMatchObject({ available: '90.4', frozen: '10.1', total: '100.5' });
  });

  it('says a payee deleted since is gone, and caps the balance history at its newest entries', async () => {
    const user = await customer(h);
    for (let n = 1; n <= c.BALANCE_HISTORY_MAX + 5; n++)
      await post(
        h.database.db,
        { userId: user.id, asset: 'USDT', amount: '0.5', kind: 'test_credit', reference: `many:${user.id}:${n}` },
        h.clock.now(),
      );
    const history = await h.call(c.consoleCustomerHistory, { id: String(user.id) }, { token: reviewer });
    const { points, opening, capped } = history.data.balance_history;
    expect(capped).toBe(true);
    expect(points).toHaveLength(c.BALANCE_HISTORY_MAX);
    expect(opening).toEqual({ available: '2.5', frozen: '0' });
    expect(points.at(-1)).toMatchObject({ available: '102.5', total: '102.5' });

    const card = await addCard(h, user.token);
    h.clock.advance(25 * HOUR);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '10' });
    await h.database.db.execute(`delete from bank_cards where id = ${card.id}`);
    await signInOperators();
    const detail = await h.call(c.consoleWithdrawal, { id: String(order.id) }, { token: reviewer });
    expect(detail.data.payee).toBeNull();
    expect(detail.data.withdrawal.payee_account).toBeTruthy();
  });
});

describe('the audit log', () => {
  it('finds actions by their start, with LIKE’s wildcards taken literally', async () => {
    const user = await customer(h, '500');
    const card = await addCard(h, user.token);
    h.clock.advance(25 * HOUR);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '40' });
    await opsOk(h, 'withdrawal', 'reject', String(order.id), 'Payee name differs');
    await opsOk(h, 'recharge', 'reject', String((await cryptoRecharge(h, user.token, '20')).id), 'No transfer');
    await signInOperators();

    const all = await h.call(c.consoleAuditLog, { action: 'withdrawal' }, { token: admin });
    expect(all.data.total).toBeGreaterThan(0);
    expect(new Set(all.data.lists.map((entry) => entry.action.split('.')[0]))).toEqual(new Set(['withdrawal']));
    expect(all.data.lists.map((entry) => entry.target)).toContain(`withdrawal:${order.id}`);
    expect((await h.call(c.consoleAuditLog, { action: 'withdrawal.reject' }, { token: admin })).data.total).toBe(
      all.data.lists.filter((entry) => entry.action === 'withdrawal.reject').length,
    );
    for (const wildcard of ['withdrawal_', '%', 'withdrawal%reject', '_'])
      expect((await h.call(c.consoleAuditLog, { action: wildcard }, { token: admin })).data.total, wildcard).toBe(0);
  });

  it('filters by the operator’s own day: an entry at 20:30 UTC on the 26th is found under the 27th in Bangkok', async () => {
    const at = new Date('2026-11-26T20:30:00Z');
    await h.database.db.transaction((tx) =>
      appendAudit(tx, COMMAND_LINE, 'zone.check', 'zone:1', { before: null, after: { at: 'late' } }, at),
    );
    const find = async (from: string, to: string) =>
      (await h.call(c.consoleAuditLog, { target: 'zone:1', from, to }, { token: admin })).data.total;
    // Bangkok's 27 November: from its midnight (17:00 UTC on the 26th) to the next one.
    expect(await find('2026-11-27T00:00:00+07:00', '2026-11-28T00:00:00+07:00')).toBe(1);
    expect(await find('2026-11-26T00:00:00+07:00', '2026-11-27T00:00:00+07:00')).toBe(0);
    // The same instants written in UTC, and the old UTC-day form, which puts it on the 26th.
    expect(await find('2026-11-26T17:00:00.000Z', '2026-11-27T17:00:00.000Z')).toBe(1);
    expect(await find('2026-11-26', '2026-11-26')).toBe(1);
    expect(await find('2026-11-27', '2026-11-27')).toBe(0);
    expect(await h.call(c.consoleAuditLog, { from: '2026-11-27T25:00:00+07:00' }, { token: admin })).toEqual(
      refused('Write dates as YYYY-MM-DD!'),
    );
    expect(await h.call(c.consoleAuditLog, { from: '2026-11-27 00:00' }, { token: admin })).toEqual(
      refused('Write dates as YYYY-MM-DD!'),
    );
  });

  it('shows each entry’s change as the fields that differ, nested ones by path', async () => {
    const before = { status: 'review', amount: '10', payee: { name: 'Ann', tags: ['new'] }, gone: 1, same: null };
    const after = {
      status: 'success',
      amount: '10',
      payee: { name: 'Bo', tags: ['new', 'vip'] },
      same: null,
      note: '',
    };
    await h.database.db.transaction((tx) =>
      appendAudit(tx, COMMAND_LINE, 'diff.check', 'diff:1', { before, after }, h.clock.now()),
    );
    await h.database.db.transaction((tx) =>
      appendAudit(tx, COMMAND_LINE, 'diff.check', 'diff:2', { before: null, after: { name: 'new' } }, h.clock.now()),
    );
    const entries = (await h.call(c.consoleAuditLog, { action: 'diff.' }, { token: admin })).data.lists;
    expect(entries.map((entry) => [entry.target, entry.changes])).toEqual([
      ['diff:2', [{ path: 'name', before: null, after: '"new"' }]],
      [
        'diff:1',
        [
          { path: 'gone', before: '1', after: null },
          { path: 'note', before: null, after: '""' },
          { path: 'payee.name', before: '"Ann"', after: '"Bo"' },
          { path: 'payee.tags[1]', before: null, after: '"vip"' },
          { path: 'status', before: '"review"', after: '"success"' },
        ],
      ],
    ]);

    // A real review: only what the decision changed.
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '15');
    await opsOk(h, 'recharge', 'reject', String(order.id), 'No such transfer');
    const [entry] = (await h.call(c.consoleAuditLog, { target: `recharge:${order.id}` }, { token: admin })).data.lists;
    expect(entry!.changes.map((change) => change.path).sort()).toEqual(['reason', 'reviewedAt', 'status']);
    expect(entry!.changes).toContainEqual({ path: 'status', before: '"pending"', after: '"rejected"' });
  });
});
