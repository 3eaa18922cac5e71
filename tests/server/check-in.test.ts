// Daily check-in: once per user and local day (Asia/Bangkok, the server's default timezone)
// under parallel taps, days that turn at local midnight and not at UTC's, the streak and the
// ladder, the reward as a POINT ledger entry, and a balanced ledger after every test.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, expectLedgerBalanced, refused } from './helpers.ts';
import { dailyCheckIn, checkInCalendar } from '../../src/api-contract/check-in.ts';
import { pointRecords } from '../../src/api-contract/rewards.ts';
import { ledgerEntries, checkIns } from '../../src/server/db/schema.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { post } from '../../src/server/domain/ledger.ts';
import { isUniqueViolation } from '../../src/server/domain/accounts.ts';

const ALREADY = refused('You have already checked in today!');

let h: Harness;
const ops = (...argv: string[]) =>
  runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);

beforeAll(async () => {
  h = await startHarness();
  expect(await ops('check-in-ladder', '5,5,10,10,15,20,30')).toEqual({
    ok: true,
    output: 'Daily check-in ladder set: 5,5,10,10,15,20,30 (from the next check-in on).',
  });
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

async function rowsOf(userId: number) {
  const db = h.database.db;
  return {
    checkIns: await db.select().from(checkIns).where(eq(checkIns.userId, userId)).orderBy(checkIns.day),
    entries: await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'sign_in')))
      .orderBy(ledgerEntries.id),
  };
}

let keys = 0;
const tap = (token: string) => h.call(dailyCheckIn, {}, { token, idempotencyKey: `check-in-${++keys}` });

describe('checking in', () => {
  it('answers ret -1 without a valid session and writes nothing', async () => {
    expect(await h.call(dailyCheckIn, {}, { idempotencyKey: 'anon-1' })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(dailyCheckIn, {}, { token: 'not-a-token', idempotencyKey: 'anon-2' })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(checkInCalendar, {})).toEqual(TOKEN_EXPIRED);
    expect(await h.database.db.select().from(checkIns)).toEqual([]);
  });

  it('shows the month before, pays day 1 of the ladder, then refuses a second tap that day and changes nothing', async () => {
    h.clock.set(new Date('2026-11-22T08:00:00Z')); // 15:00 in Bangkok
    const user = await customer(h);
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toEqual({
      month: '2026-11',
      signed_days: [],
      today: '2026-11-22',
      signed_today: false,
      streak: 0,
      ladder: ['5', '5', '10', '10', '15', '20', '30'],
      today_reward: '5',
      next_reward: '5',
      time_zone: 'Asia/Bangkok',
      balance: '0',
    });

    expect(await tap(user.token)).toEqual({
      ret: 1,
      msg: 'Success',
      data: { day: '2026-11-22', streak: 1, reward: '5', balance: '5' },
    });
    const after = await rowsOf(user.id);
    expect(after.entries).toMatchObject([
      { asset: 'POINT', amount: '5.00000000', kind: 'sign_in', reference: `signin:${user.id}:2026-11-22` },
    ]);

    h.clock.advance(60_000);
    expect(await tap(user.token)).toEqual(ALREADY);
    expect(await h.call(dailyCheckIn, {}, { token: user.token })).toEqual(ALREADY); // without a key too
    expect(await rowsOf(user.id)).toEqual(after);
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
      signed_days: ['2026-11-22'],
      signed_today: true,
      streak: 1,
      today_reward: '5',
      next_reward: '5',
      balance: '5',
    });
    expect((await h.call(pointRecords, {}, { token: user.token })).data.lists).toMatchObject([
      { amount: '5', kind: 'sign_in' },
    ]);
  });

  it('checks in exactly once under 20 parallel taps with different Idempotency-Keys', async () => {
    const user = await customer(h);
    const answers = await Promise.all(Array.from({ length: 20 }, () => tap(user.token)));
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(1);
    expect(answers.filter((answer) => answer.ret !== 1)).toEqual(Array.from({ length: 19 }, () => ALREADY));
    const { checkIns: rows, entries } = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(entries).toHaveLength(1);
    expect((await h.call(pointRecords, {}, { token: user.token })).data.balance).toBe('5');
  });

  it('checks in exactly once under 20 parallel taps without keys', async () => {
    const user = await customer(h);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.call(dailyCheckIn, {}, { token: user.token })),
    );
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(1);
    expect(answers.filter((answer) => answer.ret !== 1)).toEqual(Array.from({ length: 19 }, () => ALREADY));
    expect((await rowsOf(user.id)).entries).toHaveLength(1);
  });
});

describe('a check-in the database already holds', () => {
  it('is the refusal, not a 500, when the day’s reward entry is already in the ledger; the new row rolls back', async () => {
    h.clock.set(new Date('2026-11-27T05:00:00Z'));
    const user = await customer(h);
    await h.database.db.transaction((tx) =>
      post(
        tx,
        { userId: user.id, asset: 'POINT', amount: '5', kind: 'sign_in', reference: `signin:${user.id}:2026-11-27` },
        h.clock.now(),
      ),
    );
    expect(await tap(user.token)).toEqual(ALREADY);
    expect(await h.call(dailyCheckIn, {}, { token: user.token })).toEqual(ALREADY);
    expect((await rowsOf(user.id)).checkIns).toEqual([]);
  });

  it('reads a unique violation of sign_ins as such on this database driver', async () => {
    const user = await customer(h);
    const row = { userId: user.id, day: '2026-01-01', streak: 1, reward: '5', createdAt: h.clock.now() };
    await h.database.db.insert(checkIns).values(row);
    const error = await h.database.db
      .insert(checkIns)
      .values(row)
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(isUniqueViolation(error)).toBe(true);
    await h.database.db.delete(checkIns).where(eq(checkIns.userId, user.id));
  });
});

describe('days in the configured timezone', () => {
  it('starts a new day at local midnight (17:00 UTC in Bangkok), not at UTC midnight', async () => {
    h.clock.set(new Date('2026-11-24T16:00:00Z'));
    const user = await customer(h);
    h.clock.set(new Date('2026-11-24T16:59:59Z')); // 23:59:59 on the 24th in Bangkok
    expect((await tap(user.token)).data).toEqual({ day: '2026-11-24', streak: 1, reward: '5', balance: '5' });
    h.clock.set(new Date('2026-11-24T17:00:01Z')); // 00:00:01 on the 25th
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
      today: '2026-11-25',
      signed_today: false,
      streak: 1,
      today_reward: '5',
    });
    expect((await tap(user.token)).data).toEqual({ day: '2026-11-25', streak: 2, reward: '5', balance: '10' });

    h.clock.set(new Date('2026-11-25T23:59:59Z')); // 06:59:59 on the 26th
    expect((await tap(user.token)).data).toEqual({ day: '2026-11-26', streak: 3, reward: '10', balance: '20' });
    h.clock.set(new Date('2026-11-26T00:00:01Z')); // UTC's new day, still the 26th in Bangkok
    expect(await tap(user.token)).toEqual(ALREADY);
    expect((await rowsOf(user.id)).checkIns.map((row) => row.day)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
  });
});

describe('the streak and the ladder', () => {
  it('pays the ladder day by day, the last step from day 8 on, and restarts at 1 after a missed day', async () => {
    h.clock.set(new Date('2026-12-01T02:00:00Z'));
    const user = await customer(h);
    const paid: string[] = [];
    for (let day = 1; day <= 9; day++) {
      h.clock.set(new Date(`2026-12-${String(day).padStart(2, '0')}T03:00:00Z`));
      const answer = await tap(user.token);
      expect(answer.data.streak).toBe(day);
      paid.push(answer.data.reward);
    }
    expect(paid).toEqual(['5', '5', '10', '10', '15', '20', '30', '30', '30']);

    h.clock.set(new Date('2026-12-10T03:00:00Z')); // the 10th has no check-in: tomorrow the run is broken
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
      streak: 9,
      signed_today: false,
      today_reward: '30',
      next_reward: '30',
    });
    h.clock.set(new Date('2026-12-11T03:00:00Z'));
    expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
      streak: 0,
      today_reward: '5',
      next_reward: '5',
    });
    expect((await tap(user.token)).data).toEqual({ day: '2026-12-11', streak: 1, reward: '5', balance: '160' });

    const december = (await h.call(checkInCalendar, {}, { token: user.token })).data;
    expect(december.signed_days).toEqual(
      ['01', '02', '03', '04', '05', '06', '07', '08', '09', '11'].map((day) => `2026-12-${day}`),
    );
    expect((await h.call(checkInCalendar, { month: '2026-11' }, { token: user.token })).data).toMatchObject({
      month: '2026-11',
      signed_days: [],
      today: '2026-12-11',
    });
    expect(await h.call(checkInCalendar, { month: '2026-13' }, { token: user.token })).toEqual(
      refused('Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!'),
    );
  });

  it('follows the ladder the operator sets, from the next check-in on', async () => {
    expect(await ops('check-in-ladder', '1,2,x')).toMatchObject({ ok: false });
    expect(await ops('check-in-ladder', '0,5')).toMatchObject({ ok: false });
    expect(await ops('check-in-ladder', '7,9')).toMatchObject({ ok: true });
    expect(await ops('check-in-ladder')).toEqual({
      ok: true,
      output: 'Daily check-in ladder (points per consecutive day): 7,9',
    });
    h.clock.set(new Date('2026-12-20T03:00:00Z'));
    const user = await customer(h);
    expect((await tap(user.token)).data.reward).toBe('7');
    h.clock.advance(24 * 3600_000);
    expect((await tap(user.token)).data.reward).toBe('9');
    h.clock.advance(24 * 3600_000);
    expect((await tap(user.token)).data).toMatchObject({ streak: 3, reward: '9', balance: '25' });
    await ops('check-in-ladder', '5,5,10,10,15,20,30');
  });
});
