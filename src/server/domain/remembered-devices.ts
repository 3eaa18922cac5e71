// A device that passed the second factor is remembered (with two-factor on, signing in on
// a new device needs a code). The server gives the device a token after each sign-in: a random
// nonce and its HMAC under a key derived from the two-factor key, bound to the account and to the
// moment two-factor was turned on. Nothing is stored: a token of another account, a forged one, or
// one given before two-factor was (re)turned on proves nothing, and the code is asked for. The session
// signed in with a token keeps its nonce, so that ending that session from another device forgets that
// device alone (domain/sessions.ts). Which browser the request says it is (its User-Agent) decides
// nothing: anyone can say they are Chrome.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the app sends back: 22 characters of nonce, a dot, 43 of MAC (base64url). */
const DEVICE_TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const macOf = (key: Buffer, userId: number, since: Date | null, nonce: string) => {
  const deviceKey = createHmac('sha256', key).update('coinvest remembered device').digest();
  return createHmac('sha256', deviceKey)
    .update(`${userId}:${since?.toISOString() ?? 'off'}:${nonce}`)
    .digest();
};

/** A token for the device that just signed in to `userId` (two-factor on since `since`, or off: null). */
export function rememberDevice(key: Buffer, userId: number, since: Date | null): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${macOf(key, userId, since, nonce).toString('base64url')}`;
}

/** The nonce of a remembered-device token as the app sends one (the part before the dot), or null for anything else. */
export function deviceNonceOf(token: string | undefined): string | null {
  return (token && DEVICE_TOKEN.exec(token)?.[1]) || null;
}

/**
 * True when `token` was given to a device of `userId` since two-factor was last turned on. Whether its session was
 * ended from another device since is sessions.ts's to say (deviceForgotten).
 */
export function isRemembered(key: Buffer, userId: number, since: Date | null, token: string | undefined): boolean {
  const parts = token ? DEVICE_TOKEN.exec(token) : null;
  if (!parts) return false;
  return timingSafeEqual(Buffer.from(parts[2]!, 'base64url'), macOf(key, userId, since, parts[1]!));
}
