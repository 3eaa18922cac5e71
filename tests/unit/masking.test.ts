// The masks the referral list applies on the server before a friend's name or contact leaves it, and the payment
// password reset applies to where its code goes: enough to recognise one's own, never enough to identify another.
import { describe, expect, it } from 'vitest';
import { maskContact } from '../../src/api-contract/masking.ts';
import { maskUsername } from '../../src/api-contract/activities.ts';

describe('maskContact', () => {
  it('keeps the first three and last three characters of a phone number', () => {
    expect(maskContact('0812345678')).toBe('081****678');
    expect(maskContact('+66812345678')).toBe('+66****678');
  });
  it('keeps the first letter and the domain of an e-mail', () => {
    expect(maskContact('holder.one@example.com')).toBe('h***@example.com');
  });
  it('shows no more than two characters of a short one', () => {
    expect(maskContact('123456')).toBe('12****');
  });
  it('never answers the whole of what it masks', () => {
    for (const contact of ['0812345678', '+66812345678', 'customer2@mail.com', 'abcdef'])
      expect(maskContact(contact)).not.toBe(contact);
  });
});

describe('maskUsername on a friend of the referral list', () => {
  it('keeps the first character(s) and the last', () => {
    expect(maskUsername('malee')).toBe('ma***e');
    expect(maskUsername('somchai2026')).toBe('so***6');
  });
});
