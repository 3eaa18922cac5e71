// Devices and sessions (our additions): every session signed in to the caller's account,
// and ending one or all the others. Every call reads or ends the caller's own sessions only.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { isoTime, nothing, shape, whole } from './answers.ts';

export const SignedInSession = shape({
  id: whole,
  /** Browser and system read from the sign-in's user agent: 'Chrome, Android' (an unknown one in the request's
   * language). */
  device: v.string(),
  /** Where it signed in from, partly hidden by the server ('203.0.113.•••', '2001:db8:85a3:…'); '' when not known. */
  address: v.string(),
  signed_in_at: isoTime,
  /** When it was last used, to within a few minutes (the server notes use at most every 5 minutes). */
  last_seen_at: isoTime,
  /** The session of the token that asked: this device. */
  current: v.boolean(),
});
export type SignedInSession = v.InferOutput<typeof SignedInSession>;

/** The sessions that still work, this device's first; kept offline (shown marked "as of"), since it changes nothing. */
export const signedInSessions = get('/users/sessions', NoInput, returns(Paged(SignedInSession)), { cache: 'user' });
/** Ends one session of the caller's account at once (the current one too: that is logging out); another account's id is
 * not found. */
export const endSession = post(
  '/users/sessions/end',
  v.object({ id: matching(/^\d{1,9}$/, texts.sessionNotFound) }),
  returns(nothing),
);
/** Ends every session of the account but the caller's. */
export const endOtherSessions = post('/users/sessions/end-others', NoInput, returns(nothing));
