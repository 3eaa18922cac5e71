// The app lock's passkey, checked on the device: an ECDSA signature's DER form read as Web Crypto's r||s, and an
// assertion checked against a P-256 key made here by hand: the challenge, the origin, the relying party, the
// user-verified flag and the signature must all hold.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertionValid, derToRaw, toBase64Url, type AssertionCheck } from '../../src/lib/app-lock-passkey.ts';

/** r||s as DER, the way authenticators send it: each INTEGER without leading zeros, one 0x00 before a high bit. */
function rawToDer(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    const body = trimmed[0]! & 0x80 ? [0, ...trimmed] : [...trimmed];
    return [0x02, body.length, ...body];
  };
  const body = [...integer(raw.subarray(0, 32)), ...integer(raw.subarray(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}

const hex = (text: string) => Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16));

describe('DER to r||s', () => {
  it('drops the sign byte, left-pads a short integer and refuses what is not a signature', () => {
    const r = hex('80'.padEnd(64, '1'));
    const s = hex('00007f'.padEnd(64, '2'));
    const der = rawToDer(new Uint8Array([...r, ...s]));
    // r kept its 0x00 sign byte (33 bytes); s lost two leading zeros (30 bytes).
    expect([...der.subarray(0, 5)]).toEqual([0x30, der.length - 2, 0x02, 33, 0x00]);
    expect(derToRaw(der)).toEqual(new Uint8Array([...r, ...s]));
    expect(() => derToRaw(der.subarray(0, der.length - 1))).toThrow();
    expect(() => derToRaw(new Uint8Array([0x31, ...der.subarray(1)]))).toThrow();
    expect(() => derToRaw(new Uint8Array([...der, 0]))).toThrow();
  });
});

describe('an assertion', () => {
  let keys: CryptoKeyPair;
  let check: AssertionCheck;
  beforeAll(async () => {
    keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    check = {
      publicKey: new Uint8Array(await crypto.subtle.exportKey('spki', keys.publicKey)),
      challenge: crypto.getRandomValues(new Uint8Array(32)),
      origin: 'https://app.example',
      rpId: 'app.example',
    };
  });

  /** What an authenticator would answer, with any part changed by `change`. */
  async function answer(
    change: { flags?: number; rpId?: string; client?: Record<string, unknown>; signWith?: CryptoKey } = {},
  ) {
    const rpHash = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(change.rpId ?? 'app.example')),
    );
    const authenticatorData = new Uint8Array([...rpHash, change.flags ?? 0x05, 0, 0, 0, 9]);
    const clientDataJSON = new TextEncoder().encode(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: toBase64Url(check.challenge),
        origin: 'https://app.example',
        crossOrigin: false,
        ...change.client,
      }),
    );
    const clientHash = new Uint8Array(await crypto.subtle.digest('SHA-256', clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        change.signWith ?? keys.privateKey,
        new Uint8Array([...authenticatorData, ...clientHash]),
      ),
    );
    return { authenticatorData, clientDataJSON, signature: rawToDer(raw) };
  }

  it('opens the lock when everything holds', async () => {
    expect(await assertionValid(check, await answer())).toBe(true);
  });

  it('does not when the challenge, origin, type, relying party, UV flag or signature is wrong', async () => {
    const other = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
    const wrong = [
      await answer({ client: { challenge: toBase64Url(new Uint8Array(32)) } }),
      await answer({ client: { origin: 'https://evil.example' } }),
      await answer({ client: { type: 'webauthn.create' } }),
      await answer({ rpId: 'evil.example' }),
      await answer({ flags: 0x01 }), // present, not verified
      await answer({ flags: 0x04 }), // verified, not present
      await answer({ signWith: other.privateKey }),
    ];
    for (const one of wrong) expect(await assertionValid(check, one)).toBe(false);
    const good = await answer();
    const flipped = good.signature.slice();
    flipped[flipped.length - 1]! ^= 1;
    expect(await assertionValid(check, { ...good, signature: flipped })).toBe(false);
    expect(await assertionValid(check, { ...good, signature: new Uint8Array([1, 2, 3]) })).toBe(false);
  });
});
