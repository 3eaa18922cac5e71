// Two check-ins of one customer at once, as two server processes take them on one PostgreSQL: on the same local day
// exactly one pays and the other is the refusal, and across the local midnight (Asia/Bangkok, the server's default
// timezone) both pay, one for each day, and the run of days goes on whichever of them commits first. Never a reward
// paid twice, never both refused, never a 500, round after round. PostgreSQL only (the server-pg project): the
// embedded database serves one process.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { otherProcessApp, callApp, startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import type { FastifyInstance } from 'fastify';
import { checkInCalendar, dailyCheckIn } from '../../src/api-contract/check-in.ts';
import { pointRecords } from '../../src/api-contract/rewards.ts';
import { checkIns, ledgerEntries } from '../../src/server/db/schema.ts';
import { checkInOnce } from '../../src/server/domain/check-in.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';

const ROUNDS = 6;
const TIME_ZONE = 'Asia/Bangkok';
const DAY_MS = 24 * 60 * 60 * 1000;

let h: Harness;
let second: FastifyInstance;
beforeAll(async () => {
  h = await startHarness();
  second = await otherProcessApp(h);
}, 120_000);
afterAll(async () => {
  await second.close();
  await h.close();
});

/** The customer's check-in days with the streak each one counts, in day order. */
async function streaksOf(userId: number) {
  const rows = await h.database.db.select().from(checkIns).where(eq(checkIns.userId, userId)).orderBy(checkIns.day);
  return rows.map((row) => [row.day, row.streak]);
}

/** The customer's check-in rows by day and their reward entries, and whether each row's reward was paid once. */
async function paidOf(userId: number) {
  const db = h.database.db;
  const rows = await db.select().from(checkIns).where(eq(checkIns.userId, userId)).orderBy(checkIns.day);
  const entries = await db
    .select({ reference: ledgerEntries.reference, amount: ledgerEntries.amount })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'sign_in')));
  expect(entries.map((entry) => [entry.reference, Number(entry.amount)]).sort()).toEqual(
    rows.map((row) => [`signin:${userId}:${row.day}`, Number(row.reward)]).sort(),
  );
  return rows.map((row) => row.day);
}

it('on one local day, two processes at once: one check-in pays, the other is the refusal', async () => {
  const user = await customer(h);
  for (let round = 1; round <= ROUNDS; round++) {
    const answers = await Promise.all([
      h.call(dailyCheckIn, {}, { token: user.token }),
      callApp(second, dailyCheckIn, {}, { token: user.token }),
    ]);
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(1);
    expect(answers.filter((answer) => answer.ret !== 1)).toEqual([refused('You have already checked in today!')]);
    // Every round a day of the streak: each paid once.
    expect(await paidOf(user.id)).toHaveLength(round);
    h.clock.advance(DAY_MS);
  }
  const points = await h.call(pointRecords, {}, { token: user.token });
  const [sum] = await h.database.db
    .select({ total: sql<string>`sum(reward)::text` })
    .from(checkIns)
    .where(eq(checkIns.userId, user.id));
  expect(points.data.balance).toBe(String(Number(sum!.total)));
  await expectLedgerBalanced(h);
});

it('across the local midnight, two processes at once: each pays its own day, neither twice', async () => {
  // 17:00 UTC is midnight in Bangkok: one tap a millisecond before it, the other at it.
  const midnight = new Date('2026-11-25T17:00:00.000Z');
  for (let round = 1; round <= ROUNDS; round++) {
    const user = await customer(h);
    const before = new Date(midnight.getTime() - 1);
    await checkInOnce(h.database.db, user.id, new Date(before.getTime() - DAY_MS), TIME_ZONE);
    const [late, early] = await Promise.allSettled([
      checkInOnce(h.database.db, user.id, midnight, TIME_ZONE),
      checkInOnce(h.database.db, user.id, before, TIME_ZONE),
    ]);
    expect([late.status, early.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await paidOf(user.id)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    // Whichever committed first, the run goes on over the three days.
    expect(await streaksOf(user.id)).toEqual([
      ['2026-11-24', 1],
      ['2026-11-25', 2],
      ['2026-11-26', 3],
    ]);
  }
  await expectLedgerBalanced(h);
});

it('a tap of before midnight taken in after the next day’s check-in: its own day, the run goes on, paid once a day', async () => {
  // Two processes: one read its clock a millisecond before the Bangkok midnight, then waited (for the customer's
  // lock, a slow connection) while the other took in a tap at midnight and committed it first.
  const midnight = new Date('2026-11-25T17:00:00.000Z');
  const before = new Date(midnight.getTime() - 1);
  const user = await customer(h);
  await checkInOnce(h.database.db, user.id, new Date(before.getTime() - DAY_MS), TIME_ZONE);
  expect(await checkInOnce(h.database.db, user.id, midnight, TIME_ZONE)).toMatchObject({ day: '2026-11-26' });
  expect(await checkInOnce(h.database.db, user.id, before, TIME_ZONE)).toMatchObject({ day: '2026-11-25', streak: 2 });
  expect(await streaksOf(user.id)).toEqual([
    ['2026-11-24', 1],
    ['2026-11-25', 2],
    ['2026-11-26', 3],
  ]);
  expect(await paidOf(user.id)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
  h.clock.set(midnight);
  expect((await h.call(checkInCalendar, {}, { token: user.token })).data).toMatchObject({
    today: '2026-11-26',
    signed_today: true,
    streak: 3,
    today_reward: '5',
  });
  // The day after counts on from the run, not from a run of 1.
  const next = await checkInOnce(h.database.db, user.id, new Date(midnight.getTime() + DAY_MS), TIME_ZONE);
  expect(next).toMatchObject({ day: '2026-11-27', streak: 4 });
  await expect(checkInOnce(h.database.db, user.id, before, TIME_ZONE)).rejects.toMatchObject({
    textId: serverTexts.alreadyCheckedIn.id,
  });
  expect(await paidOf(user.id)).toHaveLength(4);
  await expectLedgerBalanced(h);
});
