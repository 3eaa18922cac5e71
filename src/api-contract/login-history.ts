// The sign-in history (our addition): every sign-in to the caller's account and every failed attempt against it in
// the last 90 days, newest first. A failed attempt is a known account's wrong password, authenticator code or passkey;
// a login name no account has records nothing (its answer is the same as ever, so nothing tells whether it exists).
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { cursor } from './fields.ts';
import { CursorPaged } from './envelope.ts';
import { isoTime, shape, whole } from './answers.ts';

/** How long the history goes back: older rows are neither shown nor kept (days). */
export const LOGIN_HISTORY_DAYS = 90;
/** Rows a page of the history holds. */
export const LOGIN_HISTORY_PAGE_SIZE = 30;

/** How the sign-in was tried: the login password alone, a passkey, or a code (the password with the authenticator
 * code, or registering with a code sent by SMS or e-mail). */
export const LOGIN_METHODS = ['password', 'passkey', 'code'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

export const LoginRecord = shape({
  id: whole,
  at: isoTime,
  /** True for a sign-in, false for a failed attempt. */
  succeeded: v.boolean(),
  method: v.picklist(LOGIN_METHODS),
  /** Browser and system read from the request's User-Agent ('Chrome, Android'); '' when neither is recognised. */
  device: v.string(),
  /** The address, partly hidden by the server ('203.0.113.•••', '2001:db8:85a3:…'); '' when not known. */
  address: v.string(),
  /** Rough place: an ISO 3166-1 alpha-2 country code from the server's optional offline table, null when unknown. */
  country: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/), v.examples(['TH']))),
});
export type LoginRecord = v.InferOutput<typeof LoginRecord>;

/** The caller's sign-ins and failed attempts of the last 90 days, newest first, by cursor; kept offline (shown "as
 * of"), since it changes nothing. */
export const loginHistory = get('/users/login-history', v.object({ cursor }), returns(CursorPaged(LoginRecord)), {
  cache: 'user',
});
