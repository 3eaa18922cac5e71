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
  /** The session has ended (unused too long, logged out…) but its device is still remembered as having passed the
   * second factor: it would sign in without a code. Ending it (endSession) forgets that device. */
  ended: v.boolean(),
});
export type SignedInSession = v.InferOutput<typeof SignedInSession>;

/** The sessions that still work, this device's first, then the ended ones whose device is still remembered (`ended`);
 * kept offline (shown marked "as of"), since it changes nothing. */
export const signedInSessions = get('/users/sessions', NoInput, returns(Paged(SignedInSession)), { cache: 'user' });
/** Ends one session of the caller's account at once (the current one too: that is logging out); another account's id is
 * not found. Another session's device, if remembered as having passed the second factor, asks for a code again; a
 * session listed `ended` has only that left to do: its device is forgotten. */
export const endSession = post(
  '/users/sessions/end',
  v.object({ id: matching(/^\d{1,9}$/, texts.sessionNotFound) }),
  returns(nothing),
);
/**
 * Ends every session of the account but the caller's. With two-factor on it also forgets every remembered device, so
 * each asks for a code at its next sign-in: `device` is this device's new remembered-device token (Session.device),
 * absent with two-factor off.
 */
export const endOtherSessions = post(
  '/users/sessions/end-others',
  NoInput,
  returns(shape({ device: v.optional(v.string()) })),
);

/**
 * How long a session of the customer may go unused before it ends, in minutes, as they choose in Settings: 15 minutes,
 * 1 hour, 1 day, 7 days or 30 days (the default, the limit every session had before the choice). The server's own
 * limit (SESSION_IDLE_DAYS) still applies when it is shorter.
 */
export const SESSION_IDLE_CHOICES = [15, 60, 1_440, 10_080, 43_200] as const;
export type SessionIdleMinutes = (typeof SESSION_IDLE_CHOICES)[number];
export const DEFAULT_SESSION_IDLE_MINUTES: SessionIdleMinutes = 43_200;

export const SessionIdleLimit = shape({
  /** One of SESSION_IDLE_CHOICES (minutes). */
  minutes: v.pipe(v.picklist(SESSION_IDLE_CHOICES), v.examples([43_200])),
});
export type SessionIdleLimit = v.InferOutput<typeof SessionIdleLimit>;

/** The caller's idle limit (their own account's only). */
export const sessionIdleLimit = get('/users/sessions/idle-limit', NoInput, returns(SessionIdleLimit));
/**
 * Sets the caller's idle limit; it applies at once to every session of the account, this one included (a session
 * already unused for longer ends at its next call). Anything but one of the choices is refused as an invalid request.
 */
export const setSessionIdleLimit = post(
  '/users/sessions/idle-limit',
  v.object({ minutes: v.picklist(['15', '60', '1440', '10080', '43200'], texts.invalidRequest.id) }),
  returns(SessionIdleLimit),
);
