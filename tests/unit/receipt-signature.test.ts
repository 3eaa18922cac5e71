// @vitest-environment node
// The canonical bytes receipts are signed over are RFC 8785's for string-only JSON (sorted keys by UTF-16 code
// units, JSON.stringify's escapes, no whitespace), whatever order or spacing the receipt arrived in; a value outside
// the receipt's kinds is refused rather than written some way; a shared text is read as a receipt only when shaped
// like one; and the check tells a changed receipt, an unknown key and a malformed signature apart.
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  checkReceipt,
  fromBase64,
  parseSignedReceipt,
} from '../../src/api-contract/receipt-signature.ts';
import type { ReceiptKey, SignedReceipt } from '../../src/api-contract/receipts.ts';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units at every depth and writes no whitespace', () => {
    // RFC 8785's own ordering example: "\u20ac" (€) sorts before "\ud83d\ude00" (😀) by UTF-16, after it by code point.
    expect(canonicalJson({ '😀': 'b', '€': 'a', b: { z: '1', a: ['x', { d: '', c: 'é' }] }, A: '' })).toBe(
      '{"A":"","b":{"a":["x",{"c":"é","d":""}],"z":"1"},"€":"a","😀":"b"}',
    );
  });

  it('escapes as JSON.stringify does: quotes, backslashes, control characters, lone surrogates', () => {
    expect(canonicalJson({ s: 'a"b\\c\n\u0001\ud800' })).toBe('{"s":"a\\"b\\\\c\\n\\u0001\\ud800"}');
  });

  it('gives the same bytes for the same receipt however it was laid out', () => {
    const laidOut = JSON.parse('{\n  "b" : "2",\n  "a" : [ "1" ]\n}');
    expect(canonicalJson(laidOut)).toBe(canonicalJson({ a: ['1'], b: '2' }));
  });

  it.each([[1], [true], [null], [undefined], [{ a: 1 }], [['x', null]]])('refuses %j', (value) => {
    expect(() => canonicalJson(value)).toThrow(/strings, arrays and objects only/);
  });
});

describe('parseSignedReceipt', () => {
  it.each([
    'not json',
    '"a string"',
    '{"receipt": {"kind": "option"}, "signature": "AA=="}',
    '{"receipt": {"kind": "loan", "key_id": "k"}, "signature": "AA=="}',
    '{"receipt": {"kind": "option", "key_id": "k"}}',
  ])('reads %s as no receipt', (text) => {
    expect(parseSignedReceipt(text)).toBeNull();
  });

  it('reads a receipt and its signature', () => {
    const text = '{"receipt": {"kind": "contract", "key_id": "k"}, "signature": "AA=="}';
    expect(parseSignedReceipt(text)).toEqual(JSON.parse(text));
  });
});

describe('checkReceipt', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const key: ReceiptKey = {
    id: '0123456789abcdef',
    algorithm: 'Ed25519',
    public_key: raw.toString('base64'),
    valid_from: '2026-01-01T00:00:00.000Z',
    valid_until: null,
    revoked_at: null,
  };
  const receipt = {
    kind: 'option',
    key_id: key.id,
    signed_at: '2026-11-22T08:01:07.000Z',
    payout: '18',
    order: { id: '7' },
  };
  const signed = {
    receipt,
    signature: sign(null, Buffer.from(canonicalJson(receipt)), privateKey).toString('base64'),
  } as unknown as SignedReceipt;

  it('is valid as signed, in any key order, and not with one byte changed', async () => {
    expect(await checkReceipt(signed, [key])).toBe('valid');
    const reordered = JSON.parse(`{"signature":"${signed.signature}","receipt":{"order":{"id":"7"},"payout":"18",
      "signed_at":"2026-11-22T08:01:07.000Z","key_id":"${key.id}","kind":"option"}}`);
    expect(await checkReceipt(reordered, [key])).toBe('valid');
    expect(await checkReceipt({ ...signed, receipt: { ...signed.receipt, payout: '19' } }, [key])).toBe('invalid');
  });

  it('names an unknown key, a signature of the wrong length and one not in base64', async () => {
    expect(await checkReceipt(signed, [{ ...key, id: 'ffffffffffffffff' }])).toBe('unknown-key');
    expect(await checkReceipt({ ...signed, signature: 'AAAA' }, [key])).toBe('invalid');
    expect(await checkReceipt({ ...signed, signature: '!!!!' }, [key])).toBe('malformed');
    expect(() => fromBase64('abc')).toThrow();
  });

  it("counts a signature only within its key's period: a retired key's later receipt is refused", async () => {
    // Replaced at the very instant it signed: the key that replaced it was signing then, so this one was retired.
    const retired = { ...key, valid_until: '2026-11-22T08:01:07.000Z' };
    expect(await checkReceipt(signed, [retired])).toBe('outside-key-period');
    expect(await checkReceipt(signed, [{ ...key, valid_until: '2026-11-22T08:01:07.001Z' }])).toBe('valid');
    expect(await checkReceipt(signed, [{ ...key, valid_from: '2026-11-22T08:01:07.000Z' }])).toBe('valid');
    expect(await checkReceipt(signed, [{ ...key, valid_from: '2026-11-22T08:01:07.001Z' }])).toBe('outside-key-period');
    // A changed receipt stays "not valid" whatever its date; a date that is no time is no receipt.
    const undated = { ...signed.receipt, signed_at: 'soon' };
    expect(await checkReceipt({ ...signed, receipt: undated } as SignedReceipt, [key])).toBe('invalid');
    const unreadable = { kind: 'option', key_id: key.id, signed_at: 'soon' };
    const signedUnreadable = {
      receipt: unreadable,
      signature: sign(null, Buffer.from(canonicalJson(unreadable)), privateKey).toString('base64'),
    } as unknown as SignedReceipt;
    expect(await checkReceipt(signedUnreadable, [key])).toBe('malformed');
  });

  it('refuses every receipt of a revoked key, whatever its date; a list cached before revocation existed reads as before', async () => {
    const revoked = { ...key, revoked_at: '2026-12-01T00:00:00.000Z' };
    // Signed long before the revocation, inside the key's period: still doubted (a leaked copy writes any date).
    expect(await checkReceipt(signed, [revoked])).toBe('revoked-key');
    // A changed receipt is "not valid" first.
    expect(await checkReceipt({ ...signed, receipt: { ...signed.receipt, payout: '19' } }, [revoked])).toBe('invalid');
    const { revoked_at: _, ...cachedBefore } = key;
    expect(await checkReceipt(signed, [cachedBefore as ReceiptKey])).toBe('valid');
  });
});
