// Rewards attacked by a customer who wants more than is owed, or by an operator's change landing between what a
// customer saw and what they confirmed: the blind box, the check-in, the referral reward, welfare tasks, points. Each
// names the attack and what the money must do, and the ledger sums to every balance after each. Kept as a guard, an
// attack that held: practice money making a real reward claimable.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  customer,
  expectLedgerBalanced,
  grant,
  PASSWORD,
  moneyState,
  refused,
  registerByPhone,
  rowLocked,
  waitersOnLocks,
} from './helpers.ts';
import { certifyPrimary } from './funds-helpers.ts';
import { blindBoxInfo, drawBlindBox, rotateSeed } from '../../src/api-contract/blindbox.ts';
import { checkInCalendar, dailyCheckIn } from '../../src/api-contract/check-in.ts';
import { claimWelfare, welfareTasks } from '../../src/api-contract/welfare.ts';
import { consoleSetReferralReward } from '../../src/api-contract/console-rewards.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { boxDraws, ledgerEntries, referralRewards, welfareClaims } from '../../src/server/db/schema.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';
import { operatorToken } from './console-helpers.ts';
import { blindBoxTerms } from '../../src/server/domain/blindbox.ts';
import { welfareTaskList } from '../../src/server/domain/welfare.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { openAllPending } from '../../src/server/jobs/settlement.ts';
import { verifyCertification } from '../../src/server/domain/certification.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedBlindBox(h.database.db, h.clock.now());
  await seedWelfare(h.database.db);
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const ops = async (...argv: string[]) => {
  const done = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
  expect(done, done.output).toMatchObject({ ok: true });
};
let keys = 0;
const key = () => `rewards-attack-${++keys}`;

describe('the blind box', () => {
  it('a draw confirmed at the cost shown is refused when the operator raised it meanwhile: nothing moves', async () => {
    await ops('prizes', 'set', 'Sure thing:USDT:2:1000000');
    await ops('blindbox-cost', 'points=100', 'usdt=1');
    const user = await customer(h);
    await grant(h, user.id, '1000', 'POINT');
    const shown = (await h.call(blindBoxInfo, {}, { token: user.token })).data;
    const cost = shown.costs.find((option) => option.pay === 'points')!.amount;
    expect(cost).toBe('100');
    await ops('blindbox-cost', 'points=900');
    const before = await moneyState(h, user.id, { draws: boxDraws });

    const answer = await h.call(drawBlindBox, { pay: 'points', cost }, { token: user.token, idempotencyKey: key() });

    expect(answer).toEqual(refused('A draw now costs 900 POINT: check the cost and draw again!'));
    expect(await moneyState(h, user.id, { draws: boxDraws })).toEqual(before);
    expect((await h.call(blindBoxInfo, {}, { token: user.token })).data.seed).toEqual(shown.seed);
    // At the cost now shown it draws, and takes exactly that.
    const again = await h.call(
      drawBlindBox,
      { pay: 'points', cost: '900' },
      { token: user.token, idempotencyKey: key() },
    );
    expect(again.data.draw).toMatchObject({ cost_asset: 'POINT', cost: '900', prize_amount: '2' });
    await ops('blindbox-cost', 'points=100');
  });

  it('a sold-out prize never tells a customer their next roll: every draw is refused alike until it is restocked', async () => {
    await ops('prizes', 'set', 'Jackpot:USDT:100:100000:0;Nothing:POINT:0:900000');
    await ops('blindbox-cost', 'points=100', 'usdt=1');
    const [jackpot] = (await blindBoxTerms(h.database.db)).prizes;
    const SOLD_OUT = refused('This prize is sold out, the blind box is closed until it is restocked!');
    // Tried as a new user would who holds nothing: one draw on each of ten fresh seeds. Were the answer to differ by
    // the roll ("sold out" on a roll of the jackpot, "insufficient balance" on the others), rotating and asking again
    // would find, for free, a seed whose next roll is the jackpot, to draw with once the operator restocks it.
    const prober = await customer(h);
    // The page says the box is closed and offers no expected value (10 USDT × 10 %) that no draw returns meanwhile.
    const shown = async () => (await h.call(blindBoxInfo, {}, { token: prober.token })).data;
    expect(await shown()).toMatchObject({ available: false, expected: {} });
    expect((await shown()).prizes[0]).toMatchObject({ name: 'Jackpot', stock: 0 });
    for (let seed = 0; seed < 10; seed += 1) {
      expect(await h.call(drawBlindBox, { pay: 'usdt' }, { token: prober.token, idempotencyKey: key() })).toEqual(
        SOLD_OUT,
      );
      expect((await h.call(rotateSeed, {}, { token: prober.token, idempotencyKey: key() })).ret).toBe(1);
    }
    // A customer who can pay is refused the same, whatever their roll, and pays nothing.
    const player = await customer(h, '5');
    const before = await moneyState(h, player.id, { draws: boxDraws });
    expect(await h.call(drawBlindBox, { pay: 'usdt' }, { token: player.token, idempotencyKey: key() })).toEqual(
      SOLD_OUT,
    );
    expect(await moneyState(h, player.id, { draws: boxDraws })).toEqual(before);
    // Restocked, the box opens again, with its expected value.
    await ops('prize', String(jackpot!.id), 'stock=1');
    expect(await shown()).toMatchObject({ available: true, expected: { USDT: '10' } });
    expect((await h.call(drawBlindBox, { pay: 'usdt' }, { token: player.token, idempotencyKey: key() })).ret).toBe(1);
  });
});

describe('points are whole numbers', () => {
  const refusedOps = (...argv: string[]) =>
    runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);

  it('no operator command pays or charges a fraction of a point, which no balance or history could show', async () => {
    const before = await blindBoxTerms(h.database.db);
    expect(await refusedOps('prizes', 'set', 'Half a point:POINT:0.5:1000000')).toEqual({
      ok: false,
      output: 'Prize 1: "0.5" is not a whole number of points.',
    });
    expect(await refusedOps('blindbox-cost', 'points=99.5')).toMatchObject({ ok: false });
    expect(await blindBoxTerms(h.database.db)).toEqual(before);
    const tasks = await welfareTaskList(h.database.db);
    expect(await refusedOps('welfare', 'primary_certification', 'reward=0.5')).toEqual({
      ok: false,
      output: 'Welfare task primary_certification: "0.5" is not a whole number of points.',
    });
    expect(await refusedOps('welfare', 'first_recharge', 'reward=12.5', 'asset=POINT')).toMatchObject({ ok: false });
    expect(await welfareTaskList(h.database.db)).toEqual(tasks);
    // In USDT a fraction is an amount like any other.
    await ops('welfare', 'first_recharge', 'reward=0.5', 'asset=USDT');
    await ops('welfare', 'first_recharge', 'reward=100', 'asset=POINT');
  });
});

describe('the check-in', () => {
  it('two taps across local midnight, the first still in flight, pay a streak of three days, not a new run', async () => {
    h.clock.set(new Date('2026-11-27T10:00:00Z'));
    const user = await customer(h);
    const tap = () => h.call(dailyCheckIn, {}, { token: user.token, idempotencyKey: key() });
    expect((await tap()).data).toMatchObject({ day: '2026-11-27', streak: 1, reward: '5' });
    // The reward's balance row is held, so the tap just before midnight (Bangkok) waits to commit while the one just
    // after it is made.
    const held = await rowLocked(
      h,
      sql`select 1 from balances where user_id = ${user.id} and asset = 'POINT' for update`,
    );
    h.clock.set(new Date('2026-11-28T16:59:59Z')); // 23:59:59 on the 28th in Bangkok
    const late = tap();
    await waitersOnLocks(h.database.db, 1);
    h.clock.set(new Date('2026-11-28T17:00:01Z')); // 00:00:01 on the 29th
    const early = tap();
    await waitersOnLocks(h.database.db, 2);
    await held.release();

    expect((await late).data).toMatchObject({ day: '2026-11-28', streak: 2, reward: '5' });
    expect((await early).data).toMatchObject({ day: '2026-11-29', streak: 3, reward: '10', balance: '20' });
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
      today: '2026-11-29',
      streak: 3,
    });
  });
});

/** Runs `test` with the referral reward set to 5 USDT by a content operator (`name`), and sets it back to off after. */
async function withReferralReward(name: string, test: () => Promise<void>) {
  const writer = await operatorToken(h, name, 'content');
  const setReward = async (amount: string) =>
    expect((await h.call(consoleSetReferralReward, { amount }, { token: writer, ip: '203.0.113.32' })).ret).toBe(1);
  await setReward('5');
  try {
    await test();
  } finally {
    await setReward('0');
  }
}

describe('the referral reward', () => {
  it('is paid once for one identity document, however many invited accounts are certified with it', async () => {
    const writer = await operatorToken(h, 'cora', 'content');
    expect((await h.call(consoleSetReferralReward, { amount: '5' }, { token: writer, ip: '203.0.113.31' })).ret).toBe(
      1,
    );
    // The inviter never certifies: no document of theirs to compare the friends' with.
    const inviter = await customer(h);
    const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
    for (const number of ['RF770001', 'rf-770 001', 'RF770-001']) {
      const invited = await registerByPhone(h, undefined, { invite });
      await certifyPrimary(h, invited.token, { number });
    }
    const paid = () => h.database.db.select().from(referralRewards).where(eq(referralRewards.inviterId, inviter.id));
    expect((await paid()).map((row) => row.amount)).toEqual(['5.00000000']);
    expect(await moneyState(h, inviter.id, {})).toMatchObject({
      balances: [{ asset: 'USDT', available: '5.00000000' }],
    });
    // Another person, another document, pays again.
    const friend = await registerByPhone(h, undefined, { invite });
    await certifyPrimary(h, friend.token, { number: 'RF770002' });
    expect(await paid()).toHaveLength(2);
    expect((await h.call(consoleSetReferralReward, { amount: '0' }, { token: writer, ip: '203.0.113.31' })).ret).toBe(
      1,
    );
  });

  it('is paid once when two accounts certified with one document are verified at the same moment', async () => {
    await withReferralReward('cleo', async () => {
      const inviter = await customer(h);
      const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
      // Two accounts in review with one passport; the one submitted first is verified second.
      const waiting = [];
      for (const number of ['RF880001', 'rf-880 001']) {
        const invited = await registerByPhone(h, undefined, { invite });
        waiting.push(await certifyPrimary(h, invited.token, { number, verify: false }));
      }
      const [submittedFirst, submittedSecond] = waiting as [number, number];
      // Two operators approve them at once (two connections): the first approval has not committed when the second
      // runs.
      let release!: () => void;
      let verified!: () => void;
      const firstDone = new Promise<void>((resolve) => (verified = resolve));
      const first = h.database.db.transaction(async (tx) => {
        await verifyCertification(tx, submittedSecond, h.clock.now());
        verified();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await firstDone;
      const second = h.database.db.transaction((tx) => verifyCertification(tx, submittedFirst, h.clock.now()));
      await waitersOnLocks(h.database.db, 1, second);
      release();
      await Promise.all([first, second]);

      const paid = await h.database.db.select().from(referralRewards).where(eq(referralRewards.inviterId, inviter.id));
      expect(paid.map((row) => row.amount)).toEqual(['5.00000000']);
      expect(await moneyState(h, inviter.id, {})).toMatchObject({
        balances: [{ asset: 'USDT', available: '5.00000000' }],
      });
    });
  });
});

describe("the referral reward and the inviter's closure", () => {
  it('credits no inviter whose account closes while their friend is verified', async () => {
    await withReferralReward('cole', async () => {
      const inviter = await customer(h, '1');
      await grant(h, inviter.id, '-1'); // a USDT balance of 0: nothing holds the closure
      const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
      const friend = await registerByPhone(h, undefined, { invite });
      const certification = await certifyPrimary(h, friend.token, { number: 'CL990001', verify: false });
      // The closure has taken the inviter's row and waits to read their balances; the friend's verification comes then.
      const balance = await rowLocked(
        h,
        sql`select 1 from balances where user_id = ${inviter.id} and asset = 'USDT' for update`,
      );
      const closing = h.call(
        closeAccount,
        { secret_kind: 'login', secret: PASSWORD, amounts: '' },
        {
          token: inviter.token,
          idempotencyKey: key(),
        },
      );
      await waitersOnLocks(h.database.db, 1);
      const verifying = h.database.db.transaction((tx) => verifyCertification(tx, certification, h.clock.now()));
      await waitersOnLocks(h.database.db, 2);
      await balance.release();
      expect((await closing).ret).toBe(1);
      await verifying;

      expect(
        await h.database.db.select().from(referralRewards).where(eq(referralRewards.inviterId, inviter.id)),
      ).toEqual([]);
      expect(await moneyState(h, inviter.id, {})).toMatchObject({
        balances: [{ asset: 'USDT', available: '0.00000000' }],
      });
    });
  });
});

describe('welfare', () => {
  const claimsOf = (userId: number) =>
    h.database.db.select().from(welfareClaims).where(eq(welfareClaims.userId, userId));
  const welfareEntriesOf = (userId: number) =>
    h.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'welfare')));

  it('held: a practice option (virtual money) does not make "first option" claimable, a real one does', async () => {
    const user = await customer(h, '50');
    await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
    const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists[0]!;
    const buy = (account: string) =>
      h.call(
        placeOption,
        { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id), account },
        { token: user.token },
      );
    // Each opens at the next tick: an option counts once it opened.
    const opened = async () => {
      h.clock.set(new Date(h.clock.now().getTime() + 1));
      await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
      await openAllPending(h.database.db, h.clock.now());
    };
    expect((await buy('practice')).ret).toBe(1);
    await opened();
    expect(await h.call(claimWelfare, { code: 'first_option' }, { token: user.token, idempotencyKey: key() })).toEqual(
      refused('This reward is not available yet!'),
    );
    expect(await welfareEntriesOf(user.id)).toEqual([]);
    expect((await buy('real')).ret).toBe(1);
    await opened();
    expect(
      (await h.call(claimWelfare, { code: 'first_option' }, { token: user.token, idempotencyKey: key() })).data,
    ).toMatchObject({ asset: 'POINT', reward: '30' });
  });

  it('pays no "friend certified" reward for a second account of the inviter: the same identity document', async () => {
    const inviter = await customer(h);
    await certifyPrimary(h, inviter.token, { number: 'WS440011' });
    const invite = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
    const second = await registerByPhone(h, undefined, { invite });
    await certifyPrimary(h, second.token, { number: 'ws-440 011' });
    const stateOf = async () =>
      (await h.call(welfareTasks, {}, { token: inviter.token })).data.lists.find(
        (task) => task.code === 'friend_certified',
      )?.state;

    expect(await stateOf()).toBe('locked');
    expect(
      await h.call(claimWelfare, { code: 'friend_certified' }, { token: inviter.token, idempotencyKey: key() }),
    ).toEqual(refused('This reward is not available yet!'));
    expect(await claimsOf(inviter.id)).toEqual([]);
    expect(await welfareEntriesOf(inviter.id)).toEqual([]);

    // A real friend, another document, makes it claimable, and it pays once.
    const friend = await registerByPhone(h, undefined, { invite });
    await certifyPrimary(h, friend.token, { number: 'WS440022' });
    expect(await stateOf()).toBe('claimable');
    expect(
      (await h.call(claimWelfare, { code: 'friend_certified' }, { token: inviter.token, idempotencyKey: key() })).data,
    ).toMatchObject({ code: 'friend_certified', asset: 'USDT', reward: '5' });
    expect((await welfareEntriesOf(inviter.id)).map((entry) => entry.amount)).toEqual(['5.00000000']);
  });
});
