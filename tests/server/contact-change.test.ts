// A stolen session alone cannot move an account's phone or e-mail: either resets the login password, so a thief holding
// only the token, with two-factor off, would take the account. A new one needs the login password as well as the code
// sent to it (and the authenticator code with two-factor on: two-factor.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, dbState, newPhone, PASSWORD, refused, refusedAbout } from './helpers.ts';
import { editProfile, forgotPassword, sendEmailCode, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { and, eq } from 'drizzle-orm';
import { outbox } from '../../src/server/db/schema.ts';
import { setAntiPhishing } from '../../src/api-contract/anti-phishing.ts';
import { antiPhishingLine } from '../../src/api-contract/anti-phishing-line.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ENTER_PASSWORD = refusedAbout('Please enter your login password!', 'password');
const WRONG_PASSWORD = refusedAbout('The login password is wrong!', 'password');

/** What the outbox holds for `target` about a change of contact: channel and text. */
const toldFormer = (target: string) =>
  h.database.db
    .select({ channel: outbox.channel, body: outbox.body })
    .from(outbox)
    .where(and(eq(outbox.target, target), eq(outbox.kind, 'contact_changed')));
const changedAt = () => `${h.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

it('a session without the login password cannot move the account to another phone, nor reset the password from it', async () => {
  const owner = await customer(h);
  const thiefPhone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: thiefPhone, must: '0' })).ret).toBe(1);
  const code = h.codeFor(thiefPhone);
  const before = await dbState(h);

  expect(await h.call(editProfile, { phone: thiefPhone, code }, { token: owner.token })).toEqual(ENTER_PASSWORD);
  expect(await h.call(editProfile, { phone: thiefPhone, code, password: 'guess1234' }, { token: owner.token })).toEqual(
    WRONG_PASSWORD,
  );
  expect((await dbState(h)).users).toEqual(before.users);
  // The thief's phone resets no password: it is no account's.
  const reset = await h.call(forgotPassword, {
    mode: 'phone',
    phone: thiefPhone,
    code,
    password: 'taken123',
    repassword: 'taken123',
  });
  expect(reset.ret).toBe(0);

  // The owner, who knows the password, moves it; the code sent was kept for that.
  expect(await toldFormer(owner.phone)).toEqual([]);
  expect(
    await h.call(editProfile, { phone: thiefPhone, code, password: PASSWORD }, { token: owner.token }),
  ).toMatchObject({ ret: 1, data: { phone: thiefPhone } });
  // The number it left is told by SMS, as well as the account by its station message.
  expect(await toldFormer(owner.phone)).toEqual([
    {
      channel: 'sms',
      body: `The mobile number of your account was changed at ${changedAt()}. If this was not you, change your login password at once and contact customer service.`,
    },
  ]);
});

it('the same holds for a new e-mail address', async () => {
  const owner = await customer(h);
  const email = `thief-${owner.id}@example.com`;
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email, must: '0' })).ret).toBe(1);
  const code = h.codeFor(email);
  expect(await h.call(editProfile, { email, code }, { token: owner.token })).toEqual(ENTER_PASSWORD);
  expect(await h.call(editProfile, { email, code, password: 'guess1234' }, { token: owner.token })).toEqual(
    WRONG_PASSWORD,
  );
  expect((await h.call(userInfo, {}, { token: owner.token })).data.email).not.toBe(email);
  expect(await h.call(editProfile, { email, code, password: PASSWORD }, { token: owner.token })).toMatchObject({
    ret: 1,
    data: { email },
  });
  // Moved on again: the address it leaves is told by e-mail, under the customer's anti-phishing code as every mail.
  expect(await h.call(setAntiPhishing, { phrase: 'Blue heron 7' }, { token: owner.token })).toMatchObject({ ret: 1 });
  const next = `next-${owner.id}@example.com`;
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email: next, must: '0' })).ret).toBe(1);
  expect(
    await h.call(editProfile, { email: next, code: h.codeFor(next), password: PASSWORD }, { token: owner.token }),
  ).toMatchObject({ ret: 1, data: { email: next } });
  expect(await toldFormer(email)).toEqual([
    {
      channel: 'email',
      body: `${antiPhishingLine('Your anti-phishing code', 'Blue heron 7')}\n\nThe e-mail address of your account was changed at ${changedAt()}. If this was not you, change your login password at once and contact customer service.`,
    },
  ]);
});

it('guesses of the password count with the password change’s: after five wrong, even the right one waits', async () => {
  const owner = await customer(h);
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone, must: '0' });
  const code = h.codeFor(phone);
  for (let n = 0; n < 5; n++)
    expect(await h.call(editProfile, { phone, code, password: `guess${n}000` }, { token: owner.token })).toEqual(
      WRONG_PASSWORD,
    );
  expect(await h.call(editProfile, { phone, code, password: PASSWORD }, { token: owner.token })).toEqual(
    refused('Too many attempts, please try again in 15 minutes!'),
  );
});

it('a nickname or currency still changes with the session alone', async () => {
  const owner = await customer(h);
  expect(await h.call(editProfile, { nickname: 'Somchai' }, { token: owner.token })).toMatchObject({ ret: 1 });
});
