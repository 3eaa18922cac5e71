// Two-factor authentication (our addition to the spec): the codes of an authenticator app
// (TOTP, RFC 6238: 6 digits every 30 seconds) and ten one-time recovery codes. When it is on, the
// calls that move money out or change how the account is reached take a code in the field `otp`.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { AUTHENTICATOR_CODE, SECOND_FACTOR, matching, required } from './fields.ts';
import { texts } from './texts.ts';
import { isoTime, shape, whole } from './answers.ts';

export const RECOVERY_CODE_COUNT = 10;

export const authenticatorCode = matching(
  AUTHENTICATOR_CODE,
  texts.enterAuthenticatorCode,
  texts.authenticatorCodeFormat,
);
const secondFactor = matching(SECOND_FACTOR, texts.enterAuthenticatorCode, texts.authenticatorCodeWrong);
export const TwoFactorStatus = shape({
  /** On: the protected calls need a code. */
  enabled: v.boolean(),
  confirmed_at: v.nullable(isoTime),
  /** Recovery codes not used yet (0 when off). */
  recovery_codes_left: whole,
});
export type TwoFactorStatus = v.InferOutput<typeof TwoFactorStatus>;
export const twoFactorStatus = get('/users/two-factor', NoInput, returns(TwoFactorStatus));

export const TwoFactorSetup = shape({
  /** The secret in base32 (RFC 4648), for typing into an app that cannot scan. */
  secret: v.pipe(v.string(), v.regex(/^[A-Z2-7]{32}$/)),
  /** otpauth://totp/Coinvest:<username>?secret=…: what the QR code carries. */
  uri: v.pipe(v.string(), v.startsWith('otpauth://totp/')),
});
export type TwoFactorSetup = v.InferOutput<typeof TwoFactorSetup>;
/** Starts (or starts again) a setup: a new secret, not in force until confirmed with a first code. */
export const beginTwoFactor = post('/users/two-factor/setup', NoInput, returns(TwoFactorSetup));

/** Ten recovery codes, shown this once: only their digests are kept. */
export const RecoveryCodes = shape({
  recovery_codes: v.pipe(
    v.array(v.pipe(v.string(), v.regex(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/))),
    v.length(RECOVERY_CODE_COUNT),
  ),
});
export type RecoveryCodes = v.InferOutput<typeof RecoveryCodes>;
/**
 * The first code from the app and the login password turn two-factor on: whoever holds a stolen
 * session alone cannot put their own app on the account and lock its owner out of withdrawals.
 */
export const confirmTwoFactor = post(
  '/users/two-factor/confirm',
  v.object({ code: authenticatorCode, password: required(texts.enterLoginPassword) }),
  returns(RecoveryCodes),
);

/** New recovery codes (the old ones stop working): a code from the app, so a recovery code cannot make ten more. */
export const renewRecoveryCodes = post(
  '/users/two-factor/recovery-codes',
  v.object({ code: authenticatorCode }),
  returns(RecoveryCodes),
);

/** Turning it off takes a code (or a recovery code, when the phone is lost) and the login password, as major exchanges
 * ask. */
export const disableTwoFactor = post(
  '/users/two-factor/off',
  v.object({ otp: secondFactor, password: required(texts.enterLoginPassword) }),
  returns(TwoFactorStatus),
);
