// Account calls: login, verification codes, user info, profile and avatar, passwords and the picture upload (and
// the two our server adds: register and logout).
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import {
  code,
  currency,
  INVITE_CODE,
  loginName,
  loginPassword,
  matching,
  mustFlag,
  optionalMatching,
  otp,
  payPassword,
  phone,
  required,
  samePasswords,
  UPLOAD_URL,
} from './fields.ts';
import { email } from './email-address.ts';
import { texts } from './texts.ts';
import { maxCharacters, visibleName } from './visible-text.ts';
import { CURRENCIES, NICKNAME_MAX, VERIFICATION_STATUSES } from './constants.ts';
import { decimal, isoTime, nothing, shape, whole } from './answers.ts';

export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** User info, as /users/info answers it (avatar is sent as `userimg`). */
export const UserInfo = shape({
  id: whole,
  username: v.string(),
  nickname: v.string(),
  userimg: v.string(),
  level: whole,
  phone: v.string(),
  email: v.string(),
  invite_code: v.string(),
  currency: v.picklist(CURRENCIES),
  has_paypass: v.boolean(),
  recharge_total: decimal,
  /** Primary certification: not certified, under review, verified or rejected. */
  verification: v.picklist(VERIFICATION_STATUSES),
  advanced_verification: v.picklist(VERIFICATION_STATUSES),
  created_at: isoTime,
});
export type UserInfo = v.InferOutput<typeof UserInfo>;

/** `device`: a token that remembers this device passed the second factor (kept by the app, sent back with the next
 * login). */
export const Session = shape({ token: v.string(), device: v.optional(v.string()) });
export type Session = v.InferOutput<typeof Session>;
/**
 * A code was sent: seconds until another may be asked for. Our server also gives an
 * opaque `delivery` reference, to ask with `codeDelivery` whether the message went out.
 */
const CodeSent = shape({ resend_in: whole, delivery: v.optional(v.string()) });

export const LoginInput = v.object({
  username: loginName,
  password: required(texts.enterUsernameAndPassword),
  /** With two-factor on, a sign-in from a device not remembered needs the authenticator or a recovery code. */
  otp,
  /** The token a sign-in on this device answered last (`Session.device`): the device is remembered. */
  device: v.optional(v.pipe(v.string(), v.maxLength(100))),
});
/** The login screen also needs the agreement ticked ('Please make sure to read the agreement…'); the server never
 * sees it. */
export const LoginForm = v.object({
  ...LoginInput.entries,
  agree: v.literal(true, texts.readAgreement.id),
});
export const login = post('/users/login', LoginInput, returns(Session), { auth: false });

const registerCommon = {
  code,
  password: loginPassword,
  paypass: payPassword,
  currency,
  invite: optionalMatching(INVITE_CODE, texts.inviteCodeFormat),
};
/** Our addition (the product names no call for it): registration by mobile number or e-mail. */
export const RegisterInput = v.variant(
  'mode',
  [
    v.object({ mode: v.literal('phone'), phone, ...registerCommon }),
    v.object({ mode: v.literal('email'), email, ...registerCommon }),
  ],
  texts.invalidRequest.id,
);
export type RegisterInputType = v.InferInput<typeof RegisterInput>;
export const register = post('/users/register', RegisterInput, returns(Session), { auth: false });

/** `must=1` for a password reset (the number must be registered), else it must be free. */
export const sendSmsCode = get('/users/sms', v.object({ userphone: phone, must: mustFlag }), returns(CodeSent), {
  auth: false,
});
export const sendEmailCode = get('/users/email/get', v.object({ email, must: mustFlag }), returns(CodeSent), {
  auth: false,
});
/**
 * Our addition: how the code of a `delivery` reference is doing: `sending` (queued, maybe
 * after a failed try: `attempts`) or `sent`; a message that could not be sent answers ret 0 with
 * 'We could not send the code, please try again'.
 */
export const codeDelivery = get(
  '/users/code/delivery',
  v.object({ delivery: v.pipe(v.string(), v.maxLength(64, texts.invalidRequest.id)) }),
  returns(shape({ state: v.picklist(['sending', 'sent']), attempts: whole })),
  { auth: false },
);

export const userInfo = get('/users/info', NoInput, returns(UserInfo));

/** Our addition: ends this session on the server (the token is revoked). */
export const logout = post('/users/logout', NoInput, returns(nothing));

/**
 * Profile fields the user edits directly. A new phone or e-mail needs its code and the login password: the phone and
 * the e-mail reset the password, so a session alone (a stolen token) must not move them to someone else's.
 */
export const EditProfileInput = v.pipe(
  v.object({
    nickname: v.optional(v.pipe(visibleName(texts.enterNickname), maxCharacters(NICKNAME_MAX, texts.enterNickname.id))),
    currency: v.optional(currency),
    phone: v.optional(phone),
    email: v.optional(email),
    code: v.optional(code),
    /** The account's login password, with a new phone or e-mail. */
    password: v.optional(v.string(texts.enterLoginPassword.id)),
    /** A new phone or e-mail needs the authenticator or recovery code when two-factor is on. */
    otp,
  }),
  // A code alone changes nothing (it used to reach the database as an empty update: HTTP 500).
  v.check(
    (input) => [input.nickname, input.currency, input.phone, input.email].some((value) => value !== undefined),
    texts.fillInformation.id,
  ),
  v.check(
    (input) => (input.phone === undefined && input.email === undefined) || input.code !== undefined,
    texts.enterCode.id,
  ),
  // About the field `password`, so the form shows it under that field.
  v.forward(
    v.check(
      (input) => (input.phone === undefined && input.email === undefined) || Boolean(input.password?.trim()),
      texts.enterLoginPassword.id,
    ),
    ['password'],
  ),
);
export const editProfile = post('/users/edit', EditProfileInput, returns(UserInfo));

export const editAvatar = post(
  '/users/edit/avatar',
  v.object({ userimg: matching(UPLOAD_URL, texts.uploadFailed) }),
  returns(UserInfo),
);

/** Changing the login password revokes every session; the answer carries this device's new one. */
export const ChangePasswordInput = v.pipe(
  v.object({
    oldpass: required(texts.enterOldPassword),
    password: loginPassword,
    repassword: required(texts.passwordsInconsistent),
  }),
  samePasswords(),
);
export const changePassword = post('/users/edit/userpass', ChangePasswordInput, returns(Session));

/** With two-factor on, a reset also needs the authenticator or a recovery code (a stolen phone number or mailbox alone
 * cannot take the account). */
const resetCommon = { code, password: loginPassword, repassword: required(texts.passwordsInconsistent), otp };
export const ForgotPasswordInput = v.pipe(
  v.variant(
    'mode',
    [
      v.object({ mode: v.literal('phone'), phone, ...resetCommon }),
      v.object({ mode: v.literal('email'), email, ...resetCommon }),
    ],
    texts.invalidRequest.id,
  ),
  samePasswords(),
);
export const forgotPassword = post('/users/forget', ForgotPasswordInput, returns(nothing), { auth: false });

/**
 * Sets or changes the payment password: with the old one, or with a code sent to the
 * account's phone or e-mail when it is forgotten (or was never set).
 */
export const ChangePayPasswordInput = v.pipe(
  v.object({
    oldpaypass: v.optional(payPassword),
    code: v.optional(code),
    password: payPassword,
    repassword: required(texts.passwordsInconsistent),
    /** The authenticator or recovery code, when the user has two-factor on. */
    otp,
  }),
  samePasswords(),
);
export const changePayPassword = post('/users/edit/paypass', ChangePayPasswordInput, returns(UserInfo));

/** Multipart, field `image`; answers the URL the picture is served back at. */
export const uploadImage = post(
  '/users/upload',
  NoInput,
  returns(shape({ url: v.pipe(v.string(), v.regex(UPLOAD_URL)) })),
  { multipart: true },
);
export const UPLOAD_FIELD = 'image';
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
