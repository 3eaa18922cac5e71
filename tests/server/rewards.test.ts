// VIP levels by cumulative recharge and points: the level table with each level's start
// (realValue), the level a total reaches at exactly its start, and redemption of points for USDT at
// the configured rate, refused below the minimum or beyond what is held, with nothing moved.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant, refused } from './helpers.ts';
import { approvedRecharge, balanceOf, fundsState } from './funds-helpers.ts';
import { levelProgress, pointRecords, pointsValue, redeemPoints, vipLevels } from '../../src/api-contract/rewards.ts';
import { accountEntries } from '../../src/api-contract/funds.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { consoleApproveRecharge } from '../../src/api-contract/console.ts';
import { DEFAULT_FOUR_EYES_USDT } from '../../src/server/domain/operator-reviews.ts';
import { operatorToken } from './console-helpers.ts';
import Big from 'big.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

describe('VIP levels', () => {
  it('lists the levels; each starts (realValue) at 20 for the first, at the previous level’s value for the others', async () => {
    const user = await customer(h);
    expect(await h.call(vipLevels, {}, { token: user.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: {
        lists: [
          { level: 1, name: 'VIP1', value: '500', realValue: '20' },
          { level: 2, name: 'VIP2', value: '2000', realValue: '500' },
          { level: 3, name: 'VIP3', value: '10000', realValue: '2000' },
          { level: 4, name: 'VIP4', value: '50000', realValue: '10000' },
          { level: 5, name: 'VIP5', value: '200000', realValue: '50000' },
          { level: 6, name: 'VIP6', value: '1000000', realValue: '200000' },
        ],
        page: 1,
        total: 6,
      },
    });
  });

  let reviewerToken: Promise<string> | undefined;
  /** users/info and /task/level of a customer whose recharges of `amounts` were approved (above FOUR_EYES_USDT the
   * command's approval is the first of two: a console reviewer's credits it). */
  async function standingAfter(...amounts: string[]) {
    const user = await customer(h);
    for (const amount of amounts) {
      const order = await approvedRecharge(h, user.token, amount);
      if (!new Big(amount).gt(DEFAULT_FOUR_EYES_USDT)) continue;
      reviewerToken ??= operatorToken(h, 'rina', 'reviewer');
      const second = await h.call(consoleApproveRecharge, { id: String(order.id) }, { token: await reviewerToken });
      expect(second, JSON.stringify(second)).toMatchObject({ ret: 1, data: { status: 'success' } });
    }
    const info = (await h.call(userInfo, {}, { token: user.token })).data;
    const progress = (await h.call(levelProgress, {}, { token: user.token })).data;
    expect(progress.level).toBe(info.level);
    expect(progress.recharge_total).toBe(info.recharge_total);
    return progress;
  }

  it('reaches VIP1 at exactly 20 USDT, not a hundred-millionth before', async () => {
    expect(await standingAfter('19.99999999')).toEqual({
      level: 0,
      name: '',
      recharge_total: '19.99999999',
      next_level: 1,
      next_name: 'VIP1',
      next_start: '20',
      needed: '0.00000001',
    });
    expect(await standingAfter('10', '10')).toEqual({
      level: 1,
      name: 'VIP1',
      recharge_total: '20.00000000',
      next_level: 2,
      next_name: 'VIP2',
      next_start: '500',
      needed: '480.00000000',
    });
  });

  it('reaches VIP2 at exactly 500 USDT of cumulative recharge', async () => {
    expect(await standingAfter('20', '479.99999999')).toMatchObject({
      level: 1,
      recharge_total: '499.99999999',
      next_level: 2,
      needed: '0.00000001',
    });
    expect(await standingAfter('20', '480')).toEqual({
      level: 2,
      name: 'VIP2',
      recharge_total: '500.00000000',
      next_level: 3,
      next_name: 'VIP3',
      next_start: '2000',
      needed: '1500.00000000',
    });
  });

  it('at the top level there is no next one', async () => {
    expect(await standingAfter('1000000')).toEqual({
      level: 6,
      name: 'VIP6',
      recharge_total: '1000000.00000000',
      next_level: null,
      next_name: '',
      next_start: null,
      needed: '0.00000000',
    });
  });
});

describe('points', () => {
  /** A customer holding 1,000 points and no USDT. */
  async function pointHolder() {
    const user = await customer(h);
    await grant(h, user.id, '1000', 'POINT');
    return user;
  }

  it('shows the balance, the rule and the history', async () => {
    const user = await pointHolder();
    expect((await h.call(pointRecords, {}, { token: user.token })).data).toEqual({
      lists: [
        {
          id: expect.any(Number),
          amount: '1000',
          kind: 'test_credit',
          reference: expect.stringMatching(/^grant:/),
          created_at: h.clock.now().toISOString(),
        },
      ],
      next: null,
      usdt_per_point: '0.01',
      min_points: '100',
      balance: '1000',
    });
  });

  it('redeems points for USDT at 0.01 each: both balances move exactly and the history lists it', async () => {
    const user = await pointHolder();
    const usdt = pointsValue('250', '0.01');
    expect(usdt).toBe('2.50000000');
    expect(await h.call(redeemPoints, { number: '250' }, { token: user.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: { points: '250', usdt, balance: '750' },
    });
    expect(await balanceOf(h, user.id, 'POINT')).toEqual({ available: '750.00000000', frozen: '0.00000000' });
    expect(await balanceOf(h, user.id)).toEqual({ available: usdt, frozen: '0.00000000' });

    const history = (await h.call(pointRecords, {}, { token: user.token })).data;
    expect(history).toMatchObject({ next: null, balance: '750' });
    expect(history.lists.map(({ amount, kind }) => ({ amount, kind }))).toEqual([
      { amount: '-250', kind: 'points_redeem' },
      { amount: '1000', kind: 'test_credit' },
    ]);
    const credited = (await h.call(accountEntries, { setup: 'points' }, { token: user.token })).data.lists;
    expect(credited.map(({ asset, amount, kind, reference }) => ({ asset, amount, kind, reference }))).toEqual([
      { asset: 'USDT', amount: usdt, kind: 'points_redeem', reference: history.lists[0]!.reference },
    ]);

    // Everything that is left, at once.
    expect((await h.call(redeemPoints, { number: '750' }, { token: user.token })).data).toEqual({
      points: '750',
      usdt: '7.50000000',
      balance: '0',
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '10.00000000', frozen: '0.00000000' });
  });

  it('refuses fewer than 100 points, more than are held, or no number, and moves nothing', async () => {
    const user = await pointHolder();
    const before = await fundsState(h, user.id);
    expect(await h.call(redeemPoints, { number: '99' }, { token: user.token })).toEqual(
      refused('At least 100 points can be redeemed at a time!'),
    );
    expect(await h.call(redeemPoints, { number: '1001' }, { token: user.token })).toEqual(
      refused('Not enough points!'),
    );
    for (const number of ['', '0', '1.5', '-100', '100abc']) {
      expect(await h.call(redeemPoints, { number }, { token: user.token }), number).toEqual(
        refused('Please enter the number of points!'),
      );
    }
    expect(await fundsState(h, user.id)).toEqual(before);
    const none = await customer(h);
    expect(await h.call(redeemPoints, { number: '100' }, { token: none.token })).toEqual(refused('Not enough points!'));
    expect(await fundsState(h, none.id)).toMatchObject({ balances: [], entries: [] });
  });
});
