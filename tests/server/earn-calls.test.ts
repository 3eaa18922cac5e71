// Earn through the calls a customer makes and the day-end jobs: subscribing moves USDT
// into the liquidity balance and earns from the next interest day with that day's ladder; quick
// redemption is at once and capped per day; standard redemption is submitted → waiting → confirmed
// and still earns on its day; a lock-up order pays its income per day and its principal at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { EARN_ZONE, liquidityOf, toEarnDay, usdtOf } from './earn-helpers.ts';
import { customer, expectLedgerBalanced, grant, statementsSent } from './helpers.ts';
import { earnBalance } from '../../src/api-contract/earn.ts';
import {
  liquidityProduct,
  liquidityRecords,
  transferIn,
  transferOut,
  transferOutInfo,
} from '../../src/api-contract/liquidity.ts';
import { lockupOrders, lockupProducts, lockupSubscribe, type RegularBalance } from '../../src/api-contract/lockup.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // 2026-11-22 08:00 UTC is 15:00 in Bangkok: interest day 2026-11-22.
});
afterAll(() => h.close());

describe('liquidity', () => {
  it('publishes the product and the ladder without a login', async () => {
    const res = await h.call(liquidityProduct);
    expect(res).toMatchObject({
      ret: 1,
      data: {
        min_amount: '10',
        quick_daily_max: '30000000',
        ladder: [
          { up_to: '1000', rate: '0.06' },
          { up_to: '10000', rate: '0.04' },
          { up_to: null, rate: '0.025' },
        ],
        today: '2026-11-22',
        timezone: EARN_ZONE,
        standard_payout_days: 1,
      },
    });
  });

  it('subscribes, earns from the next day on the marginal ladder, compounds, and redeems quick and standard', async () => {
    const user = await customer(h, '5000');
    expect(await h.call(transferIn, { amount: '9.99' }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'The minimum amount is: 10 USDT!',
      data: null,
    });
    expect(await h.call(transferIn, { amount: '6000' }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'Insufficient balance!',
      data: null,
    });
    const sub = await h.call(transferIn, { amount: '2000' }, { token: user.token });
    expect(sub).toMatchObject({
      ret: 1,
      data: { kind: 'subscribe', amount: '2000.00000000', day: '2026-11-22', status: 'done' },
    });
    expect(await usdtOf(h, user.token)).toBe('3000.00000000');
    expect(await liquidityOf(h, user.token)).toMatchObject({
      principal: '2000.00000000',
      earning_today: '0.00000000',
      yesterday_interest: '0.00000000',
    });

    // Day 22 closes: nothing earned (subscribed that day). Day 23 earns on 2,000: (1000×6 % + 1000×4 %) / 365.
    await toEarnDay(h, '2026-11-23', 9);
    expect(await liquidityOf(h, user.token)).toMatchObject({
      principal: '2000.00000000',
      earning_today: '2000.00000000',
      yesterday_interest: '0.00000000',
      effective_rate: '0.0500',
    });
    await toEarnDay(h, '2026-11-24', 9);
    expect(await liquidityOf(h, user.token)).toMatchObject({
      principal: '2000.27397260',
      yesterday_interest: '0.27397260',
      total_interest: '0.27397260',
    });

    // Quick: at once, without that day's interest on the part redeemed.
    const quick = await h.call(transferOut, { amount: '500', mode: 'quick' }, { token: user.token });
    expect(quick).toMatchObject({ ret: 1, data: { kind: 'redeem', mode: 'quick', status: 'done', day: '2026-11-24' } });
    expect(await usdtOf(h, user.token)).toBe('3500.00000000');
    // Standard: still earning today, paid at the end of tomorrow.
    const standard = await h.call(transferOut, { amount: '300', mode: 'standard' }, { token: user.token });
    expect(standard).toMatchObject({ ret: 1, data: { mode: 'standard', status: 'submitted', pay_day: '2026-11-25' } });
    expect(await liquidityOf(h, user.token)).toMatchObject({
      principal: '1200.27397260',
      redeeming: '300.00000000',
      earning_today: '1500.27397260',
    });

    await toEarnDay(h, '2026-11-25', 9);
    // 1,500.2739726 earned: 1000 × 6 % + 500.2739726 × 4 % = 80.01095890 a year → 0.21920810 a day.
    expect(await liquidityOf(h, user.token)).toMatchObject({
      principal: '1200.49318070',
      yesterday_interest: '0.21920810',
      redeeming: '300.00000000',
    });
    const [waiting] = (await h.call(liquidityRecords, { kind: 'redeem' }, { token: user.token })).data.lists;
    expect(waiting).toMatchObject({ id: standard.data.id, status: 'waiting' });

    await toEarnDay(h, '2026-11-26', 9);
    const [confirmed] = (await h.call(liquidityRecords, { kind: 'redeem' }, { token: user.token })).data.lists;
    expect(confirmed).toMatchObject({ id: standard.data.id, status: 'confirmed' });
    expect(confirmed!.paid_at).not.toBeNull();
    expect(await usdtOf(h, user.token)).toBe('3800.00000000');
    expect(await liquidityOf(h, user.token)).toMatchObject({ redeeming: '0.00000000' });
    const interest = (await h.call(liquidityRecords, { kind: 'interest' }, { token: user.token })).data.lists.map(
      (r) => [r.day, r.amount],
    );
    expect(interest.slice(-2)).toEqual([
      ['2026-11-24', '0.21920810'],
      ['2026-11-23', '0.27397260'],
    ]);
    await expectLedgerBalanced(h);
  });

  it('a subscription and a redemption send their statements within a bound', async () => {
    const user = await customer(h, '1000');
    // The fewest of three: a statement the harness sends meanwhile (a timer's) may be counted in one of them.
    const sent: number[] = [];
    for (let n = 0; n < 3; n++) {
      const before = await statementsSent();
      expect((await h.call(transferIn, { amount: '100' }, { token: user.token })).ret).toBe(1);
      sent.push((await statementsSent()) - before);
    }
    // Measured on PostgreSQL: 7 (begin, the account's lock and the pre-trade checks' reads, the liquidity row made or
    // locked in one statement, the record with the USDT it takes, the liquidity credit, commit); 9 when the row was
    // made and locked in two and the record and its debit were two.
    expect(Math.min(...sent)).toBeLessThanOrEqual(7);
    expect(await usdtOf(h, user.token)).toBe('700.00000000');
    const redeeming: Record<string, number[]> = { quick: [], standard: [] };
    for (const mode of ['quick', 'standard', 'quick', 'standard'] as const) {
      const before = await statementsSent();
      expect((await h.call(transferOut, { amount: '10', mode }, { token: user.token })).ret).toBe(1);
      redeeming[mode]!.push((await statementsSent()) - before);
    }
    // Measured: a quick redemption 6 (begin, the liquidity row locked, today's quick redemptions summed, the record
    // with its debit, the USDT credit, commit), a standard one 4 (begin, the lock, the record with its freeze, commit);
    // 7 and 5 when the record was a statement of its own.
    expect(Math.min(...redeeming.quick!)).toBeLessThanOrEqual(6);
    expect(Math.min(...redeeming.standard!)).toBeLessThanOrEqual(4);
    expect(await usdtOf(h, user.token)).toBe('720.00000000');
    await expectLedgerBalanced(h);
  });

  it('caps quick redemption at 30,000,000 USDT a user a day and says what remains', async () => {
    const user = await customer(h);
    await grant(h, user.id, '40000000');
    expect((await h.call(transferIn, { amount: '40000000' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(transferOut, { amount: '29999990', mode: 'quick' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(transferOutInfo, {}, { token: user.token })).data).toMatchObject({
      quick_remaining: '10.00000000',
      quick_daily_max: '30000000',
    });
    expect(await h.call(transferOut, { amount: '10.01', mode: 'quick' }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'Quick redemption is limited to 30,000,000 USDT a day; 10 USDT remain today. Please choose standard redemption for more!',
      data: null,
    });
    expect((await h.call(transferOut, { amount: '1000000', mode: 'standard' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(transferOut, { amount: '10', mode: 'quick' }, { token: user.token })).ret).toBe(1);
  });
});

describe('lock-up', () => {
  it('pays the income each day of the period and the principal back at the end', async () => {
    const user = await customer(h, '2000');
    const products = (await h.call(lockupProducts)).data.lists;
    const week = products.find((p) => p.days === 7)!;
    expect(week).toMatchObject({ daily_rate: '0.0008', min_amount: '100', max_amount: '50000', remaining: null });
    expect(
      await h.call(lockupSubscribe, { product_id: String(week.id), amount: '99' }, { token: user.token }),
    ).toMatchObject({ ret: 0, msg: 'The minimum amount is: 100 USDT!' });
    expect(
      await h.call(lockupSubscribe, { product_id: String(week.id), amount: '50000.01' }, { token: user.token }),
    ).toMatchObject({
      ret: 0,
      msg: 'The maximum amount is: 50,000 USDT!',
    });
    const today = new Date(h.clock.now());
    const order = await h.call(lockupSubscribe, { product_id: String(week.id), amount: '1000' }, { token: user.token });
    expect(order.ret).toBe(1);
    const start = order.data.start_day;
    expect(order.data).toMatchObject({
      status: 'processing',
      daily_income: '0.80000000',
      earned: '0.00000000',
      days: 7,
    });
    expect(await usdtOf(h, user.token)).toBe('1000.00000000');
    expect((await h.call(earnBalance, { type: 'regular' }, { token: user.token })).data as RegularBalance).toEqual({
      type: 'regular',
      locked: '1000.00000000',
      earned: '0.00000000',
      processing: 1,
    });

    for (let i = 1; i <= 8; i++)
      await toEarnDay(h, new Date(today.getTime() + i * 86_400_000).toISOString().slice(0, 10), 9);
    const [ended] = (await h.call(lockupOrders, {}, { token: user.token })).data.lists;
    expect(ended).toMatchObject({ id: order.data.id, status: 'end', earned: '5.60000000', start_day: start });
    expect(ended!.ended_at).not.toBeNull();
    expect(await usdtOf(h, user.token)).toBe('2005.60000000');
    expect((await h.call(earnBalance, { type: 'regular' }, { token: user.token })).data as RegularBalance).toEqual({
      type: 'regular',
      locked: '0.00000000',
      earned: '5.60000000',
      processing: 0,
    });
    await expectLedgerBalanced(h);
  });

  it('a subscription sends its statements within a bound', async () => {
    const user = await customer(h, '1000');
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    await h.call(lockupSubscribe, { product_id: String(week.id), amount: '100' }, { token: user.token });
    // The fewest of three: a statement the harness sends meanwhile (a timer's) may be counted in one of them.
    const sent: number[] = [];
    for (let n = 0; n < 3; n++) {
      const before = await statementsSent();
      const order = { product_id: String(week.id), amount: '100' };
      expect((await h.call(lockupSubscribe, order, { token: user.token })).ret).toBe(1);
      sent.push((await statementsSent()) - before);
    }
    // Measured on PostgreSQL: 7 (begin, the account's lock and the pre-trade checks' reads, the quota taken with the
    // product read, the order with the USDT it takes, the credit of the locked-up balance, commit); 9 when the product
    // was read before its quota was taken and the order and its debit were two statements.
    expect(Math.min(...sent)).toBeLessThanOrEqual(7);
    await expectLedgerBalanced(h);
  });

  it('never sells more than a product quota', async () => {
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    const products = (await h.call(lockupProducts)).data.lists;
    const month = products.find((p) => p.days === 30)!;
    expect(await ops('lockup', String(month.id), 'quota=1500')).toMatchObject({ ok: true });
    const users = await Promise.all([customer(h, '1000'), customer(h, '1000'), customer(h, '1000')]);
    const results = await Promise.all(
      users.map((u) => h.call(lockupSubscribe, { product_id: String(month.id), amount: '600' }, { token: u.token })),
    );
    expect(results.filter((r) => r.ret === 1)).toHaveLength(2);
    expect(results.find((r) => r.ret === 0)).toMatchObject({ msg: 'Only 300 USDT of this product remain!' });
    expect((await h.call(lockupProducts)).data.lists.find((p) => p.id === month.id)!.remaining).toBe('300');
  });
});

describe('an amount of 0', () => {
  it('is told the same when subscribing, redeeming and subscribing a lock-up, and moves nothing', async () => {
    const user = await customer(h, '5000');
    expect((await h.call(transferIn, { amount: '100' }, { token: user.token })).ret).toBe(1);
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const same = { ret: 0, msg: 'Please enter a valid amount!', data: null };
    for (const zero of ['0', '0.00000000']) {
      expect(await h.call(transferIn, { amount: zero }, { token: user.token }), zero).toEqual(same);
      expect(await h.call(transferOut, { amount: zero, mode: 'quick' }, { token: user.token }), zero).toEqual(same);
      expect(await h.call(transferOut, { amount: zero, mode: 'standard' }, { token: user.token }), zero).toEqual(same);
      expect(
        await h.call(lockupSubscribe, { product_id: String(week.id), amount: zero }, { token: user.token }),
        zero,
      ).toEqual(same);
    }
    expect(await usdtOf(h, user.token)).toBe('4900.00000000');
    expect((await liquidityOf(h, user.token)).principal).toBe('100.00000000');
  });
});

describe('the operator publishes rates for days to come only', () => {
  it('refuses a ladder for today or the past, and a malformed one', async () => {
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    const today = (await h.call(liquidityProduct)).data.today;
    expect(await ops('ladder', today, '1000:0.06,*:0.03')).toMatchObject({ ok: false });
    expect(await ops('ladder', '2099-01-01', '1000:0.06,500:0.03,*:0.01')).toMatchObject({ ok: false });
    expect(await ops('ladder', '2099-01-01', '1000:6,*:0.03')).toMatchObject({ ok: false });
    expect(await ops('ladder', '2099-01-01', '1000:0.07,*:0.03')).toMatchObject({ ok: true });
    expect((await ops('ladders')).output).toContain('2099-01-01');
    // Two limits a float reads as the same number (both 1e17) are still two, in order: compared as decimals.
    expect(await ops('ladder', '2099-01-02', '100000000000000000:0.05,100000000000000001:0.04,*:0.03')).toMatchObject({
      ok: true,
    });
    expect(await ops('ladder', '2099-01-03', '100000000000000001:0.05,100000000000000000:0.04,*:0.03')).toMatchObject({
      ok: false,
    });
  });
});
