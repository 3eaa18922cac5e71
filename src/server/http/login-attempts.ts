// What the sign-in calls (account-routes.ts, passkey-routes.ts) tell the sign-in history (domain/login-history.ts):
// which of their refusals are a failed attempt, and the attempt's place and method.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { texts } from '../../api-contract/texts.ts';
import type { LoginMethod } from '../../api-contract/login-history.ts';
import type { LoginAttempt } from '../domain/login-history.ts';
import type { SignInPlace } from '../domain/sessions.ts';
import type { CountryOf } from '../domain/login-places.ts';

/** A wrong login password; too many attempts (the password not tried) is no attempt of its own. */
export const WRONG_PASSWORD: readonly string[] = [serverTexts.wrongCredentials.id];
/** A wrong or already used authenticator or recovery code after the right password; a code not yet given is the
 * ordinary step of a new device, no failure. */
export const WRONG_CODE: readonly string[] = [
  texts.authenticatorCodeWrong.id,
  serverTexts.authenticatorCodeUsed.id,
  serverTexts.recoveryCodeUsed.id,
];
/** A passkey's answer that does not check out (signature, origin, a counter going back). */
export const WRONG_PASSKEY: readonly string[] = [texts.passkeyFailed.id];

/** The attempt of a sign-in request from `place` by `method`, its rough place looked up by `countryOf`
 * (domain/login-places.ts: LOGIN_COUNTRY_FILE, or unknown). */
export const attemptOf = (place: SignInPlace, method: LoginMethod, countryOf: CountryOf): LoginAttempt => ({
  ...place,
  method,
  country: countryOf(place.ip),
});
