// A customer's account from sign-up to a password change, by mobile number and by e-mail,
// and what happens when the number or address is already taken.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  TOKEN_EXPIRED,
  dbState,
  newEmail,
  newPhone,
  refused,
  registerByEmail,
  registerByPhone,
} from './helpers.ts';
import {
  changePassword,
  editProfile,
  login,
  register,
  sendEmailCode,
  sendSmsCode,
  userInfo,
} from '../../src/api-contract/account.ts';
import { sessions, users } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Login → info → edit → change password, then proves which tokens and passwords still work. */
async function profileAndPasswordJourney(loginName: string, registerToken: string, expected: Record<string, unknown>) {
  const loggedIn = await h.call(login, { username: loginName, password: PASSWORD });
  expect(loggedIn).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  const token = loggedIn.data.token;
  expect(token).not.toBe(registerToken);

  const info = await h.call(userInfo, {}, { token });
  expect(info).toMatchObject({ ret: 1, msg: 'Success' });
  expect(info.data).toMatchObject({ level: 0, userimg: '', has_paypass: true, verification: 'none', ...expected });
  expect(info.data.invite_code).toMatch(/^[A-Z2-9]{8}$/);

  const edited = await h.call(editProfile, { nickname: 'Somchai', currency: 'JPY' }, { token });
  expect(edited).toMatchObject({ ret: 1, msg: 'Success', data: { nickname: 'Somchai', currency: 'JPY' } });
  expect((await h.call(userInfo, {}, { token })).data).toMatchObject({ nickname: 'Somchai', currency: 'JPY' });

  const changed = await h.call(
    changePassword,
    { oldpass: PASSWORD, password: 'newpass99', repassword: 'newpass99' },
    { token },
  );
  expect(changed).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  const newToken = changed.data.token;

  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(userInfo, {}, { token: registerToken })).toEqual(TOKEN_EXPIRED);
  expect((await h.call(userInfo, {}, { token: newToken })).data).toMatchObject({ nickname: 'Somchai' });

  expect(await h.call(login, { username: loginName, password: PASSWORD })).toEqual(
    refused('Wrong username or password!'),
  );
  expect(await h.call(login, { username: loginName, password: 'newpass99' })).toMatchObject({ ret: 1 });
}

it('a customer registers by mobile number, edits the profile and changes the password', async () => {
  const phone = newPhone();
  const sent = await h.call(sendSmsCode, { userphone: phone });
  expect(sent).toEqual({ ret: 1, msg: 'Success', data: { resend_in: 60 } });
  expect(h.sent.at(-1)).toMatchObject({ channel: 'sms', target: phone });

  const res = await h.call(register, {
    mode: 'phone',
    phone,
    code: h.codeFor(phone),
    password: PASSWORD,
    paypass: '123456',
    currency: 'THB',
  });
  expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  await profileAndPasswordJourney(phone, res.data.token, {
    username: phone,
    nickname: phone,
    phone,
    email: '',
    currency: 'THB',
  });
});

it('a customer registers by e-mail, edits the profile and changes the password', async () => {
  const email = newEmail();
  expect(await h.call(sendEmailCode, { email: email.toUpperCase() })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { resend_in: 60 },
  });
  expect(h.sent.at(-1)).toMatchObject({ channel: 'email', target: email });

  const res = await h.call(register, {
    mode: 'email',
    email,
    code: h.codeFor(email),
    password: PASSWORD,
    paypass: '654321',
    currency: 'USD',
  });
  expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  await profileAndPasswordJourney(email.toUpperCase(), res.data.token, {
    username: email,
    phone: '',
    email,
    currency: 'USD',
  });
});

it('a friend registers with an invitation code and is linked to the inviter', async () => {
  const inviter = await registerByPhone(h);
  const { invite_code } = (await h.call(userInfo, {}, { token: inviter.token })).data;
  const friend = await registerByPhone(h, newPhone(), { invite: invite_code.toLowerCase() });
  const friendId = (await h.call(userInfo, {}, { token: friend.token })).data.id;
  const [row] = await h.database.db.select().from(users).where(eq(users.id, friendId));
  const inviterId = (await h.call(userInfo, {}, { token: inviter.token })).data.id;
  expect(row!.invitedBy).toBe(inviterId);
});

it('a mobile number that is already registered cannot get a sign-up code or register again', async () => {
  const { phone } = await registerByPhone(h);
  h.clock.advance(61_000);
  const before = await dbState(h);

  expect(await h.call(sendSmsCode, { userphone: phone })).toEqual(refused('This mobile number is already registered!'));
  expect(await h.call(sendSmsCode, { userphone: phone, must: '0' })).toEqual(
    refused('This mobile number is already registered!'),
  );
  const again = await h.call(register, {
    mode: 'phone',
    phone,
    code: '123456',
    password: 'other123',
    paypass: '111111',
    currency: 'THB',
  });
  expect(again).toEqual(refused('This mobile number is already registered!'));
  expect(await dbState(h)).toEqual(before);
});

it('an e-mail address that is already registered (in any letter case) cannot register again', async () => {
  const { email } = await registerByEmail(h);
  h.clock.advance(61_000);
  const before = await dbState(h);

  expect(await h.call(sendEmailCode, { email: email.toUpperCase() })).toEqual(
    refused('This e-mail address is already registered!'),
  );
  const again = await h.call(register, {
    mode: 'email',
    email: email.toUpperCase(),
    code: '123456',
    password: 'other123',
    paypass: '111111',
    currency: 'THB',
  });
  expect(again).toEqual(refused('This e-mail address is already registered!'));
  expect(await dbState(h)).toEqual(before);
});

it('an address written with the dot a domain may end with is the same mailbox: no second account, and it logs in', async () => {
  const { email } = await registerByEmail(h);
  h.clock.advance(61_000);
  const before = await dbState(h);
  const dotted = `${email.toUpperCase()}.`;
  expect(await h.call(sendEmailCode, { email: dotted })).toEqual(refused('This e-mail address is already registered!'));
  const again = await h.call(register, {
    mode: 'email',
    email: dotted,
    code: '123456',
    password: 'other123',
    paypass: '111111',
    currency: 'THB',
  });
  expect(again).toEqual(refused('This e-mail address is already registered!'));
  for (const wrong of [`${email}..`, email.replace('@', '@-'), email.replace('.', '..')])
    expect(await h.call(sendEmailCode, { email: wrong }), wrong).toEqual(
      refused('Please enter a valid e-mail address!'),
    );
  expect(await dbState(h)).toEqual(before);
  expect(await h.call(login, { username: dotted, password: PASSWORD })).toMatchObject({ ret: 1 });
});

it('a reset code (must=1) goes only to a registered number or address', async () => {
  const before = await dbState(h);
  const notFound = refused('No account uses this mobile number or e-mail address!');
  expect(await h.call(sendSmsCode, { userphone: newPhone(), must: '1' })).toEqual(notFound);
  expect(await h.call(sendEmailCode, { email: newEmail(), must: '1' })).toEqual(notFound);
  expect(await dbState(h)).toEqual(before);
  expect(h.sent.length).toBe(before.codes.length);

  const { phone } = await registerByPhone(h);
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: phone, must: '1' })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { resend_in: 60 },
  });
  expect(h.sent.at(-1)).toMatchObject({ channel: 'sms', target: phone });
});

it('registering creates exactly one account and one session', async () => {
  const before = await dbState(h);
  const { phone } = await registerByPhone(h);
  const after = await dbState(h);
  expect(after.users.length).toBe(before.users.length + 1);
  expect(after.sessions.length).toBe(before.sessions.length + 1);
  const user = after.users.at(-1)!;
  expect(user).toMatchObject({ username: phone, phone, email: null });
  expect(user.passwordHash).not.toContain(PASSWORD);
  expect(await h.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
});
