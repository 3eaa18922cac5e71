// The content role's rewards in the console: the daily check-in ladder, the welfare tasks and
// the blind box's prizes and cost, read and changed through the console API on the one rule of
// `npm run ops -- check-in-ladder|welfare|prizes set|prize|blindbox-cost` (domain/check-in.ts, welfare.ts,
// blindbox.ts). A change shows in what customers read — a prize table only for seeds committed after
// it (provably fair: no committed next roll meets a new table) — and leaves one audit entry with the
// values before and after, from the console and the command line alike; a value outside its rule is
// refused, changes nothing and leaves no entry; only the content role gets through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import { asc, desc, eq, gt, inArray } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, refused, refusedAbout } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import {
  consoleBlindBox,
  consoleChangeWelfareTask,
  consolePublishPrizeTable,
  consoleRestockPrize,
  consoleSetDrawCost,
  consoleSetCheckInLadder,
  consoleCheckInLadder,
  consoleWelfareTasks,
  consoleSetReferralReward,
} from '../../src/api-contract/console-rewards.ts';
import { checkInCalendar } from '../../src/api-contract/check-in.ts';
import { welfareTasks } from '../../src/api-contract/welfare.ts';
import { blindBoxInfo, rotateSeed } from '../../src/api-contract/blindbox.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import {
  auditLog,
  boxDraws,
  boxPrizes,
  boxSeeds,
  configEntries,
  priceTicks,
  welfareTasks as taskRows,
} from '../../src/server/db/schema.ts';

const WRITER_IP = '203.0.113.30';
const WELFARE_HELP = 'use reward=50, asset=POINT|USDT or active=true|false.';
const COST_HELP = 'use points=100 or usdt=1 (0 turns that way of paying off).';
const LADDER_FORMAT =
  'A ladder is 1 to 31 whole numbers of points from 1 to 1000000, separated by commas: 5,5,10,10,15,20,30.';

let h: Harness;
let writer: string;
beforeAll(async () => {
  h = await startHarness();
  await seedWelfare(h.database.db);
  await seedBlindBox(h.database.db, h.clock.now());
  writer = await operatorToken(h, 'cora', 'content');
});
afterAll(() => h.close());

/** The content operator's token and address (a function: the token exists once beforeAll has run). */
const as = () => ({ token: writer, ip: WRITER_IP });
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
/** Everything these calls could change, and what they must never touch (seeds and draws). */
const rows = async () => ({
  config: await h.database.db
    .select()
    .from(configEntries)
    .where(inArray(configEntries.act, ['signin', 'blindbox']))
    .orderBy(asc(configEntries.act), asc(configEntries.key)),
  welfare: await h.database.db.select().from(taskRows).orderBy(asc(taskRows.code)),
  prizes: await h.database.db.select().from(boxPrizes).orderBy(asc(boxPrizes.id)),
  seeds: await h.database.db.select().from(boxSeeds).orderBy(asc(boxSeeds.id)),
  draws: await h.database.db.select().from(boxDraws).orderBy(asc(boxDraws.id)),
});
const box = async () => (await h.call(consoleBlindBox, {}, as())).data;

describe('a content operator', () => {
  it('reads the check-in ladder, the welfare tasks and the blind box as the command line shows them', async () => {
    expect(await h.call(consoleCheckInLadder, {}, as())).toMatchObject({
      ret: 1,
      data: { ladder: ['5', '5', '10', '10', '15', '20', '30'] },
    });
    expect((await h.call(consoleWelfareTasks, {}, as())).data).toEqual([
      { code: 'primary_certification', reward: '50.00000000', asset: 'POINT', active: true },
      { code: 'first_recharge', reward: '100.00000000', asset: 'POINT', active: true },
      { code: 'first_option', reward: '30.00000000', asset: 'POINT', active: true },
      { code: 'friend_certified', reward: '5.00000000', asset: 'USDT', active: true },
    ]);
    const blindBox = await h.call(consoleBlindBox, {}, as());
    expect(blindBox.ret, blindBox.msg).toBe(1);
    expect(
      blindBox.data.prizes.map(({ name, amount, asset, odds, stock }) => [name, amount, asset, odds, stock]),
    ).toEqual([
      ['Grand prize', '100', 'USDT', '0.1%', 5],
      ['Big prize', '10', 'USDT', '0.9%', 50],
      ['Lucky USDT', '1', 'USDT', '10%', null],
      ['200 points', '200', 'POINT', '5%', null],
      ['50 points', '50', 'POINT', '40%', null],
      ['Thanks for playing', '0', 'POINT', '44%', null],
    ]);
    expect(blindBox.data).toMatchObject({
      odds_total: '100%',
      expected: { USDT: '0.29', POINT: '30' },
      costs: { points: '100', usdt: '1' },
    });
    // The command line reads the same table.
    expect(await opsOk(h, 'prizes')).toContain('Odds sum to 100%. Expected value per draw: 0.29 USDT + 30 POINT.');
  });

  it('sets the check-in ladder: customers see it at once, and one audit entry says who, from where, before and after', async () => {
    const { token } = await customer(h);
    const since = await lastAuditId();
    expect(await h.call(consoleSetCheckInLadder, { ladder: ' 1, 2,3 ' }, as())).toMatchObject({
      ret: 1,
      data: { ladder: ['1', '2', '3'] },
    });
    expect((await h.call(checkInCalendar, {}, { token })).data).toMatchObject({
      ladder: ['1', '2', '3'],
      today_reward: '1',
      next_reward: '2',
    });
    expect(await auditSince(since)).toMatchObject([
      {
        operator: 'cora',
        address: WRITER_IP,
        action: 'signin.ladder',
        target: 'signin:ladder',
        before: { ladder: ['5', '5', '10', '10', '15', '20', '30'] },
        after: { ladder: ['1', '2', '3'] },
      },
    ]);
    expect(await opsOk(h, 'check-in-ladder')).toBe('Daily check-in ladder (points per consecutive day): 1,2,3');
  });

  it('changes a welfare task for claims to come: customers see the new reward, and an inactive task is gone from their list', async () => {
    const { token } = await customer(h);
    const since = await lastAuditId();
    const answer = await h.call(consoleChangeWelfareTask, { code: 'first_option', reward: '2.5', asset: 'USDT' }, as());
    expect(answer).toMatchObject({
      ret: 1,
      data: { code: 'first_option', reward: '2.50000000', asset: 'USDT', active: true },
    });
    const offered = async () => (await h.call(welfareTasks, {}, { token })).data.lists;
    expect((await offered()).find((task) => task.code === 'first_option')).toMatchObject({
      reward: '2.5',
      asset: 'USDT',
      state: 'locked',
    });
    expect(
      (await h.call(consoleChangeWelfareTask, { code: 'first_option', active: 'false' }, as())).data,
    ).toMatchObject({ active: false });
    expect((await offered()).map((task) => task.code)).toEqual([
      'primary_certification',
      'first_recharge',
      'friend_certified',
    ]);
    expect(await auditSince(since)).toMatchObject([
      {
        operator: 'cora',
        address: WRITER_IP,
        action: 'welfare.change',
        target: 'welfare:first_option',
        before: { code: 'first_option', reward: '30.00000000', asset: 'POINT', active: true },
        after: { code: 'first_option', reward: '2.50000000', asset: 'USDT', active: true },
      },
      { action: 'welfare.change', before: { active: true }, after: { active: false } },
    ]);
    expect(
      (
        await h.call(
          consoleChangeWelfareTask,
          { code: 'first_option', reward: '30', asset: 'POINT', active: 'true' },
          as(),
        )
      ).ret,
    ).toBe(1);
  });

  it('publishes a prize table through the same rule as `ops prizes set`: new seeds get its odds, a seed already committed keeps its table until rotated', async () => {
    // A customer whose seed (and so the table of their next draws) was committed before the change.
    const early = await customer(h);
    const committed = (await h.call(blindBoxInfo, {}, { token: early.token })).data;
    expect(committed.table_current).toBe(true);
    const seedsBefore = (await rows()).seeds;
    const oldTable = (await box()).prizes.map(({ id, name, asset, amount, weight, stock }) => ({
      id,
      name,
      asset,
      amount,
      weight,
      stock,
    }));

    const since = await lastAuditId();
    const answer = await h.call(
      consolePublishPrizeTable,
      { table: 'Jackpot:USDT:50:2500:3; Points:POINT:20:497500 ;Thanks for playing:POINT:0:500000' },
      as(),
    );
    expect(answer.ret, answer.msg).toBe(1);
    expect(answer.data.prizes.map(({ name, odds, stock }) => [name, odds, stock])).toEqual([
      ['Jackpot', '0.25%', 3],
      ['Points', '49.75%', null],
      ['Thanks for playing', '50%', null],
    ]);
    expect(answer.data).toMatchObject({ odds_total: '100%', expected: { USDT: '0.125', POINT: '9.95' } });
    const newTable = answer.data.prizes.map(({ id, name, asset, amount, weight, stock }) => ({
      id,
      name,
      asset,
      amount,
      weight,
      stock,
    }));
    expect(await auditSince(since)).toMatchObject([
      {
        operator: 'cora',
        address: WRITER_IP,
        action: 'prizes.publish',
        target: 'prizes',
        before: oldTable,
        after: newTable,
      },
    ]);

    // A new customer's seed commits to the new table; the early one's still shows (and draws on) the old odds.
    const late = await customer(h);
    expect((await h.call(blindBoxInfo, {}, { token: late.token })).data).toMatchObject({
      table_current: true,
      expected: { USDT: '0.125', POINT: '9.95' },
    });
    const kept = (await h.call(blindBoxInfo, {}, { token: early.token })).data;
    expect(kept).toMatchObject({ table_current: false, prizes: committed.prizes, seed: committed.seed });
    expect((await rows()).seeds.filter((seed) => seedsBefore.some((old) => old.id === seed.id))).toEqual(seedsBefore);
    // Rotating (the customer's own act) reveals the old seed and brings the new table.
    expect((await h.call(rotateSeed, {}, { token: early.token })).ret).toBe(1);
    expect((await h.call(blindBoxInfo, {}, { token: early.token })).data.prizes.map((prize) => prize.odds)).toEqual([
      '0.25%',
      '49.75%',
      '50%',
    ]);
  });

  it('restocks a prize of the table in force, and sets the cost of a draw: customers see both', async () => {
    const [jackpot] = (await box()).prizes;
    const since = await lastAuditId();
    const restocked = await h.call(consoleRestockPrize, { id: String(jackpot!.id), stock: '7' }, as());
    expect(restocked.data.prizes[0]).toMatchObject({ id: jackpot!.id, stock: 7 });
    expect(
      (await h.call(consoleRestockPrize, { id: String(jackpot!.id), stock: 'unlimited' }, as())).data.prizes[0],
    ).toMatchObject({ stock: null });
    const cost = await h.call(consoleSetDrawCost, { usdt: '0', points: '80' }, as());
    expect(cost).toMatchObject({ ret: 1, data: { costs: { points: '80', usdt: '0' } } });
    const { token } = await customer(h);
    const info = (await h.call(blindBoxInfo, {}, { token })).data;
    expect(info.costs).toEqual([{ pay: 'points', asset: 'POINT', amount: '80' }]);
    expect(info.prizes[0]).toMatchObject({ name: 'Jackpot', stock: null });
    expect(await auditSince(since)).toMatchObject([
      {
        operator: 'cora',
        action: 'prize.restock',
        target: `prize:${jackpot!.id}`,
        before: { name: 'Jackpot', stock: 3 },
        after: { name: 'Jackpot', stock: 7 },
      },
      { operator: 'cora', action: 'prize.restock', before: { stock: 7 }, after: { stock: null } },
      {
        operator: 'cora',
        address: WRITER_IP,
        action: 'blindbox.cost',
        target: 'blindbox:cost',
        before: { points: '100', usdt: '1' },
        after: { points: '80', usdt: '0' },
      },
    ]);
    expect((await h.call(consoleSetDrawCost, { usdt: '1', points: '100' }, as())).ret).toBe(1);
  });
});

describe('a value outside its rule', () => {
  const prizeId = async () => String((await box()).prizes[0]!.id);
  const cases: [string, () => ReturnType<Harness['call']>, ReturnType<typeof refused>][] = [
    ['a ladder of letters', () => h.call(consoleSetCheckInLadder, { ladder: 'a,b,c' }, as()), refused(LADDER_FORMAT)],
    ['a ladder step of 0', () => h.call(consoleSetCheckInLadder, { ladder: '5,0,10' }, as()), refused(LADDER_FORMAT)],
    ['an empty ladder', () => h.call(consoleSetCheckInLadder, { ladder: '' }, as()), refused(LADDER_FORMAT)],
    [
      'a negative reward',
      () => h.call(consoleChangeWelfareTask, { code: 'first_option', reward: '-1' }, as()),
      refused(`Cannot apply "reward=-1": ${WELFARE_HELP}`),
    ],
    // One bad term among good ones applies none of them.
    [
      'asset=BTC with a good reward',
      () => h.call(consoleChangeWelfareTask, { code: 'first_option', reward: '9', asset: 'BTC' }, as()),
      refused(`Cannot apply "asset=BTC": ${WELFARE_HELP}`),
    ],
    [
      'no term at all',
      () => h.call(consoleChangeWelfareTask, { code: 'first_option' }, as()),
      refused('Nothing to change.'),
    ],
    [
      'a task that does not exist',
      () => h.call(consoleChangeWelfareTask, { code: 'nope', reward: '1' }, as()),
      refused('This record does not exist!'),
    ],
    [
      'odds summing to 50 %',
      () => h.call(consolePublishPrizeTable, { table: 'Half:USDT:1:500000' }, as()),
      refused('The weights sum to 500000, not 1000000 (100 %): nothing changed.'),
    ],
    [
      'odds summing to more than 100 %',
      () => h.call(consolePublishPrizeTable, { table: 'A:USDT:1:1000000;B:POINT:0:1' }, as()),
      refused('The weights sum to 1000001, not 1000000 (100 %): nothing changed.'),
    ],
    [
      'a negative amount',
      () => h.call(consolePublishPrizeTable, { table: 'A:POINT:5:500000;B:USDT:-1:500000' }, as()),
      refused('Prize 2: "-1" is not an amount (0 or more, up to 8 decimals).'),
    ],
    [
      'a negative stock in the table',
      () => h.call(consolePublishPrizeTable, { table: 'A:USDT:1:1000000:-5' }, as()),
      refused('Prize 1: the stock "-5" must be a whole number (leave it out for unlimited).'),
    ],
    [
      'a weight of 0',
      () => h.call(consolePublishPrizeTable, { table: 'A:USDT:1:0;B:USDT:1:1000000' }, as()),
      refused('Prize 1: the weight "0" must be a whole number of parts per million, at least 1.'),
    ],
    [
      'a lower-case asset',
      () => h.call(consolePublishPrizeTable, { table: 'A:usdt:1:1000000' }, as()),
      refused('Prize 1: "usdt" is not an asset code (USDT, POINT, BTC…).'),
    ],
    // A prize pays into a balance the customer can use: USDT, points or a coin. The lock-up and liquidity balances move
    // only with their orders (a REGULAR prize is locked for good and breaks the books' check); no balance of an asset
    // that is no coin can be sold or withdrawn.
    [
      'a prize paid into the lock-up balance',
      () => h.call(consolePublishPrizeTable, { table: 'A:USDT:1:500000;B:REGULAR:5:500000' }, as()),
      refused('Prize 2: "REGULAR" is not an asset code (USDT, POINT, BTC…).'),
    ],
    [
      'a prize paid into the liquidity balance',
      () => h.call(consolePublishPrizeTable, { table: 'A:YUEBAO:5:1000000' }, as()),
      refused('Prize 1: "YUEBAO" is not an asset code (USDT, POINT, BTC…).'),
    ],
    [
      'a prize in an asset that is no coin',
      () => h.call(consolePublishPrizeTable, { table: 'A:NOSUCHCOIN:5:1000000' }, as()),
      refused('Prize 1: "NOSUCHCOIN" is not an asset code (USDT, POINT, BTC…).'),
    ],
    [
      'a name with a colon',
      () => h.call(consolePublishPrizeTable, { table: 'Gift: box:USDT:1:1000000' }, as()),
      refused('Prize 1: "box" is not an asset code (USDT, POINT, BTC…).'),
    ],
    [
      'an empty table',
      () => h.call(consolePublishPrizeTable, { table: ' ; ' }, as()),
      refused('A prize table has at least one prize.'),
    ],
    [
      'a field that is no part of a table (seed)',
      () => h.call(consolePublishPrizeTable, { table: 'A:USDT:1:1000000', seed: 'abc' }, as()),
      refused('The request is not valid!'),
    ],
    [
      'a negative restock',
      async () => h.call(consoleRestockPrize, { id: await prizeId(), stock: '-2' }, as()),
      refused('A stock is a whole number from 0, or "unlimited".'),
    ],
    // Prize 1 (the first demo table's) was retired when the content operator published theirs.
    [
      'a retired prize',
      () => h.call(consoleRestockPrize, { id: '1', stock: '9' }, as()),
      refused('No prize 1 in the table in force.'),
    ],
    [
      'a prize that never was',
      () => h.call(consoleRestockPrize, { id: '999999', stock: '9' }, as()),
      refused('No prize 999999 in the table in force.'),
    ],
    [
      'a negative cost',
      () => h.call(consoleSetDrawCost, { points: '-1' }, as()),
      refused(`Cannot apply "points=-1": ${COST_HELP}`),
    ],
    ['no cost at all', () => h.call(consoleSetDrawCost, {}, as()), refused('Nothing to change.')],
    [
      'a field that is no cost (outcome)',
      () => h.call(consoleSetDrawCost, { points: '5', outcome: 'win' }, as()),
      refused('The request is not valid!'),
    ],
  ];
  it.each(cases)('%s: refused with ret 0, nothing changes, no audit entry', async (_name, change, answer) => {
    const before = await rows();
    const since = await lastAuditId();
    expect(await change()).toEqual(answer);
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);
  });

  it('is refused in the operator’s language', async () => {
    expect(await h.call(consolePublishPrizeTable, { table: 'Half:USDT:1:500000' }, { ...as(), lang: 'zh' })).toEqual(
      refused('权重之和为 500000，而不是 1000000（100%）：未作任何更改。'),
    );
    expect(await h.call(consoleSetCheckInLadder, { ladder: 'a,b' }, { ...as(), lang: 'th' })).toMatchObject({
      ret: 0,
      msg: expect.stringContaining('5,5,10,10,15,20,30'),
    });
  });
});

describe('a reward above its bound (REWARD_MAX_USDT, REWARD_MAX_POINTS)', () => {
  const above = (field: string, amount: string, asset: string, cap: string, setting: string) =>
    refusedAbout(
      `"${field}" is ${amount} ${asset}: a reward pays one customer at most ${cap} ${asset} (${setting}).`,
      field,
    );
  const welfare = (terms: Record<string, string>) => h.call(consoleChangeWelfareTask, terms, as());

  it('is refused naming its field, in the console and the command alike; at the bound it applies', async () => {
    const before = await rows();
    const since = await lastAuditId();
    expect(await welfare({ code: 'friend_certified', reward: '100.5' })).toEqual(
      above('reward', '100.5', 'USDT', '100', 'REWARD_MAX_USDT'),
    );
    expect(await welfare({ code: 'first_option', reward: '10001' })).toEqual(
      above('reward', '10001', 'POINT', '10000', 'REWARD_MAX_POINTS'),
    );
    // A reward within the points' bound, paid in USDT instead: the bound of the asset it would pay in.
    expect(await welfare({ code: 'first_option', reward: '5000', asset: 'USDT' })).toEqual(
      above('reward', '5000', 'USDT', '100', 'REWARD_MAX_USDT'),
    );
    expect(await ops(h, 'welfare', 'friend_certified', 'reward=100.5')).toEqual({
      ok: false,
      output: '"reward" is 100.5 USDT: a reward pays one customer at most 100 USDT (REWARD_MAX_USDT).',
    });
    expect(await h.call(consoleSetReferralReward, { amount: '250' }, as())).toEqual(
      above('amount', '250', 'USDT', '100', 'REWARD_MAX_USDT'),
    );
    expect(await h.call(consoleSetReferralReward, { amount: '250' }, { ...as(), lang: 'zh' })).toMatchObject({
      ret: 0,
      field: 'amount',
      msg: expect.stringMatching(/^(?!"amount" is).*250.*REWARD_MAX_USDT/),
    });
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);

    // At the bound, it applies.
    expect(await welfare({ code: 'first_option', reward: '10000' })).toMatchObject({ ret: 1 });
    expect(await h.call(consoleSetReferralReward, { amount: '100' }, as())).toMatchObject({
      ret: 1,
      data: { asset: 'USDT', amount: '100' },
    });
    expect(await h.call(consoleSetReferralReward, { amount: '0' }, as())).toMatchObject({ ret: 1 });
    expect(await welfare({ code: 'first_option', reward: '30' })).toMatchObject({ ret: 1 });
  });

  it('leaves a task above it from before to be taken off offer, not offered again', async () => {
    await h.database.db.update(taskRows).set({ reward: '50000' }).where(eq(taskRows.code, 'first_recharge'));
    expect(await welfare({ code: 'first_recharge', active: 'false' })).toMatchObject({ ret: 1 });
    expect(await welfare({ code: 'first_recharge', active: 'true' })).toEqual(
      above('reward', '50000', 'POINT', '10000', 'REWARD_MAX_POINTS'),
    );
    expect(await welfare({ code: 'first_recharge', reward: '100', active: 'true' })).toMatchObject({ ret: 1 });
  });

  it('bounds each prize of a blind box table and each step of the check-in ladder, naming the field', async () => {
    const named = (name: string, field: string, amount: string, asset: string, cap: string, setting: string) =>
      refusedAbout(
        `"${name}" is ${amount} ${asset}: a reward pays one customer at most ${cap} ${asset} (${setting}).`,
        field,
      );
    const publish = (table: string) => h.call(consolePublishPrizeTable, { table }, as());
    await h.tick();
    const [btc] = await h.database.db
      .select({ price: priceTicks.price })
      .from(priceTicks)
      .where(eq(priceTicks.coin, 'BTC'))
      .orderBy(desc(priceTicks.at))
      .limit(1);
    // A coin prize is valued at the coin's latest recorded price: at most what REWARD_MAX_USDT buys.
    const btcCap = new Big(100).div(btc!.price).round(8, Big.roundDown);
    const before = await rows();
    const since = await lastAuditId();
    expect(await publish('Jackpot:USDT:100.5:1000;Rest:POINT:0:999000')).toEqual(
      named('Jackpot', 'table', '100.5', 'USDT', '100', 'REWARD_MAX_USDT'),
    );
    expect(await publish('Few:POINT:5:999000;Heap:POINT:10001:1000')).toEqual(
      named('Heap', 'table', '10001', 'POINT', '10000', 'REWARD_MAX_POINTS'),
    );
    expect(await publish(`Coin:BTC:${btcCap.plus('0.00000001').toFixed()}:1000;Rest:POINT:0:999000`)).toEqual(
      named('Coin', 'table', btcCap.plus('0.00000001').toFixed(), 'BTC', btcCap.toFixed(), 'REWARD_MAX_USDT'),
    );
    expect(await ops(h, 'prizes', 'set', 'Jackpot:USDT:250:1000;Rest:POINT:0:999000')).toEqual({
      ok: false,
      output: '"Jackpot" is 250 USDT: a reward pays one customer at most 100 USDT (REWARD_MAX_USDT).',
    });
    expect(await h.call(consoleSetCheckInLadder, { ladder: '5,10,10001' }, as())).toEqual(
      named('ladder', 'ladder', '10001', 'POINT', '10000', 'REWARD_MAX_POINTS'),
    );
    expect(await ops(h, 'check-in-ladder', '5,50000')).toEqual({
      ok: false,
      output: '"ladder" is 50000 POINT: a reward pays one customer at most 10000 POINT (REWARD_MAX_POINTS).',
    });
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);

    // At the bound, it applies.
    expect(await h.call(consoleSetCheckInLadder, { ladder: '5,10000' }, as())).toMatchObject({ ret: 1 });
    expect(await opsOk(h, 'check-in-ladder', '5,5,10,10,15,20,30')).toContain('5,5,10,10,15,20,30');
    expect(
      await publish(
        `Jackpot:USDT:100:1000;Heap:POINT:10000:1000;Coin:BTC:${btcCap.toFixed()}:1000;Rest:POINT:0:997000`,
      ),
    ).toMatchObject({ ret: 1 });
  });

  it('leaves a prize above it from before to be run down or sold out, not restocked', async () => {
    expect(
      await h.call(consolePublishPrizeTable, { table: 'Jackpot:USDT:50:1000:5;Rest:POINT:0:999000' }, as()),
    ).toMatchObject({ ret: 1 });
    const [jackpot] = (await box()).prizes;
    await h.database.db.update(boxPrizes).set({ amount: '500' }).where(eq(boxPrizes.id, jackpot!.id));
    const restock = (stock: string) => h.call(consoleRestockPrize, { id: String(jackpot!.id), stock }, as());
    const refusal = refusedAbout(
      '"Jackpot" is 500 USDT: a reward pays one customer at most 100 USDT (REWARD_MAX_USDT).',
      'stock',
    );
    expect(await restock('6')).toEqual(refusal);
    expect(await restock('unlimited')).toEqual(refusal);
    expect(await ops(h, 'prize', String(jackpot!.id), 'stock=9')).toEqual({ ok: false, output: refusal.msg });
    expect(await restock('2')).toMatchObject({ ret: 1 });
    expect(await restock('0')).toMatchObject({ ret: 1 });
    expect(await restock('1')).toEqual(refusal);
    // Within the bound again, it restocks.
    await h.database.db.update(boxPrizes).set({ amount: '50' }).where(eq(boxPrizes.id, jackpot!.id));
    expect(await restock('5')).toMatchObject({ ret: 1 });
  });
});

describe('only the content role', () => {
  it('refuses reviewers and admins, and answers "no session" without a token or with a customer’s', async () => {
    const reviewer = await operatorToken(h, 'rita', 'reviewer');
    const admin = await operatorToken(h, 'adam', 'admin');
    const { token: customerToken } = await customer(h);
    const prize = String((await box()).prizes[0]!.id);
    const before = await rows();
    const since = await lastAuditId();
    const calls = [
      [consoleCheckInLadder, {}],
      [consoleSetCheckInLadder, { ladder: '1,1,1' }],
      [consoleWelfareTasks, {}],
      [consoleChangeWelfareTask, { code: 'first_option', reward: '999' }],
      [consoleBlindBox, {}],
      [consolePublishPrizeTable, { table: 'All:USDT:100:1000000' }],
      [consoleRestockPrize, { id: prize, stock: '999' }],
      [consoleSetDrawCost, { points: '1' }],
    ] as const;
    for (const [endpoint, input] of calls) {
      for (const token of [reviewer, admin])
        expect(await h.call(endpoint, input, { token }), endpoint.path).toEqual(
          refused('Your role does not allow this!'),
        );
      for (const token of [undefined, customerToken])
        expect(await h.call(endpoint, input, { token }), endpoint.path).toEqual(TOKEN_EXPIRED);
    }
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);
  });
});

describe('the operator command', () => {
  it('is audited too: each change leaves an entry as "ops" from "local", a refused one none, and the console reads what it set', async () => {
    const [first] = (await box()).prizes;
    const since = await lastAuditId();
    expect(await opsOk(h, 'check-in-ladder', '5,5,10,10,15,20,30')).toBe(
      'Daily check-in ladder set: 5,5,10,10,15,20,30 (from the next check-in on).',
    );
    expect(await opsOk(h, 'welfare', 'friend_certified', 'reward=6')).toBe(
      'Welfare task friend_certified: 6 USDT, active (future claims only).',
    );
    expect(await opsOk(h, 'prize', String(first!.id), 'stock=4')).toBe(
      `Prize ${first!.id} (Jackpot) now has a stock of 4.`,
    );
    expect(await opsOk(h, 'blindbox-cost', 'usdt=2')).toMatch(/^pay +cost\n[- ]+\npoints +100\nusdt +2$/);
    expect(await opsOk(h, 'prizes', 'set', 'Sure thing:POINT:10:1000000')).toContain(
      'Published a table of 1 prizes (100 %)',
    );
    expect(await ops(h, 'welfare', 'friend_certified', 'asset=BTC')).toEqual({
      ok: false,
      output: `Cannot apply "asset=BTC": ${WELFARE_HELP}`,
    });
    expect(await ops(h, 'prizes', 'set', 'Half:USDT:1:500000')).toEqual({
      ok: false,
      output: 'The weights sum to 500000, not 1000000 (100 %): nothing changed.',
    });
    expect(await ops(h, 'prize', String(first!.id), 'stock=-1')).toEqual({
      ok: false,
      output: 'A stock is a whole number from 0, or "unlimited".',
    });
    const entries = await auditSince(since);
    expect(entries.map((entry) => [entry.operator, entry.address, entry.action])).toEqual([
      ['ops', 'local', 'signin.ladder'],
      ['ops', 'local', 'welfare.change'],
      ['ops', 'local', 'prize.restock'],
      ['ops', 'local', 'blindbox.cost'],
      ['ops', 'local', 'prizes.publish'],
    ]);
    expect(entries[1]).toMatchObject({ before: { reward: '5.00000000' }, after: { reward: '6.00000000' } });
    expect(entries[4]!.after).toMatchObject([
      { name: 'Sure thing', asset: 'POINT', amount: '10', weight: 1_000_000, stock: null },
    ]);
    expect((await box()).prizes.map((prize) => [prize.name, prize.odds])).toEqual([['Sure thing', '100%']]);
    expect((await h.call(consoleCheckInLadder, {}, as())).data.ladder).toEqual([
      '5',
      '5',
      '10',
      '10',
      '15',
      '20',
      '30',
    ]);
  });
});
