// One-time codes (src/server/domain/totp.ts) against the published test vectors: RFC 4226 Appendix D
// (HOTP) and RFC 6238 Appendix B (TOTP, the SHA-1 rows), RFC 4648, section 10 (base32); then the window
// around now and the sealing of a stored secret.
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  otpauthUri,
  totpAt,
  totpStep,
} from '../../src/server/domain/totp.ts';
import {
  openSecret,
  parseTwoFactorKey,
  recoveryCodeDigest,
  sealSecret,
} from '../../src/server/domain/two-factor-key.ts';

/** The RFC's shared secret: ASCII "12345678901234567890" (20 bytes, for HMAC-SHA1). */
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP (RFC 4226 Appendix D)', () => {
  it('gives the ten published codes for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(RFC_SECRET, counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 Appendix B, SHA-1, 8 digits)', () => {
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  it.each(vectors)('at %i s the code is %s', (seconds, code) => {
    expect(totpAt(RFC_SECRET, totpStep(new Date(seconds * 1000)), 8)).toBe(code);
  });

  it('uses 30-second steps from the Unix epoch, with 6 digits by default', () => {
    expect(totpStep(new Date(59_000))).toBe(1);
    expect(totpStep(new Date(60_000))).toBe(2);
    // The 6-digit code is the last six digits of the 8-digit one (the same truncation, modulo 10^6).
    expect(totpAt(RFC_SECRET, totpStep(new Date(1111111109_000)))).toBe('081804');
  });
});

describe('base32 (RFC 4648, section 10)', () => {
  const vectors: [string, string][] = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ];
  it.each(vectors)('%j encodes as %s (padding left out) and back', (text, encoded) => {
    expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(base32Decode(encoded).toString()).toBe(text);
  });

  it('reads what people type: lower case, spaces, padding; refuses other characters', () => {
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow(/base32/);
  });

  it('writes a 20-byte secret as 32 characters, the RFC secret as authenticator apps know it', () => {
    expect(base32Encode(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });
});

describe('the window around now', () => {
  const now = new Date('2026-11-22T08:00:10Z');
  const step = totpStep(now);

  it('accepts the code of this step and of one step either side, and says which step it was', () => {
    expect(matchingStep(RFC_SECRET, totpAt(RFC_SECRET, step), now)).toBe(step);
    expect(matchingStep(RFC_SECRET, totpAt(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(matchingStep(RFC_SECRET, totpAt(RFC_SECRET, step + 1), now)).toBe(step + 1);
  });

  it('refuses codes two steps away, other digits and anything not six digits', () => {
    for (const code of [totpAt(RFC_SECRET, step - 2), totpAt(RFC_SECRET, step + 2)]) {
      // A code two steps away may equal a code in the window by chance (one in a million): not for these.
      expect(matchingStep(RFC_SECRET, code, now)).toBeNull();
    }
    const right = totpAt(RFC_SECRET, step);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(matchingStep(RFC_SECRET, wrong, now)).toBeNull();
    expect(matchingStep(RFC_SECRET, `${right}0`, now)).toBeNull();
    expect(matchingStep(RFC_SECRET, '', now)).toBeNull();
  });
});

describe('the otpauth URI', () => {
  it('names the issuer and account and carries the algorithm, digits and period', () => {
    expect(otpauthUri('Coinvest', 'demo_user', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toBe(
      'otpauth://totp/Coinvest:demo_user?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Coinvest&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('the stored secret', () => {
  const key = parseTwoFactorKey('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff');

  it('is sealed: the stored text does not contain the secret, and opens for the same user and key only', () => {
    const sealed = sealSecret(key, 7, RFC_SECRET);
    expect(sealed).not.toContain(RFC_SECRET.toString('base64'));
    expect(sealed).not.toContain(base32Encode(RFC_SECRET));
    expect(openSecret(key, 7, sealed)).toEqual(RFC_SECRET);
    expect(() => openSecret(key, 8, sealed)).toThrow();
    expect(() => openSecret(parseTwoFactorKey(Buffer.alloc(32, 1).toString('base64')), 7, sealed)).toThrow();
    // Two seals of one secret differ (a fresh IV each time).
    expect(sealSecret(key, 7, RFC_SECRET)).not.toBe(sealed);
  });

  it('refuses a key that is not 32 bytes of hex or base64', () => {
    for (const typo of ['00112233', 'not a key at all', `${'ab'.repeat(32)}0`])
      expect(() => parseTwoFactorKey(typo)).toThrow(/TWO_FACTOR_KEY/);
  });

  it('keeps recovery codes as digests under the key and the user', () => {
    const digest = recoveryCodeDigest(key, 7, 'ABCDE-FGHIJ');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeDigest(key, 8, 'ABCDE-FGHIJ')).not.toBe(digest);
    expect(recoveryCodeDigest(Buffer.alloc(32), 7, 'ABCDE-FGHIJ')).not.toBe(digest);
  });
});
