// Account calls: register, codes, login, info, profile, passwords, logout.
import { serverTexts } from '../../api-contract/server-texts.ts';
import {
  changePassword,
  changePayPassword,
  editAvatar,
  editProfile,
  forgotPassword,
  login,
  logout,
  register,
  codeDelivery,
  sendEmailCode,
  sendSmsCode,
  userInfo,
} from '../../api-contract/account.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  changeAvatar,
  checkLoginPasswordOf,
  checkPayPasswordOf,
  createAccount,
  findInviter,
  findUser,
  findUserByContact,
  findUserByLogin,
  passwordStillIs,
  refuseTakenContact,
  saveProfile,
  setPassword,
  setPayPassword,
  toUserInfo,
  type UserRow,
} from '../domain/accounts.ts';
import { codeTarget, consumeCode, issueCode, verifyCode } from '../domain/codes.ts';
import { canonicalMobile, mobileNumber } from '../domain/phone-numbers.ts';
import { noticeSecurityChange, tellFormerContact } from '../domain/security-notices.ts';
import { deliveryIdOf, deliveryReference, deliveryState } from '../domain/delivery.ts';
import { checkLoginPassword, signedInFrom } from '../domain/login-guessing.ts';
import type { CodeChannel } from '../domain/code-sender.ts';
import {
  deviceForgotten,
  replaceSession,
  revokeAllSessions,
  revokeSession,
  signInRemembered,
} from '../domain/sessions.ts';
import { signInPlace, type HandlerContext } from './context.ts';
import { Refusal, refusedAbout } from '../domain/refusal.ts';
import { refuseRestingContact } from '../domain/closure.ts';
import { requireSecondFactor, secondFactorSince } from '../domain/two-factor.ts';
import { isRemembered } from '../domain/remembered-devices.ts';
import { recordSignIn, recordingFailure } from '../domain/login-history.ts';
import { attemptOf, WRONG_CODE, WRONG_PASSWORD } from './login-attempts.ts';
import { countryLookup } from '../domain/login-places.ts';
import type { RouteModule } from './route-module.ts';
import type { ParsedOf } from '../../api-contract/endpoint.ts';
import { hashedWhenCodeMatches, passes, secretsAhead } from './secrets-ahead.ts';
import type { Executor } from '../db/connection.ts';
import type { FastifyRequest } from 'fastify';

/** The channel and address a code was asked for, as a registration or reset form types them (a mobile number read
 * as the handset's E.164 number). */
const typedContact = (input: { mode: string; phone?: string | undefined; email?: string | undefined }) =>
  input.mode === 'phone'
    ? (['sms', mobileNumber(input.phone ?? '')] as const)
    : (['email', input.email ?? ''] as const);

/** The code target of a registration or reset form (codes.ts codeTarget), for the work before the call's
 * transaction, which never refuses: null where the mobile number does not read (the call itself refuses it). */
const typedCodeTarget = (input: Parameters<typeof typedContact>[0]) => {
  if (input.mode !== 'phone') return codeTarget('email', input.email ?? '');
  const number = canonicalMobile(input.phone ?? '');
  return number === null ? null : codeTarget('sms', number);
};

/** Where a signed-in customer's own codes go: the handset's E.164 number (a number still stored otherwise is read the
 * same way), else the e-mail address. */
const ownCodeTarget = (user: { phone: string | null; email: string | null }) =>
  user.phone ? codeTarget('sms', canonicalMobile(user.phone) ?? user.phone) : codeTarget('email', user.email ?? '');

/**
 * What registering refuses before it looks at the code (the contact taken by another account or resting after a
 * closure, an unknown invitation code); answers the inviter, if any.
 */
async function registrationChecks(
  db: Executor,
  input: Parameters<typeof typedContact>[0] & { invite?: string | undefined },
  now: Date,
): Promise<UserRow | null> {
  const [channel, address] = typedContact(input);
  // Each refusal names the field it is about: the address typed (phone or email, by the form's mode), the invitation.
  await refusedAbout(input.mode === 'phone' ? 'phone' : 'email', async () => {
    await refuseTakenContact(db, channel, address);
    await refuseRestingContact(db, channel, address, now);
  });
  const { invite } = input;
  return invite ? await refusedAbout('invite', () => findInviter(db, invite)) : null;
}

/**
 * A registration's checks (registrationChecks), run once per request: the work ahead of the call's transaction starts
 * them to decide whether the passwords are worth hashing, and the handler refuses with their outcome in its own order
 * (a request that ran nothing ahead, none stored, runs them there). Keyed by the request, so a request's outcome goes
 * with it. Checks read outside any lock never settle a race: of two registrations of one address that both passed
 * them, the second is refused by its code's single use or by the database's unique indexes (createAccount's
 * "already registered"), never a 500.
 */
const checkedRegistrations = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/** The account whose password a reset form's address resets; refuses an address no account holds. */
async function resetOwner(db: Executor, input: Parameters<typeof typedContact>[0]): Promise<UserRow> {
  const [channel, address] = typedContact(input);
  const user = await findUserByContact(db, channel, address);
  if (!user) throw new Refusal(serverTexts.accountNotFound.id);
  return user;
}

type PayPasswordChange = ParsedOf<typeof changePayPassword>;
/** A payment password set by code: hashed before the transaction once the code sent to the caller is seen to match. */
const payPasswordByCode = hashedWhenCodeMatches(async (input: PayPasswordChange, { db, caller }: HandlerContext) => ({
  target: ownCodeTarget(await findUser(db, caller.userId)),
  code: input.code ?? '',
  fresh: [input.password],
}));
/** A payment password changed with the old one: the old one verified and the new one hashed before the transaction. */
const payPasswordByOldOne = secretsAhead((input: PayPasswordChange) => ({
  pay: input.oldpaypass,
  fresh: [input.password],
}));

export const accountRoutes: RouteModule = ({ route, settings }) => {
  const perMinute = settings.authRateLimitPerMinute;
  const countryOf = countryLookup(settings.loginCountryFile);

  route(
    register,
    async (input, { db, clock, request, ip, twoFactorKey, secrets }) => {
      const now = clock.now();
      const [channel, address] = typedContact(input);
      const inviter = await (checkedRegistrations.get(request) ?? registrationChecks(db, input, now));
      await refusedAbout('code', () => consumeCode(db, codeTarget(channel, address), input.code, now));
      const { password, paypass, currency } = input;
      const user = await createAccount(
        db,
        { channel, address, password, paypass, currency, invitedBy: inviter?.id ?? null },
        now,
        secrets,
      );
      // The account's first session: no new-device message (registering is a sign-in the owner just made). The history
      // counts it as a sign-in by code: the sent code proved the address.
      const place = signInPlace({ request, ip });
      const session = await signInRemembered(db, user.id, place, { key: twoFactorKey, since: null }, now);
      await recordSignIn(db, user.id, attemptOf(place, 'code', countryOf), now);
      return session;
    },
    // Both passwords hashed before the call's transaction opens, once the code is seen to match: only where the call
    // goes on to check the code, counting a wrong one (hashing for a right code the call then refuses untried would
    // time the code for a guesser with no try counted).
    {
      perMinute,
      ahead: hashedWhenCodeMatches(async (input, { db, clock, request }) => {
        const checked = registrationChecks(db, input, clock.now());
        checkedRegistrations.set(request, checked);
        return {
          target: (await passes(() => checked)) ? typedCodeTarget(input) : null,
          code: input.code,
          fresh: [input.password, input.paypass],
        };
      }),
    },
  );

  const sendCode =
    (channel: CodeChannel) =>
    async (typed: string, must: '0' | '1', { db, clock, sender, locale, twoFactorKey }: HandlerContext) => {
      // One handset, one code target and one rate limit, however its number is written.
      const address = channel === 'sms' ? mobileNumber(typed) : typed;
      // What is refused here is about the address typed: the call's `userphone` or `email`.
      const owner = await refusedAbout(channel === 'sms' ? 'userphone' : 'email', async () => {
        const found = await findUserByContact(db, channel, address);
        if (must === '1' && !found) throw new Refusal(serverTexts.accountNotFound.id);
        if (must === '0' && found)
          throw new Refusal(channel === 'sms' ? serverTexts.phoneTaken.id : serverTexts.emailTaken.id);
        // A sign-up code is refused for what registering would refuse: a username in any case, a contact, a resting
        // one.
        if (must === '0') await refuseTakenContact(db, channel, address);
        if (must === '0') await refuseRestingContact(db, channel, address, clock.now());
        return found;
      });
      // The code and its queued message commit together; the delivery job sends it after the commit.
      const queued = await db.transaction(async (tx) => {
        const code = await issueCode(tx, codeTarget(channel, address), clock.now());
        // A reset's code goes to an account's own address: its mail carries the account's anti-phishing code.
        const antiPhishing = owner?.antiPhishingCode ?? null;
        return sender.send({ channel, target: address, code, language: locale, antiPhishing }, tx);
      });
      sender.wake?.();
      return typeof queued === 'number'
        ? { resend_in: 60, delivery: deliveryReference(queued, twoFactorKey) }
        : { resend_in: 60 };
    };
  const sendSms = sendCode('sms');
  const sendEmail = sendCode('email');
  route(sendSmsCode, (input, ctx) => sendSms(input.userphone, input.must, ctx), { perMinute });
  route(sendEmailCode, (input, ctx) => sendEmail(input.email, input.must, ctx), { perMinute });
  // Asked every few seconds while a code form waits: the general per-address limit, not the code calls' one.
  route(codeDelivery, async (input, { db, twoFactorKey }) => {
    const id = deliveryIdOf(input.delivery, twoFactorKey);
    const found = id === null ? null : await deliveryState(db, id);
    if (!found) throw new Refusal(texts.invalidRequest.id);
    if (found.state === 'failed') throw new Refusal(serverTexts.codeNotSent.id);
    return found as { state: 'sending' | 'sent'; attempts: number };
  });

  route(
    login,
    async (input, { db, clock, ip, request, twoFactorKey }) => {
      const now = clock.now();
      const user = await findUserByLogin(db, input.username);
      const place = signInPlace({ request, ip });
      // The lock belongs to the account whether its username, phone or e-mail is typed.
      const checkPassword = () =>
        checkLoginPassword(
          db,
          user ? { userId: user.id } : { name: input.username },
          ip,
          user?.passwordHash,
          input.password,
          now,
        );
      // A wrong password against a known account goes into its sign-in history (an unknown name records nothing).
      if (!user) await checkPassword();
      else
        await recordingFailure(
          db,
          user.id,
          attemptOf(place, 'password', countryOf),
          WRONG_PASSWORD,
          now,
          checkPassword,
        );
      // With two-factor on, a device not remembered since it was turned on also needs the code (a remembered one signs
      // in with the password).
      const since = await secondFactorSince(db, user!.id);
      const asksCode =
        since !== null &&
        (!isRemembered(twoFactorKey, user!.id, since, input.device) ||
          (await deviceForgotten(db, user!.id, input.device)));
      if (asksCode)
        await recordingFailure(db, user!.id, attemptOf(place, 'code', countryOf), WRONG_CODE, now, () =>
          refusedAbout('otp', () => requireSecondFactor(db, user!.id, input.otp, twoFactorKey, now)),
        );
      // The session begins only while the password just proved is still the account's: a reset or change that came
      // meanwhile (ending every session) leaves it wrong, and one that comes later waits for the session and ends it.
      const session = await db.transaction(async (tx) => {
        if (!(await passwordStillIs(tx, user!.id, user!.passwordHash)))
          throw new Refusal(serverTexts.wrongCredentials.id);
        // A remembered device that proved itself keeps its token (signInRemembered).
        const remembered = since !== null && !asksCode ? input.device : undefined;
        return signInRemembered(tx, user!.id, place, { key: twoFactorKey, since, remembered }, now);
      });
      await recordSignIn(db, user!.id, attemptOf(place, asksCode ? 'code' : 'password', countryOf), now);
      return session;
    },
    { perMinute },
  );

  route(logout, async (_input, { db, caller, clock, cache }) => {
    await revokeSession(db, caller.sessionId, clock.now());
    cache.sessions.hold(caller.userId);
    return null;
  });

  route(userInfo, (_input, { db, caller, cache }) =>
    cache.userInfo.read(
      String(caller.userId),
      async () => toUserInfo(await findUser(db, caller.userId)),
      () => caller.userId,
    ),
  );

  route(
    editProfile,
    async (input, { db, caller, clock, twoFactorKey, secrets, locale }) => {
      const now = clock.now();
      const before = await findUser(db, caller.userId);
      // A new phone or e-mail needs the login password (its own counter, as changing it), then the second factor
      // (two-factor on): either resets the password, so the session's token alone must not move it elsewhere.
      if (input.phone !== undefined || input.email !== undefined) {
        await checkLoginPasswordOf(db, before, input.password ?? '', 'password', now, secrets);
        await requireSecondFactor(db, caller.userId, input.otp, twoFactorKey, now);
      }
      const changes: Partial<UserRow> = {};
      if (input.nickname !== undefined) changes.nickname = input.nickname;
      if (input.currency !== undefined) changes.currency = input.currency;
      for (const [channel, address] of [
        ['sms', input.phone === undefined ? undefined : mobileNumber(input.phone)],
        ['email', input.email],
      ] as const) {
        if (address === undefined) continue;
        // The address may become this account's username: another's username in any letter case is taken too.
        await refuseTakenContact(db, channel, address, caller.userId);
        await refuseRestingContact(db, channel, address, now);
        await consumeCode(db, codeTarget(channel, address), input.code!, now);
        const user = await findUser(db, caller.userId);
        // An account registered with this contact logs in with it: the username follows the change.
        if (user.username === (channel === 'sms' ? user.phone : user.email)) changes.username = address;
        if (channel === 'sms') changes.phone = address;
        else changes.email = address;
      }
      const saved = await saveProfile(db, caller.userId, changes);
      if (changes.phone !== undefined) await noticeSecurityChange(db, caller.userId, 'phone', now);
      if (changes.email !== undefined) await noticeSecurityChange(db, caller.userId, 'email', now);
      // The number or address it leaves is told too: its owner may not hold the account's session any more.
      if (changes.phone !== undefined && before.phone && before.phone !== changes.phone)
        await tellFormerContact(db, caller.userId, 'sms', before.phone, locale, now);
      if (changes.email !== undefined && before.email && before.email !== changes.email)
        await tellFormerContact(db, caller.userId, 'email', before.email, locale, now);
      return toUserInfo(saved);
    },
    // The login password verified before the call's transaction opens.
    {
      ahead: secretsAhead((input) => ({
        login: input.phone !== undefined || input.email !== undefined ? input.password : undefined,
      })),
    },
  );

  route(editAvatar, async (input, { db, caller }) =>
    toUserInfo(await db.transaction((tx) => changeAvatar(tx, caller.userId, input.userimg))),
  );

  route(
    changePassword,
    async (input, { db, caller, clock, cache, request, ip, secrets }) => {
      const now = clock.now();
      const user = await findUser(db, caller.userId);
      await checkLoginPasswordOf(db, user, input.oldpass, 'oldpass', now, secrets, serverTexts.wrongOldPassword.id);
      // The password proved is replaced only if it is still the account's (a reset meanwhile wins), and the row stays
      // held until the new session is made: a reset that comes later waits for it and ends that session too.
      const token = await db.transaction(async (tx) => {
        if (!(await setPassword(tx, user.id, input.password, secrets, user.passwordHash)))
          throw new Refusal(serverTexts.wrongOldPassword.id, undefined, 'oldpass');
        await revokeAllSessions(tx, user.id, now);
        // The same device signs in again: its new session keeps where it came from and the device it remembers, with
        // no message.
        return replaceSession(tx, user.id, caller.sessionId, now, signInPlace({ request, ip }));
      });
      cache.sessions.hold(user.id);
      await noticeSecurityChange(db, user.id, 'password', now);
      return { token };
    },
    // The old password verified and the new one hashed before the call's transaction opens.
    { ahead: secretsAhead((input) => ({ login: input.oldpass, fresh: [input.password] })) },
  );

  route(
    forgotPassword,
    async (input, { db, clock, cache, ip, twoFactorKey, secrets }) => {
      const now = clock.now();
      const user = await resetOwner(db, input);
      const [channel, address] = typedContact(input);
      const target = codeTarget(channel, address);
      // The sent code is checked first (kept for the next try), then the second factor when it is on, then the code is
      // used up.
      await verifyCode(db, target, input.code, now);
      await requireSecondFactor(db, user.id, input.otp, twoFactorKey, now);
      await consumeCode(db, target, input.code, now);
      await setPassword(db, user.id, input.password, secrets);
      await revokeAllSessions(db, user.id, now);
      cache.sessions.hold(user.id);
      await noticeSecurityChange(db, user.id, 'password', now);
      // The code proved the owner: this address's login lock goes, and it counts as theirs.
      await signedInFrom(db, { userId: user.id }, ip, now);
      return null;
    },
    // The new password hashed before the call's transaction opens, once the code is seen to match: only for an address
    // an account holds, where the call goes on to check the code (a sign-up code's address has none).
    {
      perMinute,
      ahead: hashedWhenCodeMatches(async (input, { db }) => ({
        target: (await passes(() => resetOwner(db, input))) ? typedCodeTarget(input) : null,
        code: input.code,
        fresh: [input.password],
      })),
    },
  );

  route(
    changePayPassword,
    async (input, { db, caller, clock, twoFactorKey, secrets }) => {
      const now = clock.now();
      const user = await findUser(db, caller.userId);
      // The second factor (two-factor on) first, then the code or the old payment password.
      await requireSecondFactor(db, user.id, input.otp, twoFactorKey, now);
      if (input.code) {
        await consumeCode(db, ownCodeTarget(user), input.code, now);
      } else if (user.paypassHash) {
        if (!input.oldpaypass) throw new Refusal(texts.enterOldPassword.id, undefined, 'oldpaypass');
        await checkPayPasswordOf(db, user, input.oldpaypass, 'oldpaypass', now, secrets);
      }
      // Without a code, only while the payment password proved (or none) is still the stored one: a change by code
      // that overtook this call's proof wins.
      const set = await setPayPassword(db, user.id, input.password, secrets, input.code ? undefined : user.paypassHash);
      if (!set) throw new Refusal(serverTexts.wrongPayPassword.id, undefined, 'oldpaypass');
      // The payment password confirms withdrawals: its first setting and every change are told, so one made with a
      // stolen session is noticed while it can be undone.
      await noticeSecurityChange(db, user.id, user.paypassHash ? 'payPasswordChanged' : 'payPasswordSet', now);
      return toUserInfo(set);
    },
    // The new payment password hashed before the call's transaction opens: once the old one is verified, or once the
    // code is seen to match.
    { ahead: (input, ctx) => (input.code ? payPasswordByCode : payPasswordByOldOne)(input, ctx) },
  );
};
