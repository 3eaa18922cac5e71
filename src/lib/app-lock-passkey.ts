// The app lock's passkey: a WebAuthn credential of this device's own authenticator (platform, user verification
// required) made only for the lock. Its public key stays on the device, taken from the attestation response; the lock
// opens on an assertion over a random challenge made here, checked here with Web Crypto (ECDSA P-256 with SHA-256):
// the challenge, the origin, the relying party's hash and the user-verified flag, then the signature. No server takes
// part, so it works offline. Loaded lazily.
import type { StoredPasskey } from './app-lock.ts';

/** COSE's number for ECDSA with P-256 and SHA-256 (RFC 9053). */
const ES256 = -7;
/** authenticatorData's flags (WebAuthn Level 2): user present, user verified. */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;

export const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
export const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));

/**
 * An ECDSA signature as WebAuthn gives it (ASN.1 DER: SEQUENCE of two INTEGERs) as Web Crypto checks it: r||s, each
 * `size` bytes (32 for P-256), big-endian, left-padded. Throws on anything but that structure.
 */
export function derToRaw(der: Uint8Array, size = 32): Uint8Array {
  const fail = () => {
    throw new Error('Not a DER ECDSA signature');
  };
  let at = 0;
  const byte = () => (at < der.length ? der[at++]! : fail());
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    if (first !== 0x81) return fail();
    return byte();
  };
  if (byte() !== 0x30) fail();
  if (length() !== der.length - at) fail();
  const raw = new Uint8Array(size * 2);
  for (const offset of [0, size]) {
    if (byte() !== 0x02) fail();
    const n = length();
    let value = der.subarray(at, at + n);
    if (value.length !== n || n === 0) fail();
    at += n;
    // A leading zero only keeps a high bit from reading as a sign.
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > size) fail();
    raw.set(value, offset + size - value.length);
  }
  if (at !== der.length) fail();
  return raw;
}

/** What an assertion is checked against: the key kept at setup and what this device expects. */
export interface AssertionCheck {
  /** The credential's public key, SPKI DER. */
  publicKey: Uint8Array;
  /** The challenge this device made for the unlock. */
  challenge: Uint8Array;
  /** The page's origin ('https://app.example'). */
  origin: string;
  /** The relying party's id: the page's host name. */
  rpId: string;
}

/** What the authenticator answered: its three byte strings. */
export interface AssertionAnswer {
  authenticatorData: Uint8Array;
  clientDataJSON: Uint8Array;
  signature: Uint8Array;
}

const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Whether `answer` is a valid assertion for `check`: client data of type webauthn.get with our challenge and origin;
 * authenticator data for our relying party with the user present and verified; and an ECDSA P-256 / SHA-256
 * signature over authenticatorData || SHA-256(clientDataJSON) by the kept key. False on anything else, never throws.
 */
export async function assertionValid(check: AssertionCheck, answer: AssertionAnswer): Promise<boolean> {
  try {
    const client = JSON.parse(new TextDecoder().decode(answer.clientDataJSON)) as Record<string, unknown>;
    if (client.type !== 'webauthn.get') return false;
    if (client.challenge !== toBase64Url(check.challenge)) return false;
    if (client.origin !== check.origin) return false;
    const data = answer.authenticatorData;
    if (data.length < 37) return false;
    if (!sameBytes(data.subarray(0, 32), await sha256(new TextEncoder().encode(check.rpId)))) return false;
    const flags = data[32]!;
    if (!(flags & FLAG_UP) || !(flags & FLAG_UV)) return false;
    const key = await crypto.subtle.importKey(
      'spki',
      check.publicKey as BufferSource,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const signed = new Uint8Array(data.length + 32);
    signed.set(data);
    signed.set(await sha256(answer.clientDataJSON), data.length);
    return await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      derToRaw(answer.signature) as BufferSource,
      signed as BufferSource,
    );
  } catch {
    return false;
  }
}

/**
 * Makes the lock's passkey with this device's own authenticator (user verification required): its id and public key,
 * to keep. Throws when the browser refuses or the key is not ES256 (P-256).
 */
export async function createLockPasskey(account: { id: number; name: string }): Promise<StoredPasskey> {
  const credential = (await navigator.credentials.create({
    publicKey: {
      challenge: crypto.getRandomValues(new Uint8Array(32)),
      rp: { name: 'Coinvest' },
      user: { id: crypto.getRandomValues(new Uint8Array(16)), name: account.name, displayName: account.name },
      pubKeyCredParams: [{ type: 'public-key', alg: ES256 }],
      authenticatorSelection: {
        authenticatorAttachment: 'platform',
        userVerification: 'required',
        residentKey: 'discouraged',
      },
      attestation: 'none',
      timeout: 120_000,
    },
  })) as PublicKeyCredential | null;
  const response = credential?.response as AuthenticatorAttestationResponse | undefined;
  const publicKey = response?.getPublicKey();
  if (!credential || !response || !publicKey || response.getPublicKeyAlgorithm() !== ES256)
    throw new Error('No P-256 passkey was made');
  return { id: toBase64Url(new Uint8Array(credential.rawId)), publicKey: toBase64Url(new Uint8Array(publicKey)) };
}

/** Asks this device's authenticator to sign a fresh challenge with the lock's passkey and checks the answer here. */
export async function unlockWithPasskey(passkey: StoredPasskey): Promise<boolean> {
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  let credential: PublicKeyCredential | null;
  try {
    credential = (await navigator.credentials.get({
      publicKey: {
        challenge,
        allowCredentials: [{ type: 'public-key', id: fromBase64Url(passkey.id), transports: ['internal'] }],
        userVerification: 'required',
        timeout: 120_000,
      },
    })) as PublicKeyCredential | null;
  } catch {
    return false;
  }
  const response = credential?.response as AuthenticatorAssertionResponse | undefined;
  if (!response) return false;
  return assertionValid(
    { publicKey: fromBase64Url(passkey.publicKey), challenge, origin: location.origin, rpId: location.hostname },
    {
      authenticatorData: new Uint8Array(response.authenticatorData),
      clientDataJSON: new Uint8Array(response.clientDataJSON),
      signature: new Uint8Array(response.signature),
    },
  );
}
