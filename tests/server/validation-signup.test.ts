// Validation of the calls a visitor makes: login, sign-up codes and registration. Each bad
// input answers ret 0 with its own text, and the database is left exactly as it was.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { dbState, newEmail, newPhone, refused } from './helpers.ts';
import { login, register, sendEmailCode, sendSmsCode } from '../../src/api-contract/account.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Sends `input` and expects the refusal `msg` with no trace in the database. */
async function expectRefusedUnchanged(endpoint: Endpoint, input: Record<string, string>, msg: string) {
  const before = await dbState(h);
  expect(await h.call(endpoint, input)).toEqual(refused(msg));
  expect(await dbState(h)).toEqual(before);
  expect(h.sent).toHaveLength(0);
}

const USERNAME_AND_PASSWORD = 'Please enter your username and password first!';
it.each([
  ['no username', { password: 'abc123' }],
  ['no password', { username: 'someone' }],
  ['a blank username', { username: '   ', password: 'abc123' }],
  ['a blank password', { username: 'someone', password: '  ' }],
  ['nothing at all', {}],
])('login with %s asks for username and password', async (_, input) => {
  await expectRefusedUnchanged(login, input, USERNAME_AND_PASSWORD);
});

const LOGIN_PASSWORD = 'The login password must be 6-12 letters or numbers!';
const PAY_PASSWORD = 'Payment password must be 6 digits only!';
const phoneBase = () => ({
  mode: 'phone',
  phone: newPhone(),
  code: '123456',
  password: 'abc123',
  paypass: '123456',
  currency: 'THB',
});
const emailBase = () => ({
  mode: 'email',
  email: newEmail(),
  code: '123456',
  password: 'abc123',
  paypass: '123456',
  currency: 'THB',
});

it.each([
  ['no mode', { mode: undefined }, 'The request is not valid!'],
  ['an unknown mode', { mode: 'fax' }, 'The request is not valid!'],
  ['no mobile number', { phone: undefined }, 'Please enter your mobile number!'],
  ['a mobile number with letters', { phone: '08abc12345' }, 'Please enter a valid mobile number!'],
  ['a mobile number of 5 digits', { phone: '08123' }, 'Please enter a valid mobile number!'],
  ['no verification code', { code: undefined }, 'Please enter the verification code!'],
  ['an empty verification code', { code: '' }, 'Please enter the verification code!'],
  ['a 5-digit verification code', { code: '12345' }, 'The verification code must be 6 digits!'],
  ['a verification code with letters', { code: '12a456' }, 'The verification code must be 6 digits!'],
  ['no login password', { password: undefined }, LOGIN_PASSWORD],
  ['a login password of 5 characters', { password: 'abc12' }, LOGIN_PASSWORD],
  ['a login password of 13 characters', { password: 'abcdefgh12345' }, LOGIN_PASSWORD],
  ['a login password with symbols', { password: 'abc12!@' }, LOGIN_PASSWORD],
  ['no payment password', { paypass: undefined }, PAY_PASSWORD],
  ['a payment password of 5 digits', { paypass: '12345' }, PAY_PASSWORD],
  ['a payment password of 7 digits', { paypass: '1234567' }, PAY_PASSWORD],
  ['a payment password with letters', { paypass: '12345a' }, PAY_PASSWORD],
  ['no currency', { currency: undefined }, 'Please choose a currency!'],
  ['an unknown currency', { currency: 'XYZ' }, 'Please choose a currency!'],
  ['an invitation code too short', { invite: 'AB1' }, 'The invitation code is not valid!'],
  ['an invitation code with symbols', { invite: 'AB-12!' }, 'The invitation code is not valid!'],
  ['an invitation code nobody has', { invite: 'NOBODY99' }, 'The invitation code does not exist!'],
])('registering by mobile number with %s is refused', async (_, change, msg) => {
  const input = { ...phoneBase(), ...change } as Record<string, string | undefined>;
  await expectRefusedUnchanged(register, withoutUndefined(input), msg);
});

it.each([
  ['no e-mail address', { email: undefined }, 'Please enter your e-mail address!'],
  ['an e-mail address without @', { email: 'someone.example.com' }, 'Please enter a valid e-mail address!'],
  ['an e-mail address without a domain', { email: 'someone@example' }, 'Please enter a valid e-mail address!'],
  ['an e-mail address with a space', { email: 'some one@example.com' }, 'Please enter a valid e-mail address!'],
  ['a login password of 5 characters', { password: 'abc12' }, LOGIN_PASSWORD],
  ['a 6-letter payment password', { paypass: 'abcdef' }, PAY_PASSWORD],
])('registering by e-mail with %s is refused', async (_, change, msg) => {
  const input = { ...emailBase(), ...change } as Record<string, string | undefined>;
  await expectRefusedUnchanged(register, withoutUndefined(input), msg);
});

it('registering with a code that was never sent is refused', async () => {
  await expectRefusedUnchanged(register, phoneBase(), 'The verification code is wrong or has expired!');
});

it.each([
  ['no mobile number', {}, 'Please enter your mobile number!'],
  ['a mobile number with letters', { userphone: 'abcdefgh' }, 'Please enter a valid mobile number!'],
  ['a mobile number of 16 digits', { userphone: '0812345678901234' }, 'Please enter a valid mobile number!'],
  ['a must flag other than 0 or 1', { userphone: '0812345678', must: '2' }, 'The request is not valid!'],
])('asking for an SMS code with %s is refused', async (_, input, msg) => {
  await expectRefusedUnchanged(sendSmsCode, input, msg);
});

it.each([
  ['a comment', 'someone(note)@example.com'],
  ['a list', 'nobody,someone@example.com'],
  ['a group', 'team:someone@example.com'],
  ['an address in angle brackets', 'nobody<someone>@example.com'],
])(
  'asking for an e-mail code to an address with %s, which a mailer sends to another address, is refused',
  async (_, email) => {
    await expectRefusedUnchanged(sendEmailCode, { email }, 'Please enter a valid e-mail address!');
  },
);

it.each([
  ['no e-mail address', {}, 'Please enter your e-mail address!'],
  ['an e-mail address without @', { email: 'someone' }, 'Please enter a valid e-mail address!'],
  ['a must flag other than 0 or 1', { email: 'a@example.com', must: 'yes' }, 'The request is not valid!'],
])('asking for an e-mail code with %s is refused', async (_, input, msg) => {
  await expectRefusedUnchanged(sendEmailCode, input, msg);
});

function withoutUndefined(input: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Record<string, string>;
}
