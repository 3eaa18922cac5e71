// Earn as a customer who tries to get more than the rules give, through the calls: the same liquidity
// money out and back in within a day, balances at the ladder's bounds and amounts at a lock-up's limits, redemptions
// and subscriptions racing each other and a withdrawal, one request sent twice, and what each refusal reads in every
// language; a lock-up subscription confirmed at terms an operator changed meanwhile, and a quota an operator lowered
// below what is sold; a quick redemption begun just before its day ended that commits after the day's jobs began; a
// lock-up subscribed again while the day-end job ends the customer's previous one, and a quick redemption made while
// it pays the customer's standard one.
// After each, the balances are the test's own arithmetic and the ledger explains them. (The day-end jobs run twice at
// once or killed, and moves at midnight, are earn-once.test.ts's.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import { eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { EARN_ZONE, earnTime, liquidityOf, toEarnDay, usdtOf } from './earn-helpers.ts';
import { customer, expectLedgerBalanced, grant, moneyState, refused, rowLocked, waitersOnLocks } from './helpers.ts';
import { addTronWallet, balanceOf, withdraw } from './funds-helpers.ts';
import { lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { dailyInterest, liquidityRecords, transferIn, transferOut } from '../../src/api-contract/liquidity.ts';
import { lockupOrders, lockupProducts as lockupProductRows } from '../../src/server/db/schema.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { DAILY_JOBS, runDueDays } from '../../src/server/jobs/daily.ts';

/** The ladder the harness seeds: 6 % up to 1,000, 4 % up to 10,000, 2.5 % above. */
const SEEDED = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function interestOf(token: string, day: string) {
  const lists = (await h.call(liquidityRecords, { kind: 'interest' }, { token })).data.lists;
  return lists.find((record) => record.day === day)?.amount ?? null;
}

describe('liquidity money taken out by quick redemption and put back the same day', () => {
  it('earns nothing that day on the part that was out, whatever came back later', async () => {
    // Each holder has 1,000 earning from the 23rd; on the 23rd they move in different orders.
    h.clock.set(earnTime('2026-11-22', 10));
    const backLater = await customer(h, '2000');
    const inThenOut = await customer(h, '2000');
    const twice = await customer(h, '2000');
    for (const user of [backLater, inThenOut, twice])
      expect((await h.call(transferIn, { amount: '1000' }, { token: user.token })).ret).toBe(1);
    await toEarnDay(h, '2026-11-23', 8);

    const move = async (user: { token: string }, hour: number, call: 'in' | 'quick', amount: string) => {
      h.clock.set(earnTime('2026-11-23', hour));
      const res =
        call === 'in'
          ? await h.call(transferIn, { amount }, { token: user.token })
          : await h.call(transferOut, { amount, mode: 'quick' }, { token: user.token });
      expect(res.ret).toBe(1);
    };
    // All of it out at 08:00, used elsewhere all day, back at 20:00: nothing was earning that day.
    await move(backLater, 8, 'quick', '1000');
    await move(backLater, 20, 'in', '1000');
    // New money first, then a redemption of as much: the redemption takes the new money, the 1,000 earns.
    await move(inThenOut, 8, 'in', '1000');
    await move(inThenOut, 20, 'quick', '1000');
    // 600 out, 1,000 in, 400 out: the 600 was out, the 400 came out of the new money.
    await move(twice, 8, 'quick', '600');
    await move(twice, 12, 'in', '1000');
    await move(twice, 20, 'quick', '400');

    expect((await liquidityOf(h, backLater.token)).earning_today).toBe('0.00000000');
    expect((await liquidityOf(h, inThenOut.token)).earning_today).toBe('1000.00000000');
    expect((await liquidityOf(h, twice.token)).earning_today).toBe('400.00000000');

    await toEarnDay(h, '2026-11-24', 1);
    expect(await interestOf(backLater.token, '2026-11-23')).toBeNull();
    expect(await interestOf(inThenOut.token, '2026-11-23')).toBe(dailyInterest('1000', SEEDED));
    expect(await interestOf(twice.token, '2026-11-23')).toBe(dailyInterest('400', SEEDED));
    expect((await liquidityOf(h, backLater.token)).principal).toBe('1000.00000000');
    expect(await usdtOf(h, backLater.token)).toBe('1000.00000000');
    await expectLedgerBalanced(h);
  });
});

describe('amounts at the edges', () => {
  it('a balance exactly at a tier bound, or a unit of the 8th decimal either side, earns each tier its rate', async () => {
    const day = '2026-11-24';
    h.clock.set(earnTime(day, 12));
    const principals = ['999.99999999', '1000', '1000.00000001', '9999.99999999', '10000', '10000.00000001'];
    const holders = [];
    for (const amount of principals) {
      const user = await customer(h, amount);
      expect((await h.call(transferIn, { amount }, { token: user.token })).ret).toBe(1);
      holders.push(user);
    }
    await toEarnDay(h, '2026-11-26', 1);
    const credited = await Promise.all(holders.map((user) => interestOf(user.token, '2026-11-25')));
    expect(credited).toEqual(principals.map((amount) => dailyInterest(amount, SEEDED)));
    // 1,000 × 6 % / 365 and (1,000 × 6 % + 9,000 × 4 %) / 365, cut to 8 decimals.
    expect(credited.slice(1, 2)).toEqual(['0.16438356']);
    expect(credited.slice(4, 5)).toEqual(['1.15068493']);
    await expectLedgerBalanced(h);
  });

  it('a lock-up takes exactly its minimum and its maximum, and pays their income cut to 8 decimals', async () => {
    const user = await customer(h, '60000');
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const subscribe = (amount: string) =>
      h.call(lockupSubscribe, { product_id: String(week.id), amount }, { token: user.token });
    expect(await subscribe('99.99999999')).toEqual(refused('The minimum amount is: 100 USDT!'));
    expect(await subscribe('50000.00000001')).toEqual(refused('The maximum amount is: 50,000 USDT!'));
    expect((await subscribe('100')).data).toMatchObject({ amount: '100.00000000', daily_income: '0.08000000' });
    expect((await subscribe('50000')).data).toMatchObject({ amount: '50000.00000000', daily_income: '40.00000000' });
    // 123.45678901 × 0.0008 = 0.098765431208: paid 0.09876543 a day, never the rounded-up …44.
    expect((await subscribe('123.45678901')).data).toMatchObject({ daily_income: '0.09876543' });
    expect(await usdtOf(h, user.token)).toBe('9776.54321099');
    await expectLedgerBalanced(h);
  });
});

describe('the same money asked for twice at once', () => {
  it('one USDT balance subscribed to liquidity, to a lock-up and withdrawn at once: one of them takes it', async () => {
    const user = await customer(h, '1000');
    const wallet = await addTronWallet(h, user.token);
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const answers = await Promise.all([
      h.call(transferIn, { amount: '1000' }, { token: user.token }),
      h.call(lockupSubscribe, { product_id: String(week.id), amount: '1000' }, { token: user.token }),
      withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '990' }),
    ]);
    expect(answers.filter((res) => res.ret === 1)).toHaveLength(1);
    for (const res of answers.filter((res) => res.ret !== 1)) expect(res).toEqual(refused('Insufficient balance!'));
    const held = await Promise.all(['USDT', 'YUEBAO', 'REGULAR'].map((asset) => balanceOf(h, user.id, asset)));
    const total = held.reduce((sum, b) => sum.plus(b.available).plus(b.frozen), new Big(0));
    // What was there, whichever won (the withdrawal's fee is frozen with it until it is reviewed).
    expect(total.toFixed(8)).toBe('1000.00000000');
    await expectLedgerBalanced(h);
  });

  it('USDT frozen by a withdrawal under review cannot be subscribed', async () => {
    const user = await customer(h, '1000');
    const wallet = await addTronWallet(h, user.token);
    expect((await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '800' })).ret).toBe(
      1,
    );
    // 808 frozen (amount and 1 % fee), 192 left.
    expect(await h.call(transferIn, { amount: '200' }, { token: user.token })).toEqual(
      refused('Insufficient balance!'),
    );
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    expect(
      await h.call(lockupSubscribe, { product_id: String(week.id), amount: '200' }, { token: user.token }),
    ).toEqual(refused('Insufficient balance!'));
    expect((await h.call(transferIn, { amount: '192' }, { token: user.token })).ret).toBe(1);
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '808.00000000' });
  });

  it('two redemptions of the whole liquidity balance at once, quick or standard, keyed or not: one is paid', async () => {
    const pairs: [string, Record<string, string>, Record<string, string>, string?, string?][] = [
      ['quick, no key', { mode: 'quick' }, { mode: 'quick' }],
      ['quick and standard', { mode: 'quick' }, { mode: 'standard' }],
      ['two keys', { mode: 'quick' }, { mode: 'quick' }, 'key-a', 'key-b'],
    ];
    for (const [label, first, second, keyA, keyB] of pairs) {
      const user = await customer(h, '1000');
      expect((await h.call(transferIn, { amount: '1000' }, { token: user.token })).ret).toBe(1);
      const answers = await Promise.all([
        h.call(transferOut, { amount: '1000', ...first }, { token: user.token, idempotencyKey: keyA }),
        h.call(transferOut, { amount: '1000', ...second }, { token: user.token, idempotencyKey: keyB }),
      ]);
      expect(answers.map((res) => res.ret).sort(), label).toEqual([0, 1]);
      expect(
        answers.find((res) => res.ret === 0),
        label,
      ).toEqual(refused('Insufficient balance!'));
      const yuebao = await balanceOf(h, user.id, 'YUEBAO');
      const usdtHeld = await balanceOf(h, user.id);
      expect(new Big(yuebao.available).plus(yuebao.frozen).plus(usdtHeld.available).toFixed(8), label).toBe(
        '1000.00000000',
      );
      expect(yuebao.available, label).toBe('0.00000000');
    }
    await expectLedgerBalanced(h);
  });

  it('the same redemption sent twice with one Idempotency-Key is done once', async () => {
    const user = await customer(h, '1000');
    expect((await h.call(transferIn, { amount: '1000' }, { token: user.token })).ret).toBe(1);
    const send = () =>
      h.call(transferOut, { amount: '600', mode: 'quick' }, { token: user.token, idempotencyKey: 'redeem-once' });
    const answers = await Promise.all([send(), send()]);
    // The copy either replays the first answer or is told the first is still being worked on; never a second payment.
    for (const res of answers) if (res.ret === 1) expect(res).toEqual(answers.find((a) => a.ret === 1));
    expect(answers.some((res) => res.ret === 1)).toBe(true);
    expect(await send()).toEqual(answers.find((res) => res.ret === 1));
    expect(await balanceOf(h, user.id, 'YUEBAO')).toEqual({ available: '400.00000000', frozen: '0.00000000' });
    expect(await balanceOf(h, user.id)).toEqual({ available: '600.00000000', frozen: '0.00000000' });
    const redemptions = (await h.call(liquidityRecords, { kind: 'redeem' }, { token: user.token })).data.lists;
    expect(redemptions).toHaveLength(1);
  });

  it('two quick redemptions at once never pass the 30,000,000 USDT a day between them', async () => {
    const user = await customer(h);
    await grant(h, user.id, '40000000');
    expect((await h.call(transferIn, { amount: '40000000' }, { token: user.token })).ret).toBe(1);
    const answers = await Promise.all([
      h.call(transferOut, { amount: '20000000', mode: 'quick' }, { token: user.token }),
      h.call(transferOut, { amount: '20000000', mode: 'quick' }, { token: user.token }),
    ]);
    expect(answers.map((res) => res.ret).sort()).toEqual([0, 1]);
    expect(answers.find((res) => res.ret === 0)).toEqual(
      refused(
        'Quick redemption is limited to 30,000,000 USDT a day; 10,000,000 USDT remain today. Please choose standard redemption for more!',
      ),
    );
    expect(await usdtOf(h, user.token)).toBe('20000000.00000000');
    await expectLedgerBalanced(h);
  });
});

describe('what a customer reads when earn refuses', () => {
  it('every refusal in each language of the app is its own text with its figures, never English or a raw code', async () => {
    const user = await customer(h, '100');
    await grant(h, user.id, '40000000');
    expect((await h.call(transferIn, { amount: '30000010' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(transferOut, { amount: '29999990', mode: 'quick' }, { token: user.token })).ret).toBe(1);
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const attempts = {
      belowMinimum: () => h.call(transferIn, { amount: '9.99999999' }, { token: user.token, lang }),
      nineDecimals: () => h.call(transferIn, { amount: '10.000000001' }, { token: user.token, lang }),
      exponent: () => h.call(transferIn, { amount: '1e3' }, { token: user.token, lang }),
      negative: () => h.call(transferIn, { amount: '-10' }, { token: user.token, lang }),
      thaiDigits: () => h.call(transferIn, { amount: '๑๐๐' }, { token: user.token, lang }),
      moreThanHeld: () => h.call(transferOut, { amount: '50000000', mode: 'standard' }, { token: user.token, lang }),
      quickCap: () => h.call(transferOut, { amount: '10.00000001', mode: 'quick' }, { token: user.token, lang }),
      noSuchMode: () => h.call(transferOut, { amount: '10', mode: 'slow' }, { token: user.token, lang }),
      aboveMaximum: () =>
        h.call(lockupSubscribe, { product_id: String(week.id), amount: '50000.00000001' }, { token: user.token, lang }),
      noSuchProduct: () =>
        h.call(lockupSubscribe, { product_id: '999999', amount: '100' }, { token: user.token, lang }),
    };
    let lang = 'en';
    const read = async () => {
      const said: Record<string, string> = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        const res = await attempt();
        expect(res, `${lang} ${name}`).toMatchObject({ ret: 0, data: null });
        said[name] = res.msg;
      }
      return said;
    };
    const english = await read();
    expect(english).toMatchObject({
      belowMinimum: 'The minimum amount is: 10 USDT!',
      nineDecimals: 'Please enter a valid amount!',
      moreThanHeld: 'Insufficient balance!',
      quickCap:
        'Quick redemption is limited to 30,000,000 USDT a day; 10 USDT remain today. Please choose standard redemption for more!',
      aboveMaximum: 'The maximum amount is: 50,000 USDT!',
    });
    for (lang of ['zh', 'jp', 'ar', 'th', 'hi']) {
      const said = await read();
      for (const [name, text] of Object.entries(said)) {
        expect(text, `${lang} ${name}`).not.toBe(english[name]);
        expect(text, `${lang} ${name}`).not.toMatch(/[{}]|^[a-z]\.[a-zA-Z]+$|undefined|NaN/);
      }
      // The figures are in the text, whatever digits the language writes them in.
      expect(said.quickCap, lang).toMatch(/3,?0|٣٠|३०/);
    }
    expect(await balanceOf(h, user.id, 'YUEBAO')).toEqual({ available: '20.00000000', frozen: '0.00000000' });
  });
});

describe('a lock-up whose terms the operator changes while the customer confirms', () => {
  it('refuses a subscription confirmed at the period and rate shown before the change, moving nothing', async () => {
    const user = await customer(h, '3000');
    // What the customer's screen shows and they confirm: 90 days at the product's daily rate.
    const shown = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 90)!;
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    expect(await ops('lockup', String(shown.id), 'days=3650', 'rate=0')).toMatchObject({ ok: true });
    try {
      const subscribe = (terms: { days: string; daily_rate: string }, lang = 'en') =>
        h.call(
          lockupSubscribe,
          { product_id: String(shown.id), amount: '1000', ...terms },
          { token: user.token, lang },
        );
      const before = await moneyState(h, user.id, { orders: lockupOrders });
      const confirmed = { days: String(shown.days), daily_rate: shown.daily_rate };
      expect(await subscribe(confirmed)).toEqual(
        refused('This product now locks up for 3,650 days at 0% a day: check its terms and subscribe again!'),
      );
      expect(await subscribe({ ...confirmed, days: '3650' })).toMatchObject({ ret: 0 });
      expect(await subscribe({ ...confirmed, daily_rate: '0' })).toMatchObject({ ret: 0 });
      const thai = await subscribe(confirmed, 'th');
      expect(thai).toMatchObject({ ret: 0, data: null });
      expect(thai.msg).toMatch(/3,650/);
      expect(thai.msg).not.toMatch(/This product/);
      expect(await moneyState(h, user.id, { orders: lockupOrders })).toEqual(before);
      // The terms now, confirmed, are taken.
      expect(await subscribe({ days: '3650', daily_rate: '0.000' })).toMatchObject({
        ret: 1,
        data: { days: 3650, daily_rate: '0', amount: '1000.00000000' },
      });
      await expectLedgerBalanced(h);
    } finally {
      expect(await ops('lockup', String(shown.id), `days=${shown.days}`, `rate=${shown.daily_rate}`)).toMatchObject({
        ok: true,
      });
    }
  });
});

describe('a lock-up quota an operator lowers below what is already sold', () => {
  it('shows 0 left, never a negative amount, and a subscription is refused saying 0 remain, moving nothing', async () => {
    const user = await customer(h, '3000');
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    const soldNow = async () =>
      (await h.database.db.select().from(lockupProductRows).where(eq(lockupProductRows.id, week.id)))[0]!.sold;
    // Room for one more subscription of 1,000 and no more.
    expect(
      await ops('lockup', String(week.id), `quota=${new Big(await soldNow()).plus(1000).toFixed()}`),
    ).toMatchObject({ ok: true });
    try {
      expect(
        (await h.call(lockupSubscribe, { product_id: String(week.id), amount: '1000' }, { token: user.token })).ret,
      ).toBe(1);
      // A quota below what is sold: the operator takes no more money into the product.
      expect(
        await ops('lockup', String(week.id), `quota=${new Big(await soldNow()).minus(500).toFixed()}`),
      ).toMatchObject({ ok: true });
      expect((await h.call(lockupProducts)).data.lists.find((p) => p.id === week.id)!.remaining).toBe('0');
      const before = await moneyState(h, user.id, { orders: lockupOrders });
      expect(
        await h.call(lockupSubscribe, { product_id: String(week.id), amount: '100' }, { token: user.token }),
      ).toEqual(refused('Only 0 USDT of this product remain!'));
      expect(await moneyState(h, user.id, { orders: lockupOrders })).toEqual(before);
      await expectLedgerBalanced(h);
    } finally {
      expect(await ops('lockup', String(week.id), 'quota=none')).toMatchObject({ ok: true });
    }
  });
});

describe('a quick redemption whose request began just before its day ended and committed after it', () => {
  it('counts in the day it was accepted in and earns nothing that day, however late it commits', async () => {
    // Two holders of 5,000 and 3,000 earning from 2 December.
    h.clock.set(earnTime('2026-12-01', 10));
    const late = await customer(h, '5000');
    const control = await customer(h, '3000');
    for (const [user, amount] of [
      [late, '5000'],
      [control, '3000'],
    ] as const)
      expect((await h.call(transferIn, { amount }, { token: user.token })).ret).toBe(1);
    await toEarnDay(h, '2026-12-02', 8);
    // 100 ms before 2 December ends the first asks for 2,000 back at once; its account is held by another writer.
    let held!: () => void;
    let release!: () => void;
    const holding = h.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from balances where user_id = ${late.id} and asset = 'YUEBAO' for update`);
      held();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise<void>((resolve) => (held = resolve));
    h.clock.set(new Date(earnTime('2026-12-03', 0).getTime() - 100));
    const redeemed = h.call(transferOut, { amount: '2000', mode: 'quick' }, { token: late.token });
    await waitersOnLocks(h.database.db, 1);
    // The day-end jobs of 2 December run 11 s after it ended, while the redemption still waits; then it commits.
    h.clock.set(new Date(earnTime('2026-12-03', 0).getTime() + 11_000));
    const closed = runDueDays(h.database.db, h.clock.now(), EARN_ZONE);
    await waitersOnLocks(h.database.db, 2);
    release();
    await holding;
    const answer = await redeemed;
    await closed;
    // Accepted on 2 December: it counts in that day, and the 2,000 taken out earn nothing that day; 3,000 earned, as
    // for the holder of 3,000.
    expect(answer.data).toMatchObject({ day: '2026-12-02' });
    expect(await interestOf(late.token, '2026-12-02')).toBe(dailyInterest('3000', SEEDED));
    expect(await interestOf(control.token, '2026-12-02')).toBe(dailyInterest('3000', SEEDED));
    await expectLedgerBalanced(h);
  });
});

describe('a lock-up subscribed again while the day-end job ends the customer’s previous one', () => {
  it('both go through: the job pays the principal back and the new subscription takes its USDT', async () => {
    // A week's lock-up of 1,000 from 11 to 17 December, its jobs done through 16 December.
    h.clock.set(earnTime('2026-12-10', 10));
    const user = await customer(h, '1500');
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const first = await h.call(lockupSubscribe, { product_id: String(week.id), amount: '1000' }, { token: user.token });
    expect(first.data).toMatchObject({ start_day: '2026-12-11', end_day: '2026-12-17' });
    await toEarnDay(h, '2026-12-17', 8);
    // Another writer holds the customer's lock-up balance while the job of 17 December starts, and then while the
    // customer subscribes 500 again: each gets as far as that balance and waits.
    const holding = await rowLocked(
      h,
      sql`select 1 from balances where user_id = ${user.id} and asset = 'REGULAR' for update`,
    );
    h.clock.set(new Date(earnTime('2026-12-18', 0).getTime() + 11_000));
    const job = runDueDays(h.database.db, h.clock.now(), EARN_ZONE);
    await waitersOnLocks(h.database.db, 1);
    const again = h.call(lockupSubscribe, { product_id: String(week.id), amount: '500' }, { token: user.token });
    await waitersOnLocks(h.database.db, 2);
    await holding.release();
    const [answer, done] = await Promise.all([again, job]);
    expect(answer.data).toMatchObject({ status: 'processing', amount: '500.00000000' });
    expect(done.map(({ job: name, day }) => `${name} ${day}`)).toContain('lockup-income 2026-12-17');
    // 1,500 − 500 locked again + 7 days × 0.80 of income.
    expect(await usdtOf(h, user.token)).toBe('1005.60000000');
    await expectLedgerBalanced(h);
  });
});

describe('a quick redemption while the day-end job pays the customer’s standard redemption', () => {
  it('both go through: the standard redemption is paid and the quick one takes its part at once', async () => {
    // 2,000 earning from 21 December; 500 redeemed standard on 21 December, paid at the end of 22 December.
    h.clock.set(earnTime('2026-12-20', 10));
    const user = await customer(h, '3000');
    expect((await h.call(transferIn, { amount: '2000' }, { token: user.token })).ret).toBe(1);
    await toEarnDay(h, '2026-12-21', 10);
    const standard = await h.call(transferOut, { amount: '500', mode: 'standard' }, { token: user.token });
    expect(standard.data).toMatchObject({ pay_day: '2026-12-22' });
    await toEarnDay(h, '2026-12-22', 10);
    // 22 December's interest is credited; its payouts are still to run when the customer redeems 300 quick.
    h.clock.set(new Date(earnTime('2026-12-23', 0).getTime() + 11_000));
    const [interest, payouts] = [DAILY_JOBS.slice(0, 1), DAILY_JOBS.slice(1, 2)];
    expect((await runDueDays(h.database.db, h.clock.now(), EARN_ZONE, interest)).map((done) => done.day)).toEqual([
      '2026-12-22',
    ]);
    // The customer's USDT is held by another writer while the payouts start; the customer redeems meanwhile.
    const holding = await rowLocked(
      h,
      sql`select 1 from balances where user_id = ${user.id} and asset = 'USDT' for update`,
    );
    const paying = runDueDays(h.database.db, h.clock.now(), EARN_ZONE, payouts);
    await waitersOnLocks(h.database.db, 1);
    const quick = h.call(transferOut, { amount: '300', mode: 'quick' }, { token: user.token });
    await waitersOnLocks(h.database.db, 2);
    await holding.release();
    const [answer, paid] = await Promise.all([quick, paying]);
    expect(answer.data).toMatchObject({ mode: 'quick', amount: '300.00000000' });
    expect(paid.map((done) => done.day)).toEqual(['2026-12-22']);
    // 1,000 never subscribed + 500 paid + 300 quick.
    expect(await usdtOf(h, user.token)).toBe('1800.00000000');
    await expectLedgerBalanced(h);
  });
});
