// A reviewer's day through the console API, on the same rules as `npm run ops`: a recharge
// approved shows in the customer's balance, a withdrawal rejected with a reason returns the funds and
// the customer reads the reason, a large withdrawal needs two different reviewers. Every action
// leaves exactly one audit entry with the record before and after; the log cannot be edited.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asc, gt, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import {
  addCard,
  balanceOf,
  cryptoRecharge,
  fundsState,
  ops,
  opsOk,
  uploadedPicture,
  withdrawn,
} from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import * as c from '../../src/api-contract/console.ts';
import { AUDIT_PAGE_SIZE } from '../../src/api-contract/console.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { rechargeOrder, submitRecharge, withdrawOrder } from '../../src/api-contract/funds.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { appendAudit, COMMAND_LINE } from '../../src/server/domain/audit-log.ts';

let h: Harness;
let reviewer1: string;
let reviewer2: string;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  reviewer1 = await operatorToken(h, 'reviewer1', 'reviewer');
  reviewer2 = await operatorToken(h, 'reviewer2', 'reviewer');
  admin = await operatorToken(h, 'root', 'admin');
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const REVIEWER_IP = '198.51.100.7';
const as = (token: string) => ({ token, ip: REVIEWER_IP });
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
/** Each audit entry as [action, operator, status before, status after]. */
const decisionsOf = (entries: Awaited<ReturnType<typeof auditSince>>) =>
  entries.map((entry) => [
    entry.action,
    entry.operator,
    (entry.before as { status: string }).status,
    (entry.after as { status: string }).status,
  ]);
const usdtOf = async (token: string) =>
  (await h.call(balances, {}, { token })).data.lists.find((row) => row.asset === 'USDT');

describe('a reviewer’s day', () => {
  it('sees the queues, approves a recharge, and the customer’s balance shows it; one audit entry, before and after', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '250');
    expect(await h.call(c.consoleQueues, {}, as(reviewer1))).toMatchObject({ ret: 1, data: { recharges: 1 } });
    expect(await h.call(c.consoleRecharges, {}, as(reviewer1))).toMatchObject({
      ret: 1,
      data: [{ id: order.id, amount: '250', status: 'pending', receipt: null }],
    });

    const since = await lastAuditId();
    const approved = await h.call(
      c.consoleApproveRecharge,
      { id: String(order.id), remark: 'seen on chain' },
      as(reviewer1),
    );
    expect(approved).toMatchObject({ ret: 1, data: { id: order.id, status: 'success', remark: 'seen on chain' } });
    expect(await usdtOf(user.token)).toEqual({ asset: 'USDT', available: '250.00000000', frozen: '0.00000000' });
    expect(await h.call(c.consoleQueues, {}, as(reviewer1))).toMatchObject({ data: { recharges: 0 } });

    const entries = await auditSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: 'reviewer1',
      address: REVIEWER_IP,
      action: 'recharge.approve',
      target: `recharge:${order.id}`,
    });
    expect(entries[0]!.before).toMatchObject({ id: order.id, status: 'pending', reviewedAt: null });
    expect(entries[0]!.after).toMatchObject({
      id: order.id,
      status: 'success',
      remark: 'seen on chain',
      reviewedAt: h.clock.now().toISOString(),
    });
    // A second approval of the same order changes nothing and logs nothing.
    expect((await h.call(c.consoleApproveRecharge, { id: String(order.id) }, as(reviewer2))).ret).toBe(0);
    expect(await auditSince(since)).toHaveLength(1);
  });

  it('approves a recharge only with a block height in digits and a visible remark; a refused one changes nothing', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '120');
    const id = String(order.id);
    const since = await lastAuditId();
    const heightFormat = refused('The block height is a whole number: digits only, or leave it empty.');
    const hidden = refused('Please remove invisible or direction-changing characters!');
    const attempts: [{ block_height?: string; remark?: string }, ReturnType<typeof refused>][] = [
      [{ block_height: '123\u202E456' }, hidden],
      [{ block_height: '٨٤٠\u200B١٢٣' }, hidden],
      [{ block_height: 'not a number <b>x</b>' }, heightFormat],
      [{ block_height: '12.5' }, heightFormat],
      [{ block_height: '١٢٫٥' }, heightFormat],
      [{ block_height: '-7' }, heightFormat],
      [{ block_height: '1,234' }, heightFormat],
      // One number in one script: two scripts mixed are two people's typing.
      [{ block_height: '84٠١23' }, heightFormat],
      [{ block_height: '1'.repeat(21) }, heightFormat],
      [{ remark: 'paid \u202Etxen\u202C' }, hidden],
      [{ remark: 'seen\u200Bon chain' }, hidden],
      [{ block_height: '840123', remark: 'ok \u202E' }, hidden],
    ];
    for (const [details, answer] of attempts)
      expect(
        await h.call(c.consoleApproveRecharge, { id, ...details }, as(reviewer1)),
        JSON.stringify(details),
      ).toEqual(answer);
    // The operator command applies the same rule.
    expect(await ops(h, 'recharge', 'approve', id, 'height=9\u202E9')).toMatchObject({ ok: false });
    expect(await ops(h, 'recharge', 'approve', id, 'remark=a\u200Bb')).toMatchObject({ ok: false });

    // Nothing changed: still pending, nothing credited, nothing logged, and the customer reads no height or remark.
    expect(await h.call(c.consoleRecharge, { id }, as(reviewer1))).toMatchObject({
      data: { status: 'pending', block_height: '', remark: '' },
    });
    expect(await h.call(rechargeOrder, { id }, { token: user.token })).toMatchObject({
      data: { status: 'pending', block_height: '', remark: '' },
    });
    expect(await usdtOf(user.token)).toBeUndefined();
    expect(await auditSince(since)).toHaveLength(0);

    const approved = await h.call(
      c.consoleApproveRecharge,
      { id, block_height: ' 840123 ', remark: 'Seen on chain ✓' },
      as(reviewer1),
    );
    expect(approved).toMatchObject({
      ret: 1,
      data: { status: 'success', block_height: '840123', remark: 'Seen on chain ✓' },
    });
    expect(await h.call(rechargeOrder, { id }, { token: user.token })).toMatchObject({
      data: { block_height: '840123', remark: 'Seen on chain ✓' },
    });
    expect(await usdtOf(user.token)).toEqual({ asset: 'USDT', available: '120.00000000', frozen: '0.00000000' });
  });

  it('reads a block height typed in Arabic-Indic, Devanagari or Thai digits as meant, in the console and the command', async () => {
    const user = await customer(h);
    const typed: [string, string][] = [
      ['٨٤٠١٢٣', '840123'],
      ['८४०१२४', '840124'],
      [' ๘๔๐๑๒๕ ', '840125'],
      ['８４０１２６', '840126'],
    ];
    for (const [height, kept] of typed) {
      const order = await cryptoRecharge(h, user.token, '10');
      const id = String(order.id);
      expect(await h.call(c.consoleApproveRecharge, { id, block_height: height }, as(reviewer1)), height).toMatchObject(
        {
          ret: 1,
          data: { status: 'success', block_height: kept },
        },
      );
      // The customer reads it in the recharge details as the chain's explorer writes it.
      expect(await h.call(rechargeOrder, { id }, { token: user.token })).toMatchObject({
        data: { block_height: kept },
      });
    }
    // The operator command reads the same digits by the same rule.
    const order = await cryptoRecharge(h, user.token, '10');
    expect(await ops(h, 'recharge', 'approve', String(order.id), 'height=٨٤٠١٢٧')).toMatchObject({ ok: true });
    expect(await h.call(rechargeOrder, { id: String(order.id) }, { token: user.token })).toMatchObject({
      data: { status: 'success', block_height: '840127' },
    });
  });

  it('opens a bank recharge’s receipt: a reviewer’s console token reads the private picture, nobody else’s does', async () => {
    const user = await customer(h);
    const proof = await uploadedPicture(h, user.token);
    const res = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '3380', proof },
      { token: user.token },
    );
    expect(res.ret).toBe(1);
    const seen = await h.call(c.consoleRecharge, { id: String(res.data.id) }, as(reviewer1));
    expect(seen).toMatchObject({ ret: 1, data: { kind: 'bank', receipt: proof.replace('/api/uploads/', '') } });

    const picture = (token?: string) =>
      h.app.inject({ method: 'GET', url: `/api/uploads/${seen.data.receipt}`, headers: token ? { token } : {} });
    expect((await picture(reviewer1)).statusCode).toBe(200);
    expect((await picture(reviewer1)).headers['content-type']).toBe('image/png');
    expect((await picture(admin)).statusCode).toBe(404);
    expect((await picture((await customer(h)).token)).statusCode).toBe(404);
    expect((await picture()).statusCode).toBe(404);
    expect((await picture(user.token)).statusCode).toBe(200);
  });

  it('rejects a withdrawal with a reason: the funds come back and the customer reads the reason; no reason, no rejection', async () => {
    const user = await customer(h, '500');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
    const detail = await h.call(c.consoleWithdrawal, { id: String(order.id) }, as(reviewer1));
    expect(detail).toMatchObject({
      ret: 1,
      data: {
        withdrawal: { id: order.id, total: '101', approvals: [], approvals_needed: 1 },
        withdrawals: [{ id: order.id }],
      },
    });
    expect(detail.data.sign_ins.length).toBeGreaterThan(0);

    const since = await lastAuditId();
    const before = await fundsState(h, user.id);
    expect(await h.call(c.consoleRejectWithdrawal, { id: String(order.id), reason: '  ' }, as(reviewer1))).toEqual(
      refused('A rejection needs a reason the customer will see!'),
    );
    // The customer reads the reason: a direction override would show them other words than those recorded, a
    // zero-width space hides, and a reason of hidden characters alone says nothing.
    for (const reason of ['Payee \u202Eemaneht\u202C differs', 'Payee\u200Bname differs', '\u200B\u2066'])
      expect(await h.call(c.consoleRejectWithdrawal, { id: String(order.id), reason }, as(reviewer1)), reason).toEqual(
        refused(
          reason.startsWith('\u200B')
            ? 'A rejection needs a reason the customer will see!'
            : 'Please remove invisible or direction-changing characters!',
        ),
      );
    expect(await fundsState(h, user.id)).toEqual(before);
    expect(await auditSince(since)).toEqual([]);

    expect(
      await h.call(
        c.consoleRejectWithdrawal,
        { id: String(order.id), reason: 'The payee name differs from the account holder' },
        as(reviewer1),
      ),
    ).toMatchObject({
      ret: 1,
      data: { status: 'fail' },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '500.00000000', frozen: '0.00000000' });
    expect(await h.call(withdrawOrder, { id: String(order.id) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { status: 'fail', reason: 'The payee name differs from the account holder' },
    });
    const entries = await auditSince(since);
    expect(entries.map((entry) => [entry.action, entry.operator])).toEqual([['withdrawal.reject', 'reviewer1']]);
    // Reviewer2, whose page still showed it waiting, is told which order it was and how it was decided, in their
    // language.
    const funds = await fundsState(h, user.id);
    expect(await h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, as(reviewer2))).toEqual(
      refused(`Withdrawal ${order.order_no} was already reviewed (Rejected).`),
    );
    expect(
      await h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, { ...as(reviewer2), lang: 'zh' }),
    ).toEqual(refused(`提现 ${order.order_no} 已审核过（已驳回）。`));
    expect(await fundsState(h, user.id)).toEqual(funds);
    expect(entries[0]!.before).toMatchObject({ status: 'review', reason: '' });
    expect(entries[0]!.after).toMatchObject({
      status: 'fail',
      reason: 'The payee name differs from the account holder',
    });
  });

  it('pays a large withdrawal only on the approvals of two different reviewers; the same one twice is refused', async () => {
    const user = await customer(h, '30000');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20000' });
    const id = String(order.id);
    const since = await lastAuditId();

    const firstApprovedAt = h.clock.now().toISOString();
    expect(await h.call(c.consoleApproveWithdrawal, { id }, as(reviewer1))).toMatchObject({
      ret: 1,
      data: { status: 'review', approvals: ['reviewer1'], approvals_needed: 2 },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '9800.00000000', frozen: '20200.00000000' });
    // The second reviewer's page reads who approved first and when.
    h.clock.advance(60_000);
    expect(await h.call(c.consoleWithdrawal, { id }, as(reviewer2))).toMatchObject({
      ret: 1,
      data: { approved_by_you: false, approved: [{ operator: 'reviewer1', at: firstApprovedAt }] },
    });
    expect(await h.call(c.consoleApproveWithdrawal, { id }, as(reviewer1))).toEqual(
      refused('You already approved this withdrawal: a second approval must come from another reviewer!'),
    );
    expect(await h.call(c.consoleWithdrawals, {}, as(reviewer2))).toMatchObject({
      data: [{ id: order.id, approvals: ['reviewer1'], approvals_needed: 2 }],
    });

    // The customer reads and copies the payout's reference: no space, hidden or direction-changing character in it.
    for (const hash of ['0xabc\u200Bdef123', 'payout tx 1', 'tx\u202E1-tuoyap', 'ab', 'x'.repeat(129)])
      expect(await h.call(c.consoleApproveWithdrawal, { id, hash }, as(reviewer2)), hash).toEqual(
        refused('The payout’s transaction hash or transfer reference is 4 to 128 letters, digits or dashes.'),
      );
    expect(await balanceOf(h, user.id)).toEqual({ available: '9800.00000000', frozen: '20200.00000000' });
    expect(await h.call(c.consoleApproveWithdrawal, { id, hash: 'payout-tx-1' }, as(reviewer2))).toMatchObject({
      ret: 1,
      data: { status: 'success', hash: 'payout-tx-1', approvals: ['reviewer1', 'reviewer2'] },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '9800.00000000', frozen: '0.00000000' });
    const entries = await auditSince(since);
    expect(decisionsOf(entries)).toEqual([
      ['withdrawal.approve', 'reviewer1', 'review', 'review'],
      ['withdrawal.approve', 'reviewer2', 'review', 'success'],
    ]);
    expect(entries[0]!.after).toMatchObject({ approvals: ['reviewer1'] });
  });

  it('credits a large recharge only on the approvals of two different reviewers; the same one twice is refused', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '20000');
    const id = String(order.id);
    const since = await lastAuditId();
    const secondNeeded = 'You already approved this recharge: a second approval must come from another reviewer!';

    // The block height and remark go with the approval that credits: given with the first, nothing is recorded.
    expect(await h.call(c.consoleApproveRecharge, { id, remark: 'seen on chain' }, as(reviewer1))).toEqual(
      refused('The first of two approvals credits nothing: give the block height and remark with the second.'),
    );
    expect(await auditSince(since)).toEqual([]);
    const firstApprovedAt = h.clock.now().toISOString();
    expect(await h.call(c.consoleApproveRecharge, { id }, as(reviewer1))).toMatchObject({
      ret: 1,
      data: { status: 'pending', approvals: ['reviewer1'], approvals_needed: 2 },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    expect(await h.call(c.consoleApproveRecharge, { id }, as(reviewer1))).toEqual(refused(secondNeeded));
    expect(await h.call(c.consoleApproveRecharge, { id }, { ...as(reviewer1), lang: 'zh' })).toEqual(
      refused('您已批准过此充值：第二次批准必须由另一位审核员完成！'),
    );
    // The second reviewer's page and list read who approved first and when.
    h.clock.advance(60_000);
    expect(await h.call(c.consoleRecharge, { id }, as(reviewer2))).toMatchObject({
      ret: 1,
      data: { approved_by_you: false, approved: [{ operator: 'reviewer1', at: firstApprovedAt }], approvals_needed: 2 },
    });
    expect((await h.call(c.consoleRecharge, { id }, as(reviewer1))).data.approved_by_you).toBe(true);
    expect((await h.call(c.consoleRecharges, {}, as(reviewer2))).data).toContainEqual(
      expect.objectContaining({ id: order.id, approvals: ['reviewer1'], approvals_needed: 2 }),
    );

    expect(await h.call(c.consoleApproveRecharge, { id, remark: 'seen on chain' }, as(reviewer2))).toMatchObject({
      ret: 1,
      data: { status: 'success', remark: 'seen on chain', approvals: ['reviewer1', 'reviewer2'] },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '20000.00000000', frozen: '0.00000000' });
    const entries = await auditSince(since);
    expect(decisionsOf(entries)).toEqual([
      ['recharge.approve', 'reviewer1', 'pending', 'pending'],
      ['recharge.approve', 'reviewer2', 'pending', 'success'],
    ]);
    expect(entries[0]!.after).toMatchObject({ approvals: ['reviewer1'] });
  });

  it('ends a large recharge approved once with a rejection by anyone: nothing is credited', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '10000.5');
    const id = String(order.id);
    expect((await h.call(c.consoleApproveRecharge, { id }, as(reviewer1))).data).toMatchObject({
      status: 'pending',
      approvals: ['reviewer1'],
    });
    expect(
      await h.call(c.consoleRejectRecharge, { id, reason: 'No such transfer on chain' }, as(reviewer1)),
    ).toMatchObject({
      ret: 1,
      data: { status: 'rejected', approvals: ['reviewer1'], approvals_needed: 2 },
    });
    expect((await h.call(c.consoleApproveRecharge, { id }, as(reviewer2))).ret).toBe(0);
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    // At the amount, one approval credits.
    const small = await cryptoRecharge(h, user.token, '10000');
    expect(await h.call(c.consoleApproveRecharge, { id: String(small.id) }, as(reviewer1))).toMatchObject({
      data: { status: 'success', approvals_needed: 1 },
    });
  });

  it('counts the command line as one approver of a large recharge, "ops": it cannot credit it alone', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '15000');
    expect(await opsOk(h, 'recharge', 'approve', String(order.id))).toMatch(
      /approval 1 of 2 recorded \(ops\); another reviewer must approve it too\.$/,
    );
    expect(await ops(h, 'recharge', 'approve', String(order.id))).toEqual({
      ok: false,
      output: 'You already approved this recharge: a second approval must come from another reviewer!',
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    expect(await h.call(c.consoleApproveRecharge, { id: String(order.id) }, as(reviewer2))).toMatchObject({
      data: { status: 'success', approvals: ['ops', 'reviewer2'] },
    });
    expect((await balanceOf(h, user.id)).available).toBe('15000.00000000');
  });

  it('takes no payout hash with the first of two approvals: nothing is recorded, the hash waits for the payout', async () => {
    const user = await customer(h, '30000');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20000' });
    const id = String(order.id);
    const since = await lastAuditId();
    const firstOfTwo =
      'The first of two approvals pays nothing out: send the payout after the second and record its hash then.';

    // A hash says money left: with one approval of two it would be lost, and the second reviewer would pay again.
    expect(await h.call(c.consoleApproveWithdrawal, { id, hash: 'payout-tx-1' }, as(reviewer1))).toEqual(
      refused(firstOfTwo),
    );
    expect(await ops(h, 'withdrawal', 'approve', id, 'hash=payout-tx-1')).toEqual({ ok: false, output: firstOfTwo });
    expect(await h.call(c.consoleWithdrawals, {}, as(reviewer2))).toMatchObject({
      data: [{ id: order.id, status: 'review', approvals: [], approvals_needed: 2 }],
    });
    expect(await auditSince(since)).toEqual([]);

    expect(await h.call(c.consoleApproveWithdrawal, { id }, as(reviewer1))).toMatchObject({
      data: { status: 'review', approvals: ['reviewer1'] },
    });
    expect(await h.call(c.consoleApproveWithdrawal, { id, hash: 'payout-tx-2' }, as(reviewer2))).toMatchObject({
      data: { status: 'success', hash: 'payout-tx-2', approvals: ['reviewer1', 'reviewer2'] },
    });
    expect(await h.call(withdrawOrder, { id }, { token: user.token })).toMatchObject({
      data: { status: 'success', hash: 'payout-tx-2' },
    });
  });

  it('counts the command line as one approver, "ops": it cannot approve a large withdrawal alone', async () => {
    const user = await customer(h, '30000');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '15000' });
    expect(await opsOk(h, 'withdrawal', 'approve', String(order.id))).toMatch(
      /approval 1 of 2 recorded \(ops\); another reviewer must approve it too\.$/,
    );
    expect(await ops(h, 'withdrawal', 'approve', String(order.id))).toEqual({
      ok: false,
      output: 'You already approved this withdrawal: a second approval must come from another reviewer!',
    });
    expect(await h.call(c.consoleApproveWithdrawal, { id: String(order.id) }, as(reviewer2))).toMatchObject({
      data: { status: 'success', approvals: ['ops', 'reviewer2'] },
    });
    // At or below the amount, one approval pays.
    const small = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
    expect(await opsOk(h, 'withdrawal', 'approve', String(small.id))).toMatch(/approved/);
  });

  it('shows a certification’s document pictures and verifies it; a rejection needs its reason', async () => {
    const user = await customer(h);
    const image = await uploadedPicture(h, user.token);
    await h.call(
      submitCertification,
      { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
      { token: user.token },
    );
    const [waiting] = (await h.call(c.consoleCertifications, {}, as(reviewer1))).data;
    expect(waiting).toMatchObject({
      user_id: user.id,
      level: 'primary',
      pictures: { front: image.replace('/api/uploads/', '') },
      status: 'review',
    });
    expect(await h.call(c.consoleRejectCertification, { id: String(waiting!.id), reason: '' }, as(reviewer1))).toEqual(
      refused('A rejection needs a reason the customer will see!'),
    );
    expect(await h.call(c.consoleApproveCertification, { id: String(waiting!.id) }, as(reviewer1))).toMatchObject({
      ret: 1,
      data: { status: 'verified' },
    });
    expect((await h.call(userInfo, {}, { token: user.token })).data).toMatchObject({ verification: 'verified' });
  });

  it('looks a customer up by mobile number or e-mail, read only: balances, ledger, orders', async () => {
    const user = await customer(h, '75');
    const found = await h.call(c.consoleFindCustomers, { query: user.phone }, as(reviewer1));
    expect(found).toMatchObject({ ret: 1, data: [{ id: user.id, phone: user.phone }] });
    await cryptoRecharge(h, user.token, '10');
    const detail = await h.call(c.consoleCustomer, { id: String(user.id) }, as(reviewer1));
    expect(detail).toMatchObject({
      ret: 1,
      data: {
        customer: { id: user.id },
        balances: [{ asset: 'USDT', available: '75', frozen: '0' }],
        ledger: [{ amount: '75', kind: 'test_credit' }],
        recharges: [{ amount: '10' }],
      },
    });
    expect((await h.call(c.consoleFindCustomers, { query: '%' }, as(reviewer1))).data).toEqual([]);
  });
});

describe('the audit log', () => {
  it('keeps the command line’s actions too, as "ops" from "local", and is searched by operator, action, target and day', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '40');
    await opsOk(h, 'recharge', 'reject', String(order.id), 'No such transfer on chain');
    const byOps = await h.call(c.consoleAuditLog, { operator: 'ops', action: 'recharge.reject' }, as(admin));
    expect(byOps).toMatchObject({
      ret: 1,
      data: { total: 1, next: null, lists: [{ operator: 'ops', address: 'local', target: `recharge:${order.id}` }] },
    });
    expect(byOps.data.lists[0]!.after).toMatchObject({ status: 'rejected', reason: 'No such transfer on chain' });

    const today = h.clock.now().toISOString().slice(0, 10);
    const all = await h.call(c.consoleAuditLog, { from: today, to: today }, as(admin));
    expect(all.data.total).toBeGreaterThan(5);
    expect((await h.call(c.consoleAuditLog, { to: '2020-01-01' }, as(admin))).data).toEqual({
      lists: [],
      next: null,
      total: 0,
    });
    expect((await h.call(c.consoleAuditLog, { target: `recharge:${order.id}` }, as(admin))).data.total).toBe(1);
    expect(await h.call(c.consoleAuditLog, { from: '2026-13-40' }, as(admin))).toEqual(
      refused('Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!'),
    );
    expect(await h.call(c.consoleAuditLog, {}, as(reviewer1))).toEqual(refused('Your role does not allow this!'));
  });

  it('pages newest first by a cursor: entries appended meanwhile neither repeat nor shift the older pages', async () => {
    const action = `test.paging${Date.now()}`;
    const append = (at: number) =>
      appendAudit(h.database.db, COMMAND_LINE, action, `item:${at}`, { before: null, after: { at } }, h.clock.now());
    for (let at = 0; at < AUDIT_PAGE_SIZE + 5; at += 1) await append(at);
    const targets = (page: { lists: { target: string }[] }) => page.lists.map((entry) => entry.target);
    const first = (await h.call(c.consoleAuditLog, { action }, as(admin))).data;
    expect(first.total).toBe(AUDIT_PAGE_SIZE + 5);
    expect(targets(first)[0]).toBe(`item:${AUDIT_PAGE_SIZE + 4}`);
    expect(first.next).toEqual(expect.any(String));
    // Three entries appended while the admin reads the first page: the next page continues where it stopped.
    for (const at of [100, 101, 102]) await append(at);
    const second = (await h.call(c.consoleAuditLog, { action, cursor: first.next! }, as(admin))).data;
    expect(targets(second)).toEqual(['item:4', 'item:3', 'item:2', 'item:1', 'item:0']);
    expect(second).toMatchObject({ next: null, total: AUDIT_PAGE_SIZE + 8 });
    expect(await h.call(c.consoleAuditLog, { action, cursor: '9.9' }, as(admin))).toMatchObject({ ret: 0 });
  });

  it('records the admin’s operator changes, and refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const since = await lastAuditId();
    const added = await h.call(c.consoleAddOperator, { name: 'reviewer3', role: 'content' }, as(admin));
    expect(added).toMatchObject({
      ret: 1,
      data: { name: 'reviewer3', role: 'content', otpauth_uri: expect.stringContaining('secret=') },
    });
    expect(await h.call(c.consoleDisableOperator, { name: 'root' }, as(admin))).toEqual(
      refused('You cannot disable your own account!'),
    );
    expect(await h.call(c.consoleDisableOperator, { name: 'reviewer3' }, as(admin))).toMatchObject({
      ret: 1,
      data: { disabled_at: expect.any(String) },
    });
    const entries = await auditSince(since);
    expect(entries.map((entry) => [entry.action, entry.operator, entry.target])).toEqual([
      ['operator.add', 'root', 'operator:reviewer3'],
      ['operator.disable', 'root', 'operator:reviewer3'],
    ]);
    // The first password and the secret are never logged.
    expect(JSON.stringify(entries)).not.toContain(added.data.password);

    const db = h.database.db;
    // Drizzle wraps the database's error: its cause carries the trigger's words.
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'done',
        (error: { cause?: Error }) => error.cause?.message,
      );
    expect(await refusal(db.execute(sql`update audit_log set operator = 'someone else'`))).toBe(
      'audit_log is append-only: UPDATE refused',
    );
    expect(await refusal(db.execute(sql`delete from audit_log where id = ${entries[0]!.id}`))).toBe(
      'audit_log is append-only: DELETE refused',
    );
    expect(await refusal(db.execute(sql`truncate audit_log`))).toBe('audit_log is append-only: TRUNCATE refused');
    expect(await auditSince(since)).toEqual(entries);
  });
});
