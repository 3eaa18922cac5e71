// A login name, mobile number or e-mail address of a few kilobytes, typed by an attacker: every
// call that counts attempts by what was typed answers the envelope (HTTP 200, ret 0, a text),
// never HTTP 500, and no counter keeps what was typed. Random text: it does not compress, so it
// would overflow a database index the way a real attack would (a repeated letter would not).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { dbState, refused, refusedAbout, registerByPhone } from './helpers.ts';
import {
  changePassword,
  forgotPassword,
  login,
  register,
  sendEmailCode,
  sendSmsCode,
} from '../../src/api-contract/account.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';
import { attemptCounters } from '../../src/server/db/schema.ts';
import { countAttempt, isLimited } from '../../src/server/domain/attempts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** `length` characters of random letters, digits, `-` and `_`. */
const randomText = (length: number) => randomBytes(length).toString('base64url').slice(0, length);
const longName = randomText(4000);
const longEmail = `a@${randomText(4000)}.com`;
const longPhone = '08' + '1234567890'.repeat(400);

/** The answer as the client gets it, status included. */
async function send(endpoint: Endpoint, form: Record<string, string>) {
  const body = new URLSearchParams(form).toString();
  const response = await h.app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}${endpoint.method === 'GET' ? `?${body}` : ''}`,
    headers:
      endpoint.method === 'POST' ? { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' } : { lang: 'en' },
    payload: endpoint.method === 'POST' ? body : undefined,
  });
  return { status: response.statusCode, body: response.json() as unknown };
}

const answer = (msg: string) => ({ status: 200, body: refused(msg) });

it.each([
  [
    'login with a 4,000-character name',
    login,
    { username: longName, password: 'abc12345' },
    'The username, mobile number or e-mail address is too long!',
  ],
  [
    'login with a 4,000-character e-mail address',
    login,
    { username: longEmail, password: 'abc12345' },
    'The username, mobile number or e-mail address is too long!',
  ],
  [
    'an e-mail code to a 4,000-character address',
    sendEmailCode,
    { email: longEmail },
    'Please enter a valid e-mail address!',
  ],
  [
    'an e-mail code for a reset, to a 4,000-character address',
    sendEmailCode,
    { email: longEmail, must: '1' },
    'Please enter a valid e-mail address!',
  ],
  ['an SMS code to a 4,000-digit number', sendSmsCode, { userphone: longPhone }, 'Please enter a valid mobile number!'],
  [
    'registering a 4,000-character address',
    register,
    { mode: 'email', email: longEmail, code: '123456', password: 'abc12345', paypass: '123456', currency: 'USD' },
    'Please enter a valid e-mail address!',
  ],
  [
    'a reset for a 4,000-character address',
    forgotPassword,
    { mode: 'email', email: longEmail, code: '123456', password: 'abc12345', repassword: 'abc12345' },
    'Please enter a valid e-mail address!',
  ],
] as const)(
  '%s answers the envelope with a text, and nothing is counted or stored',
  async (_what, endpoint, form, msg) => {
    const before = await dbState(h);
    expect(await send(endpoint, form)).toEqual(answer(msg));
    expect(await dbState(h)).toEqual(before);
  },
);

it('a login name of the longest allowed length is tried like any other, and its counter keeps no trace of it', async () => {
  const name = randomText(254);
  expect(await send(login, { username: name, password: 'abc12345' })).toEqual(answer('Wrong username or password!'));
  const keys = (await h.database.db.select({ key: attemptCounters.key }).from(attemptCounters)).map((row) => row.key);
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain(name.toLowerCase().slice(0, 20));
  }
});

it('the counters take a key of any length (a caller that forgot to bound its input still gets a count)', async () => {
  const now = h.clock.now();
  const limit = { max: 2, windowMs: 60_000 };
  const key = `anything:${randomText(10_000)}`;
  expect(await countAttempt(h.database.db, key, limit, now)).toBe(1);
  expect(await countAttempt(h.database.db, key, limit, now)).toBe(2);
  expect(await isLimited(h.database.db, key, limit, now)).toBe(true);
  expect(await isLimited(h.database.db, `${key}!`, limit, now)).toBe(false);
});

it('a 4,000-character old password of a signed-in customer is just wrong (it is checked, never a key)', async () => {
  const { token } = await registerByPhone(h);
  const res = await h.call(
    changePassword,
    { oldpass: randomText(4000), password: 'fresh123', repassword: 'fresh123' },
    { token },
  );
  expect(res).toEqual(refusedAbout('The old password is wrong!', 'oldpass'));
});
