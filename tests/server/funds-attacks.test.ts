// Money outside trading, tried by a hostile customer on a real PostgreSQL: a reward claimed, a check-in tapped or a
// recharge reported while the same customer's closure commits, and a referral reward for a friend who is the inviter
// (the same identity document) or whose account closed. No closed account is credited or owes a review, no inviter is
// paid for themselves, and the books balance after each. Kept as guards, attacks that held: redemptions at once beyond
// the points held, and an operator's approval and another's rejection of one withdrawal at once.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  customer,
  expectLedgerBalanced,
  grant,
  refused,
  registerByPhone,
  rowLocked,
  waitersOnLocks,
} from './helpers.ts';
import { addTronWallet, certifyPrimary, newHash, ops, withdraw } from './funds-helpers.ts';
import { redeemPoints } from '../../src/api-contract/rewards.ts';
import { approveWithdrawalAs, rejectWithdrawalAs } from '../../src/server/domain/operator-reviews.ts';
import { operatorToken } from './console-helpers.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { dailyCheckIn } from '../../src/api-contract/check-in.ts';
import { claimWelfare } from '../../src/api-contract/welfare.ts';
import { submitRecharge } from '../../src/api-contract/funds.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { consoleSetReferralReward } from '../../src/api-contract/console-rewards.ts';
import {
  balances,
  closedAccounts,
  rechargeOrders,
  referralRewards,
  withdrawOrders,
} from '../../src/server/db/schema.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';

let h: Harness;
let writer: string;
beforeAll(async () => {
  h = await startHarness();
  await seedWelfare(h.database.db);
  writer = await operatorToken(h, 'cora', 'content');
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

/** What a write of a customer whose closure committed first is answered. */
const LOGIN_ENDED = refused('Your login has expired, please log in again!');

const NOT_ENOUGH_POINTS = refused('Not enough points!');

const close = (token: string) => h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD }, { token });
const nonZeroBalances = async (userId: number) =>
  (await h.database.db.select().from(balances).where(eq(balances.userId, userId))).filter(
    (row) => Number(row.available) !== 0 || Number(row.frozen) !== 0,
  );
const closed = async (userId: number) =>
  (await h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, userId))).length === 1;

/**
 * Runs `write` (a call of the customer `user`) while the customer's closure is ahead of it: the closure takes the
 * customer's row and waits on the POINT balance row, held here, and `write` starts behind it; released, the closure
 * commits first. Answers the write's answer and the closure's.
 */
async function behindClosure<T>(user: { id: number; token: string }, write: () => Promise<T>) {
  // The POINT row exists (a check-in's reward would else make it afresh, beside the closure's locks).
  await h.database.db.insert(balances).values({ userId: user.id, asset: 'POINT' }).onConflictDoNothing();
  const held = await rowLocked(
    h,
    sql`select 1 from balances where user_id = ${user.id} and asset = 'POINT' for update`,
  );
  const closing = close(user.token);
  await waitersOnLocks(h.database.db, 1);
  const writing = write();
  await waitersOnLocks(h.database.db, 2);
  await held.release();
  return { closure: await closing, write: await writing };
}

it('a check-in racing the closure credits no closed account', async () => {
  const user = await customer(h);
  const { closure, write } = await behindClosure(user, () => h.call(dailyCheckIn, {}, { token: user.token }));
  expect(closure.ret).toBe(1);
  expect(await closed(user.id)).toBe(true);
  expect(write).toEqual(LOGIN_ENDED);
  expect(await nonZeroBalances(user.id)).toEqual([]);
});

it('a welfare reward claimed racing the closure credits no closed account', async () => {
  const user = await customer(h);
  await certifyPrimary(h, user.token, { number: 'WF100200' });
  const { closure, write } = await behindClosure(user, () =>
    h.call(claimWelfare, { code: 'primary_certification' }, { token: user.token }),
  );
  expect(closure.ret).toBe(1);
  expect(write).toEqual(LOGIN_ENDED);
  expect(await nonZeroBalances(user.id)).toEqual([]);
});

it('a recharge reported racing the closure leaves no closed account with a recharge to review', async () => {
  const user = await customer(h);
  const { closure, write } = await behindClosure(user, () =>
    h.call(submitRecharge, { kind: 'crypto', channel_id: '1', amount: '100', hash: newHash() }, { token: user.token }),
  );
  expect(closure.ret).toBe(1);
  expect(write).toEqual(LOGIN_ENDED);
  expect(await h.database.db.select().from(rechargeOrders).where(eq(rechargeOrders.userId, user.id))).toEqual([]);
});

const rewardsOf = (inviterId: number) =>
  h.database.db.select().from(referralRewards).where(eq(referralRewards.inviterId, inviterId));

it('pays no referral reward for a friend who is the inviter: the same identity document, however it is written', async () => {
  expect((await h.call(consoleSetReferralReward, { amount: '5' }, { token: writer, ip: '203.0.113.30' })).ret).toBe(1);
  const inviter = await customer(h);
  await certifyPrimary(h, inviter.token, { number: 'SR123456' });
  const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
  const second = await registerByPhone(h, undefined, { invite });
  await certifyPrimary(h, second.token, { number: 'sr-123 456' });
  expect(await rewardsOf(inviter.id)).toEqual([]);
  expect(await nonZeroBalances(inviter.id)).toEqual([]);
  // A real friend, another document, pays.
  const friend = await registerByPhone(h, undefined, { invite });
  await certifyPrimary(h, friend.token, { number: 'SR654321' });
  expect((await rewardsOf(inviter.id)).map((row) => row.amount)).toEqual(['5.00000000']);
});

it('pays no referral reward for a friend whose account closed before the certification was verified', async () => {
  const inviter = await customer(h);
  const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
  const friend = await registerByPhone(h, undefined, { invite });
  const certification = await certifyPrimary(h, friend.token, { number: 'CF778899', verify: false });
  expect((await close(friend.token)).ret).toBe(1);
  // The closure ended the certification in review: an operator can no longer approve it.
  expect(await ops(h, 'certification', 'approve', String(certification))).toMatchObject({ ok: false });
  expect(await rewardsOf(inviter.id)).toEqual([]);
  expect(await nonZeroBalances(inviter.id)).toEqual([]);
});

it('held: ten redemptions at once of 300 points each out of 1,000 take exactly three, never below zero', async () => {
  const user = await customer(h);
  await grant(h, user.id, '1000', 'POINT');
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => h.call(redeemPoints, { number: '300' }, { token: user.token })),
  );
  expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(3);
  expect(answers.filter((answer) => answer.ret !== 1)).toEqual(Array.from({ length: 7 }, () => NOT_ENOUGH_POINTS));
  const held = await h.database.db.select().from(balances).where(eq(balances.userId, user.id));
  expect(Object.fromEntries(held.map((row) => [row.asset, Number(row.available)]))).toEqual({ POINT: 100, USDT: 9 });
});

it('held: an approval and a rejection of one withdrawal at once: exactly one applies, the funds leave or return once', async () => {
  const user = await customer(h, '101');
  const wallet = await addTronWallet(h, user.token);
  const order = (await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '100' })).data;
  const actor = (name: string) => ({ operatorId: null, name, address: 'local' });
  const now = h.clock.now();
  const outcomes = await Promise.allSettled([
    h.database.db.transaction((tx) => approveWithdrawalAs(tx, actor('ann'), order.id, {}, now, '10000')),
    h.database.db.transaction((tx) => rejectWithdrawalAs(tx, actor('reviewer2'), order.id, 'Address flagged', now)),
  ]);
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  const [row] = await h.database.db.select().from(withdrawOrders).where(eq(withdrawOrders.id, order.id));
  const [usdt] = await h.database.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, user.id), eq(balances.asset, 'USDT')));
  expect([row!.status, Number(usdt!.available), Number(usdt!.frozen)]).toEqual(
    row!.status === 'success' ? ['success', 0, 0] : ['fail', 101, 0],
  );
});
