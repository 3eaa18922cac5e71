// Rewards attacked by a customer who wants more than is owed, or by an operator's change landing between what a
// customer saw and what they confirmed: the blind box, welfare tasks, the check-in, points. Each names the attack and
// what the money must do, and the ledger sums to every balance after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused, registerByPhone } from './helpers.ts';
import { certifyPrimary } from './funds-helpers.ts';
import { claimWelfare, welfareTasks } from '../../src/api-contract/welfare.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { ledgerEntries, welfareClaims } from '../../src/server/db/schema.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedWelfare(h.database.db);
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

let keys = 0;
const key = () => `rewards-attack-${++keys}`;

describe('welfare', () => {
  const claimsOf = (userId: number) =>
    h.database.db.select().from(welfareClaims).where(eq(welfareClaims.userId, userId));
  const welfareEntriesOf = (userId: number) =>
    h.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'welfare')));

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
