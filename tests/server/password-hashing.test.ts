// A password a signed-in call checks, and the new one it stores, are hashed before the call's transaction opens
// (http/secrets-ahead.ts), and so are the new ones of a call proved by a sent code once the code is seen to match
// (registering, a reset by code): while argon2id works (held here at a gate, so the test waits for the hashing to
// start, not for time), no connection of the server holds the call's idempotency key, a password's counter or a sent
// code (no transaction of the call is open yet); the answers are what they were (right: done; wrong: refused and
// counted; at the limit: refused without hashing), keyed or not, and nothing is hashed twice.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  customer,
  expectLedgerBalanced,
  lockedFor,
  newPhone,
  refused,
  withTwoFactor,
} from './helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { argon2id } from '../../src/server/secret-hash.ts';
import { addTronWallet, balanceOf, withdraw } from './funds-helpers.ts';
import { lockAddresses, unlockAddresses } from '../../src/api-contract/address-lock.ts';
import { freezeAccount, unfreezeAccount } from '../../src/api-contract/account-freeze.ts';
import {
  changePassword,
  changePayPassword,
  forgotPassword,
  login,
  register,
  sendSmsCode,
} from '../../src/api-contract/account.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../../src/api-contract/two-factor.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { passkeyCreationOptions } from '../../src/api-contract/passkeys.ts';
import { consoleChangePassword } from '../../src/api-contract/console.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { NEW_PASSWORD, enrolled, signInAs } from './console-helpers.ts';

/** The argon2id calls asked of the app (verifications and hashes), each waiting at the gate while it is closed. */
const gate = {
  closed: false,
  waiting: [] as (() => void)[],
  started: 0,
  arrived: null as (() => void) | null,
};
const realVerify = argon2id.verify;
const realHash = argon2id.hash;
/** Counts the call and, while the gate is closed, waits there until the test lets it on. */
async function atTheGate() {
  gate.started += 1;
  if (gate.closed) {
    await new Promise<void>((release) => {
      gate.waiting.push(release);
      gate.arrived?.();
    });
  }
}

let h: Harness;
beforeAll(() => {
  // The app's own argon2id object, wrapped for this file and put back after it (the worker's next files share it).
  argon2id.verify = async (...args: Parameters<typeof realVerify>) => {
    await atTheGate();
    return realVerify(...args);
  };
  argon2id.hash = async (...args: Parameters<typeof realHash>) => {
    await atTheGate();
    return realHash(...args);
  };
});
afterAll(() => {
  argon2id.verify = realVerify;
  argon2id.hash = realHash;
});
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

/**
 * The locks other connections hold on the call's idempotency key, the password's counter and the sent codes while a
 * verification or hash waits: a transaction that had taken one (the keyed call's hold, the counter's, a code's use)
 * holds its lock to its end. The
 * harness's jobs, which may be in a transaction of their own at that moment, touch neither table. pg_locks is the
 * whole cluster's and the files' databases share their tables' oids (made from one template), so only this file's
 * database is read: another file's calls running meanwhile are not counted.
 */
async function heldMeanwhile() {
  const [row] = rowsOf<{ locks: number }>(
    await h.database.db.execute(sql`
      select count(*)::int as locks from pg_locks l join pg_class c on c.oid = l.relation
      where l.database = (select oid from pg_database where datname = current_database())
        and c.relname in ('idempotency_keys', 'attempt_counters', 'verification_codes')
        and l.pid <> pg_backend_pid()`),
  );
  return row!.locks;
}

/**
 * Sends a call with the gate closed and, at each argon2id call it makes, looks at what is held, then lets that one
 * on: the locks seen at each, in order, and the answer. A call answered without reaching the gate fails at once.
 */
async function pastTheGate<T>(send: () => Promise<T>): Promise<{ held: number[]; answer: T }> {
  const held: number[] = [];
  gate.closed = true;
  let arrival = new Promise<void>((resolve) => (gate.arrived = resolve));
  const answer = send();
  let answered = false;
  const done = answer.then(
    () => (answered = true),
    () => (answered = true),
  );
  try {
    await Promise.race([
      arrival,
      answer.then((value) => {
        throw new Error(`answered without an argon2id call at the gate: ${JSON.stringify(value)}`);
      }),
    ]);
    while (!answered) {
      held.push(await heldMeanwhile());
      arrival = new Promise<void>((resolve) => (gate.arrived = resolve));
      gate.waiting.splice(0).forEach((release) => release());
      await Promise.race([arrival, done]);
    }
  } finally {
    gate.closed = false;
    gate.waiting.splice(0).forEach((release) => release());
  }
  return { held, answer: await answer };
}

/** Sends a withdrawal with the gate closed, looks at what is held once its hashing waits there, then lets it on. */
async function withdrawnPastTheGate(token: string, fields: Record<string, string>, key?: string) {
  const { held, answer } = await pastTheGate(() => withdraw(h, token, fields, key));
  return { held: Math.max(...held), answer };
}

it('a keyed withdrawal hashes its payment password with no transaction open, then freezes the amount', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const fields = { target: 'wallet', target_id: String(wallet.id), amount: '10' };
  const { held, answer } = await withdrawnPastTheGate(user.token, fields, 'password-hashing:withdraw');
  expect(held).toBe(0);
  expect(answer).toMatchObject({ ret: 1, data: { amount: '10.00000000' } });
  expect(await balanceOf(h, user.id)).toEqual({ available: '89.90000000', frozen: '10.10000000' });
  // The same key again: the stored answer, hashed no more.
  const started = gate.started;
  expect(await withdraw(h, user.token, fields, 'password-hashing:withdraw')).toEqual(answer);
  expect(gate.started).toBe(started);
});

it('an unkeyed withdrawal with a wrong payment password: hashed with nothing held, refused and counted', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const fields = { target: 'wallet', target_id: String(wallet.id), amount: '10', paypass: '654321' };
  const { held, answer } = await withdrawnPastTheGate(user.token, fields);
  expect(held).toBe(0);
  expect(answer).toEqual(refused('The payment password is wrong!'));
  expect(await balanceOf(h, user.id)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
  // Four more wrong ones reach the limit of five; the sixth try, even the right password, is refused unhashed.
  for (let tries = 2; tries <= 5; tries++) {
    expect(await withdraw(h, user.token, { ...fields, paypass: '654321' })).toEqual(
      refused('The payment password is wrong!'),
    );
  }
  const started = gate.started;
  expect(await withdraw(h, user.token, { ...fields, paypass: PAYPASS })).toEqual(lockedFor('15 minutes'));
  expect(gate.started).toBe(started);
  expect(await balanceOf(h, user.id)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
});

/** What the authenticator app shows now for a base32 secret (the harness clock's step). */
const codeOf = (secret: string) => totpAt(base32Decode(secret), totpStep(h.clock.now()));
/** A request from the app opened at https://app.example.com (a passkey's relying party is the page's origin). */
const fromThePage = (token: string) => ({
  token,
  headers: { origin: 'https://app.example.com', host: 'app.example.com' },
});
let keys = 0;
/** A keyed call's options: the session and a fresh idempotency key (the app sends one with every write). */
const keyed = (token: string, options: object = {}) => ({
  token,
  idempotencyKey: `password-hashing:${++keys}`,
  ...options,
});

/**
 * Each signed-in call that checks a password, sent keyed as the app sends it: its set-up, the call, and the argon2id
 * calls it makes (a verification, and the new password's hash for a change), all before its transaction opens.
 */
const calls: {
  name: string;
  call: () => Promise<() => Promise<{ ret: number }>>;
  argon2: number;
}[] = [
  {
    name: 'turning the address lock off (payment password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      expect((await h.call(lockAddresses, {}, { token: user.token })).ret).toBe(1);
      return () => h.call(unlockAddresses, { paypass: PAYPASS }, keyed(user.token));
    },
  },
  {
    name: 'freezing the account (payment password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      return () => h.call(freezeAccount, { paypass: PAYPASS }, keyed(user.token));
    },
  },
  {
    name: 'asking to unfreeze the account (payment password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      expect((await h.call(freezeAccount, { paypass: PAYPASS }, { token: user.token })).ret).toBe(1);
      // Freezing ended the account's sessions: it signs in again (the login's own check hashes before the gate).
      const again = await h.call(login, { username: user.phone, password: PASSWORD });
      expect(again.ret).toBe(1);
      return () => h.call(unfreezeAccount, { paypass: PAYPASS }, keyed(again.data.token));
    },
  },
  {
    name: 'changing the login password (the old one verified, the new one hashed)',
    argon2: 2,
    async call() {
      const user = await customer(h);
      const form = { oldpass: PASSWORD, password: 'xyz98765', repassword: 'xyz98765' };
      return () => h.call(changePassword, form, keyed(user.token));
    },
  },
  {
    name: 'changing the payment password (the old one verified, the new one hashed)',
    argon2: 2,
    async call() {
      const user = await customer(h);
      const form = { oldpaypass: PAYPASS, password: '246810', repassword: '246810' };
      return () => h.call(changePayPassword, form, keyed(user.token));
    },
  },
  {
    name: 'turning two-factor on (login password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      const setup = await h.call(beginTwoFactor, {}, { token: user.token });
      return () => h.call(confirmTwoFactor, { code: codeOf(setup.data.secret), password: PASSWORD }, keyed(user.token));
    },
  },
  {
    name: 'turning two-factor off (login password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      const { code } = await withTwoFactor(h, user.token);
      return () => h.call(disableTwoFactor, { otp: code(), password: PASSWORD }, keyed(user.token));
    },
  },
  {
    name: "a passkey's creation options (login password)",
    argon2: 1,
    async call() {
      const user = await customer(h);
      return () => h.call(passkeyCreationOptions, { password: PASSWORD }, keyed(user.token, fromThePage(user.token)));
    },
  },
  {
    name: 'closing the account (payment password)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      return () => h.call(closeAccount, { secret_kind: 'pay', secret: PAYPASS }, keyed(user.token));
    },
  },
  {
    name: "an operator's password change (the current one verified, the new one hashed)",
    argon2: 2,
    async call() {
      const operator = await enrolled(h, `hashing${++keys}`, 'reviewer');
      const signedIn = await signInAs(h, operator);
      expect(signedIn.ret).toBe(1);
      const form = { password: operator.password, new_password: NEW_PASSWORD };
      return () => h.call(consoleChangePassword, form, keyed(signedIn.data.token));
    },
  },
  {
    name: 'registering (both passwords hashed once the code is seen to match)',
    argon2: 2,
    async call() {
      const phone = newPhone();
      const code = await codeSentTo(phone, '0');
      const form = { mode: 'phone', phone, code, password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
      return () => h.call(register, form, keyed(''));
    },
  },
  {
    name: 'a forgotten login password reset by code (the new one hashed once the code is seen to match)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      const code = await codeSentTo(user.phone, '1');
      const form = { mode: 'phone', phone: user.phone, code, password: 'reset123', repassword: 'reset123' };
      return () => h.call(forgotPassword, form, keyed(''));
    },
  },
  {
    name: 'a payment password set by code (the new one hashed once the code is seen to match)',
    argon2: 1,
    async call() {
      const user = await customer(h);
      const code = await codeSentTo(user.phone, '1');
      return () => h.call(changePayPassword, { code, password: '246810', repassword: '246810' }, keyed(user.token));
    },
  },
];

/** A code sent to `phone` (`must` '0': for a new account, '1': to an existing one's number), the resend wait past. */
async function codeSentTo(phone: string, must: '0' | '1') {
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone, must })).ret).toBe(1);
  return h.codeFor(phone);
}

it.each(calls)('$name: hashed with no transaction open, and not again in it', async ({ call, argon2 }) => {
  const send = await call();
  const started = gate.started;
  const { held, answer } = await pastTheGate(send);
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
  expect(held).toEqual(Array.from({ length: argon2 }, () => 0));
  expect(gate.started - started).toBe(argon2);
});

it('a change with a wrong old password hashes no new one, and counts the try', async () => {
  const user = await customer(h);
  const form = { oldpass: 'wrong123', password: 'xyz98765', repassword: 'xyz98765' };
  const started = gate.started;
  const { held, answer } = await pastTheGate(() => h.call(changePassword, form, keyed(user.token)));
  expect(answer).toEqual(refused('The old password is wrong!'));
  expect(held).toEqual([0]);
  expect(gate.started - started).toBe(1);
  // The try was counted: four more reach the limit, and the right password is then refused without hashing.
  for (let tries = 2; tries <= 5; tries++) expect((await h.call(changePassword, form, keyed(user.token))).ret).toBe(0);
  const atLimit = gate.started;
  expect(await h.call(changePassword, { ...form, oldpass: PASSWORD }, keyed(user.token))).toEqual(
    lockedFor('15 minutes'),
  );
  expect(gate.started).toBe(atLimit);
});

it('a registration or reset with a wrong code hashes nothing, is refused and uses up a try of the code', async () => {
  const phone = newPhone();
  const code = await codeSentTo(phone, '0');
  const wrong = code === '000000' ? '111111' : '000000';
  const form = { mode: 'phone', phone, password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
  const started = gate.started;
  const codeWrong = refused('The verification code is wrong or has expired!');
  expect(await h.call(register, { ...form, code: wrong }, keyed(''))).toEqual(codeWrong);
  expect(gate.started).toBe(started);
  // Four more wrong tries kill the code: the right one is then refused too, and nothing was hashed.
  for (let tries = 2; tries <= 5; tries++)
    expect(await h.call(register, { ...form, code: wrong }, keyed(''))).toEqual(codeWrong);
  expect(await h.call(register, { ...form, code }, keyed(''))).toEqual(codeWrong);
  expect(gate.started).toBe(started);

  // A number that does not read is refused as before (the work before the transaction never refuses).
  expect(await h.call(register, { ...form, phone: '2147483648', code }, keyed(''))).toEqual(
    refused('Please enter a valid mobile number!'),
  );
  expect(await h.call(forgotPassword, { ...form, phone: '2147483648', code, repassword: PASSWORD }, keyed(''))).toEqual(
    refused('Please enter a valid mobile number!'),
  );
  expect(gate.started).toBe(started);

  const user = await customer(h);
  const reset = await codeSentTo(user.phone, '1');
  const resetForm = { mode: 'phone', phone: user.phone, password: 'reset123', repassword: 'reset123' };
  const before = gate.started;
  expect(await h.call(forgotPassword, { ...resetForm, code: reset === '000000' ? '111111' : '000000' })).toEqual(
    codeWrong,
  );
  expect(gate.started).toBe(before);
  // The right code still works (one try used of five), hashing the new password once.
  expect(await h.call(forgotPassword, { ...resetForm, code: reset }, keyed(''))).toMatchObject({ ret: 1 });
  expect(gate.started).toBe(before + 1);
  expect(await h.call(login, { username: user.phone, password: 'reset123' })).toMatchObject({ ret: 1 });
});
