// The records a customer keeps and the trust anyone can check, attacked where they could lie: the proof of liabilities
// around its cut-off when postings to one account commit in another order than their requests began (an option's
// payout among them); the data export while the account moves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { EXPORT_PATH } from '../../src/api-contract/closure.ts';
import {
  LIQUIDITY_INTEREST_ASSET,
  LOCKUP_INTEREST_ASSET,
  myLiabilityProof,
} from '../../src/api-contract/liabilities.ts';
import { verifyProof } from '../../src/api-contract/liabilities-verify.ts';
import { buildLiabilitiesNow, ensureDailyLiabilities } from '../../src/server/domain/liabilities.ts';
import { COMMAND_LINE } from '../../src/server/domain/audit-log.ts';
import { post } from '../../src/server/domain/ledger.ts';
import { subscribeLockup } from '../../src/server/domain/lockup.ts';
import { subscribeLiquidity } from '../../src/server/domain/liquidity.ts';
import { draw, publishPrizeTableAs, setBoxCostsAs } from '../../src/server/domain/blindbox.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import type { LedgerKind } from '../../src/api-contract/ledger-kinds.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, waitersOnLocks } from './helpers.ts';
import { EARN_ZONE, earnTime, toEarnDay } from './earn-helpers.ts';
import { runDueDays } from '../../src/server/jobs/daily.ts';
import { DEFAULT_REWARD_CAPS } from '../../src/server/domain/reward-caps.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 240_000);
afterAll(() => h.close());

it('puts in the day’s tree each balance the account had at midnight, whatever order its postings began in', async () => {
  h.clock.set(new Date('2026-11-22T12:00:00Z'));
  // Two customers holding 5 and 20 USDT before midnight.
  const short = await customer(h, '5');
  const rich = await customer(h, '20');
  // Just after midnight a credit of 10 commits first; a debit of 10 whose request began just before midnight waited for
  // the account and commits after it (its entry keeps the time its request began). In the order they took effect:
  // 5 → 15 → 5 and 20 → 30 → 20. At midnight each account held what it held before both: 5 and 20.
  const credit = new Date('2026-11-23T00:00:00.100Z');
  const debit = new Date('2026-11-22T23:59:59.900Z');
  for (const who of [short, rich]) {
    const moves = [
      { amount: '10', reference: `after-midnight:${who.id}`, at: credit },
      { amount: '-10', reference: `before-midnight:${who.id}`, at: debit },
    ];
    for (const move of moves)
      await h.database.db.transaction((tx) =>
        post(
          tx,
          { userId: who.id, asset: 'USDT', amount: move.amount, kind: 'test_credit', reference: move.reference },
          move.at,
        ),
      );
  }
  h.clock.set(new Date('2026-11-23T00:02:00Z'));
  // The day's tree is published (a sum of the entries stamped before midnight would be -5 USDT for the first, a
  // balance no account ever had, and the build would refuse it every minute of the day).
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  for (const [who, held] of [
    [short, '500000000'],
    [rich, '2000000000'],
  ] as const) {
    const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(data.tree.day).toBe('2026-11-23');
    expect(data.proof.leaf.sums[data.tree.assets.indexOf('USDT')]).toBe(held);
    expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({
      ok: true,
    });
  }
}, 180_000);

it('counts an option settled just before midnight whose payout committed after midnight as still open', async () => {
  h.clock.set(new Date('2026-11-25T12:00:00Z'));
  const who = await customer(h, '20');
  // An option of 10 USDT at 80 % accepted before midnight (its stake debited then) and won: 18 USDT back. Its
  // settlement began just before midnight and waited for the account while a credit of 5 whose request began just
  // after midnight committed; its payout entry (stamped when the settlement began) took effect after that credit.
  const accepted = new Date('2026-11-25T23:58:00.000Z');
  const settledAt = new Date('2026-11-25T23:59:59.900Z');
  const [option] = rowsOf<{ id: number }>(
    await h.database.db.execute(sql`
      insert into option_orders (user_id, coin, product_id, direction, amount, minutes, yield_rate, status, start_at,
        practice, outcome, payout, settled_at)
      values (${who.id}, 'BTC', 1, 'up', 10, 1, 0.8, 'settled', ${accepted.toISOString()}::timestamptz, false, 'win',
        18, ${settledAt.toISOString()}::timestamptz)
      returning id`),
  );
  const moves: { amount: string; kind: LedgerKind; reference: string; at: Date }[] = [
    { amount: '-10', kind: 'option_stake', reference: `option:${option!.id}`, at: accepted },
    {
      amount: '5',
      kind: 'test_credit',
      reference: `after-midnight:${who.id}`,
      at: new Date('2026-11-26T00:00:00.100Z'),
    },
    { amount: '18', kind: 'option_payout', reference: `option:${option!.id}`, at: settledAt },
  ];
  for (const move of moves)
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: who.id, asset: 'USDT', amount: move.amount, kind: move.kind, reference: move.reference },
        move.at,
      ),
    );
  h.clock.set(new Date('2026-11-26T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  // In the order they took effect the account held 10 USDT at midnight with the option still to pay: its payout is
  // owed, in the open options' column, as the USDT it came back as is not in the tree.
  const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
  expect(data.tree.day).toBe('2026-11-26');
  const column = (asset: string) => data.proof.leaf.sums[data.tree.assets.indexOf(asset)];
  expect(column('USDT')).toBe('1000000000');
  expect(column('USDT_IN_OPTIONS')).toBe('1800000000');
  expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({ ok: true });
}, 180_000);

it('counts a lock-up or liquidity subscription that took effect after a later-stamped posting once, in one tree', async () => {
  h.clock.set(new Date('2026-11-27T12:00:00Z'));
  const locking = await customer(h, '1000');
  const saving = await customer(h, '1000');
  const [week] = rowsOf<{ id: number }>(
    await h.database.db.execute(sql`select id from lockup_products where days = 7`),
  );
  // Just after midnight a credit of 5 USDT commits first; a subscription of 400 USDT whose request began just before
  // midnight waited for the account's USDT and commits after it: its debit of USDT took effect after the credit, its
  // credit of the lock-up (or liquidity) balance right after. In the order they took effect each account held 1000 USDT
  // at midnight and nothing subscribed: 1000 owed, not 1000 USDT and 400 subscribed besides.
  const before = new Date('2026-11-27T23:59:59.900Z');
  for (const who of [locking, saving]) {
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: who.id, asset: 'USDT', amount: '5', kind: 'test_credit', reference: `after-midnight:${who.id}` },
        new Date('2026-11-28T00:00:00.100Z'),
      ),
    );
  }
  await h.database.db.transaction((tx) =>
    subscribeLockup(tx, locking.id, Number(week!.id), '400', before, 'Asia/Bangkok'),
  );
  await h.database.db.transaction((tx) =>
    subscribeLiquidity(tx, saving.id, '400', { now: () => before }, 'Asia/Bangkok'),
  );
  h.clock.set(new Date('2026-11-28T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  for (const [who, asset] of [
    [locking, 'REGULAR'],
    [saving, 'YUEBAO'],
  ] as const) {
    const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(data.tree.day).toBe('2026-11-28');
    const column = (name: string) => data.proof.leaf.sums[data.tree.assets.indexOf(name)] ?? '0';
    expect({ usdt: column('USDT'), subscribed: column(asset) }).toEqual({ usdt: '100000000000', subscribed: '0' });
    expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({
      ok: true,
    });
  }
}, 180_000);

it('counts in the leaf of a lock-up holder the income of its days ended by the cut-off and not paid yet', async () => {
  // 1,000 USDT in a 7-day lock-up at 0.08 % a day, subscribed on 10 December (Bangkok time): 0.8 USDT a day from the
  // 11th. The 11th's income is paid once that day ended; at the cut-off (00:00 UTC on the 13th, 07:00 in Bangkok) the
  // 12th has ended too, but the day-end job has not paid it yet.
  h.clock.set(earnTime('2026-12-10', 10));
  const who = await customer(h, '1500');
  const [week] = rowsOf<{ id: number }>(
    await h.database.db.execute(sql`select id from lockup_products where days = 7 and daily_rate = 0.0008`),
  );
  await h.database.db.transaction((tx) =>
    subscribeLockup(tx, who.id, Number(week!.id), '1000', h.clock.now(), EARN_ZONE),
  );
  await toEarnDay(h, '2026-12-12', 1);
  h.clock.set(new Date('2026-12-13T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  // Owed at the cut-off: 500.8 USDT on hand (the 11th's income in it), the 1,000 locked, and the 12th's 0.8 earned.
  const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
  expect(data.tree.day).toBe('2026-12-13');
  const column = (name: string) => data.proof.leaf.sums[data.tree.assets.indexOf(name)] ?? '0';
  expect({
    usdt: column('USDT'),
    locked: column('REGULAR'),
    interest: column(LOCKUP_INTEREST_ASSET),
  }).toEqual({ usdt: '50080000000', locked: '100000000000', interest: '80000000' });
  expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({ ok: true });
  // Once the job has paid the 12th, a tree built then counts its 0.8 in the USDT, not twice.
  await toEarnDay(h, '2026-12-13', 8);
  await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  const paid = (await h.call(myLiabilityProof, {}, { token: who.token })).data;
  const paidColumn = (name: string) => paid.proof.leaf.sums[paid.tree.assets.indexOf(name)] ?? '0';
  expect([paidColumn('USDT'), paidColumn('REGULAR'), paidColumn(LOCKUP_INTEREST_ASSET)]).toEqual([
    '50160000000',
    '100000000000',
    '0',
  ]);
}, 180_000);

it('counts in the leaf of a liquidity holder the interest of a day ended by the cut-off and not credited yet', async () => {
  // 1,000 USDT in liquidity, subscribed on 14 December (Bangkok time): it earns from the 15th, at 6 % a year on its
  // first 1,000 and 4 % beyond, added to the liquidity balance at the end of each interest day (it compounds).
  h.clock.set(earnTime('2026-12-14', 10));
  const who = await customer(h, '1500');
  await h.database.db.transaction((tx) => subscribeLiquidity(tx, who.id, '1000', h.clock, EARN_ZONE));
  await toEarnDay(h, '2026-12-16', 1);
  const leafOf = async () => {
    const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({
      ok: true,
    });
    const column = (name: string) => data.proof.leaf.sums[data.tree.assets.indexOf(name)] ?? '0';
    return { usdt: column('USDT'), liquidity: column('YUEBAO'), interest: column(LIQUIDITY_INTEREST_ASSET) };
  };
  // At the 17th's cut-off (07:00 in Bangkok) the 16th has ended and the day-end job has not credited it yet: owed are
  // the 1,000.16438356 held (the 15th's 0.16438356 in it) and the 16th's 0.16440157.
  h.clock.set(new Date('2026-12-17T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  expect(await leafOf()).toEqual({ usdt: '50000000000', liquidity: '100016438356', interest: '16440157' });
  // A job late by a day credits the 16th and the 17th just after the next cut-off: those entries are not in the 18th's
  // tree (taken after it), so both days' interest is still owed in the column.
  h.clock.set(new Date('2026-12-18T00:01:00Z'));
  await runDueDays(h.database.db, h.clock.now(), EARN_ZONE);
  h.clock.set(new Date('2026-12-18T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  expect(await leafOf()).toEqual({ usdt: '50000000000', liquidity: '100016438356', interest: '32882116' });
  // A tree built once both are credited counts them in the liquidity balance, not twice.
  h.clock.set(new Date('2026-12-18T00:03:00Z'));
  await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  expect(await leafOf()).toEqual({ usdt: '50000000000', liquidity: '100049320472', interest: '0' });
}, 180_000);

it('counts a blind box draw that took effect after a later-stamped posting once: its cost and prize together', async () => {
  // One prize, sure to be drawn: 5 USDT, for 100 points a draw.
  h.clock.set(new Date('2026-12-20T12:00:00Z'));
  await h.database.db.transaction(async (tx) => {
    await publishPrizeTableAs(tx, COMMAND_LINE, 'Sure:USDT:5:1000000', h.clock.now(), DEFAULT_REWARD_CAPS);
    await setBoxCostsAs(tx, COMMAND_LINE, ['points=100'], h.clock.now());
  });
  // Just after midnight a credit commits first, of 7 points to one customer, of 7 USDT to another; a draw paid with
  // points whose request began just before midnight waited for the account and commits after it: for the first its 100
  // points out took effect after the 7 in (its 5 USDT prize right after), for the second its 5 USDT prize took effect
  // after the 7 USDT in. In the order they took effect each held 10 USDT and 300 points at midnight, no draw yet: not
  // the prize and the points besides, nor neither.
  const drawn = [];
  for (const late of ['POINT', 'USDT']) {
    const who = await customer(h, '10');
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: who.id, asset: 'POINT', amount: '300', kind: 'test_credit', reference: `points:${who.id}` },
        h.clock.now(),
      ),
    );
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: who.id, asset: late, amount: '7', kind: 'test_credit', reference: `after-midnight:${who.id}` },
        new Date('2026-12-21T00:00:00.100Z'),
      ),
    );
    await h.database.db.transaction((tx) => draw(tx, who.id, 'points', new Date('2026-12-20T23:59:59.900Z')));
    drawn.push(who);
  }
  h.clock.set(new Date('2026-12-21T00:02:00Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  for (const who of drawn) {
    const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(data.tree.day).toBe('2026-12-21');
    const column = (name: string) => data.proof.leaf.sums[data.tree.assets.indexOf(name)] ?? '0';
    expect({ usdt: column('USDT'), points: column('POINT') }).toEqual({ usdt: '1000000000', points: '30000000000' });
  }
}, 180_000);

it('exports balances that agree with the ledger beside them while a posting commits during the export', async () => {
  const user = await customer(h, '5');
  let locked!: () => void;
  let go!: () => void;
  const taken = new Promise<void>((resolve) => (locked = resolve));
  const holding = h.database.db.transaction(async (tx) => {
    // The ledger's table held: the export waits at its first read of it, having read the balances already.
    await tx.execute(sql`lock table ledger_entries in access exclusive mode`);
    locked();
    await new Promise<void>((resolve) => (go = resolve));
    // A credit commits while the export is under way (with the lock's release).
    await post(
      tx,
      { userId: user.id, asset: 'USDT', amount: '7', kind: 'test_credit', reference: `during-export:${user.id}` },
      h.clock.now(),
    );
  });
  await taken;
  const exported = h.app.inject({ url: EXPORT_PATH, headers: { lang: 'en', token: user.token } });
  await waitersOnLocks(h.database.db, 1);
  go();
  await holding;
  const files = unzipSync(new Uint8Array((await exported).rawPayload));
  const balances = JSON.parse(strFromU8(files['balances.json']!)) as { asset: string; available: string }[];
  const ledger = JSON.parse(strFromU8(files['ledger.json']!)) as { asset: string; amount: string }[];
  const held = balances.find((row) => row.asset === 'USDT')!.available;
  const summed = ledger
    .filter((entry) => entry.asset === 'USDT')
    .reduce((sum, entry) => sum.plus(entry.amount), new Big(0))
    .toFixed(8);
  // One moment of the account: the 5 USDT it held when the export began, in both files.
  expect({ held, summed }).toEqual({ held: '5.00000000', summed: '5.00000000' });
});
