// Two-factor authentication: set up with an authenticator app's first code, ten
// recovery codes shown once; then a withdrawal, a new payee, a new payment password, phone or
// e-mail need a code, a code works once, guessing is bounded, and turning it off takes a code and
// the login password. The codes are computed here from the secret the setup answered, at the
// harness clock's time, as an authenticator app would.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  customer,
  lockedFor,
  newPhone,
  refused,
  registerByPhone,
  TOKEN_EXPIRED,
  userIdOf,
  waitersOnLocks,
  withTwoFactor,
} from './helpers.ts';
import { addTronWallet, cardForm, fundsState, newTronAddress, withdraw } from './funds-helpers.ts';
import {
  changePassword,
  changePayPassword,
  editProfile,
  login,
  sendSmsCode,
  userInfo,
} from '../../src/api-contract/account.ts';
import { addBankCard, wallets } from '../../src/api-contract/payouts.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import {
  beginTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  renewRecoveryCodes,
  twoFactorStatus,
  type TwoFactorSetup,
} from '../../src/api-contract/two-factor.ts';
import { texts } from '../../src/api-contract/texts.ts';
import {
  endOtherSessions,
  endSession,
  setSessionIdleLimit,
  signedInSessions,
} from '../../src/api-contract/sessions.ts';
import { recoveryCodes, twoFactors } from '../../src/server/db/schema.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { ephemeralTwoFactorKey, keyCheck } from '../../src/server/domain/two-factor-key.ts';
import { beginSetup } from '../../src/server/domain/two-factor.ts';
import { claimKeyCheck } from '../../src/server/domain/config-entries.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const STEP = 30_000;
const ENTER = refused(texts.enterAuthenticatorCode.message);
const WRONG = refused(texts.authenticatorCodeWrong.message);
const USED = refused(serverTexts.authenticatorCodeUsed.message);
const RECOVERY_USED = refused(
  'This recovery code has already been used: each recovery code works once. Please enter another one!',
);

/** What the authenticator app shows now (or `steps` steps from now) for a base32 secret. */
const codeOf = (secret: string, steps = 0) => totpAt(base32Decode(secret), totpStep(h.clock.now()) + steps);
/** A six-digit code that is not the right one. */
const notThe = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A customer holding `amount` USDT with a TRC20 wallet, who then turns two-factor on. */
async function protectedCustomer(amount = '500') {
  const user = await customer(h, amount);
  const wallet = await addTronWallet(h, user.token);
  // withTwoFactor moves the clock to the next step: the confirmation used this one.
  const { secret, recovery } = await withTwoFactor(h, user.token);
  return { ...user, wallet, secret, recovery };
}

const status = async (token: string) => (await h.call(twoFactorStatus, {}, { token })).data;

describe('setup', () => {
  it('is off by default; a setup answers a QR code URI and the secret, and turns on only with a first right code and the login password', async () => {
    const user = await customer(h);
    const { username } = (await h.call(userInfo, {}, { token: user.token })).data;
    expect(await status(user.token)).toEqual({ enabled: false, confirmed_at: null, recovery_codes_left: 0 });

    const first = await h.call(beginTwoFactor, {}, { token: user.token });
    expect(first.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.data.uri).toBe(
      `otpauth://totp/Coinvest:${encodeURIComponent(username)}?secret=${first.data.secret}&issuer=Coinvest&algorithm=SHA1&digits=6&period=30`,
    );
    // Begun is not on: nothing asks for a code yet.
    expect(await status(user.token)).toMatchObject({ enabled: false });

    // A second setup replaces the first secret: the first one's code no longer confirms.
    const second = await h.call(beginTwoFactor, {}, { token: user.token });
    expect(second.data.secret).not.toBe(first.data.secret);
    expect(
      await h.call(confirmTwoFactor, { code: codeOf(first.data.secret), password: PASSWORD }, { token: user.token }),
    ).toEqual(WRONG);
    expect(await status(user.token)).toMatchObject({ enabled: false });

    // The login password is asked too (a stolen session alone cannot put its own app on the account); a wrong one uses
    // no code.
    expect(await h.call(confirmTwoFactor, { code: codeOf(second.data.secret) }, { token: user.token })).toEqual(
      refused(texts.enterLoginPassword.message),
    );
    expect(
      await h.call(confirmTwoFactor, { code: codeOf(second.data.secret), password: 'wrong123' }, { token: user.token }),
    ).toEqual(refused(serverTexts.wrongLoginPassword.message));
    expect(await status(user.token)).toMatchObject({ enabled: false });
    const confirmed = await h.call(
      confirmTwoFactor,
      { code: codeOf(second.data.secret), password: PASSWORD },
      { token: user.token },
    );
    expect(confirmed.ret).toBe(1);
    const codes = confirmed.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(await status(user.token)).toEqual({
      enabled: true,
      confirmed_at: h.clock.now().toISOString(),
      recovery_codes_left: 10,
    });

    // On stays on: another setup or confirmation is refused and the secret stays.
    expect(await h.call(beginTwoFactor, {}, { token: user.token })).toEqual(
      refused(serverTexts.twoFactorAlreadyOn.message),
    );
    expect(
      await h.call(confirmTwoFactor, { code: codeOf(second.data.secret), password: PASSWORD }, { token: user.token }),
    ).toEqual(refused(serverTexts.twoFactorAlreadyOn.message));
  });

  it('keeps neither the secret nor the recovery codes readable in the database', async () => {
    const user = await customer(h);
    const { secret, recovery } = await withTwoFactor(h, user.token);
    const [row] = await h.database.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    const raw = base32Decode(secret);
    for (const form of [secret, raw.toString('hex'), raw.toString('base64')]) expect(row!.secret).not.toContain(form);
    const stored = await h.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of recovery) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
  });

  it('a setup begun again in another tab while a confirmation checks its code is not turned on by that code', async () => {
    const user = await customer(h);
    const userId = await userIdOf(h, user.token);
    const first = (await h.call(beginTwoFactor, {}, { token: user.token })).data;
    // The other tab's setup is being written (its transaction not yet committed) while this tab confirms the first.
    let again!: TwoFactorSetup;
    let written!: () => void;
    let commit!: () => void;
    const begun = new Promise<void>((resolve) => (written = resolve));
    const otherTab = h.database.db.transaction(async (tx) => {
      again = await beginSetup(tx, userId, ephemeralTwoFactorKey(), h.clock.now());
      written();
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await begun;
    const confirming = h.call(
      confirmTwoFactor,
      { code: codeOf(first.secret), password: PASSWORD },
      { token: user.token },
    );
    await waitersOnLocks(h.database.db, 1);
    commit();
    await otherTab;
    // The code was checked against the first secret, which the other tab replaced: nothing is turned on.
    expect(await confirming).toEqual(refused(serverTexts.twoFactorSetupReplaced.message));
    expect(await status(user.token)).toMatchObject({ enabled: false });
    // The setup now pending is the other tab's: its own code turns it on, and the app holding it makes the codes.
    const confirmed = await h.call(
      confirmTwoFactor,
      { code: codeOf(again.secret), password: PASSWORD },
      { token: user.token },
    );
    expect(confirmed).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    expect(await h.call(renewRecoveryCodes, { code: codeOf(again.secret) }, { token: user.token })).toMatchObject({
      ret: 1,
    });
  });

  it('refuses a confirmation without a setup, and a code that is not 6 digits', async () => {
    const user = await customer(h);
    expect(await h.call(confirmTwoFactor, { code: '123456', password: PASSWORD }, { token: user.token })).toEqual(
      refused(serverTexts.twoFactorSetupFirst.message),
    );
    expect(await h.call(confirmTwoFactor, { code: '', password: PASSWORD }, { token: user.token })).toEqual(ENTER);
    expect(await h.call(confirmTwoFactor, { code: '12345', password: PASSWORD }, { token: user.token })).toEqual(
      refused(texts.authenticatorCodeFormat.message),
    );
  });
});

describe('a withdrawal with two-factor on', () => {
  it('is refused without a code and with a wrong one (nothing moves), accepted with the right one', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '100' };
    const before = await fundsState(h, user.id);

    expect(await withdraw(h, user.token, form)).toEqual(ENTER);
    expect(await withdraw(h, user.token, { ...form, otp: notThe(codeOf(user.secret)) })).toEqual(WRONG);
    expect(await withdraw(h, user.token, { ...form, otp: 'not-a-code' })).toEqual(WRONG);
    expect(await fundsState(h, user.id)).toEqual(before);

    expect(await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).toMatchObject({
      ret: 1,
      data: { status: 'review', amount: '100.00000000' },
    });
  });

  it('refuses a code used once already, and an older step after a newer one; the next step works', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20' };
    const code = codeOf(user.secret);
    expect((await withdraw(h, user.token, { ...form, otp: code })).ret).toBe(1);
    expect(await withdraw(h, user.token, { ...form, otp: code })).toEqual(USED);

    // The app runs ahead a step: its code is accepted; then the current step's code, older, is used up too.
    h.clock.advance(STEP);
    const ahead = codeOf(user.secret, 1);
    expect((await withdraw(h, user.token, { ...form, otp: ahead })).ret).toBe(1);
    expect(await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).toEqual(USED);
    // Two steps away is outside the window.
    expect(await withdraw(h, user.token, { ...form, otp: codeOf(user.secret, 2) })).toEqual(WRONG);

    h.clock.advance(2 * STEP);
    expect((await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).ret).toBe(1);
  });

  it('lets one of two requests sent at once with the same code through, never both', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20', otp: codeOf(user.secret) };
    const answers = await Promise.all([withdraw(h, user.token, form), withdraw(h, user.token, form)]);
    expect(answers.map((answer) => answer.ret).sort()).toEqual([0, 1]);
    expect(answers.find((answer) => answer.ret === 0)).toEqual(USED);
    expect((await fundsState(h, user.id)).withdrawals).toHaveLength(1);
  });

  it('checks the code before the payment password: a wrong payment password has used the code', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20', otp: codeOf(user.secret) };
    expect(await withdraw(h, user.token, { ...form, paypass: '000000' })).toEqual(
      refused(serverTexts.wrongPayPassword.message),
    );
    expect(await withdraw(h, user.token, form)).toEqual(USED);
  });

  it('takes a recovery code once, in any spelling, in place of the app code', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20' };
    const [first, second] = user.recovery as [string, string];
    expect((await withdraw(h, user.token, { ...form, otp: first })).ret).toBe(1);
    expect(await withdraw(h, user.token, { ...form, otp: first })).toEqual(RECOVERY_USED);
    expect((await withdraw(h, user.token, { ...form, otp: second.replace('-', '').toLowerCase() })).ret).toBe(1);
    expect(await withdraw(h, user.token, { ...form, otp: second.toLowerCase() })).toEqual(RECOVERY_USED);
    // A code that never was one of them stays wrong.
    expect(await withdraw(h, user.token, { ...form, otp: 'AAAAA-AAAAA' })).toEqual(WRONG);
    expect(await status(user.token)).toMatchObject({ enabled: true, recovery_codes_left: 8 });
  });

  it('bounds guessing: after five wrong codes even the right one is refused for 15 minutes, and says how long is left', async () => {
    const user = await protectedCustomer();
    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20' };
    for (let guess = 0; guess < 5; guess++)
      expect(await withdraw(h, user.token, { ...form, otp: notThe(codeOf(user.secret)) })).toEqual(WRONG);
    expect(await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).toEqual(lockedFor('15 minutes'));
    // Recovery codes count toward the same limit: no way round it.
    expect(await withdraw(h, user.token, { ...form, otp: user.recovery[0]! })).toEqual(lockedFor('15 minutes'));
    expect((await fundsState(h, user.id)).withdrawals).toHaveLength(0);
    // The time left, not the lock's length: rounded up to the minute.
    h.clock.advance(9 * 60_000 + 20_000);
    expect(await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).toEqual(lockedFor('6 minutes'));

    h.clock.advance(5 * 60_000 + 40_000);
    expect((await withdraw(h, user.token, { ...form, otp: codeOf(user.secret) })).ret).toBe(1);
  });

  it('leaves customers without two-factor as they were: no code asked', async () => {
    const user = await customer(h, '100');
    const wallet = await addTronWallet(h, user.token);
    expect((await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '20' })).ret).toBe(
      1,
    );
  });
});

describe('the other protected calls', () => {
  it('adding a wallet or a bank card needs a code; nothing is added without one', async () => {
    const user = await protectedCustomer();
    const wallet = { alias: 'Second', currency: 'USDT', chain: 'TRC20', address: newTronAddress() };
    expect(await h.call(addWallet, wallet, { token: user.token })).toEqual(ENTER);
    expect(await h.call(addWallet, { ...wallet, otp: notThe(codeOf(user.secret)) }, { token: user.token })).toEqual(
      WRONG,
    );
    expect((await h.call(wallets, {}, { token: user.token })).data.lists).toHaveLength(1);
    expect(await h.call(addWallet, { ...wallet, otp: codeOf(user.secret) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { alias: 'Second' },
    });

    expect(await h.call(addBankCard, cardForm(), { token: user.token })).toEqual(ENTER);
    h.clock.advance(STEP);
    expect(await h.call(addBankCard, cardForm({ otp: codeOf(user.secret) }), { token: user.token })).toMatchObject({
      ret: 1,
    });
  });

  it('changing the payment password needs a code', async () => {
    const user = await protectedCustomer();
    const change = { oldpaypass: PAYPASS, password: '654321', repassword: '654321' };
    expect(await h.call(changePayPassword, change, { token: user.token })).toEqual(ENTER);
    expect(
      await h.call(changePayPassword, { ...change, otp: codeOf(user.secret) }, { token: user.token }),
    ).toMatchObject({ ret: 1 });
  });

  it('changing the phone or the e-mail needs a code; the nickname does not', async () => {
    const user = await protectedCustomer();
    expect(await h.call(editProfile, { nickname: 'Somchai' }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { nickname: 'Somchai' },
    });

    const phone = '0899990001';
    expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
    const change = { phone, code: h.codeFor(phone), password: PASSWORD };
    expect(await h.call(editProfile, change, { token: user.token })).toEqual(ENTER);
    expect(await h.call(editProfile, { ...change, otp: notThe(codeOf(user.secret)) }, { token: user.token })).toEqual(
      WRONG,
    );
    expect(await h.call(editProfile, { ...change, otp: codeOf(user.secret) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { phone: '+66899990001' },
    });
  });
});

describe('recovery codes and turning off', () => {
  it('new recovery codes need an app code (not a recovery code) and replace the old ones', async () => {
    const user = await protectedCustomer();
    expect(await h.call(renewRecoveryCodes, { code: user.recovery[0]! }, { token: user.token })).toEqual(
      refused(texts.authenticatorCodeFormat.message),
    );
    const renewed = await h.call(renewRecoveryCodes, { code: codeOf(user.secret) }, { token: user.token });
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect(renewed.data.recovery_codes).not.toContain(user.recovery[0]);

    const form = { target: 'wallet', target_id: String(user.wallet.id), amount: '20' };
    expect(await withdraw(h, user.token, { ...form, otp: user.recovery[0]! })).toEqual(WRONG);
    expect((await withdraw(h, user.token, { ...form, otp: renewed.data.recovery_codes[0]! })).ret).toBe(1);
  });

  it('turning off needs a code and the login password; then no code is asked', async () => {
    const user = await protectedCustomer();
    expect(await h.call(disableTwoFactor, { otp: codeOf(user.secret) }, { token: user.token })).toEqual(
      refused(texts.enterLoginPassword.message),
    );
    expect(await h.call(disableTwoFactor, { password: PASSWORD }, { token: user.token })).toEqual(ENTER);
    expect(
      await h.call(disableTwoFactor, { otp: notThe(codeOf(user.secret)), password: PASSWORD }, { token: user.token }),
    ).toEqual(WRONG);
    expect(
      await h.call(disableTwoFactor, { otp: codeOf(user.secret), password: 'wrong123' }, { token: user.token }),
    ).toEqual(refused(serverTexts.wrongLoginPassword.message));
    expect(await status(user.token)).toMatchObject({ enabled: true });

    h.clock.advance(STEP);
    expect(
      await h.call(disableTwoFactor, { otp: codeOf(user.secret), password: PASSWORD }, { token: user.token }),
    ).toEqual({
      ret: 1,
      msg: 'Success',
      data: { enabled: false, confirmed_at: null, recovery_codes_left: 0 },
    });
    expect(await h.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    expect(
      (await withdraw(h, user.token, { target: 'wallet', target_id: String(user.wallet.id), amount: '20' })).ret,
    ).toBe(1);
  });

  it('a lost phone: a recovery code and the password turn it off', async () => {
    const user = await protectedCustomer();
    expect(
      await h.call(disableTwoFactor, { otp: user.recovery[3]!, password: PASSWORD }, { token: user.token }),
    ).toMatchObject({ ret: 1, data: { enabled: false } });
  });
});

describe('signing in with two-factor on', () => {
  const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  /** A login as a device sends it: its User-Agent, and the code when given. */
  const logIn = async (username: string, userAgent: string, otp?: string, device?: string, password = PASSWORD) =>
    (
      await h.app.inject({
        method: 'POST',
        url: `/api${login.path}`,
        headers: { 'user-agent': userAgent, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          username,
          password,
          ...(otp === undefined ? {} : { otp }),
          ...(device === undefined ? {} : { device }),
        }).toString(),
      })
    ).json() as { ret: number; msg: string; data: { token: string; device: string } | null };

  it('a device not remembered needs the code after the password, whatever browser it says it is; a remembered one signs in with the password alone', async () => {
    const user = await protectedCustomer();
    // The browser the customer registered with, as its User-Agent says: that proves nothing, the code is asked.
    expect(await logIn(user.phone, 'lightMyRequest')).toEqual(ENTER);
    expect(await logIn(user.phone, FIREFOX_WINDOWS)).toEqual(ENTER);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, notThe(codeOf(user.secret)))).toEqual(WRONG);
    const signedIn = await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret));
    expect(signedIn).toMatchObject({
      ret: 1,
      data: { token: expect.any(String), device: expect.stringMatching(/^[\w-]{22}\.[\w-]{43}$/) },
    });
    const remembered = signedIn.data!.device;
    // The same code a second time: used.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).toEqual(USED);
    h.clock.advance(STEP);
    // Remembered: no code, from any browser that holds the token.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, remembered)).toMatchObject({ ret: 1 });
    // A forged token, or one of another account, proves nothing.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, `${remembered.slice(0, 22)}.${'A'.repeat(43)}`)).toEqual(
      ENTER,
    );
    const other = await protectedCustomer();
    const othersDevice = (await logIn(other.phone, FIREFOX_WINDOWS, codeOf(other.secret))).data!.device;
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, othersDevice)).toEqual(ENTER);
  });

  it('a device remembered before two-factor was turned on (the one registered on) needs the code once', async () => {
    const phone = newPhone();
    const registered = await registerByPhone(h, phone);
    const device = registered.device;
    expect(device).toMatch(/\./);
    const { secret } = await withTwoFactor(h, registered.token);
    expect(await logIn(phone, 'lightMyRequest', undefined, device)).toEqual(ENTER);
    const again = await logIn(phone, 'lightMyRequest', codeOf(secret), device);
    expect(again).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    expect(await logIn(phone, 'lightMyRequest', undefined, again.data!.device)).toMatchObject({ ret: 1 });
  });

  it('ending the other sessions forgets every remembered device; the device that ended them stays remembered', async () => {
    const user = await protectedCustomer();
    const lost = (await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).data!;
    // The laptop signs in once more with its remembered token (no code): one device, listed once when both end.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    const kept = (await logIn(user.phone, 'lightMyRequest', codeOf(user.secret))).data!;
    h.clock.advance(STEP);
    // The phone that was lost is remembered: with the password alone it signs in.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toMatchObject({ ret: 1 });

    const ended = await h.call(endOtherSessions, {}, { token: kept.token });
    expect(ended).toMatchObject({ ret: 1, data: { device: expect.stringMatching(/^[\w-]{22}\.[\w-]{43}$/) } });
    h.clock.advance(STEP);
    // The lost phone's token proves nothing now, nor does the old token of the device that ended the sessions; its new
    // one signs in with the password alone.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toEqual(ENTER);
    expect(await logIn(user.phone, 'lightMyRequest', undefined, kept.device)).toEqual(ENTER);
    expect(await logIn(user.phone, 'lightMyRequest', undefined, ended.data.device)).toMatchObject({ ret: 1 });
  });

  it('ending one session from another device forgets that device alone', async () => {
    const user = await protectedCustomer();
    const lost = (await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).data!;
    // The laptop signs in once more with its remembered token (no code): one device, listed once when both end.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    const kept = (await logIn(user.phone, 'lightMyRequest', codeOf(user.secret))).data!;
    h.clock.advance(STEP);
    const lostSession = (await h.call(signedInSessions, {}, { token: kept.token })).data.lists.find(
      (session) => session.device === 'Firefox, Windows',
    )!;
    expect(await h.call(endSession, { id: String(lostSession.id) }, { token: kept.token })).toMatchObject({ ret: 1 });
    // The lost laptop's token proves nothing now; the device that ended it stays remembered.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toEqual(ENTER);
    const again = await logIn(user.phone, 'lightMyRequest', undefined, kept.device);
    expect(again).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);

    // The token a device is given when it ends the other sessions is forgotten with its session too.
    const renewed = (await h.call(endOtherSessions, {}, { token: again.data!.token })).data.device!;
    const laptop = (await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).data!;
    const [renewedSession] = (await h.call(signedInSessions, {}, { token: laptop.token })).data.lists.filter(
      (session) => !session.current,
    );
    expect(await h.call(endSession, { id: String(renewedSession!.id) }, { token: laptop.token })).toMatchObject({
      ret: 1,
    });
    expect(await logIn(user.phone, 'lightMyRequest', undefined, renewed)).toEqual(ENTER);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, laptop.device)).toMatchObject({ ret: 1 });

    // Ending its own session (logging out this way) forgets nothing: the device stays remembered.
    const own = (await h.call(signedInSessions, {}, { token: laptop.token })).data.lists.find(
      ({ current }) => current,
    )!;
    expect(await h.call(endSession, { id: String(own.id) }, { token: laptop.token })).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, laptop.device)).toMatchObject({ ret: 1 });
  });

  it('a device whose session ended unused stays listed while remembered, and forgetting it alone asks it for a code', async () => {
    const user = await protectedCustomer();
    const lost = (await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).data!;
    // The laptop signs in once more with its remembered token (no code): one device, listed once when both end.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    const kept = (await logIn(user.phone, 'lightMyRequest', codeOf(user.secret))).data!;
    expect(await h.call(setSessionIdleLimit, { minutes: '15' }, { token: kept.token })).toMatchObject({ ret: 1 });
    // The laptop is lost and goes unused; the phone is used: the laptop's session ends on its own after 15 minutes.
    h.clock.advance(10 * 60_000);
    expect(await h.call(userInfo, {}, { token: kept.token })).toMatchObject({ ret: 1 });
    h.clock.advance(10 * 60_000);
    expect(await h.call(userInfo, {}, { token: lost.token })).toEqual(TOKEN_EXPIRED);
    const listed = (await h.call(signedInSessions, {}, { token: kept.token })).data.lists;
    expect(listed.map(({ device, current, ended }) => ({ device, current, ended }))).toEqual([
      { device: 'Unknown device', current: true, ended: false },
      { device: 'Firefox, Windows', current: false, ended: true },
    ]);
    expect(await h.call(endSession, { id: String(listed[1]!.id) }, { token: kept.token })).toMatchObject({ ret: 1 });
    // Forgotten: the laptop's token proves nothing, and the list shows only the phone.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, lost.device)).toEqual(ENTER);
    expect((await h.call(signedInSessions, {}, { token: kept.token })).data.lists).toHaveLength(1);
    expect(await logIn(user.phone, 'lightMyRequest', undefined, kept.device)).toMatchObject({ ret: 1 });
  });

  it('the session a password change gives keeps its device: ending it from another device forgets that device', async () => {
    const user = await protectedCustomer();
    const phone = (await logIn(user.phone, 'lightMyRequest', codeOf(user.secret))).data!;
    h.clock.advance(STEP);
    const NEW_PASSWORD = 'new12345';
    const changed = await h.call(
      changePassword,
      { oldpass: PASSWORD, password: NEW_PASSWORD, repassword: NEW_PASSWORD },
      { token: phone.token },
    );
    expect(changed).toMatchObject({ ret: 1 });
    // The password change ended every other session: the laptop signs in again, with the code, and ends the phone's.
    const laptop = (await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret), undefined, NEW_PASSWORD)).data!;
    h.clock.advance(STEP);
    const phoneSession = (await h.call(signedInSessions, {}, { token: laptop.token })).data.lists.find(
      ({ current }) => !current,
    )!;
    expect(await h.call(endSession, { id: String(phoneSession.id) }, { token: laptop.token })).toMatchObject({
      ret: 1,
    });
    // The lost phone's token proves nothing now: the code is asked.
    expect(await logIn(user.phone, 'lightMyRequest', undefined, phone.device, NEW_PASSWORD)).toEqual(ENTER);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, undefined, laptop.device, NEW_PASSWORD)).toMatchObject({ ret: 1 });
  });

  it('ending the other sessions with two-factor off answers no device token, and a device asks for no code', async () => {
    const user = await customer(h);
    expect(await h.call(endOtherSessions, {}, { token: user.token })).toEqual({
      ret: 1,
      msg: expect.any(String),
      data: {},
    });
    expect(await logIn(user.phone, FIREFOX_WINDOWS)).toMatchObject({ ret: 1 });
  });

  it('a wrong password on a new device is refused as wrong, before any code is asked, and costs no code', async () => {
    const user = await protectedCustomer();
    const response = await h.app.inject({
      method: 'POST',
      url: `/api${login.path}`,
      headers: { 'user-agent': FIREFOX_WINDOWS, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        username: user.phone,
        password: 'wrong1234',
        otp: codeOf(user.secret),
      }).toString(),
    });
    expect(response.json()).toEqual(refused(serverTexts.wrongCredentials.message));
    expect(await logIn(user.phone, FIREFOX_WINDOWS, codeOf(user.secret))).toMatchObject({ ret: 1 });
  });

  it('a recovery code already used is told so at sign-in, a wrong one stays wrong, and both count toward the limit', async () => {
    const user = await protectedCustomer();
    const [first, second] = user.recovery as [string, string];
    expect(await logIn(user.phone, FIREFOX_WINDOWS, first)).toMatchObject({ ret: 1 });
    h.clock.advance(STEP);
    // The same code on the next device: the customer is told to take another, not that it is wrong.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, first)).toEqual(RECOVERY_USED);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, 'AAAAA-AAAAA')).toEqual(WRONG);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, first.replace('-', '').toLowerCase())).toEqual(RECOVERY_USED);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, first)).toEqual(RECOVERY_USED);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, notThe(codeOf(user.secret)))).toEqual(WRONG);
    // Five failed codes, used ones among them: the limit holds, even for an unused recovery code.
    expect(await logIn(user.phone, FIREFOX_WINDOWS, second)).toEqual(lockedFor('15 minutes'));
    expect(await status(user.token)).toMatchObject({ recovery_codes_left: 9 });
    h.clock.advance(15 * 60_000);
    expect(await logIn(user.phone, FIREFOX_WINDOWS, second)).toMatchObject({ ret: 1 });
  });

  it('with two-factor off a new device signs in with the password alone', async () => {
    const user = await customer(h);
    expect(await logIn(user.phone, FIREFOX_WINDOWS)).toMatchObject({ ret: 1 });
  });
});

it('every process on one database holds the same key: a process with another key refuses to start, the same key starts again', async () => {
  const first = keyCheck(Buffer.alloc(32, 1));
  await claimKeyCheck(h.database.db, 'two_factor_key_check_test', first);
  await claimKeyCheck(h.database.db, 'two_factor_key_check_test', first);
  await expect(
    claimKeyCheck(h.database.db, 'two_factor_key_check_test', keyCheck(Buffer.alloc(32, 2))),
  ).rejects.toThrow(/set the same TWO_FACTOR_KEY on every server/);
  // What the database keeps tells keys apart without being one.
  expect(first).not.toContain(Buffer.alloc(32, 1).toString('hex'));
});
