// Sign-in and account security tried as an account thief would. A sign-in or a password change racing the owner's
// reset of the login password: the thief's argon2id verification is held at a gate (the app's own argon2id object,
// wrapped for this file), or the check's counter row is held, so the owner's reset runs exactly while the thief's
// password is being checked; the test waits for the check to start, not for time. A sent code guessed through a form
// that refuses before counting a try: the argon2id hashes made (the time an answer takes) are counted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { sql } from 'drizzle-orm';
import {
  PASSWORD,
  PAYPASS,
  TOKEN_EXPIRED,
  newPhone,
  refused,
  registerByPhone,
  rowLocked,
  userIdOf,
  waitersOnLocks,
} from './helpers.ts';
import { counterKey } from '../../src/server/domain/attempts.ts';
import { loginPasswordCounter, payPasswordCounter } from '../../src/server/domain/accounts.ts';
import {
  changePassword,
  changePayPassword,
  forgotPassword,
  login,
  register,
  sendSmsCode,
  userInfo,
} from '../../src/api-contract/account.ts';
import { argon2id } from '../../src/server/secret-hash.ts';
import {
  addPasskey,
  passkeyCreationOptions,
  passkeySignIn,
  passkeySignInOptions,
  removePasskey,
} from '../../src/api-contract/passkeys.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** argon2id verifications wait here while `held` is set; `arrived` resolves when one has reached the gate. */
const gate = { held: false, arrived: () => {}, waiting: [] as (() => void)[] };
const realVerify = argon2id.verify;
const realHash = argon2id.hash;
/** How many argon2id hashes the server made: the work, and so the time, an attacker can measure from outside. */
let hashes = 0;

/** Closes the gate: resolves once an argon2id verification waits at it; `open()` lets every waiting one on. */
function closeGate(): { reached: Promise<void>; open: () => void } {
  gate.held = true;
  const reached = new Promise<void>((resolve) => (gate.arrived = resolve));
  return {
    reached,
    open: () => {
      gate.held = false;
      for (const release of gate.waiting.splice(0)) release();
    },
  };
}

let h: Harness;
beforeAll(async () => {
  argon2id.verify = async (...args: Parameters<typeof realVerify>) => {
    if (gate.held) {
      await new Promise<void>((release) => {
        gate.waiting.push(release);
        gate.arrived();
      });
    }
    return realVerify(...args);
  };
  argon2id.hash = (...args: Parameters<typeof realHash>) => {
    hashes += 1;
    return realHash(...args);
  };
  h = await startHarness();
});
afterAll(async () => {
  argon2id.verify = realVerify;
  argon2id.hash = realHash;
  await h.close();
});

const WRONG_CREDENTIALS = refused('Wrong username or password!');

/** Has a code sent to `phone` (`must`: '1' a reset's, '0' a sign-up's) and answers it, and a wrong code beside it. */
async function codeSentTo(phone: string, must: '0' | '1') {
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: phone, must })).toMatchObject({ ret: 1 });
  const code = h.codeFor(phone);
  return { code, wrong: code === '000000' ? '000001' : '000000' };
}

/** The owner resets the login password of `phone` by SMS code to `password`; the answer is checked to be a success. */
async function ownerResets(phone: string, password: string) {
  const { code } = await codeSentTo(phone, '1');
  const reset = await h.call(forgotPassword, { mode: 'phone', phone, code, password, repassword: password });
  expect(reset).toEqual({ ret: 1, msg: 'Success', data: null });
}

it('a sign-in with the old password that is checked while the owner resets it gets no session', async () => {
  const { phone } = await registerByPhone(h);
  const gateAt = closeGate();
  const thief = h.call(login, { username: phone, password: PASSWORD }, { ip: '198.51.100.7' });
  await gateAt.reached;
  // Meanwhile the owner, who suspects the thief, resets the password: every session ends.
  await ownerResets(phone, 'ownerNew1').finally(gateAt.open);
  const answer = await thief;
  // The password the thief typed was no longer the account's when the session would have begun.
  if (answer.ret === 1) expect(await h.call(userInfo, {}, { token: answer.data.token })).toEqual(TOKEN_EXPIRED);
  expect(answer).toEqual(WRONG_CREDENTIALS);
  expect(await h.call(login, { username: phone, password: 'ownerNew1' })).toMatchObject({ ret: 1 });
});

it('a password change with the old password, checked while the owner resets it, neither takes nor keeps the account', async () => {
  const { phone, token: thiefToken } = await registerByPhone(h);
  const userId = await userIdOf(h, thiefToken);
  // One wrong old password first: the check's counter row exists, and is held here as a check that came first would.
  const change = (oldpass: string) =>
    h.call(changePassword, { oldpass, password: 'thiefPass1', repassword: 'thiefPass1' }, { token: thiefToken });
  expect(await change('wrong123')).toEqual(refused('The old password is wrong!'));
  const counter = await rowLocked(
    h,
    sql`select 1 from attempt_counters where key = ${counterKey(loginPasswordCounter(userId))} for update`,
  );
  let thief;
  try {
    thief = change(PASSWORD);
    await waitersOnLocks(h.database.db);
    // The thief's old password was read right; the owner resets meanwhile, which ends every session.
    await ownerResets(phone, 'ownerNew2');
  } finally {
    await counter.release();
  }
  const answer = await thief;
  if (answer.ret === 1) expect(await h.call(userInfo, {}, { token: answer.data.token })).toEqual(TOKEN_EXPIRED);
  expect(answer).toEqual(refused('The old password is wrong!'));
  // The owner's new password is the account's, the thief's is not.
  expect(await h.call(login, { username: phone, password: 'thiefPass1' })).toEqual(WRONG_CREDENTIALS);
  expect(await h.call(login, { username: phone, password: 'ownerNew2' })).toMatchObject({ ret: 1 });
});

/** The argon2id hashes one call makes, and its answer. */
async function hashesOf<T>(call: () => Promise<T>): Promise<{ hashes: number; answer: T }> {
  const before = hashes;
  const answer = await call();
  return { hashes: hashes - before, answer };
}

it('a reset code guessed through registering the taken number costs the same work right or wrong, and keeps its tries', async () => {
  const { phone } = await registerByPhone(h);
  // The thief has the reset code sent (anyone can ask for it) and guesses it through the sign-up form, whose answer
  // for a taken number counts no try: the time of the answer must not tell a right code from a wrong one.
  const { code, wrong } = await codeSentTo(phone, '1');
  const guess = (typed: string) =>
    hashesOf(() =>
      h.call(register, { mode: 'phone', phone, code: typed, password: 'thief123', paypass: '111111', currency: 'THB' }),
    );
  const taken = refused('This mobile number is already registered!');
  expect(await guess(wrong)).toEqual({ hashes: 0, answer: taken });
  expect(await guess(code)).toEqual({ hashes: 0, answer: taken });
  // The owner's code still works.
  const reset = await h.call(forgotPassword, {
    mode: 'phone',
    phone,
    code,
    password: 'ownerNew3',
    repassword: 'ownerNew3',
  });
  expect(reset).toEqual({ ret: 1, msg: 'Success', data: null });
});

it('a sign-up code guessed through the reset form of a number no account has costs the same work right or wrong', async () => {
  const phone = newPhone();
  // Someone is registering this number; the thief guesses the sign-up code through the reset form.
  const { code, wrong } = await codeSentTo(phone, '0');
  const guess = (typed: string) =>
    hashesOf(() =>
      h.call(forgotPassword, { mode: 'phone', phone, code: typed, password: 'thief123', repassword: 'thief123' }),
    );
  const none = refused('No account uses this mobile number or e-mail address!');
  expect(await guess(wrong)).toEqual({ hashes: 0, answer: none });
  expect(await guess(code)).toEqual({ hashes: 0, answer: none });
});

it('a payment password change with the old one, checked while the owner changes it by code, does not overwrite it', async () => {
  const { phone, token: thiefToken } = await registerByPhone(h);
  const ownerToken = (await h.call(login, { username: phone, password: PASSWORD })).data.token;
  const userId = await userIdOf(h, thiefToken);
  const change = (token: string, form: Record<string, string>) => h.call(changePayPassword, form, { token });
  // One wrong old payment password first: the check's counter row exists, and is held as a check that came first.
  const thiefForm = (oldpaypass: string) => ({ oldpaypass, password: '246810', repassword: '246810' });
  expect(await change(thiefToken, thiefForm('999999'))).toEqual(refused('The payment password is wrong!'));
  const counter = await rowLocked(
    h,
    sql`select 1 from attempt_counters where key = ${counterKey(payPasswordCounter(userId))} for update`,
  );
  let thief;
  try {
    thief = change(thiefToken, thiefForm(PAYPASS));
    await waitersOnLocks(h.database.db);
    // The owner, who suspects the payment password is known, sets a new one with a code sent to their phone.
    const { code } = await codeSentTo(phone, '1');
    expect(await change(ownerToken, { code, password: '135790', repassword: '135790' })).toMatchObject({ ret: 1 });
  } finally {
    await counter.release();
  }
  // The thief's old payment password was proved against the one the owner has just replaced.
  expect(await thief).toEqual(refused('The payment password is wrong!'));
  expect(await change(ownerToken, thiefForm('246810'))).toEqual(refused('The payment password is wrong!'));
  expect(await change(ownerToken, { oldpaypass: '135790', password: '112233', repassword: '112233' })).toMatchObject({
    ret: 1,
  });
});

const ORIGIN = 'https://app.example.com';
/** A request from the app opened at https://app.example.com, from `ip` when given. */
const page = (token?: string, ip?: string) => ({
  token,
  ip,
  headers: { origin: ORIGIN, host: 'app.example.com', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
});

it('a passkey sign-in that the owner removed the passkey and reset the password under gets no session', async () => {
  const { phone, token: ownerToken } = await registerByPhone(h);
  const userId = await userIdOf(h, ownerToken);
  // The thief, once signed in, added a passkey of their own.
  const thiefKey = new SoftAuthenticator(ORIGIN);
  const options = await h.call(passkeyCreationOptions, { password: PASSWORD }, page(ownerToken));
  const credential = JSON.stringify(thiefKey.create(options.data.options as never));
  const added = await h.call(addPasskey, { credential }, page(ownerToken));
  expect(added).toMatchObject({ ret: 1 });
  // A wrong password from the thief's address leaves its login counter, which the sign-in clears as it proves the
  // owner from there: that row is held here, so the passkey is checked and the session not yet made.
  const thiefIp = '198.51.100.9';
  expect(await h.call(login, { username: phone, password: 'wrong123' }, { ip: thiefIp })).toEqual(WRONG_CREDENTIALS);
  const counter = await rowLocked(
    h,
    sql`select 1 from attempt_counters where key = ${counterKey(`login:account:${userId}@${thiefIp}`)} for update`,
  );
  let thief;
  try {
    const challenge = (await h.call(passkeySignInOptions, {}, page())).data.options as never;
    thief = h.call(passkeySignIn, { credential: JSON.stringify(thiefKey.get(challenge)) }, page(undefined, thiefIp));
    await waitersOnLocks(h.database.db);
    // The owner removes the passkey and resets the password: every session ends.
    expect(await h.call(removePasskey, { id: added.data.id }, page(ownerToken))).toMatchObject({ ret: 1 });
    await ownerResets(phone, 'ownerNew4');
  } finally {
    await counter.release();
  }
  const answer = await thief;
  if (answer.ret === 1) expect(await h.call(userInfo, {}, { token: answer.data.token })).toEqual(TOKEN_EXPIRED);
  expect(answer).toEqual(
    refused('This passkey is not recognised here. Sign in with your password, then add it again in Settings!'),
  );
});
