// Signing in with a passkey, loaded when the login page's button is tapped: the server's
// challenge, the browser's prompt (@simplewebauthn/browser, loaded with it), the session.
import { passkeySignIn, passkeySignInOptions } from '../../api-contract/passkeys.ts';
import { startSession } from '../../lib/account.ts';
import { api } from '../../lib/api.ts';
import { PasskeyError, signChallenge } from '../../lib/passkey-ceremony.ts';
import { toast } from '../../lib/toast.ts';

/**
 * Signs in with a passkey the customer picks in the browser's prompt: true once signed
 * in, false when the prompt ended without one (its words shown; closing it is said quietly). The server's
 * refusals are thrown as any call's.
 */
export async function signInWithPasskey(): Promise<boolean> {
  try {
    const options = await api(passkeySignInOptions);
    const { token, device } = await api(passkeySignIn, { credential: await signChallenge(options) });
    await startSession(token, device);
    return true;
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    toast(error.message);
    return false;
  }
}
