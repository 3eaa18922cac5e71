// Welfare: each task is claimable only once its condition holds in the database, is paid
// once through the ledger (also under 20 parallel claims), a refused claim moves nothing, and the
// operator's changes apply to future claims only.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, TOKEN_EXPIRED, customer, expectLedgerBalanced, moneyState, refused } from './helpers.ts';
import { approvedRecharge, certifyPrimary, cryptoRecharge, opsOk, ops } from './funds-helpers.ts';
import { claimWelfare, welfareTask, welfareTasks, type WelfareTask } from '../../src/api-contract/welfare.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { ledgerEntries, optionOrders, welfareClaims } from '../../src/server/db/schema.ts';
import { MAX_QUOTE_AGE_MS } from '../../src/server/domain/prices.ts';
import { openAllPending } from '../../src/server/jobs/settlement.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';
import { registerByPhone } from './helpers.ts';

const NOT_YET = refused('This reward is not available yet!');
const CLAIMED = refused('You have already claimed this reward!');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedWelfare(h.database.db);
});
afterAll(() => h.close());

/** A passport number of its own for each customer certified (one number is one person: domain/referrals.ts). */
let documents = 0;
const newDocument = () => `AA${98_765_432 + ++documents}`;
afterEach(() => expectLedgerBalanced(h));

let keys = 0;
const claim = (token: string, code: string) =>
  h.call(claimWelfare, { code }, { token, idempotencyKey: `welfare-${++keys}` });
const tasksOf = async (token: string): Promise<WelfareTask[]> => (await h.call(welfareTasks, {}, { token })).data.lists;
const stateOf = async (token: string, code: string) => (await tasksOf(token)).find((task) => task.code === code)?.state;

/** Records a BTC tick `ms` after the harness clock and moves the clock there: an accepted option's start tick. */
async function tickAfter(ms: number) {
  h.clock.set(new Date(h.clock.now().getTime() + ms));
  await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
}

/** Places a 10 USDT BTC option for `token` on a tick recorded now; it waits for its start tick (status opening). */
async function placeOptionOf(token: string) {
  await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists[0]!;
  const placed = await h.call(
    placeOption,
    { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) },
    { token },
  );
  expect(placed.ret).toBe(1);
}

/** Submits the primary certification and has the operator verify it. */
const claimsOf = (userId: number) =>
  h.database.db
    .select()
    .from(welfareClaims)
    .where(eq(welfareClaims.userId, userId))
    .orderBy(asc(welfareClaims.taskCode));
const welfareEntriesOf = (userId: number) =>
  h.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'welfare')))
    .orderBy(asc(ledgerEntries.id));

describe('the task list', () => {
  it('answers ret -1 without a session', async () => {
    expect(await h.call(welfareTasks, {})).toEqual(TOKEN_EXPIRED);
    expect(await h.call(claimWelfare, { code: 'first_recharge' }, { idempotencyKey: 'anon' })).toEqual(TOKEN_EXPIRED);
  });

  it('lists every task locked for a new customer, with its reward and progress', async () => {
    const user = await customer(h);
    expect(await tasksOf(user.token)).toEqual([
      {
        code: 'primary_certification',
        asset: 'POINT',
        reward: '50',
        progress: 0,
        target: 1,
        state: 'locked',
        held: null,
        claimed_at: null,
      },
      {
        code: 'first_recharge',
        asset: 'POINT',
        reward: '100',
        progress: 0,
        target: 1,
        state: 'locked',
        held: null,
        claimed_at: null,
      },
      {
        code: 'first_option',
        asset: 'POINT',
        reward: '30',
        progress: 0,
        target: 1,
        state: 'locked',
        held: null,
        claimed_at: null,
      },
      {
        code: 'friend_certified',
        asset: 'USDT',
        reward: '5',
        progress: 0,
        target: 1,
        state: 'locked',
        held: null,
        claimed_at: null,
      },
    ]);
    expect((await h.call(welfareTask, { code: 'first_option' }, { token: user.token })).data).toMatchObject({
      code: 'first_option',
      state: 'locked',
    });
    expect(await h.call(welfareTask, { code: 'no_such_task' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
  });
});

describe('claiming', () => {
  it('refuses before the condition holds and moves nothing; pays once after it holds', async () => {
    const user = await customer(h);
    const before = await moneyState(h, user.id);
    expect(await claim(user.token, 'primary_certification')).toEqual(NOT_YET);
    expect(await claim(user.token, 'first_recharge')).toEqual(NOT_YET);
    // A recharge still waiting for review is not a first recharge.
    await cryptoRecharge(h, user.token, '30');
    expect(await claim(user.token, 'first_recharge')).toEqual(NOT_YET);
    expect(await moneyState(h, user.id)).toEqual(before);
    expect(await claimsOf(user.id)).toEqual([]);

    await certifyPrimary(h, user.token, { number: newDocument() });
    expect(await stateOf(user.token, 'primary_certification')).toBe('claimable');
    expect(await claim(user.token, 'primary_certification')).toEqual({
      ret: 1,
      msg: 'Success',
      data: { code: 'primary_certification', asset: 'POINT', reward: '50', balance: '50' },
    });
    expect(await claim(user.token, 'primary_certification')).toEqual(CLAIMED);
    expect((await h.call(welfareTask, { code: 'primary_certification' }, { token: user.token })).data).toMatchObject({
      state: 'claimed',
      progress: 1,
      claimed_at: h.clock.now().toISOString(),
    });
    expect(await welfareEntriesOf(user.id)).toMatchObject([
      { asset: 'POINT', amount: '50.00000000', reference: `welfare:primary_certification:${user.id}` },
    ]);
  });

  it('pays the primary certification once per person: a document verified for another account first holds it', async () => {
    const passport = newDocument();
    const first = await customer(h);
    const second = await customer(h);
    await certifyPrimary(h, first.token, { number: passport });
    h.clock.advance(1_000);
    // The same passport, typed with a hyphen and in lower case: one document (the referral reward's key).
    await certifyPrimary(h, second.token, { number: `${passport.slice(0, 4)}-${passport.slice(4)}`.toLowerCase() });
    const before = await moneyState(h, second.id);
    expect((await h.call(welfareTask, { code: 'primary_certification' }, { token: second.token })).data).toMatchObject({
      state: 'locked',
      progress: 0,
      held: 'document_rewarded',
    });
    expect(await claim(second.token, 'primary_certification')).toEqual(
      refused('This reward is given once per person: your identity document was verified for another account first.'),
    );
    expect(await moneyState(h, second.id)).toEqual(before);
    expect(await claimsOf(second.id)).toEqual([]);
    // The account verified first is paid, whichever claims first.
    expect(await stateOf(first.token, 'primary_certification')).toBe('claimable');
    expect(await claim(first.token, 'primary_certification')).toMatchObject({ ret: 1, data: { reward: '50' } });
    expect((await h.call(welfareTask, { code: 'primary_certification' }, { token: first.token })).data).toMatchObject({
      state: 'claimed',
      held: null,
    });
  });

  it('pays the first recharge once it was approved, and the first option once one opened', async () => {
    const user = await customer(h);
    await approvedRecharge(h, user.token, '100');
    expect(await stateOf(user.token, 'first_recharge')).toBe('claimable');
    expect((await claim(user.token, 'first_recharge')).data).toMatchObject({ reward: '100', balance: '100' });

    expect(await claim(user.token, 'first_option')).toEqual(NOT_YET);
    await placeOptionOf(user.token);
    // Accepted and waiting for its start tick: not an option yet.
    expect(await claim(user.token, 'first_option')).toEqual(NOT_YET);
    await tickAfter(1);
    await openAllPending(h.database.db, h.clock.now());
    expect((await claim(user.token, 'first_option')).data).toMatchObject({
      asset: 'POINT',
      reward: '30',
      balance: '130',
    });
    expect((await claimsOf(user.id)).map((row) => row.taskCode)).toEqual(['first_option', 'first_recharge']);
  });

  it('first_option: an option voided and refunded for want of a start price does not count; one that opened does', async () => {
    const user = await customer(h, '100');
    const before = (await moneyState(h, user.id)).balances.map(({ asset, available, frozen }) => ({
      asset,
      available,
      frozen,
    }));
    await placeOptionOf(user.token);
    // No tick within the time a start price may take: the order is void and its stake refunded.
    h.clock.set(new Date(h.clock.now().getTime() + MAX_QUOTE_AGE_MS + 1));
    await openAllPending(h.database.db, h.clock.now());
    const [voided] = await h.database.db.select().from(optionOrders).where(eq(optionOrders.userId, user.id));
    expect(voided).toMatchObject({ status: 'settled', outcome: 'void', startPrice: null });
    expect(await stateOf(user.token, 'first_option')).toBe('locked');
    expect(await claim(user.token, 'first_option')).toEqual(NOT_YET);
    expect(await welfareEntriesOf(user.id)).toEqual([]);
    const amounts = async () =>
      (await moneyState(h, user.id)).balances.map(({ asset, available, frozen }) => ({ asset, available, frozen }));
    expect(await amounts()).toEqual(before);

    await placeOptionOf(user.token);
    await tickAfter(1);
    await openAllPending(h.database.db, h.clock.now());
    expect(await stateOf(user.token, 'first_option')).toBe('claimable');
    expect((await claim(user.token, 'first_option')).data).toMatchObject({ asset: 'POINT', reward: '30' });
  });

  it('pays exactly once under 20 parallel claims with different Idempotency-Keys (and without keys)', async () => {
    const user = await customer(h);
    await certifyPrimary(h, user.token, { number: newDocument() });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? claim(user.token, 'primary_certification')
          : h.call(claimWelfare, { code: 'primary_certification' }, { token: user.token }),
      ),
    );
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(1);
    expect(answers.filter((answer) => answer.ret !== 1)).toEqual(Array.from({ length: 19 }, () => CLAIMED));
    expect(await claimsOf(user.id)).toHaveLength(1);
    expect(await welfareEntriesOf(user.id)).toHaveLength(1);
  });

  it('pays friend_certified when someone the caller invited has a verified primary certification', async () => {
    const inviter = await customer(h);
    const { invite_code } = (await h.call(userInfo, {}, { token: inviter.token })).data;
    const friend = await registerByPhone(h, undefined, { invite: invite_code });
    const stranger = await customer(h);
    await certifyPrimary(h, stranger.token, { number: newDocument() }); // not invited by the caller: does not count
    expect(await claim(inviter.token, 'friend_certified')).toEqual(NOT_YET);
    expect(await stateOf(inviter.token, 'primary_certification')).toBe('locked'); // the friend's certification is not the caller's

    await certifyPrimary(h, friend.token, { number: newDocument() });
    expect(await stateOf(inviter.token, 'friend_certified')).toBe('claimable');
    expect((await claim(inviter.token, 'friend_certified')).data).toEqual({
      code: 'friend_certified',
      asset: 'USDT',
      reward: '5',
      balance: '5.00000000',
    });
    expect(await welfareEntriesOf(inviter.id)).toMatchObject([
      { asset: 'USDT', amount: '5.00000000', reference: `welfare:friend_certified:${inviter.id}` },
    ]);
    // The friend has nothing to claim for having been invited.
    expect(await stateOf(friend.token, 'friend_certified')).toBe('locked');
  });

  it('does not count a certified friend whose account is closed toward friend_certified', async () => {
    const inviter = await customer(h);
    const { invite_code } = (await h.call(userInfo, {}, { token: inviter.token })).data;
    const friend = await registerByPhone(h, undefined, { invite: invite_code });
    await certifyPrimary(h, friend.token, { number: newDocument() });
    expect(await stateOf(inviter.token, 'friend_certified')).toBe('claimable');
    const closed = await h.call(
      closeAccount,
      { secret_kind: 'login', secret: PASSWORD, amounts: '' },
      { token: friend.token, idempotencyKey: `welfare-close-${++keys}` },
    );
    expect(closed.ret).toBe(1);
    expect(await stateOf(inviter.token, 'friend_certified')).toBe('locked');
    expect(await claim(inviter.token, 'friend_certified')).toEqual(NOT_YET);
    expect(await welfareEntriesOf(inviter.id)).toEqual([]);
    // Another friend, certified and open, counts.
    const open = await registerByPhone(h, undefined, { invite: invite_code });
    await certifyPrimary(h, open.token, { number: newDocument() });
    expect((await claim(inviter.token, 'friend_certified')).ret).toBe(1);
  });
});

describe('the operator', () => {
  it('lists the tasks and changes a reward or switches a task off for future claims only', async () => {
    expect((await opsOk(h, 'welfare')).split('\n')[0]).toMatch(/^code\s+reward\s+asset\s+active$/);
    const early = await customer(h);
    await certifyPrimary(h, early.token, { number: newDocument() });
    await claim(early.token, 'primary_certification');

    expect(await opsOk(h, 'welfare', 'primary_certification', 'reward=80', 'asset=USDT')).toBe(
      'Welfare task primary_certification: 80 USDT, active (future claims only).',
    );
    expect(await ops(h, 'welfare', 'nope', 'reward=1')).toMatchObject({ ok: false });
    expect(await ops(h, 'welfare', 'first_option', 'reward=-1')).toMatchObject({ ok: false });
    expect(await ops(h, 'welfare', 'first_option', 'asset=BTC')).toMatchObject({ ok: false });
    // What was paid is shown as paid.
    expect((await h.call(welfareTask, { code: 'primary_certification' }, { token: early.token })).data).toMatchObject({
      asset: 'POINT',
      reward: '50',
      state: 'claimed',
    });

    const late = await customer(h);
    await certifyPrimary(h, late.token, { number: newDocument() });
    expect((await claim(late.token, 'primary_certification')).data).toMatchObject({ asset: 'USDT', reward: '80' });

    await opsOk(h, 'welfare', 'first_recharge', 'active=false');
    const off = await customer(h);
    await approvedRecharge(h, off.token, '50');
    expect((await tasksOf(off.token)).map((task) => task.code)).not.toContain('first_recharge');
    expect(await claim(off.token, 'first_recharge')).toEqual(refused('This reward is not offered at the moment!'));
    await opsOk(h, 'welfare', 'first_recharge', 'active=true');
    await opsOk(h, 'welfare', 'primary_certification', 'reward=50', 'asset=POINT');
  });
});
