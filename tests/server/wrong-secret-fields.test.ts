// A wrong login password or payment password is refused about the request field that carried it (the envelope's
// `field`, as the call's input names it), on every call that checks one, so the app shows the text under the box the
// customer typed in; the refused call changes nothing of the account (its balances and ledger, its password hashes,
// sessions, two-factor, passkeys, address lock, freeze and closure). The lock after five wrong tries names it too.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { changePassword, changePayPassword, login } from '../../src/api-contract/account.ts';
import { freezeAccount, unfreezeAccount } from '../../src/api-contract/account-freeze.ts';
import { lockAddresses, unlockAddresses } from '../../src/api-contract/address-lock.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { consoleChangePassword } from '../../src/api-contract/console.ts';
import { passkeyCreationOptions } from '../../src/api-contract/passkeys.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../../src/api-contract/two-factor.ts';
import {
  accountFreezes,
  addressLocks,
  closedAccounts,
  passkeys,
  recoveryCodes,
  sessions,
  twoFactors,
  users,
  webauthnChallenges,
} from '../../src/server/db/schema.ts';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, customer, moneyState, refusedAbout, withTwoFactor } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

const WRONG_LOGIN = 'The login password is wrong!';
const WRONG_OLD = 'The old password is wrong!';
const WRONG_PAY = 'The payment password is wrong!';

/**
 * Everything of one account a refused call could have changed: its money (balances, ledger entries), its users row
 * (password hashes, closed or not), sessions, two-factor (but the last code step, which a code checked before the
 * password uses up, as it did before), recovery codes, passkeys and their pending challenges, address lock, freeze
 * and closure.
 */
async function accountState(userId: number) {
  const db = h.database.db;
  const factor = await db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
  return {
    money: await moneyState(h, userId),
    user: await db.select().from(users).where(eq(users.id, userId)),
    sessions: await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.id)),
    twoFactor: factor.map(({ lastStep: _lastStep, ...rest }) => rest),
    recoveryCodes: await db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId))
      .orderBy(asc(recoveryCodes.id)),
    passkeys: await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id)),
    challenges: await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, userId)),
    addressLock: await db.select().from(addressLocks).where(eq(addressLocks.userId, userId)),
    freeze: await db.select().from(accountFreezes).where(eq(accountFreezes.userId, userId)),
    closed: await db.select().from(closedAccounts).where(eq(closedAccounts.userId, userId)),
  };
}

it('changing the login password names the old password wrong (oldpass)', async () => {
  const user = await customer(h, '100');
  const before = await accountState(user.id);
  const change = { oldpass: 'wrongpass1', password: 'newpass123', repassword: 'newpass123' };
  expect(await h.call(changePassword, change, { token: user.token })).toEqual(refusedAbout(WRONG_OLD, 'oldpass'));
  expect(await accountState(user.id)).toEqual(before);
});

it('changing the payment password names the old one wrong or missing (oldpaypass)', async () => {
  const user = await customer(h, '100');
  const before = await accountState(user.id);
  const change = { password: '135790', repassword: '135790' };
  expect(await h.call(changePayPassword, { ...change, oldpaypass: '654321' }, { token: user.token })).toEqual(
    refusedAbout(WRONG_PAY, 'oldpaypass'),
  );
  expect(await h.call(changePayPassword, change, { token: user.token })).toEqual(
    refusedAbout('Please enter the old password!', 'oldpaypass'),
  );
  expect(await accountState(user.id)).toEqual(before);
});

it('adding a passkey names the login password wrong (password)', async () => {
  const user = await customer(h, '100');
  const before = await accountState(user.id);
  const request = { token: user.token, headers: { origin: 'https://app.example.com', host: 'app.example.com' } };
  expect(await h.call(passkeyCreationOptions, { password: 'wrongpass1' }, request)).toEqual(
    refusedAbout(WRONG_LOGIN, 'password'),
  );
  expect(await accountState(user.id)).toEqual(before);
});

it('turning two-factor on and off names the login password wrong (password)', async () => {
  const user = await customer(h, '100');
  expect((await h.call(beginTwoFactor, {}, { token: user.token })).ret).toBe(1);
  const pending = await accountState(user.id);
  expect(await h.call(confirmTwoFactor, { code: '000000', password: 'wrongpass1' }, { token: user.token })).toEqual(
    refusedAbout(WRONG_LOGIN, 'password'),
  );
  expect(await accountState(user.id)).toEqual(pending);

  const other = await customer(h, '100');
  const factor = await withTwoFactor(h, other.token);
  const on = await accountState(other.id);
  expect(
    await h.call(disableTwoFactor, { otp: factor.code(), password: 'wrongpass1' }, { token: other.token }),
  ).toEqual(refusedAbout(WRONG_LOGIN, 'password'));
  expect(await accountState(other.id)).toEqual(on);
});

it('turning the address lock off names the payment password wrong or missing (paypass)', async () => {
  const user = await customer(h, '100');
  expect((await h.call(lockAddresses, {}, { token: user.token })).ret).toBe(1);
  const before = await accountState(user.id);
  expect(await h.call(unlockAddresses, { paypass: '654321' }, { token: user.token })).toEqual(
    refusedAbout(WRONG_PAY, 'paypass'),
  );
  expect(await h.call(unlockAddresses, {}, { token: user.token })).toEqual(
    refusedAbout('Please enter the transaction password!', 'paypass'),
  );
  expect(await accountState(user.id)).toEqual(before);
});

it('freezing and unfreezing name the payment password wrong (paypass)', async () => {
  const user = await customer(h, '100');
  const before = await accountState(user.id);
  expect(await h.call(freezeAccount, { paypass: '654321' }, { token: user.token })).toEqual(
    refusedAbout(WRONG_PAY, 'paypass'),
  );
  expect(await accountState(user.id)).toEqual(before);

  expect((await h.call(freezeAccount, { paypass: PAYPASS }, { token: user.token })).ret).toBe(1);
  const signedIn = await h.call(login, { username: user.phone, password: PASSWORD });
  expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ ret: 1 });
  const frozen = await accountState(user.id);
  expect(await h.call(unfreezeAccount, { paypass: '654321' }, { token: signedIn.data.token })).toEqual(
    refusedAbout(WRONG_PAY, 'paypass'),
  );
  expect(await accountState(user.id)).toEqual(frozen);
});

it('closing the account names the login or payment password wrong (secret)', async () => {
  const user = await customer(h);
  const before = await accountState(user.id);
  const close = (secret_kind: string) => h.call(closeAccount, { secret_kind, secret: '654321' }, { token: user.token });
  expect(await close('login')).toEqual(refusedAbout(WRONG_LOGIN, 'secret'));
  expect(await close('pay')).toEqual(refusedAbout(WRONG_PAY, 'secret'));
  expect(await accountState(user.id)).toEqual(before);
});

it('the lock after five wrong tries is about the same field, the right password too', async () => {
  const user = await customer(h, '100');
  const before = await accountState(user.id);
  const change = { password: '135790', repassword: '135790' };
  for (let tries = 0; tries < 5; tries++)
    expect(await h.call(changePayPassword, { ...change, oldpaypass: '654321' }, { token: user.token })).toEqual(
      refusedAbout(WRONG_PAY, 'oldpaypass'),
    );
  expect(await h.call(changePayPassword, { ...change, oldpaypass: PAYPASS }, { token: user.token })).toEqual(
    refusedAbout('Too many attempts, please try again in 15 minutes!', 'oldpaypass'),
  );
  expect(await accountState(user.id)).toEqual(before);
});

it('an operator changing the console password is told the current one is wrong (password)', async () => {
  const token = await operatorToken(h, 'fieldtest', 'reviewer');
  expect(
    await h.call(
      consoleChangePassword,
      { password: 'not the current one', new_password: 'another long one' },
      { token },
    ),
  ).toEqual(refusedAbout(WRONG_LOGIN, 'password'));
});
