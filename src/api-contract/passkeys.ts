// Passkeys (our addition to the spec): WebAuthn discoverable credentials that sign in
// without a name or a password. Adding one takes the login password (and the authenticator code when
// two-factor is on), so a stolen session alone cannot plant its own way in. The WebAuthn options and
// answers are JSON (the shapes of the WebAuthn Level 3 `toJSON()`), carried in one form field.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching, otp, required } from './fields.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { isoTime, nothing, shape } from './answers.ts';
import { Session } from './account.ts';

export const PASSKEY_LIMIT = 10;
/** How long a WebAuthn challenge may be answered. */
export const PASSKEY_CHALLENGE_SECONDS = 300;

export const Passkey = shape({
  id: v.string(),
  /** The device it was made on ('Chrome, Android'). */
  name: v.string(),
  created_at: isoTime,
  last_used_at: v.nullable(isoTime),
  /** Synced by its provider to the owner's other devices (a backed-up, multi-device credential). */
  synced: v.boolean(),
});
export type Passkey = v.InferOutput<typeof Passkey>;

/** What the browser's WebAuthn call takes (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
const CeremonyOptions = shape({ options: v.looseObject({ challenge: v.string() }) });
export type CeremonyOptions = v.InferOutput<typeof CeremonyOptions>;

/** The browser's answer (RegistrationResponseJSON or AuthenticationResponseJSON) as JSON text; its parts are checked by
 * the server. */
const credential = v.pipe(required(texts.passkeyFailed), v.maxLength(20_000, texts.passkeyFailed.id));

/** The caller's passkeys, newest first. */
export const listPasskeys = get('/users/passkeys', NoInput, returns(Paged(Passkey)), { cache: 'user' });

/** Options to make a passkey for the caller; the login password (and the code, two-factor on) first. */
export const passkeyCreationOptions = post(
  '/users/passkeys/options',
  v.object({ password: required(texts.enterLoginPassword), otp }),
  returns(CeremonyOptions),
);
/** The new passkey from the browser: kept once its attestation checks out against the options' challenge. */
export const addPasskey = post('/users/passkeys/add', v.object({ credential }), returns(Passkey));
/** Removing one takes effect at once; sessions signed in with it go on until they end. */
export const removePasskey = post(
  '/users/passkeys/remove',
  v.object({ id: matching(/^[A-Za-z0-9_-]{1,1400}$/, texts.passkeyNotFound) }),
  returns(nothing),
);

/** Options to sign in with any passkey of this site (no name asked: the passkey says whose it is). */
export const passkeySignInOptions = post('/users/passkey-login/options', NoInput, returns(CeremonyOptions), {
  auth: false,
});
export const passkeySignIn = post('/users/passkey-login', v.object({ credential }), returns(Session), { auth: false });
