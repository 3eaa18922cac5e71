// The server's key for two-factor secrets: authenticator secrets are stored encrypted with it
// (AES-256-GCM) and recovery codes as HMACs under it, so a copy of the database alone gives neither
// away. TWO_FACTOR_KEY (64 hex digits or base64 of 32 bytes) when set, else a key file made once in
// the data folder (every process on this machine reads the same file).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const TWO_FACTOR_KEY_BYTES = 32;
/** Stored secrets start with this version tag: a later format can sit next to this one. */
const SEALED = 'v1';

/** A 32-byte key given as 64 hex digits or base64; anything else stops the start (a typo must not go unnoticed). */
export function parseTwoFactorKey(text: string): Buffer {
  const trimmed = text.trim();
  const hex = /^[0-9a-fA-F]{64}$/.test(trimmed);
  const key = Buffer.from(trimmed, hex ? 'hex' : 'base64');
  if (key.length !== TWO_FACTOR_KEY_BYTES || (!hex && !/^[A-Za-z0-9+/]{43}=?$/.test(trimmed)))
    throw new Error(
      'TWO_FACTOR_KEY must be 32 bytes, written as 64 hex digits or in base64 (e.g. `openssl rand -hex 32`).',
    );
  return key;
}

/** The key of TWO_FACTOR_KEY, else of `file`, made (readable by this user only) when it does not exist yet. */
export function loadTwoFactorKey(fromEnv: Buffer | null, file: string): Buffer {
  if (fromEnv) return fromEnv;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside, then linked into place (link never replaces a file): of several processes starting
    // at once, one key wins and nobody reads a half-written file.
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(aside, `${randomBytes(TWO_FACTOR_KEY_BYTES).toString('hex')}\n`, { mode: 0o600 });
    try {
      linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
  }
  try {
    return parseTwoFactorKey(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(
      `${file} does not hold a two-factor key (64 hex digits). Restore it from a backup: without it, no two-factor code can be checked.`,
    );
  }
}

let processKey: Buffer | null = null;
/** A key for a server started without one (tests): random, held by this process only. */
export const ephemeralTwoFactorKey = () => (processKey ??= randomBytes(TWO_FACTOR_KEY_BYTES));

/** Encrypts a secret for one user (the user id is authenticated data: a row copied to another user does not open). */
export function sealSecret(key: Buffer, userId: number, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`two-factor:${userId}`));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [SEALED, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
}

/** The secret sealSecret stored; throws when the key or the user is not the one it was sealed with. */
export function openSecret(key: Buffer, userId: number, stored: string): Buffer {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== SEALED || !iv || !tag || sealed === undefined) throw new Error('not a sealed two-factor secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(`two-factor:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]);
}

/** A recovery code's stored form: an HMAC under the server key, so the digests cannot be tried offline without it. */
export const recoveryCodeDigest = (key: Buffer, userId: number, code: string) =>
  createHmac('sha256', key).update(`recovery:${userId}:${code}`).digest('hex');

/** A value that tells keys apart without revealing them: what the database records of the key its processes use. */
export const keyCheck = (key: Buffer) =>
  createHmac('sha256', key).update('coinvest two-factor key check').digest('hex');
