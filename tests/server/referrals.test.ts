// Referrals: the inviter's list of friends (masked by the server, newest first, by cursor, only the caller's own) and
// the referral reward — off until the operator sets an amount in the console, then paid to the inviter exactly once
// per friend, through the ledger, when that friend's primary certification is verified.
import Big from 'big.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, desc, eq, gt } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  TOKEN_EXPIRED,
  customer,
  expectLedgerBalanced,
  newPhone,
  refused,
  refusedAbout,
  registerByEmail,
  registerByPhone,
  userIdOf,
} from './helpers.ts';
import { certifyPrimary } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { REFERRAL_PAGE_SIZE, inviteState, referredFriends } from '../../src/api-contract/share.ts';
import { register, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { consoleReferralReward, consoleSetReferralReward } from '../../src/api-contract/console-rewards.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { auditLog, ledgerEntries, referralRewards, users } from '../../src/server/db/schema.ts';
import { balanceOf } from '../../src/server/domain/ledger.ts';
import { payReferralReward } from '../../src/server/domain/referrals.ts';

let h: Harness;
let writer: string;
beforeAll(async () => {
  h = await startHarness();
  writer = await operatorToken(h, 'cora', 'content');
});
afterAll(() => h.close());

const codeOf = async (token: string) => (await h.call(userInfo, {}, { token })).data.invite_code;

/** Certifies with a passport number of the customer's own (one number is one person to the reward). */
let documents = 0;
const certify = (token: string) => certifyPrimary(h, token, { number: `RR${10_000_000 + ++documents}` });

/** The customer's available USDT, as a plain decimal ('0' for none). */
const usdtOf = async (userId: number) => new Big((await balanceOf(h.database.db, userId, 'USDT')).available).toString();

const setReward = (amount: string) =>
  h.call(consoleSetReferralReward, { amount }, { token: writer, ip: '203.0.113.30' });

it('lists the friends masked, newest first, with their VIP level and certification; only the caller’s own', async () => {
  const inviter = await customer(h);
  const invite = await codeOf(inviter.token);
  const byPhone = await registerByPhone(h, '+66812345678', { invite });
  h.clock.advance(1000);
  const byMail = await registerByEmail(h, 'holder.one@example.com', { invite });
  await h.database.db
    .update(users)
    .set({ level: 2 })
    .where(eq(users.id, await userIdOf(h, byMail.token)));
  const stranger = await customer(h);
  await registerByPhone(h, undefined, { invite: await codeOf(stranger.token) });

  const answer = await h.call(referredFriends, {}, { token: inviter.token });
  expect(answer.ret).toBe(1);
  const [newest, oldest] = answer.data.lists;
  expect(answer.data.lists).toHaveLength(2);
  expect(answer.data.next).toBeNull();
  // The server masks: the username by maskUsername, the mobile number or the e-mail by maskContact.
  const [mailUser, phoneUser] = await Promise.all(
    [byMail.token, byPhone.token].map(async (token) => (await h.call(userInfo, {}, { token })).data.username),
  );
  expect(newest).toMatchObject({ contact: 'h***@example.com', vip_level: 2, certified: false, earned: [] });
  expect(oldest).toMatchObject({ contact: '+66****678', vip_level: 0, certified: false, earned: [] });
  expect(newest!.name).not.toBe(mailUser);
  expect(newest!.name).toMatch(/\*\*\*/);
  expect(oldest!.name).not.toBe(phoneUser);
  expect(JSON.stringify(answer.data)).not.toMatch(/812345678|holder/);
  expect(Date.parse(newest!.joined_at)).toBeGreaterThan(Date.parse(oldest!.joined_at));

  expect((await h.call(referredFriends, {}, { token: stranger.token })).data.lists).toHaveLength(1);
  expect(await h.call(referredFriends, {})).toEqual(TOKEN_EXPIRED);
});

it('pages by cursor: nothing repeats, nothing is skipped, the last page says so', async () => {
  const inviter = await customer(h);
  const now = h.clock.now().getTime();
  // More friends than a page holds, written straight into the table (a registration each would only be slower).
  await h.database.db.insert(users).values(
    Array.from({ length: REFERRAL_PAGE_SIZE + 3 }, (_, at) => ({
      username: `friend${now}x${at}`,
      passwordHash: 'x',
      inviteCode: `F${now % 1_000_000}${at}`,
      invitedBy: inviter.id,
      createdAt: new Date(now - (at % 4) * 1000),
    })),
  );
  const first = await h.call(referredFriends, {}, { token: inviter.token });
  expect(first.data.lists).toHaveLength(REFERRAL_PAGE_SIZE);
  expect(first.data.next).not.toBeNull();
  const second = await h.call(referredFriends, { cursor: first.data.next! }, { token: inviter.token });
  expect(second.data).toMatchObject({ next: null });
  const ids = [...first.data.lists, ...second.data.lists].map((friend) => friend.id);
  expect(new Set(ids).size).toBe(REFERRAL_PAGE_SIZE + 3);
  const times = [...first.data.lists, ...second.data.lists].map((friend) => Date.parse(friend.joined_at));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(await h.call(referredFriends, { cursor: 'x' }, { token: inviter.token })).toEqual(
    refused(texts.invalidRequest.message),
  );
});

it('pays nothing while the reward is 0 (the default), and says so', async () => {
  const inviter = await customer(h);
  const friend = await registerByPhone(h, undefined, { invite: await codeOf(inviter.token) });
  expect((await h.call(inviteState, {}, { token: inviter.token })).data.reward).toEqual({ asset: 'USDT', amount: '0' });
  await certify(friend.token);
  const [listed] = (await h.call(referredFriends, {}, { token: inviter.token })).data.lists;
  expect(listed).toMatchObject({ certified: true, earned: [] });
  expect(await usdtOf(inviter.id)).toBe('0');
  // Turning it on later owes nothing for a friend already verified: the reward is the setting at verification.
  expect((await setReward('5')).ret).toBe(1);
  expect((await h.call(referredFriends, {}, { token: inviter.token })).data.lists[0]).toMatchObject({ earned: [] });
  expect(await usdtOf(inviter.id)).toBe('0');
  expect((await setReward('0')).ret).toBe(1);
});

it('once set, pays the inviter exactly once per friend, as a referral_reward ledger entry the list shows', async () => {
  const inviter = await customer(h);
  const invite = await codeOf(inviter.token);
  const first = await registerByPhone(h, undefined, { invite });
  const second = await registerByPhone(h, undefined, { invite });
  const audits =
    (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id))).at(0)?.id ?? 0;

  expect(await setReward('5')).toMatchObject({ ret: 1, data: { asset: 'USDT', amount: '5' } });
  expect((await h.call(consoleReferralReward, {}, { token: writer })).data).toEqual({ asset: 'USDT', amount: '5' });
  expect((await h.call(inviteState, {}, { token: inviter.token })).data.reward).toEqual({ asset: 'USDT', amount: '5' });
  const [audit] = await h.database.db.select().from(auditLog).where(gt(auditLog.id, audits));
  expect(audit).toMatchObject({ action: 'referral.reward', before: { amount: '0' }, after: { amount: '5' } });

  await certify(first.token);
  const firstId = await userIdOf(h, first.token);
  // A second attempt for the same friend (a retry, another process) pays nothing: the friend's row is unique.
  expect(await h.database.db.transaction((tx) => payReferralReward(tx, firstId, h.clock.now()))).toBe(false);
  expect(await usdtOf(inviter.id)).toBe('5');

  // A change pays friends verified from then on; what was paid stays.
  expect((await setReward('7.5')).ret).toBe(1);
  await certify(second.token);
  expect(await usdtOf(inviter.id)).toBe('12.5');
  const rows = await h.database.db.select().from(referralRewards).where(eq(referralRewards.inviterId, inviter.id));
  expect(rows.map((row) => row.amount).sort()).toEqual(['5.00000000', '7.50000000']);

  const { lists } = (await h.call(referredFriends, {}, { token: inviter.token })).data;
  expect(lists.map((friend) => friend.earned.map((entry) => [entry.kind, entry.asset, entry.amount]))).toEqual([
    [['referral_reward', 'USDT', '7.50000000']],
    [['referral_reward', 'USDT', '5.00000000']],
  ]);
  const entries = await h.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, inviter.id), eq(ledgerEntries.kind, 'referral_reward')));
  expect(entries.map((entry) => entry.reference).sort()).toEqual(
    [`referral:${firstId}`, `referral:${await userIdOf(h, second.token)}`].sort(),
  );
  // The friends themselves are paid nothing by it.
  expect(await usdtOf(firstId)).toBe('0');
  await expectLedgerBalanced(h);
  expect((await setReward('0')).ret).toBe(1);
});

it('refuses an amount that is not one and changes nothing', async () => {
  const before = (await h.call(consoleReferralReward, {}, { token: writer })).data;
  for (const amount of ['-1', 'abc', '1.123456789', '']) expect((await setReward(amount)).ret, amount).toBe(0);
  expect((await h.call(consoleReferralReward, {}, { token: writer })).data).toEqual(before);
});

it('refuses the invitation code of a closed account as one that does not exist, and opens no account', async () => {
  const inviter = await customer(h);
  const invite = await codeOf(inviter.token);
  expect(
    (
      await h.call(
        closeAccount,
        { secret_kind: 'login', secret: PASSWORD, amounts: '' },
        { token: inviter.token, idempotencyKey: 'referrals-close-1' },
      )
    ).ret,
  ).toBe(1);
  const phone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const form = { mode: 'phone', phone, code: h.codeFor(phone), password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
  for (const typed of [invite, invite.toLowerCase()])
    expect(await h.call(register, { ...form, invite: typed })).toEqual(
      refusedAbout('The invitation code does not exist!', 'invite'),
    );
  expect(await h.database.db.select().from(users).where(eq(users.invitedBy, inviter.id))).toEqual([]);
  expect(await h.database.db.select().from(users).where(eq(users.phone, phone))).toEqual([]);
  // Without the code the same form opens the account.
  expect((await h.call(register, form)).ret).toBe(1);
});

it('counts and lists no friend whose account is closed, as the rewards count none', async () => {
  // A closed account counts toward no reward (the welfare task friend_certified, the referral reward): the inviter's
  // counts and list say the same, so "certified friends" never shows one the tasks do not count. What the friend
  // earned the inviter stays in the inviter's ledger.
  const inviter = await customer(h);
  const invite = await codeOf(inviter.token);
  const leaving = await registerByPhone(h, undefined, { invite });
  const staying = await registerByPhone(h, undefined, { invite });
  await certify(leaving.token);
  await certify(staying.token);
  expect((await h.call(inviteState, {}, { token: inviter.token })).data).toMatchObject({ invited: 2, certified: 2 });
  const closed = await h.call(
    closeAccount,
    { secret_kind: 'login', secret: PASSWORD, amounts: '' },
    { token: leaving.token, idempotencyKey: 'referrals-close-friend' },
  );
  expect(closed.ret).toBe(1);
  expect((await h.call(inviteState, {}, { token: inviter.token })).data).toMatchObject({ invited: 1, certified: 1 });
  const friends = (await h.call(referredFriends, {}, { token: inviter.token })).data;
  expect(friends.lists.map((friend) => friend.id)).toEqual([await userIdOf(h, staying.token)]);
  expect(friends.next).toBeNull();
});
