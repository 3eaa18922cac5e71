// The reality check beside the reminder: real USDT option stakes and payouts of this session (from the later of the
// app's start and the sign-in) and of today (the customer's day in their time zone), net = payouts − stakes; practice
// money, other kinds and other customers never count.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, refused } from './helpers.ts';
import { realityCheck } from '../../src/api-contract/reality-check.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { practiceAsset } from '../../src/api-contract/practice.ts';
import { post, type Posting } from '../../src/server/domain/ledger.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

let references = 0;
/** Posts one entry at the clock's time, then moves the clock on by `after` ms. */
async function entry(fields: Omit<Posting, 'reference'>, after = 60_000) {
  await h.database.db.transaction((tx) => post(tx, { ...fields, reference: `rc:${++references}` }, h.clock.now()));
  h.clock.advance(after);
}

it('sums this session and today from the option entries of real money only', async () => {
  // 22:00 in Bangkok (UTC+7) on 23 November.
  h.clock.set(new Date('2026-11-23T15:00:00Z'));
  const me = await customer(h, '1000');
  const other = await customer(h, '1000');
  const stake = (amount: string, userId = me.id) =>
    entry({ userId, asset: 'USDT', amount: `-${amount}`, kind: 'option_stake' });
  const payout = (amount: string) => entry({ userId: me.id, asset: 'USDT', amount, kind: 'option_payout' });

  // Before the app started: today, not this session.
  await stake('100');
  await payout('180');
  const appStart = h.clock.now().getTime();
  await stake('50');
  await payout('0.5');
  await stake('20');
  // Never counted: practice money, another kind of entry, another customer.
  await entry({ userId: me.id, asset: practiceAsset('USDT'), amount: '500', kind: 'practice_grant' });
  await entry({ userId: me.id, asset: practiceAsset('USDT'), amount: '-40', kind: 'option_stake' });
  await entry({ userId: me.id, asset: 'USDT', amount: '5', kind: 'test_credit' });
  await stake('70', other.id);

  const answer = await h.call(realityCheck, { since: String(appStart), tz: 'Asia/Bangkok' }, { token: me.token });
  expect(answer.ret).toBe(1);
  expect(answer.data).toEqual({
    asset: 'USDT',
    since: new Date(appStart).toISOString(),
    day: '2026-11-23',
    session: { stakes: '70.00000000', payouts: '0.50000000', net: '-69.50000000' },
    today: { stakes: '170.00000000', payouts: '180.50000000', net: '10.50000000' },
  });

  // Past midnight in Bangkok a new day starts; in London it is still the 23rd.
  h.clock.set(new Date('2026-11-23T17:30:00Z'));
  await stake('10');
  const bangkok = await h.call(realityCheck, { since: String(appStart), tz: 'Asia/Bangkok' }, { token: me.token });
  expect(bangkok.data).toMatchObject({
    day: '2026-11-24',
    session: { stakes: '80.00000000', net: '-79.50000000' },
    today: { stakes: '10.00000000', payouts: '0.00000000', net: '-10.00000000' },
  });
  const london = await h.call(realityCheck, { since: String(appStart), tz: 'Europe/London' }, { token: me.token });
  expect(london.data).toMatchObject({ day: '2026-11-23', today: { stakes: '180.00000000', net: '0.50000000' } });
});

it('starts this session no earlier than its sign-in, and no later than now', async () => {
  h.clock.set(new Date('2026-11-25T03:00:00Z'));
  const before = h.clock.now().getTime();
  h.clock.advance(60_000);
  const me = await customer(h, '100');
  const signedIn = await h.call(realityCheck, { since: String(before), tz: 'UTC' }, { token: me.token });
  expect(Date.parse(signedIn.data.since)).toBeGreaterThan(before);
  const future = await h.call(realityCheck, { since: String(before + 86_400_000), tz: 'UTC' }, { token: me.token });
  expect(future.data.since).toBe(h.clock.now().toISOString());
  expect(future.data.session).toEqual({ stakes: '0.00000000', payouts: '0.00000000', net: '0.00000000' });
});

it('refuses a time zone that is none, and needs a login', async () => {
  const me = await customer(h);
  expect(await h.call(realityCheck, { since: '0', tz: 'Mars/Base' }, { token: me.token })).toEqual(
    refused(texts.invalidRequest.message),
  );
  expect(await h.call(realityCheck, { since: '0', tz: 'UTC' })).toEqual(TOKEN_EXPIRED);
});
