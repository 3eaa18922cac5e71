// One-time codes of authenticator apps: HOTP (RFC 4226) and TOTP (RFC 6238) with HMAC-SHA1, 30-second
// steps and 6 digits, the parameters every authenticator app reads from an otpauth:// URI. Pure:
// values in, values out; the clock and the storage are the caller's.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 6238: the step (X) in seconds and the code length most apps assume. */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now (RFC 6238, section 5.2, allows one for network delay and clock drift). */
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, without padding (what authenticator apps take). */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 back to bytes; case, spaces and padding are forgiven, any other character throws. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not a base32 character: ${JSON.stringify(char)}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Buffer.from(bytes);
}

/** RFC 4226, section 5.3: HMAC-SHA1 of the 8-byte counter, dynamically truncated to `digits` decimal digits. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238, section 4.2: the time step of an instant (T = floor(unix seconds / X), T0 = 0). */
export const totpStep = (at: Date) => Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);

/** The code an authenticator app shows at a given step. */
export const totpAt = (secret: Uint8Array, step: number, digits = TOTP_DIGITS) => hotp(secret, step, digits);

/**
 * The step whose code `code` is, within the window around `now`, or null. When the same code is
 * valid for several steps (a one-in-a-million coincidence), the newest wins.
 */
export function matchingStep(secret: Uint8Array, code: string, now: Date, window = TOTP_WINDOW): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStep(now);
  let found: number | null = null;
  const given = Buffer.from(code);
  for (let step = current - window; step <= current + window; step++) {
    // Compared in constant time: how long a check takes says nothing about the digits.
    if (timingSafeEqual(Buffer.from(totpAt(secret, step)), given)) found = step;
  }
  return found;
}

/** The otpauth:// URI an authenticator app reads from a QR code (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
