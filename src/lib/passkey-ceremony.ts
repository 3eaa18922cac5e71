// The browser's side of a passkey: the WebAuthn call of @simplewebauthn/browser, loaded
// only when a passkey is made or used, and its failures in the customer's words. A ceremony the
// customer cancelled is not an error: it says so quietly.
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { CeremonyOptions } from '../api-contract/passkeys.ts';
import { texts } from '../api-contract/texts.ts';

/** The browser's prompt failed: its message is the customer's text. */
export class PasskeyError extends Error {}
/** The customer closed the prompt (or let it time out): not a failure. */
export class PasskeyCancelled extends PasskeyError {}

/** A form's error text: the prompt's own words, or the server's. */
export const passkeyErrorText = (error: unknown, serverText: (error: unknown) => string) =>
  error instanceof PasskeyError ? error.message : serverText(error);

const cancelledText = msg`No passkey was used.`;
const knownText = msg`This device already holds a passkey for your account.`;

function ceremonyError(error: unknown): PasskeyError {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyCancelled(i18n._(cancelledText));
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return new PasskeyError(i18n._(knownText));
  if (code === 'ERROR_INVALID_DOMAIN' || name === 'SecurityError')
    return new PasskeyError(i18n._(texts.passkeyUnavailable));
  return new PasskeyError(i18n._(texts.passkeyFailed));
}

/** Makes a passkey with the options the server gave: the answer, as JSON text for the server. */
export async function createCredential({ options }: CeremonyOptions): Promise<string> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return JSON.stringify(
      await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON }),
    );
  } catch (error) {
    throw ceremonyError(error);
  }
}

/** Signs the server's challenge with a passkey the customer picks: the answer, as JSON text. */
export async function signChallenge({ options }: CeremonyOptions): Promise<string> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return JSON.stringify(
      await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON }),
    );
  } catch (error) {
    throw ceremonyError(error);
  }
}
