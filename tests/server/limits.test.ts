// Wrong passwords lock the address they came from out of that account for 15 minutes (the owner
// elsewhere is not locked: login-guessing.test.ts); verification codes die after five wrong tries
// or ten minutes, wait 60 s between sends (and say how much of it is left) and stop at ten a day.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  customer,
  dbState,
  lockedFor,
  newEmail,
  newPhone,
  refused,
  refusedAbout,
  registerByPhone,
  withTwoFactor,
} from './helpers.ts';
import {
  changePassword,
  changePayPassword,
  editProfile,
  login,
  register,
  sendEmailCode,
  sendSmsCode,
} from '../../src/api-contract/account.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { passkeyCreationOptions } from '../../src/api-contract/passkeys.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../../src/api-contract/two-factor.ts';
import { seedDemo, DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { attemptCounters, users } from '../../src/server/db/schema.ts';
import { deleteExpiredCounters } from '../../src/server/domain/attempts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
});
afterAll(() => h.close());

const WRONG = refused('Wrong username or password!');
const MINUTE = 60_000;

it('a wrong password is refused without saying which part was wrong', async () => {
  const { phone } = await registerByPhone(h);
  expect(await h.call(login, { username: phone, password: 'wrong123' })).toEqual(WRONG);
  expect(await h.call(login, { username: 'nobody-here', password: PASSWORD })).toEqual(WRONG);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1 });
});

it('five wrong passwords lock their address out of the account even for the right one, until 15 minutes pass, and say how long is left', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) expect(await h.call(login, { username: phone, password: `wrong${i}00` })).toEqual(WRONG);

  const before = await dbState(h);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(lockedFor('15 minutes'));
  expect(await dbState(h)).toEqual(before);

  // The time left, rounded up to the minute: never a retry that comes too early.
  h.clock.advance(10 * MINUTE + 30_000);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(lockedFor('5 minutes'));
  h.clock.advance(3 * MINUTE + 30_000);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(lockedFor('1 minute'));
  h.clock.advance(MINUTE + 1000);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1, msg: 'Success' });
});

it("the time left is said in the reader's language", async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) expect(await h.call(login, { username: phone, password: `wrong${i}00` })).toEqual(WRONG);
  h.clock.advance(MINUTE);
  const lockedIn = async (lang: string) => (await h.call(login, { username: phone, password: PASSWORD }, { lang })).msg;
  expect(await lockedIn('zh')).toBe('尝试次数过多，请在14分钟后再试！');
  expect(await lockedIn('ar')).toBe('محاولات كثيرة جدًا، يُرجى المحاولة مرة أخرى بعد 14 دقيقة!');
  expect(await lockedIn('th')).toBe('ลองหลายครั้งเกินไป กรุณาลองใหม่อีกครั้งในอีก 14 นาที');
});

it('the lock holds whether the username, the mobile number or the e-mail is typed', async () => {
  for (let i = 0; i < 5; i++)
    expect(await h.call(login, { username: DEMO_ACCOUNT.username, password: 'wrong999' })).toEqual(WRONG);
  for (const name of [DEMO_ACCOUNT.username, DEMO_ACCOUNT.phone, DEMO_ACCOUNT.email.toUpperCase()]) {
    expect(await h.call(login, { username: name, password: DEMO_ACCOUNT.password })).toEqual(lockedFor('15 minutes'));
  }
  h.clock.advance(15 * MINUTE + 1000);
  expect(await h.call(login, { username: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password })).toMatchObject({
    ret: 1,
  });
});

it('a right password clears the count of earlier wrong ones', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 4; i++) await h.call(login, { username: phone, password: 'wrong123' });
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1 });
  for (let i = 0; i < 4; i++) expect(await h.call(login, { username: phone, password: 'wrong123' })).toEqual(WRONG);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1 });
});

it('five wrong old passwords lock the password change too', async () => {
  const { token } = await registerByPhone(h);
  const change = (oldpass: string) =>
    h.call(changePassword, { oldpass, password: 'fresh123', repassword: 'fresh123' }, { token });
  for (let i = 0; i < 5; i++) expect(await change('wrong123')).toEqual(refused('The old password is wrong!'));
  expect(await change(PASSWORD)).toEqual(lockedFor('15 minutes'));
  h.clock.advance(7 * MINUTE);
  expect(await change(PASSWORD)).toEqual(lockedFor('8 minutes'));
  h.clock.advance(8 * MINUTE + 1000);
  expect(await change(PASSWORD)).toMatchObject({ ret: 1 });
});

/** A request from the app at its own address, as a passkey's creation options ask (passkeys.test.ts). */
const onPage = (token: string) => ({ token, headers: { origin: 'https://app.example.com', host: 'app.example.com' } });

it('the login password has one counter for every call that asks for it: four wrong on the change, the fifth on closing, lock them all', async () => {
  const owner = await customer(h);
  const change = (oldpass: string) =>
    h.call(changePassword, { oldpass, password: 'fresh123', repassword: 'fresh123' }, { token: owner.token });
  const close = (secret: string) => h.call(closeAccount, { secret_kind: 'login', secret }, { token: owner.token });
  // A new number's code and a two-factor setup begun, so that both calls come as far as the password.
  const phone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone, must: '0' })).ret).toBe(1);
  expect(await h.call(beginTwoFactor, {}, { token: owner.token })).toMatchObject({ ret: 1 });
  for (let i = 0; i < 4; i++) expect(await change('wrong123')).toEqual(refused('The old password is wrong!'));
  // The fifth wrong try, on another call, is still told wrong: a counter of its own would stand at one.
  expect(await close('wrong123')).toEqual(refused('The login password is wrong!'));

  // Now every call that asks for the login password waits, even with the right one.
  const locked = lockedFor('15 minutes');
  expect(await change(PASSWORD)).toEqual(locked);
  expect(await close(PASSWORD)).toEqual(locked);
  expect(
    await h.call(editProfile, { phone, code: h.codeFor(phone), password: PASSWORD }, { token: owner.token }),
  ).toEqual(refusedAbout('Too many attempts, please try again in 15 minutes!', 'password'));
  expect(await h.call(passkeyCreationOptions, { password: PASSWORD }, onPage(owner.token))).toEqual(locked);
  expect(await h.call(confirmTwoFactor, { code: '000000', password: PASSWORD }, { token: owner.token })).toEqual(
    locked,
  );
});

it('five wrong login passwords on the change lock turning two-factor off too', async () => {
  const owner = await customer(h);
  const { code } = await withTwoFactor(h, owner.token);
  const { token } = owner;
  for (let i = 0; i < 5; i++)
    expect(
      await h.call(changePassword, { oldpass: 'wrong123', password: 'fresh123', repassword: 'fresh123' }, { token }),
    ).toEqual(refused('The old password is wrong!'));
  expect(await h.call(disableTwoFactor, { otp: code(), password: PASSWORD }, { token })).toEqual(
    lockedFor('15 minutes'),
  );
});

it('the payment password has one counter for every call that asks for it: four wrong on the change, the fifth on closing, lock them all', async () => {
  const owner = await customer(h);
  const change = (oldpaypass: string) =>
    h.call(changePayPassword, { oldpaypass, password: '246810', repassword: '246810' }, { token: owner.token });
  const close = (secret: string) => h.call(closeAccount, { secret_kind: 'pay', secret }, { token: owner.token });
  for (let i = 0; i < 4; i++) expect(await change('999999')).toEqual(refused('The payment password is wrong!'));
  expect(await close('999999')).toEqual(refused('The payment password is wrong!'));
  expect(await change(PAYPASS)).toEqual(lockedFor('15 minutes'));
  expect(await close(PAYPASS)).toEqual(lockedFor('15 minutes'));
});

it('the counter cleanup deletes what has run its time and keeps a lock in force', async () => {
  const { phone } = await registerByPhone(h);
  const ip = '192.0.2.200';
  for (let i = 0; i < 5; i++)
    expect(await h.call(login, { username: phone, password: 'wrong123' }, { ip })).toEqual(WRONG);
  await deleteExpiredCounters(h.database.db, h.clock.now());
  expect(await h.call(login, { username: phone, password: PASSWORD }, { ip })).toEqual(lockedFor('15 minutes'));

  h.clock.advance(15 * MINUTE + 1000);
  const counters = () => h.database.db.select().from(attemptCounters);
  const before = (await counters()).length;
  const deleted = await deleteExpiredCounters(h.database.db, h.clock.now());
  expect(deleted).toBeGreaterThan(0);
  expect(await counters()).toHaveLength(before - deleted);
  for (const row of await counters()) expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(h.clock.now().getTime());
  expect(await h.call(login, { username: phone, password: PASSWORD }, { ip })).toMatchObject({ ret: 1 });
});

/** Registers `phone` with `code`; answers what the user sees. */
const registerWith = (phone: string, code: string) =>
  h.call(register, { mode: 'phone', phone, code, password: PASSWORD, paypass: '123456', currency: 'THB' });
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
const CODE_WRONG = refused('The verification code is wrong or has expired!');

it('a wrong verification code is refused and creates no account', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  await h.call(sendSmsCode, { userphone: phone });
  const before = await dbState(h);
  expect(await registerWith(phone, otherThan(h.codeFor(phone)))).toEqual(CODE_WRONG);
  expect((await dbState(h)).users).toEqual(before.users);
  expect(await registerWith(phone, h.codeFor(phone))).toMatchObject({ ret: 1 });
});

it('a code dies after five wrong tries, even the right code is then refused', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  await h.call(sendSmsCode, { userphone: phone });
  const code = h.codeFor(phone);
  for (let i = 0; i < 5; i++) expect(await registerWith(phone, otherThan(code))).toEqual(CODE_WRONG);
  expect(await registerWith(phone, code)).toEqual(CODE_WRONG);
  expect(await h.database.db.select().from(users).where(eq(users.phone, phone))).toEqual([]);
});

it('five wrong guesses sent at once also kill the code', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  await h.call(sendSmsCode, { userphone: phone });
  const code = h.codeFor(phone);
  const guesses = await Promise.all(Array.from({ length: 5 }, () => registerWith(phone, otherThan(code))));
  expect(guesses).toEqual(Array(5).fill(CODE_WRONG));
  expect(await registerWith(phone, code)).toEqual(CODE_WRONG);
});

it('a code expires after ten minutes', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  await h.call(sendSmsCode, { userphone: phone });
  h.clock.advance(10 * MINUTE);
  expect(await registerWith(phone, h.codeFor(phone))).toEqual(CODE_WRONG);
});

it('a new code cannot be requested within 60 seconds, and is told the time left of them; only the newest code works', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const first = h.codeFor(phone);
  const before = await dbState(h);
  expect(await h.call(sendSmsCode, { userphone: phone })).toEqual(
    refused('Please wait 1 minute before requesting another code!'),
  );
  // The time left, not the wait's length: 50 s later, 10 s are left.
  h.clock.advance(50_000);
  expect(await h.call(sendSmsCode, { userphone: phone })).toEqual(
    refused('Please wait 10 seconds before requesting another code!'),
  );
  const tooSoon = async (lang: string) => (await h.call(sendSmsCode, { userphone: phone }, { lang })).msg;
  expect(await tooSoon('zh')).toBe('请等待10秒钟后再重新获取验证码！');
  expect(await tooSoon('ar')).toBe('يُرجى الانتظار 10 ثوان قبل طلب رمز آخر!');
  expect(await tooSoon('hi')).toBe('दूसरा कोड माँगने से पहले कृपया 10 सेकंड इंतज़ार करें!');
  h.clock.advance(9_000);
  expect(await h.call(sendSmsCode, { userphone: phone })).toEqual(
    refused('Please wait 1 second before requesting another code!'),
  );
  expect(await dbState(h)).toEqual(before);

  h.clock.advance(1000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const second = h.codeFor(phone);
  if (first !== second) expect(await registerWith(phone, first)).toEqual(CODE_WRONG);
  expect(await registerWith(phone, second)).toMatchObject({ ret: 1 });
});

it('an e-mail address gets at most ten codes a day, and is told when it gets the next', async () => {
  const email = newEmail();
  for (let i = 0; i < 10; i++) {
    h.clock.advance(MINUTE);
    expect((await h.call(sendEmailCode, { email })).ret).toBe(1);
  }
  h.clock.advance(MINUTE);
  // The day runs from the first code, ten minutes ago: 23 h 50 min are left, 23.8333… hours rounded up.
  expect(await h.call(sendEmailCode, { email })).toEqual(lockedFor('23.84 hours'));
  h.clock.advance(23 * 60 * MINUTE);
  expect(await h.call(sendEmailCode, { email })).toEqual(lockedFor('50 minutes'));
  h.clock.advance(60 * MINUTE);
  expect((await h.call(sendEmailCode, { email })).ret).toBe(1);
});
