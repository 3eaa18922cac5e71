// Security changes the customer is told of (ASVS 2.2.3), and a password reset that a
// stolen phone number alone cannot make once two-factor is on: the code sent by SMS is checked
// first and kept while the authenticator code is asked for, so the customer finishes with it.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, customer, newPhone, refused, withTwoFactor } from './helpers.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema.ts';
import { translator } from '../../src/server/i18n.ts';
import {
  changePassword,
  changePayPassword,
  editProfile,
  forgotPassword,
  login,
  sendSmsCode,
} from '../../src/api-contract/account.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { disableTwoFactor, renewRecoveryCodes } from '../../src/api-contract/two-factor.ts';
import { texts } from '../../src/api-contract/texts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const STEP = 30_000;
const NEW_PASSWORD = 'newpass123';

async function newestMessage(token: string, lang = 'en') {
  const inbox = await h.call(messages, { status: 'all', page: '1' }, { token, lang });
  return inbox.data.lists[0]!;
}

/** The registration's code went to the same phone: another may be asked for a minute later. */
async function smsCodeFor(phone: string) {
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: phone, must: '1' })).toMatchObject({ ret: 1 });
  return h.codeFor(phone);
}

const when = () => `${h.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

describe('a password reset with two-factor on', () => {
  it('asks for the authenticator code after a right SMS code, which stays good for the second try', async () => {
    const user = await customer(h);
    const { code } = await withTwoFactor(h, user.token);
    const sms = await smsCodeFor(user.phone);
    const reset = { mode: 'phone', phone: user.phone, code: sms, password: NEW_PASSWORD, repassword: NEW_PASSWORD };

    // A wrong SMS code is refused before the second factor is looked at: no stranger reaches its limit.
    expect(
      await h.call(forgotPassword, { ...reset, code: String((Number(sms) + 1) % 1_000_000).padStart(6, '0') }),
    ).toEqual(refused(serverTexts.codeWrong.message));
    expect(await h.call(forgotPassword, reset)).toEqual(refused(texts.enterAuthenticatorCode.message));
    expect(await h.call(forgotPassword, { ...reset, otp: '000000' === code() ? '111111' : '000000' })).toEqual(
      refused(texts.authenticatorCodeWrong.message),
    );
    // The password is unchanged so far (right: the sign-in goes on to ask for the code).
    expect(await h.call(login, { username: user.phone, password: PASSWORD })).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );

    expect(await h.call(forgotPassword, { ...reset, otp: code() })).toMatchObject({ ret: 1 });
    expect(await h.call(login, { username: user.phone, password: NEW_PASSWORD })).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    expect(await h.call(login, { username: user.phone, password: PASSWORD })).toEqual(
      refused(serverTexts.wrongCredentials.message),
    );
    // The SMS code is used up now.
    h.clock.advance(STEP);
    expect(await h.call(forgotPassword, { ...reset, otp: code() })).toEqual(refused(serverTexts.codeWrong.message));
  });

  it('without two-factor, the SMS code alone resets as before', async () => {
    const user = await customer(h);
    const reset = {
      mode: 'phone',
      phone: user.phone,
      code: await smsCodeFor(user.phone),
      password: NEW_PASSWORD,
      repassword: NEW_PASSWORD,
    };
    expect(await h.call(forgotPassword, reset)).toMatchObject({ ret: 1 });
  });
});

describe('the customer is told', () => {
  it('when the login password is reset or changed', async () => {
    const user = await customer(h);
    const sms = await smsCodeFor(user.phone);
    expect(
      await h.call(forgotPassword, {
        mode: 'phone',
        phone: user.phone,
        code: sms,
        password: NEW_PASSWORD,
        repassword: NEW_PASSWORD,
      }),
    ).toMatchObject({ ret: 1 });
    const { token } = (await h.call(login, { username: user.phone, password: NEW_PASSWORD })).data;
    expect(await newestMessage(token)).toMatchObject({
      title: 'Login password changed',
      content: `The login password of your account was changed at ${when()}, and every device was signed out. If this was not you, reset your password at once and contact customer service.`,
    });

    h.clock.advance(60_000);
    const changed = await h.call(
      changePassword,
      { oldpass: NEW_PASSWORD, password: PASSWORD, repassword: PASSWORD },
      { token, lang: 'th' },
    );
    expect(changed).toMatchObject({ ret: 1 });
    const latest = await newestMessage(changed.data.token, 'th');
    expect(latest.title).toBe('เปลี่ยนรหัสผ่านเข้าสู่ระบบแล้ว');
    expect(latest.content).toContain(when());
    // Changed from a Thai screen, read on an English one: in English.
    expect((await newestMessage(changed.data.token)).title).toBe('Login password changed');
  });

  it('when the payment password is changed, or set for the first time, in the language they read', async () => {
    const user = await customer(h);
    h.clock.advance(60_000);
    const changed = await h.call(
      changePayPassword,
      { oldpaypass: PAYPASS, password: '246810', repassword: '246810' },
      { token: user.token, lang: 'ar' },
    );
    expect(changed).toMatchObject({ ret: 1 });
    expect(await newestMessage(user.token)).toMatchObject({
      title: 'Payment password changed',
      content: `The payment password of your account, which confirms withdrawals, was changed at ${when()}. If this was not you, change your login password at once and contact customer service.`,
    });
    expect((await newestMessage(user.token, 'ar')).title).toBe(translator('ar')(serverTexts.payPasswordChangedTitle));

    // An account that never had one: a first payment password is told as set.
    const other = await customer(h);
    await h.database.db.update(users).set({ paypassHash: null }).where(eq(users.id, other.id));
    h.clock.advance(60_000);
    expect(
      await h.call(changePayPassword, { password: '135790', repassword: '135790' }, { token: other.token }),
    ).toMatchObject({ ret: 1, data: { has_paypass: true } });
    expect(await newestMessage(other.token)).toMatchObject({
      title: 'Payment password set',
      content: expect.stringContaining(`was set on your account at ${when()}.`),
    });

    // A wrong old payment password changes nothing and tells nothing.
    const before = await newestMessage(user.token);
    expect(
      await h.call(
        changePayPassword,
        { oldpaypass: '999999', password: '112233', repassword: '112233' },
        { token: user.token },
      ),
    ).toEqual(refused(serverTexts.wrongPayPassword.message));
    expect(await newestMessage(user.token)).toEqual(before);
  });

  it('when two-factor is turned on or off, new recovery codes are made, and the mobile number changes', async () => {
    const user = await customer(h);
    const { code } = await withTwoFactor(h, user.token);
    expect(await newestMessage(user.token)).toMatchObject({
      title: 'Two-factor authentication turned on',
      content: expect.stringContaining('Keep your recovery codes somewhere safe.'),
    });
    const phone = newPhone();
    await h.call(sendSmsCode, { userphone: phone, must: '0' });
    expect(
      await h.call(
        editProfile,
        { phone, code: h.codeFor(phone), password: PASSWORD, otp: code() },
        { token: user.token },
      ),
    ).toMatchObject({ ret: 1 });
    expect(await newestMessage(user.token)).toMatchObject({
      title: 'Contact details changed',
      content: expect.stringContaining(`The mobile number of your account was changed at ${when()}.`),
    });

    h.clock.advance(STEP);
    expect(await h.call(renewRecoveryCodes, { code: code() }, { token: user.token })).toMatchObject({ ret: 1 });
    expect(await newestMessage(user.token)).toMatchObject({
      title: 'New recovery codes',
      content: expect.stringContaining(when()),
    });

    h.clock.advance(STEP);
    expect(await h.call(disableTwoFactor, { otp: code(), password: PASSWORD }, { token: user.token })).toMatchObject({
      ret: 1,
    });
    expect(await newestMessage(user.token)).toMatchObject({
      title: 'Two-factor authentication turned off',
      content: expect.stringContaining(when()),
    });
  });
});
