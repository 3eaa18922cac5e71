// A call that needs a login answers ret -1 ('Your login has expired…') for a missing,
// unknown or revoked token, before it looks at the input, and changes nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, TOKEN_EXPIRED, dbState, registerByPhone, tinyPng, uploadFile } from './helpers.ts';
import {
  changePassword,
  changePayPassword,
  editAvatar,
  editProfile,
  login,
  logout,
  userInfo,
} from '../../src/api-contract/account.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Every call that needs a login, with an input that would otherwise be accepted. */
const AUTH_CALLS: [string, Endpoint, Record<string, string>][] = [
  ['/users/info', userInfo, {}],
  ['/users/logout', logout, {}],
  ['/users/edit', editProfile, { nickname: 'Intruder' }],
  ['/users/edit/avatar', editAvatar, { userimg: '/api/uploads/AAAAAAAAAAAAAAAAAAAAAAAA' }],
  ['/users/edit/userpass', changePassword, { oldpass: PASSWORD, password: 'taken123', repassword: 'taken123' }],
  ['/users/edit/paypass', changePayPassword, { oldpaypass: PAYPASS, password: '999999', repassword: '999999' }],
];

it.each([
  ['no token', undefined],
  ['an unknown token', 'not-a-real-token'],
  ['an absurdly long token', 'x'.repeat(500)],
])('with %s every logged-in call answers ret -1 and changes nothing', async (_, token) => {
  await registerByPhone(h);
  const before = await dbState(h);
  for (const [, endpoint, input] of AUTH_CALLS) {
    expect(await h.call(endpoint, input, { token })).toEqual(TOKEN_EXPIRED);
  }
  expect(await uploadFile(h, token, { bytes: tinyPng(), name: 'me.png', type: 'image/png' })).toEqual(TOKEN_EXPIRED);
  expect(await dbState(h)).toEqual(before);
});

it('an invalid token is answered before a bad input is looked at', async () => {
  expect(await h.call(editProfile, {}, { token: 'nope' })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(changePassword, { password: 'x' }, { token: 'nope' })).toEqual(TOKEN_EXPIRED);
});

it('logging out ends this session only; the next call with it answers ret -1', async () => {
  const { phone, token } = await registerByPhone(h);
  const other = (await h.call(login, { username: phone, password: PASSWORD })).data.token;

  expect(await h.call(logout, {}, { token })).toEqual({ ret: 1, msg: 'Success', data: null });
  expect(await h.call(userInfo, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect(await h.call(logout, {}, { token })).toEqual(TOKEN_EXPIRED);
  expect((await h.call(userInfo, {}, { token: other })).data.username).toBe(phone);
});

it.each(AUTH_CALLS)('after logout %s answers ret -1', async (_, endpoint, input) => {
  const { token } = await registerByPhone(h);
  await h.call(logout, {}, { token });
  const before = await dbState(h);
  expect(await h.call(endpoint, input, { token })).toEqual(TOKEN_EXPIRED);
  expect(await dbState(h)).toEqual(before);
});

it("one customer's token never reads another customer's info", async () => {
  const first = await registerByPhone(h);
  const second = await registerByPhone(h);
  expect((await h.call(userInfo, {}, { token: first.token })).data.phone).toBe(first.phone);
  expect((await h.call(userInfo, {}, { token: second.token })).data.phone).toBe(second.phone);
});
