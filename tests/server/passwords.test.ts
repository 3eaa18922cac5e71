// Forgotten login password (reset by code, every device logged out) and the payment password
// (changed with the old one or with a code sent to the account's own phone or e-mail).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  TOKEN_EXPIRED,
  dbState,
  lockedFor,
  refused,
  registerByEmail,
  registerByPhone,
} from './helpers.ts';
import {
  changePayPassword,
  forgotPassword,
  login,
  sendEmailCode,
  sendSmsCode,
  userInfo,
} from '../../src/api-contract/account.ts';
import { users } from '../../src/server/db/schema.ts';
import { verifySecret } from '../../src/server/domain/accounts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const CODE_WRONG = refused('The verification code is wrong or has expired!');

async function sendResetCode(channel: 'sms' | 'email', address: string) {
  h.clock.advance(61_000);
  const res =
    channel === 'sms'
      ? await h.call(sendSmsCode, { userphone: address, must: '1' })
      : await h.call(sendEmailCode, { email: address, must: '1' });
  expect(res.ret).toBe(1);
  return h.codeFor(address);
}

it('a forgotten password is reset with a code, and every device must log in again', async () => {
  const { phone, token } = await registerByPhone(h);
  const secondDevice = (await h.call(login, { username: phone, password: PASSWORD })).data.token;
  const code = await sendResetCode('sms', phone);

  const res = await h.call(forgotPassword, {
    mode: 'phone',
    phone,
    code,
    password: 'reset123',
    repassword: 'reset123',
  });
  expect(res).toEqual({ ret: 1, msg: 'Success', data: null });
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(userInfo, {}, { token: secondDevice })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(refused('Wrong username or password!'));
  expect(await h.call(login, { username: phone, password: 'reset123' })).toMatchObject({ ret: 1 });
});

it('a password reset by e-mail works the same way', async () => {
  const { email, token } = await registerByEmail(h);
  const code = await sendResetCode('email', email);
  const res = await h.call(forgotPassword, {
    mode: 'email',
    email: email.toUpperCase(),
    code,
    password: 'reset456',
    repassword: 'reset456',
  });
  expect(res).toEqual({ ret: 1, msg: 'Success', data: null });
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(login, { username: email, password: 'reset456' })).toMatchObject({ ret: 1 });
});

it('a reset code works once only', async () => {
  const { phone } = await registerByPhone(h);
  const code = await sendResetCode('sms', phone);
  expect(
    (await h.call(forgotPassword, { mode: 'phone', phone, code, password: 'reset123', repassword: 'reset123' })).ret,
  ).toBe(1);
  const before = await dbState(h);
  expect(
    await h.call(forgotPassword, { mode: 'phone', phone, code, password: 'again123', repassword: 'again123' }),
  ).toEqual(CODE_WRONG);
  expect((await dbState(h)).users).toEqual(before.users);
});

it("a code sent to one number cannot reset another number's password", async () => {
  const victim = await registerByPhone(h);
  const attacker = await registerByPhone(h);
  const code = await sendResetCode('sms', attacker.phone);
  const before = await dbState(h);
  const res = await h.call(forgotPassword, {
    mode: 'phone',
    phone: victim.phone,
    code,
    password: 'stolen12',
    repassword: 'stolen12',
  });
  expect(res).toEqual(CODE_WRONG);
  expect((await dbState(h)).users).toEqual(before.users);
  expect((await dbState(h)).sessions).toEqual(before.sessions);
});

it('a password reset also lifts a login lock', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) await h.call(login, { username: phone, password: 'wrong123' });
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(lockedFor('15 minutes'));
  const code = await sendResetCode('sms', phone);
  expect(
    (await h.call(forgotPassword, { mode: 'phone', phone, code, password: 'reset123', repassword: 'reset123' })).ret,
  ).toBe(1);
  expect(await h.call(login, { username: phone, password: 'reset123' })).toMatchObject({ ret: 1 });
});

async function payPasswordIs(phoneOrEmail: string, paypass: string) {
  const [row] = await h.database.db.select().from(users).where(eq(users.username, phoneOrEmail));
  return verifySecret(row!.paypassHash, paypass);
}

it('the payment password is changed with the old one', async () => {
  const { phone, token } = await registerByPhone(h);
  const res = await h.call(
    changePayPassword,
    { oldpaypass: PAYPASS, password: '246810', repassword: '246810' },
    { token },
  );
  expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { phone, has_paypass: true } });
  expect(await payPasswordIs(phone, '246810')).toBe(true);
  expect(await payPasswordIs(phone, PAYPASS)).toBe(false);
  expect(
    await h.call(changePayPassword, { oldpaypass: PAYPASS, password: '135790', repassword: '135790' }, { token }),
  ).toEqual(refused('The payment password is wrong!'));
});

it('a wrong old payment password is refused and the payment password stays', async () => {
  const { phone, token } = await registerByPhone(h);
  const before = await dbState(h);
  const res = await h.call(
    changePayPassword,
    { oldpaypass: '999999', password: '246810', repassword: '246810' },
    { token },
  );
  expect(res).toEqual(refused('The payment password is wrong!'));
  expect((await dbState(h)).users).toEqual(before.users);
  expect(await payPasswordIs(phone, PAYPASS)).toBe(true);
});

it('five wrong old payment passwords lock the change for 15 minutes', async () => {
  const { token } = await registerByPhone(h);
  const change = (oldpaypass: string) =>
    h.call(changePayPassword, { oldpaypass, password: '246810', repassword: '246810' }, { token });
  for (let i = 0; i < 5; i++) expect(await change('999999')).toEqual(refused('The payment password is wrong!'));
  expect(await change(PAYPASS)).toEqual(lockedFor('15 minutes'));
  h.clock.advance(15 * 60_000 + 1000);
  expect((await change(PAYPASS)).ret).toBe(1);
});

it('a forgotten payment password is replaced with a code sent to the own mobile number', async () => {
  const { phone, token } = await registerByPhone(h);
  const code = await sendResetCode('sms', phone);
  const res = await h.call(changePayPassword, { code, password: '112233', repassword: '112233' }, { token });
  expect(res).toMatchObject({ ret: 1, data: { has_paypass: true } });
  expect(await payPasswordIs(phone, '112233')).toBe(true);
  expect(await h.call(changePayPassword, { code, password: '445566', repassword: '445566' }, { token })).toEqual(
    CODE_WRONG,
  );
});

it('a forgotten payment password is replaced with a code sent to the own e-mail address', async () => {
  const { email, token } = await registerByEmail(h);
  const code = await sendResetCode('email', email);
  expect((await h.call(changePayPassword, { code, password: '112233', repassword: '112233' }, { token })).ret).toBe(1);
  expect(await payPasswordIs(email, '112233')).toBe(true);
});

it("a code sent to someone else's number does not change the payment password", async () => {
  const me = await registerByPhone(h);
  const other = await registerByPhone(h);
  const code = await sendResetCode('sms', other.phone);
  const before = await dbState(h);
  expect(
    await h.call(changePayPassword, { code, password: '112233', repassword: '112233' }, { token: me.token }),
  ).toEqual(CODE_WRONG);
  expect((await dbState(h)).users).toEqual(before.users);
});
