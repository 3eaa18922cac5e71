// The canonical bytes a receipt is signed over, and the check the app (and anyone with Web Crypto) makes of a receipt.
// Canonical form: JSON with no whitespace, object keys sorted by their UTF-16 code units, strings written as
// JSON.stringify writes them, and no numbers (every figure of a receipt is a decimal string). For such values this is
// exactly RFC 8785 (JSON Canonicalization Scheme), so any JCS library gives the same bytes.
// Pure and on Web Crypto only: Node 20 and browsers' secure contexts; nothing here holds a private key.
import type { ReceiptKey, SignedReceipt } from './receipts.ts';

/** A value a receipt may hold: strings, arrays and objects of them (no numbers, booleans or null). */
export type ReceiptValue = string | readonly ReceiptValue[] | { readonly [key: string]: ReceiptValue };

/**
 * The canonical JSON text of `value` (RFC 8785 for string-only JSON). Throws on a number, boolean, null or undefined
 * member: a receipt holds strings only, and a value the signer never wrote must not verify by accident.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    // Array.prototype.sort compares UTF-16 code units, as RFC 8785 orders keys.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  throw new Error(`a receipt holds strings, arrays and objects only, not ${value === null ? 'null' : typeof value}`);
}

/** The UTF-8 bytes that are signed: the canonical JSON of the receipt (without its signature). */
export const canonicalBytes = (receipt: unknown): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(canonicalJson(receipt));

/** Standard base64 → bytes; throws on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new Error('not base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * What a check found: `valid` (the signature is the named key's over these exact bytes, and the key was the one
 * signing at the receipt's `signed_at`), `invalid` (it is not: the receipt or its signature was changed),
 * `unknown-key` (no published key has its id), `outside-key-period` (the signature is the key's, but `signed_at` is
 * before the key started signing or at or after the key that replaced it started: a retired key signed it, which the
 * platform never does), `revoked-key` (the signature is the key's, but the platform revoked that key: a copy of it may
 * have signed it, at any date it gives), `malformed` (not a receipt).
 */
export type ReceiptCheck = 'valid' | 'invalid' | 'unknown-key' | 'outside-key-period' | 'revoked-key' | 'malformed';

/** A pasted or shared text as a signed receipt, or null when it is not shaped like one (JSON, receipt + signature). */
export function parseSignedReceipt(text: string): SignedReceipt | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { receipt, signature } = parsed as Record<string, unknown>;
    if (typeof signature !== 'string' || typeof receipt !== 'object' || receipt === null) return null;
    const { key_id: keyId, kind } = receipt as Record<string, unknown>;
    if (typeof keyId !== 'string' || (kind !== 'option' && kind !== 'contract')) return null;
    return parsed as SignedReceipt;
  } catch {
    return null;
  }
}

/**
 * Checks `signed` against the published `keys` with Web Crypto's Ed25519: the key is the one whose id the receipt
 * names, and a valid signature counts only when `signed_at` falls in that key's period (`valid_from` included,
 * `valid_until` excluded: at any moment exactly one key signs, so a receipt dated after its key was replaced was
 * signed by a retired key, one that may have leaked), and never when the key is revoked (its `revoked_at` set: every
 * receipt it signed is doubted, since a leaked copy writes any date). Throws only when Web Crypto (or its Ed25519) is
 * missing, which the caller shows as such.
 */
export async function checkReceipt(signed: SignedReceipt, keys: readonly ReceiptKey[]): Promise<ReceiptCheck> {
  const key = keys.find((candidate) => candidate.id === signed.receipt.key_id);
  if (!key) return 'unknown-key';
  let bytes: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>, raw: Uint8Array<ArrayBuffer>;
  try {
    bytes = canonicalBytes(signed.receipt);
    signature = fromBase64(signed.signature);
    raw = fromBase64(key.public_key);
  } catch {
    return 'malformed';
  }
  if (signature.length !== 64) return 'invalid';
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available: a secure (https) connection is needed');
  const publicKey = await subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
  if (!(await subtle.verify({ name: 'Ed25519' }, publicKey, signature, bytes))) return 'invalid';
  // A list cached before keys could be revoked has no `revoked_at`: read as not revoked.
  if (key.revoked_at) return 'revoked-key';
  const signedAt = Date.parse(String(signed.receipt.signed_at));
  if (Number.isNaN(signedAt)) return 'malformed';
  const from = Date.parse(key.valid_from);
  const until = key.valid_until === null ? Infinity : Date.parse(key.valid_until);
  return signedAt >= from && signedAt < until ? 'valid' : 'outside-key-period';
}
