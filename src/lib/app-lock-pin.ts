// The app PIN: 6 digits set on this device, kept only as a PBKDF2-SHA-256 hash (Web Crypto; a random 16-byte salt;
// 600,000 iterations, the figure OWASP's password storage guidance gives for PBKDF2-HMAC-SHA256). Five wrong PINs in a
// row sign the account out: the count is kept with the hash, so a reload does not reset it. Loaded lazily.
import { type AppLockRecord, type StoredPin, rawLockRecord, saveLockRecord } from './app-lock.ts';
import { typedDigits } from '../api-contract/typed-digits.ts';

export const PIN_LENGTH = 6;
export const PIN_ITERATIONS = 600_000;
/** Wrong PINs in a row that end the session. */
export const PIN_MAX_FAILURES = 5;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** The PIN as typed, in ASCII digits whatever script it was typed in (Thai, Arabic-Indic, Devanagari, full-width…);
 * null unless it is exactly 6 digits. */
export function pinOf(typed: string): string | null {
  const digits = typedDigits(typed);
  return digits.length === PIN_LENGTH && digits.length === typed.replace(/\s/g, '').length ? digits : null;
}

async function derive(pin: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/** A new stored form of `pin` (6 ASCII digits): a fresh random salt each time. */
export async function hashPin(pin: string, iterations = PIN_ITERATIONS): Promise<StoredPin> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: toBase64(salt), hash: toBase64(await derive(pin, salt, iterations)), iterations };
}

/** Whether `pin` is the one `stored` was made from (compared in full, not stopping at the first different byte). */
export async function pinMatches(pin: string, stored: StoredPin): Promise<boolean> {
  const derived = await derive(pin, fromBase64(stored.salt), stored.iterations);
  const expected = fromBase64(stored.hash);
  let difference = derived.length ^ expected.length;
  for (let i = 0; i < derived.length; i++) difference |= derived[i]! ^ (expected[i] ?? 0);
  return difference === 0;
}

/** What a PIN typed at the lock screen did: opened it, or was wrong (`left` tries before the sign-out), or was the
 * last wrong one (`signOut`: the stored PIN and passkey are already removed). */
export type PinOutcome = { kind: 'open' } | { kind: 'wrong'; left: number } | { kind: 'signOut' };

/**
 * Checks `typed` against `userId`'s stored PIN and counts a wrong one in the stored record (it survives a reload).
 * The fifth wrong one in a row removes the lock (PIN, passkey, choice) and answers `signOut`: the caller ends the
 * session as a log-out does.
 */
export async function tryPin(userId: number, typed: string): Promise<PinOutcome> {
  const record = rawLockRecord(userId);
  const pin = pinOf(typed);
  if (!record.pin) return { kind: 'signOut' };
  if (pin && (await pinMatches(pin, record.pin))) {
    saveLockRecord(userId, { ...record, failures: 0 });
    return { kind: 'open' };
  }
  // Read again after the slow hash: another tab may have counted meanwhile.
  const now: AppLockRecord = rawLockRecord(userId);
  const failures = now.failures + 1;
  if (failures >= PIN_MAX_FAILURES) {
    saveLockRecord(userId, null);
    return { kind: 'signOut' };
  }
  saveLockRecord(userId, { ...now, failures });
  return { kind: 'wrong', left: PIN_MAX_FAILURES - failures };
}

/** A passkey-opened lock starts the PIN count afresh. */
export function clearPinFailures(userId: number): void {
  const record = rawLockRecord(userId);
  if (record.failures) saveLockRecord(userId, { ...record, failures: 0 });
}
