// A write sent again with the same Idempotency-Key (a retry after a lost answer, a double tap)
// is applied once and every copy gets the first answer; the key cannot be reused for another body.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, dbState, newPhone, refused, registerByPhone } from './helpers.ts';
import { editProfile, register, sendSmsCode } from '../../src/contract/account.ts';
import { sessions, users, verificationCodes } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A fresh number with a code sent to it, and the registration form for it. */
async function registrationForm() {
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone });
  return { mode: 'phone', phone, code: h.codeFor(phone), password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
}

async function accountsFor(phone: string) {
  const rows = await h.database.db.select().from(users).where(eq(users.phone, phone));
  const sessionRows = rows.length ? await h.database.db.select().from(sessions).where(eq(sessions.userId, rows[0]!.id)) : [];
  return { users: rows.length, sessions: sessionRows.length };
}

it('registering five times in a row with one key creates one account and replays the same answer', async () => {
  const form = await registrationForm();
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await h.call(register, form, { idempotencyKey: 'signup-in-a-row' }));
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await accountsFor(form.phone)).toEqual({ users: 1, sessions: 1 });
});

it('registering five times at once with one key creates one account and replays the same answer', async () => {
  const form = await registrationForm();
  const answers = await Promise.all(Array.from({ length: 5 }, () => h.call(register, form, { idempotencyKey: 'signup-at-once' })));
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success' });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await accountsFor(form.phone)).toEqual({ users: 1, sessions: 1 });
});

it('a replayed answer is marked with the idempotent-replay header', async () => {
  const form = new URLSearchParams(await registrationForm()).toString();
  const send = () => h.app.inject({
    method: 'POST',
    url: '/api/users/register',
    headers: { lang: 'en', 'idempotency-key': 'signup-marked', 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  });
  const first = await send();
  const second = await send();
  expect(first.headers['idempotent-replay']).toBeUndefined();
  expect(second.headers['idempotent-replay']).toBe('true');
  expect(second.json()).toEqual(first.json());
});

it('without a key the second registration is refused as a taken number', async () => {
  const form = await registrationForm();
  expect((await h.call(register, form)).ret).toBe(1);
  expect(await h.call(register, form)).toEqual(refused('This mobile number is already registered!'));
});

it('the same key with a different registration form is refused and creates nothing', async () => {
  const form = await registrationForm();
  expect((await h.call(register, form, { idempotencyKey: 'signup-reused' })).ret).toBe(1);
  const other = await registrationForm();
  const before = await dbState(h);
  expect(await h.call(register, other, { idempotencyKey: 'signup-reused' })).toEqual(refused('The request is not valid!'));
  expect(await dbState(h)).toEqual(before);
  expect(await accountsFor(other.phone)).toEqual({ users: 0, sessions: 0 });
});

/** A logged-in customer with a code sent to a new number, and the profile change that uses it. */
async function phoneChange() {
  const { token } = await registerByPhone(h);
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone });
  return { token, phone, input: { nickname: 'Once', phone, code: h.codeFor(phone) } };
}
const codesUsed = async (phone: string) =>
  (await h.database.db.select().from(verificationCodes).where(eq(verificationCodes.target, `sms:${phone}`))).filter((row) => row.consumedAt).length;

it('a profile change sent five times in a row with one key is applied once and answered alike', async () => {
  const { token, phone, input } = await phoneChange();
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await h.call(editProfile, input, { token, idempotencyKey: 'edit-in-a-row' }));
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success', data: { nickname: 'Once', phone } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await codesUsed(phone)).toBe(1);
});

it('a profile change sent five times at once with one key is applied once and answered alike', async () => {
  const { token, phone, input } = await phoneChange();
  const answers = await Promise.all(Array.from({ length: 5 }, () => h.call(editProfile, input, { token, idempotencyKey: 'edit-at-once' })));
  expect(answers[0]).toMatchObject({ ret: 1, data: { phone } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await codesUsed(phone)).toBe(1);
});

it('without a key a repeated profile change fails, because its code is used up', async () => {
  const { token, input } = await phoneChange();
  expect((await h.call(editProfile, input, { token })).ret).toBe(1);
  expect(await h.call(editProfile, input, { token })).toEqual(refused('The verification code is wrong or has expired!'));
});

it('the same key with a different profile change is refused and changes nothing', async () => {
  const { token } = await registerByPhone(h);
  expect((await h.call(editProfile, { nickname: 'First' }, { token, idempotencyKey: 'edit-reused' })).ret).toBe(1);
  const before = await dbState(h);
  expect(await h.call(editProfile, { nickname: 'Second' }, { token, idempotencyKey: 'edit-reused' })).toEqual(refused('The request is not valid!'));
  expect(await dbState(h)).toEqual(before);
});

it("one customer's key does not replay another customer's answer", async () => {
  const first = await registerByPhone(h);
  const second = await registerByPhone(h);
  const a = await h.call(editProfile, { nickname: 'Same' }, { token: first.token, idempotencyKey: 'shared-key' });
  const b = await h.call(editProfile, { nickname: 'Same' }, { token: second.token, idempotencyKey: 'shared-key' });
  expect(a.data.phone).toBe(first.phone);
  expect(b.data.phone).toBe(second.phone);
});

it('a key longer than 128 characters is refused', async () => {
  const { token } = await registerByPhone(h);
  const before = await dbState(h);
  expect(await h.call(editProfile, { nickname: 'Long' }, { token, idempotencyKey: 'k'.repeat(129) })).toEqual(refused('The request is not valid!'));
  expect(await dbState(h)).toEqual(before);
});
