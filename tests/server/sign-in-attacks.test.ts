// Sign-in and account security tried as an account thief would: a sign-in or a password change racing the owner's
// reset of the login password. The thief's argon2id verification is held at a gate (the app's own argon2id object,
// wrapped for this file), so the owner's reset runs exactly while the thief's password is being checked: the test
// waits for the verification to start, not for time.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { sql } from 'drizzle-orm';
import { PASSWORD, TOKEN_EXPIRED, refused, registerByPhone, rowLocked, userIdOf, waitersOnLocks } from './helpers.ts';
import { counterKey } from '../../src/server/domain/attempts.ts';
import { loginPasswordCounter } from '../../src/server/domain/accounts.ts';
import { changePassword, forgotPassword, login, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { argon2id } from '../../src/server/secret-hash.ts';

/** argon2id verifications wait here while `held` is set; `arrived` resolves when one has reached the gate. */
const gate = { held: false, arrived: () => {}, waiting: [] as (() => void)[] };
const realVerify = argon2id.verify;

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
  h = await startHarness();
});
afterAll(async () => {
  argon2id.verify = realVerify;
  await h.close();
});

const WRONG_CREDENTIALS = refused('Wrong username or password!');

/** The owner resets the login password of `phone` by SMS code to `password`; the answer is checked to be a success. */
async function ownerResets(phone: string, password: string) {
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: phone, must: '1' })).toMatchObject({ ret: 1 });
  const code = h.codeFor(phone);
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
  const thief = change(PASSWORD);
  await waitersOnLocks(h.database.db);
  // The thief's old password was read right; the owner resets meanwhile, which ends every session.
  await ownerResets(phone, 'ownerNew2').finally(counter.release);
  const answer = await thief;
  if (answer.ret === 1) expect(await h.call(userInfo, {}, { token: answer.data.token })).toEqual(TOKEN_EXPIRED);
  expect(answer).toEqual(refused('The old password is wrong!'));
  // The owner's new password is the account's, the thief's is not.
  expect(await h.call(login, { username: phone, password: 'thiefPass1' })).toEqual(WRONG_CREDENTIALS);
  expect(await h.call(login, { username: phone, password: 'ownerNew2' })).toMatchObject({ ret: 1 });
});
