// Validation of the logged-in account calls, the password reset and the public content calls.
// Each bad input answers ret 0 with its text, and the database is left exactly as it was.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, dbState, newPhone, refused, registerByPhone } from './helpers.ts';
import {
  changePassword,
  changePayPassword,
  editAvatar,
  editProfile,
  forgotPassword,
  sendSmsCode,
} from '../../src/api-contract/account.ts';
import { config, slides } from '../../src/api-contract/content.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';

let h: Harness;
let me: { phone: string; token: string };
let other: { phone: string; token: string };
beforeAll(async () => {
  h = await startHarness();
  me = await registerByPhone(h);
  other = await registerByPhone(h);
});
afterAll(() => h.close());

async function expectRefusedUnchanged(endpoint: Endpoint, input: Record<string, string>, msg: string, token?: string) {
  const before = await dbState(h);
  expect(await h.call(endpoint, input, { token })).toEqual(refused(msg));
  expect(await dbState(h)).toEqual(before);
}

const NICKNAME = 'Please enter a nickname of 1-20 characters!';
it.each([
  ['nothing to change', {}, 'Please fill in the information and try again!'],
  ['an empty nickname', { nickname: '' }, NICKNAME],
  ['a nickname of spaces', { nickname: '   ' }, NICKNAME],
  ['a nickname of 21 characters', { nickname: 'x'.repeat(21) }, NICKNAME],
  ['an unknown currency', { currency: 'XYZ' }, 'Please choose a currency!'],
  ['a good nickname but an unknown currency', { nickname: 'Fine', currency: 'BTC' }, 'Please choose a currency!'],
  ['an empty mobile number', { phone: '' }, 'Please enter your mobile number!'],
  [
    'a mobile number with letters',
    { phone: '08abc', code: '123456', password: PASSWORD },
    'Please enter a valid mobile number!',
  ],
  [
    'an e-mail address without @',
    { email: 'nobody', code: '123456', password: PASSWORD },
    'Please enter a valid e-mail address!',
  ],
  ['a new mobile number but no code', { phone: '0899990000' }, 'Please enter the verification code!'],
  [
    'a new mobile number and a 2-digit code',
    { phone: '0899990000', code: '12', password: PASSWORD },
    'The verification code must be 6 digits!',
  ],
  [
    'a new mobile number and a code never sent',
    { phone: '0899990000', code: '123456', password: PASSWORD },
    'The verification code is wrong or has expired!',
  ],
])('changing the profile with %s is refused', async (_, input, msg) => {
  await expectRefusedUnchanged(editProfile, input, msg, me.token);
});

it("changing the profile to another customer's mobile number is refused", async () => {
  await expectRefusedUnchanged(
    editProfile,
    { phone: other.phone, code: '123456', password: PASSWORD },
    'This mobile number is already registered!',
    me.token,
  );
});

it('changing the mobile number with a wrong code leaves the profile as it was', async () => {
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone });
  const wrong = h.codeFor(phone) === '000000' ? '111111' : '000000';
  const before = await dbState(h);
  expect(await h.call(editProfile, { phone, code: wrong, password: PASSWORD }, { token: me.token })).toEqual(
    refused('The verification code is wrong or has expired!'),
  );
  expect((await dbState(h)).users).toEqual(before.users);
});

const UPLOAD_FAILED = 'Failed to upload picture, please try again later!';
it.each([
  ['no picture', {}],
  ['a picture on another site', { userimg: 'https://evil.example/me.png' }],
  ['a made-up upload address', { userimg: '/api/uploads/../../etc/passwd' }],
  ['an upload that does not exist', { userimg: '/api/uploads/AAAAAAAAAAAAAAAAAAAAAAAA' }],
])('setting the avatar to %s is refused', async (_, input) => {
  await expectRefusedUnchanged(editAvatar, input, UPLOAD_FAILED, me.token);
});

const LOGIN_PASSWORD = 'The login password must be 6-12 letters or numbers!';
const INCONSISTENT = 'The two passwords entered are inconsistent!';
const newPassword = { oldpass: PASSWORD, password: 'fresh123', repassword: 'fresh123' };
it.each([
  ['no old password', { oldpass: '' }, 'Please enter the old password!'],
  ['no new password', { password: '' }, LOGIN_PASSWORD],
  ['a new password of 5 characters', { password: 'abc12', repassword: 'abc12' }, LOGIN_PASSWORD],
  ['a new password of 13 characters', { password: 'abcdefgh12345', repassword: 'abcdefgh12345' }, LOGIN_PASSWORD],
  ['a new password with symbols', { password: 'abc12#$', repassword: 'abc12#$' }, LOGIN_PASSWORD],
  ['no repeated password', { repassword: '' }, INCONSISTENT],
  ['two different new passwords', { repassword: 'fresh124' }, INCONSISTENT],
])('changing the login password with %s is refused', async (_, change, msg) => {
  await expectRefusedUnchanged(changePassword, { ...newPassword, ...change }, msg, me.token);
});

it('changing the login password with a wrong old password is refused and keeps every session', async () => {
  const before = await dbState(h);
  expect(await h.call(changePassword, { ...newPassword, oldpass: 'wrong123' }, { token: me.token })).toEqual(
    refused('The old password is wrong!'),
  );
  const after = await dbState(h);
  expect(after.users).toEqual(before.users);
  expect(after.sessions).toEqual(before.sessions);
});

const reset = () => ({ mode: 'phone', phone: me.phone, code: '123456', password: 'fresh123', repassword: 'fresh123' });
it.each([
  ['no mode', { mode: '' }, 'The request is not valid!'],
  ['no mobile number', { phone: '' }, 'Please enter your mobile number!'],
  ['a mobile number with letters', { phone: 'abcdefg' }, 'Please enter a valid mobile number!'],
  ['an e-mail address without @', { mode: 'email', email: 'nobody' }, 'Please enter a valid e-mail address!'],
  ['no code', { code: '' }, 'Please enter the verification code!'],
  ['a code of 4 digits', { code: '1234' }, 'The verification code must be 6 digits!'],
  ['a password of 5 characters', { password: 'abc12', repassword: 'abc12' }, LOGIN_PASSWORD],
  ['two different passwords', { repassword: 'fresh999' }, INCONSISTENT],
  ['a number nobody registered', { phone: '0800000001' }, 'No account uses this mobile number or e-mail address!'],
  ['a code that was never sent', {}, 'The verification code is wrong or has expired!'],
])('resetting a forgotten password with %s is refused', async (_, change, msg) => {
  await expectRefusedUnchanged(forgotPassword, { ...reset(), ...change }, msg);
});

const PAY_PASSWORD = 'Payment password must be 6 digits only!';
const newPaypass = { oldpaypass: PAYPASS, password: '654321', repassword: '654321' };
it.each([
  ['no new payment password', { password: '' }, PAY_PASSWORD],
  ['a new payment password of 5 digits', { password: '65432', repassword: '65432' }, PAY_PASSWORD],
  ['a new payment password of letters', { password: 'abcdef', repassword: 'abcdef' }, PAY_PASSWORD],
  ['an old payment password of 3 digits', { oldpaypass: '123' }, PAY_PASSWORD],
  ['an empty old payment password', { oldpaypass: '' }, PAY_PASSWORD],
  ['two different new payment passwords', { repassword: '654320' }, INCONSISTENT],
  ['no repeated payment password', { repassword: '' }, INCONSISTENT],
  ['neither the old payment password nor a code', { oldpaypass: undefined }, 'Please enter the old password!'],
  ['a wrong old payment password', { oldpaypass: '000000' }, 'The payment password is wrong!'],
])('changing the payment password with %s is refused', async (_, change, msg) => {
  const input = Object.fromEntries(
    Object.entries({ ...newPaypass, ...change }).filter(([, value]) => value !== undefined),
  );
  const before = await dbState(h);
  expect(await h.call(changePayPassword, input as Record<string, string>, { token: me.token })).toEqual(refused(msg));
  expect((await dbState(h)).users).toEqual(before.users);
});

it('changing the payment password with a code of 2 digits is refused', async () => {
  await expectRefusedUnchanged(
    changePayPassword,
    { code: '12', password: '654321', repassword: '654321' },
    'The verification code must be 6 digits!',
    me.token,
  );
});

it.each([
  ['config without act', config, {}],
  ['config with an unknown act', config, { act: 'secrets' }],
  ['slides without position', slides, {}],
  ['slides for an unknown position', slides, { position: 'user2' }],
])('asking for %s is refused', async (_, endpoint, input) => {
  await expectRefusedUnchanged(endpoint, input, 'The request is not valid!');
});
