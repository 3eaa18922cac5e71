// The platform's Ed25519 keys that sign settlement receipts. RECEIPT_SIGNING_KEYS when set (several machines give
// every process the same value), else a key file made once in the data folder (every process on this machine reads
// it). Each key is written `<64 hex digits of its 32-byte private key>@<the time it starts signing, ISO 8601>`; the
// variable separates keys with commas, the file with lines. At any moment the key whose start is the latest one not
// after now signs; all of them are published, so a receipt signed before a rotation still verifies by its key id.
// The private keys are held as KeyObjects and never written anywhere but the key file: not to the database nor a log.
// A key that may have leaked is revoked by writing ` revoked <ISO time>` after its entry: it signs nothing more, it
// stays published with that time, and every receipt it signed (whatever date the receipt gives) checks as revoked; the
// platform signs an order's receipt anew with the current key when it is asked for again.
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReceiptKey } from '../../api-contract/receipts.ts';
import { canonicalBytes } from '../../api-contract/receipt-signature.ts';
import { calendarMoment } from '../../api-contract/calendar.ts';

/** An Ed25519 private key's PKCS8 (RFC 5958) DER is this prefix and the 32-byte seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** One configured key as written: the private seed, the moment it starts signing, and when it was revoked (if). */
export interface ReceiptKeyEntry {
  seed: Buffer;
  validFrom: Date;
  /** When the operator revoked it (the key may have leaked): it signs nothing, its receipts check as revoked. */
  revokedAt?: Date;
}

/** A key ready to sign: its id, its raw public key, its start, and the private key (a KeyObject, never printed). */
interface SigningKey {
  id: string;
  publicKey: Buffer;
  validFrom: Date;
  revokedAt: Date | null;
  privateKey: KeyObject;
}

/** The keys of this process, oldest first; `sign` and `published` are all the rest of the server uses. */
export interface ReceiptKeyRing {
  /** The key that signs at `now`: the latest whose start is not after it (the oldest before any has started). */
  signingKey(now: Date): { id: string };
  /** Ed25519 signature (base64) of the canonical bytes of `receipt` by key `keyId`; throws for a revoked key. */
  sign(keyId: string, receipt: unknown): string;
  /**
   * Every key as published: id, public key, start, the start of the key after it (null for the last) and when it was
   * revoked (null: not revoked).
   */
  published(): ReceiptKey[];
}

/** A key's id: the first 16 hex digits of the SHA-256 of its raw 32-byte public key. */
export const receiptKeyId = (publicKey: Buffer) => createHash('sha256').update(publicKey).digest('hex').slice(0, 16);

const ENTRY = /^([0-9a-fA-F]{64})@(\S+)(?:\s+revoked\s+(\S+))?$/;

/**
 * Reads keys as the variable and the file write them (commas or lines; blank ones and `#` comments skipped): each
 * `<64 hex digits>@<ISO start>`, followed by ` revoked <ISO time>` for a revoked key. Throws an Error that names
 * `source` and the entry's position, never its text (it holds a private key).
 */
export function parseReceiptKeys(text: string, source: string): ReceiptKeyEntry[] {
  const items = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '' && !item.startsWith('#'));
  if (items.length === 0) throw new Error(`${source} holds no receipt signing key.`);
  return items.map((item, at) => {
    const match = ENTRY.exec(item);
    // Each time a real moment of the calendar (calendarMoment: "2026-02-30T…" is no day, not the 2nd of March).
    const validFrom = match ? calendarMoment(match[2]!) : null;
    const revokedAt = match?.[3] === undefined ? undefined : calendarMoment(match[3]);
    if (!match || !validFrom || revokedAt === null)
      throw new Error(
        `${source}: receipt key ${at + 1} is not <64 hex digits>@<ISO time>, optionally followed by ` +
          '` revoked <ISO time>` (e.g. `$(openssl rand -hex 32)@2026-11-22T08:00:00Z`).',
      );
    return revokedAt
      ? { seed: Buffer.from(match[1]!, 'hex'), validFrom, revokedAt }
      : { seed: Buffer.from(match[1]!, 'hex'), validFrom };
  });
}

/** A ring of `entries` (any order; sorted by start). Two keys with one start stop the start: which signs is unclear. */
export function receiptKeyRing(entries: readonly ReceiptKeyEntry[]): ReceiptKeyRing {
  const keys: SigningKey[] = [...entries]
    .sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime())
    .map(({ seed, validFrom, revokedAt }) => {
      const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
      return { id: receiptKeyId(publicKey), publicKey, validFrom, revokedAt: revokedAt ?? null, privateKey };
    });
  if (keys.length === 0) throw new Error('no receipt signing key');
  keys.forEach((key, at) => {
    if (at > 0 && key.validFrom.getTime() === keys[at - 1]!.validFrom.getTime())
      throw new Error(`two receipt signing keys start at ${key.validFrom.toISOString()}: give each its own start.`);
  });
  const byId = new Map(keys.map((key) => [key.id, key]));
  return {
    signingKey(now) {
      const started = keys.filter((key) => key.validFrom.getTime() <= now.getTime());
      return { id: (started.at(-1) ?? keys[0]!).id };
    },
    sign(keyId, receipt) {
      const key = byId.get(keyId);
      if (!key) throw new Error(`no receipt signing key ${keyId}`);
      if (key.revokedAt) throw new Error(`receipt signing key ${keyId} is revoked`);
      return sign(null, canonicalBytes(receipt), key.privateKey).toString('base64');
    },
    published: () =>
      keys.map((key, at) => ({
        id: key.id,
        algorithm: 'Ed25519' as const,
        public_key: key.publicKey.toString('base64'),
        valid_from: key.validFrom.toISOString(),
        valid_until: keys[at + 1]?.validFrom.toISOString() ?? null,
        revoked_at: key.revokedAt?.toISOString() ?? null,
      })),
  };
}

/** A new key entry as the file and the variable write it: a random 32-byte seed, starting at `validFrom`. */
export const newReceiptKeyLine = (validFrom: Date) => `${randomBytes(32).toString('hex')}@${validFrom.toISOString()}`;

/**
 * Refuses (throws, naming `source`) a revoked key that no key started by `now` replaces: the process would sign with
 * it, or, once it starts, with a key every check calls revoked. A revocation comes with a new key starting now.
 */
function noRevokedSigner(ring: ReceiptKeyRing, now: Date, source: string): ReceiptKeyRing {
  const keys = ring.published();
  keys.forEach((key, at) => {
    const next = keys[at + 1];
    if (key.revoked_at !== null && (!next || Date.parse(next.valid_from) > now.getTime()))
      throw new Error(
        `${source}: receipt key ${key.id} is revoked and no key started by ${now.toISOString()} replaces it: add a new ` +
          `key starting now (\`$(openssl rand -hex 32)@${now.toISOString()}\`) and start again.`,
      );
  });
  return ring;
}

/**
 * Refuses (throws, naming `source`) a ring none of whose keys has started by `now`: it would sign with a key before its
 * period, and every check (the app's, RECEIPTS.md's) calls such a receipt signed by a retired key.
 */
function startedBy(ring: ReceiptKeyRing, now: Date, source: string): ReceiptKeyRing {
  const first = ring.published()[0]!.valid_from;
  if (Date.parse(first) > now.getTime())
    throw new Error(
      `${source}: no receipt signing key has started by ${now.toISOString()} (the first starts at ${first}): ` +
        'give one a start not after now.',
    );
  return noRevokedSigner(ring, now, source);
}

/**
 * RECEIPT_SIGNING_KEYS's keys when set, else those of `file`, made (readable by this user only) with one key starting
 * at `now` when it does not exist yet. A rotation adds a line to the file (or a key to the variable) and restarts.
 * Throws when no key of RECEIPT_SIGNING_KEYS has started by `now`, or when a revoked key is not replaced by a key
 * started by `now` (the operator's configuration).
 */
export function loadReceiptKeys(fromEnv: ReceiptKeyEntry[] | null, file: string, now: Date): ReceiptKeyRing {
  if (fromEnv) return startedBy(receiptKeyRing(fromEnv), now, 'RECEIPT_SIGNING_KEYS');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside, then linked into place (link never replaces a file): of several processes starting at once, one
    // key wins and nobody reads a half-written file.
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(aside, `${newReceiptKeyLine(now)}\n`, { mode: 0o600 });
    try {
      linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
  }
  // Not refused here: the file's first key is made by whichever process starts first, at its own moment, which a
  // process that read its clock a little earlier (then waited for the database) sees as ahead.
  return noRevokedSigner(receiptKeyRing(parseReceiptKeys(readFileSync(file, 'utf8'), file)), now, file);
}

let processRing: ReceiptKeyRing | null = null;
/** Keys for a server started without any (tests): one random key, held by this process only, signing since 1970. */
export const ephemeralReceiptKeys = () =>
  (processRing ??= receiptKeyRing([{ seed: randomBytes(32), validFrom: new Date(0) }]));
