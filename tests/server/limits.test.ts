// Wrong passwords lock the address they came from out of that account for 15 minutes (the owner
// elsewhere is not locked: login-guessing.test.ts); verification codes die after five wrong tries
// or ten minutes, wait 60 s between sends and stop at ten a day.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, dbState, newEmail, newPhone, refused, registerByPhone } from './helpers.ts';
import { changePassword, login, register, sendEmailCode, sendSmsCode } from '../../src/api-contract/account.ts';
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
const LOCKED = refused('Too many attempts, please try again later!');
const MINUTE = 60_000;

it('a wrong password is refused without saying which part was wrong', async () => {
  const { phone } = await registerByPhone(h);
  expect(await h.call(login, { username: phone, password: 'wrong123' })).toEqual(WRONG);
  expect(await h.call(login, { username: 'nobody-here', password: PASSWORD })).toEqual(WRONG);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1 });
});

it('five wrong passwords lock their address out of the account even for the right one, until 15 minutes pass', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) expect(await h.call(login, { username: phone, password: `wrong${i}00` })).toEqual(WRONG);

  const before = await dbState(h);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(LOCKED);
  expect(await dbState(h)).toEqual(before);

  h.clock.advance(14 * MINUTE);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toEqual(LOCKED);
  h.clock.advance(MINUTE + 1000);
  expect(await h.call(login, { username: phone, password: PASSWORD })).toMatchObject({ ret: 1, msg: 'Success' });
});

it('the lock holds whether the username, the mobile number or the e-mail is typed', async () => {
  for (let i = 0; i < 5; i++)
    expect(await h.call(login, { username: DEMO_ACCOUNT.username, password: 'wrong999' })).toEqual(WRONG);
  for (const name of [DEMO_ACCOUNT.username, DEMO_ACCOUNT.phone, DEMO_ACCOUNT.email.toUpperCase()]) {
    expect(await h.call(login, { username: name, password: DEMO_ACCOUNT.password })).toEqual(LOCKED);
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
  expect(await change(PASSWORD)).toEqual(LOCKED);
  h.clock.advance(15 * MINUTE + 1000);
  expect(await change(PASSWORD)).toMatchObject({ ret: 1 });
});

it('the counter cleanup deletes what has run its time and keeps a lock in force', async () => {
  const { phone } = await registerByPhone(h);
  const ip = '192.0.2.200';
  for (let i = 0; i < 5; i++)
    expect(await h.call(login, { username: phone, password: 'wrong123' }, { ip })).toEqual(WRONG);
  await deleteExpiredCounters(h.database.db, h.clock.now());
  expect(await h.call(login, { username: phone, password: PASSWORD }, { ip })).toEqual(LOCKED);

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

it('a new code cannot be requested within 60 seconds; only the newest code works', async () => {
  const phone = newPhone();
  h.clock.advance(MINUTE);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const first = h.codeFor(phone);
  h.clock.advance(59_000);
  const before = await dbState(h);
  expect(await h.call(sendSmsCode, { userphone: phone })).toEqual(
    refused('Please wait 60 seconds before requesting another code!'),
  );
  expect(await dbState(h)).toEqual(before);

  h.clock.advance(1000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const second = h.codeFor(phone);
  if (first !== second) expect(await registerWith(phone, first)).toEqual(CODE_WRONG);
  expect(await registerWith(phone, second)).toMatchObject({ ret: 1 });
});

it('an e-mail address gets at most ten codes a day', async () => {
  const email = newEmail();
  for (let i = 0; i < 10; i++) {
    h.clock.advance(MINUTE);
    expect((await h.call(sendEmailCode, { email })).ret).toBe(1);
  }
  h.clock.advance(MINUTE);
  expect(await h.call(sendEmailCode, { email })).toEqual(refused('Too many attempts, please try again later!'));
  h.clock.advance(24 * 60 * MINUTE);
  expect((await h.call(sendEmailCode, { email })).ret).toBe(1);
});
